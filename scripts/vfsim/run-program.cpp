// Runs pto-isa's VfSim on one vector function written as text, and prints its cycles (vfEndCycle): the reference
// the "against VfSim's own cycles" tests of test/timing/vf-sim.test.ts hold the timing model to.
//
// Input (standard input), one statement a line:
//   dtype fp16         the element type of the values named after it (default fp32; VfSim infers each op's form)
//   loop N ... end     a loop of N iterations (as pto-isa's recorded vector functions give them)
//   OP DSTS SRCS       an instruction: comma lists of values, '-' for none; ub* are UB addresses, others registers
// e.g.  loop 16 / VLDS r1 ub0 / VLDS r2 ub1 / VADD r3 r1,r2 / VSTS ub2 r3 / end   prints 70.
//
// Build against VfSim's library as scripts/vfsim-cycles.py builds it (pto-isa 3186c381, in its work directory):
//   g++ -std=c++20 -I SRC/include scripts/vfsim/run-program.cpp BUILD/libvfsim.a -o run-program
//   ./run-program < program.txt
// Written for this project (not pto-isa's code).
#include "pto/costmodel/a5/VfSim/ParamDB.h"
#include "pto/costmodel/a5/VfSim/SimulatorRunner.h"
#include "pto/costmodel/a5/VfSim/VfInfo.h"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> Names(const std::string &list)
{
    std::vector<std::string> out;
    if (list == "-")
        return out;
    std::stringstream in(list);
    std::string name;
    while (std::getline(in, name, ','))
        out.push_back(name);
    return out;
}

} // namespace

int main()
{
    vfsim::ParamDB db;
    vfsim::VfInfo vf;
    std::string dtype = "fp32";
    // Open loops, innermost last; a loop's body is filled, then the loop is added to its parent when it ends.
    std::vector<vfsim::ProgramLoopNode> open;
    auto body = [&]() -> std::vector<vfsim::ProgramNode> & { return open.empty() ? vf.body : open.back().body; };
    int loops = 0;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::stringstream words(line);
        std::string word;
        if (!(words >> word))
            continue;
        if (word == "dtype") {
            words >> dtype;
            vf.defaultDtype = dtype;
        } else if (word == "loop") {
            vfsim::ProgramLoopNode loop;
            words >> loop.iters;
            loop.unroll = "1";
            loop.name = "loop" + std::to_string(loops++);
            open.push_back(loop);
        } else if (word == "end") {
            vfsim::ProgramLoopNode loop = open.back();
            open.pop_back();
            body().push_back(vfsim::ProgramNode::makeLoop(loop));
        } else {
            vfsim::ProgramInstNode inst;
            inst.op = word;
            std::string dsts, srcs;
            words >> dsts >> srcs;
            inst.dst = Names(dsts);
            inst.src = Names(srcs);
            for (const auto *names : {&inst.dst, &inst.src})
                for (const auto &name : *names) {
                    vfsim::ValueInfo value;
                    value.valueId = name;
                    value.storage = name.rfind("ub", 0) == 0 ? vfsim::ValueStorageKind::UB : vfsim::ValueStorageKind::Register;
                    value.dtype = dtype;
                    vf.values.emplace(name, value);
                }
            body().push_back(vfsim::ProgramNode::makeInst(inst));
        }
    }
    std::cout << vfsim::runVfInfo(vf, db).vfEndCycle << "\n";
    return 0;
}
