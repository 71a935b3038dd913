// Linked into each of pto-isa's A5 VfSim tile-op tests (tests/costmodel/st_a5) by scripts/vfsim-cycles.py.
// Those tests check the vector-function body the cost model recorded but never print its cycles; after each
// test this prints, as one line "[VFSIM] {json}", what the mocker recorded for the test's last PTO instruction:
//   op           the instruction's name (TADD, ...)
//   totalCycles  GetLastPtoInstrCycles(): VfSim's cycles plus any cycles the instruction's other calls add
//   vfsimCycles  PredictVfCycles over the recorded vector functions, alone
//   tableCycles  the same bodies costed with the per-op table VfSim falls back to when it cannot simulate a body
//                (vec_cycle_generated.hpp): equal to vfsimCycles is a hint that VfSim did not run
//   cceCalls     the instruction's other recorded calls and their cycles
//   vf           each vector function's tree: a loop is {"loop": count, "body": [...]}, an instruction its name
//   insts        every instruction in order with the form VfSim costs it by, its operand counts and names
//   simCycles    VfSim's simulator run on the same trees where PredictVfCycles will not run it (it falls back to
//                the table on an instruction without a source register, and pto-isa's vbr has none: its source is
//                a scalar): lowered as VfSimCostModel.cpp lowers them, but keeping such an instruction (as it keeps
//                vdup) and leaving a vbr's destination type to the register's other uses (the mock sees vbr write
//                the accumulator through a cast to the padding's unsigned type); -1 where a form is missing
// Written for this project (not pto-isa's code); built with pto-isa's include directory on the path.
#define GTEST_STANDIN_NO_MAIN
#include <gtest/gtest.h>
#include <pto/pto-inst.hpp>
#include <pto/costmodel/trace.hpp>
#include "pto/costmodel/a5/VfSim/ParamDB.h"
#include "pto/costmodel/a5/VfSim/SimulatorRunner.h"
#include "pto/costmodel/a5/VfSim/VfInfo.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace vf = ::pto::mocker::vf;

// Names here are C identifiers and test names, so quoting needs no escapes beyond these two.
std::string Quoted(const std::string &text)
{
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

void WriteNodes(std::ostream &os, const std::vector<vf::VfNode> &nodes)
{
    os << "[";
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const vf::VfNode &node = nodes[i];
        os << (i ? "," : "");
        if (vf::IsLoop(node)) {
            os << "{\"loop\":" << vf::AsLoop(node).count << ",\"body\":";
            WriteNodes(os, vf::AsLoop(node).body);
            os << "}";
        } else if (vf::IsInst(node)) {
            os << Quoted(vf::AsInst(node).opName);
        } else {
            os << "{\"membar\":" << Quoted(vf::AsMemBar(node).name) << "}";
        }
    }
    os << "]";
}

// The form VfSim looks an instruction up by in params/isa.csv, inferred as VfSim's canonicalisation does
// (VfInfo.cpp inferInstForm): the first destination's dtype, else the first source's, "src_to_dst" when both
// are known and differ, fp32 when neither is. A form isa.csv lacks makes PredictVfCycles fall back to the table.
std::string Dtype(const std::vector<vf::MemInfo> &operands)
{
    if (operands.empty() || operands[0].dtype == "unknown" || operands[0].dtype == "bool")
        return "";
    return operands[0].dtype;
}

std::string Compact(const std::string &dtype)
{
    if (dtype == "fp32")
        return "f32";
    if (dtype == "fp16")
        return "f16";
    if (dtype == "int32")
        return "s32";
    if (dtype == "uint32")
        return "u32";
    return dtype;
}

void WriteInsts(std::ostream &os, const std::vector<vf::VfNode> &nodes, bool &first)
{
    for (const vf::VfNode &node : nodes) {
        if (vf::IsLoop(node)) {
            WriteInsts(os, vf::AsLoop(node).body, first);
            continue;
        }
        if (!vf::IsInst(node))
            continue;
        const vf::VfInst &inst = vf::AsInst(node);
        const std::string src = Dtype(inst.src), dst = Dtype(inst.dst);
        const std::string form = !src.empty() && !dst.empty() && src != dst ? Compact(src) + "_to_" + Compact(dst)
                                 : !dst.empty()                              ? dst
                                 : !src.empty()                              ? src
                                                                             : "fp32";
        os << (first ? "" : ",") << "{\"op\":" << Quoted(inst.opName) << ",\"form\":" << Quoted(form)
           << ",\"dst\":" << inst.dst.size() << ",\"src\":" << inst.src.size() << ",\"names\":[";
        bool firstName = true;
        for (const auto *operands : {&inst.dst, &inst.src})
            for (const vf::MemInfo &mem : *operands) {
                os << (firstName ? "" : ",") << Quoted(mem.name);
                firstName = false;
            }
        os << "]}";
        first = false;
    }
}

uint64_t TableCycles(const std::vector<vf::VfNode> &nodes, uint64_t times)
{
    uint64_t total = 0;
    for (const vf::VfNode &node : nodes) {
        if (vf::IsLoop(node))
            total += TableCycles(vf::AsLoop(node).body, times * vf::AsLoop(node).count);
        else if (vf::IsInst(node))
            total += vf::FallbackVecCycle(vf::AsInst(node).opName) * times;
        else
            total += vf::kMemBarPenaltyPlaceholder * times;
    }
    return total;
}

// The trees as VfSim's program nodes (see simCycles above); false on a memory barrier, which VfSim does not take.
bool Lower(const std::vector<vf::VfNode> &nodes, vfsim::VfInfo &program, std::vector<vfsim::ProgramNode> &out,
           int &loops)
{
    for (const vf::VfNode &node : nodes) {
        if (vf::IsLoop(node)) {
            vfsim::ProgramLoopNode loop;
            loop.iters = std::to_string(vf::AsLoop(node).count);
            loop.unroll = "1";
            loop.name = "loop" + std::to_string(loops++);
            if (!Lower(vf::AsLoop(node).body, program, loop.body, loops))
                return false;
            out.push_back(vfsim::ProgramNode::makeLoop(std::move(loop)));
            continue;
        }
        if (!vf::IsInst(node))
            return false;
        const vf::VfInst &inst = vf::AsInst(node);
        vfsim::ProgramInstNode lowered;
        for (char c : inst.opName)
            lowered.op += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        auto add = [&](const vf::MemInfo &mem, bool typed) {
            vfsim::ValueInfo value;
            value.valueId = mem.name;
            value.storage = mem.location == vf::MemLocation::PhyRegister ? vfsim::ValueStorageKind::Register
                                                                          : vfsim::ValueStorageKind::UB;
            value.dtype = typed ? Dtype({mem}) : "";
            auto [it, inserted] = program.values.emplace(mem.name, value);
            if (!inserted && it->second.dtype.empty())
                it->second.dtype = value.dtype;
            return mem.name;
        };
        for (const vf::MemInfo &mem : inst.dst)
            lowered.dst.push_back(add(mem, inst.opName != "vbr"));
        for (const vf::MemInfo &mem : inst.src)
            lowered.src.push_back(add(mem, true));
        out.push_back(vfsim::ProgramNode::makeInst(std::move(lowered)));
    }
    return true;
}

bool Supported(const std::vector<vfsim::ProgramNode> &nodes, const vfsim::ParamDB &db)
{
    for (const auto &node : nodes) {
        if (node.kind == vfsim::ProgramNode::Kind::Loop ? !Supported(node.loop->body, db)
                                                        : !db.hasInst(node.inst.op, node.inst.form))
            return false;
    }
    return true;
}

int64_t SimCycles(const std::vector<vf::VfInfo> &infos)
{
    static const vfsim::ParamDB db;
    int64_t total = 0;
    for (const vf::VfInfo &info : infos) {
        vfsim::VfInfo program;
        program.defaultDtype = "fp32";
        int loops = 0;
        if (!Lower(info.tree, program, program.body, loops))
            return -1;
        vfsim::VfInfo canonical = program;
        vfsim::canonicalizeVfInfo(canonical);
        if (!Supported(canonical.body, db))
            return -1;
        total += std::max<int64_t>(0, vfsim::runVfInfo(program, db).vfEndCycle);
    }
    return total;
}

void Report(const std::string &full, bool failed)
{
    const auto &trace = ::pto::mocker::GetTrace();
    std::ostringstream os;
    os << "{\"test\":" << Quoted(full) << ",\"failed\":" << (failed ? "true" : "false");
    if (!trace.executed_pto.empty()) {
        const auto &record = trace.executed_pto.back();
        uint64_t table = 0;
        for (const vf::VfInfo &info : record.vf_infos)
            table += TableCycles(info.tree, 1);
        os << ",\"op\":" << Quoted(record.name) << ",\"totalCycles\":" << ::pto::mocker::GetLastPtoInstrCycles()
           << ",\"vfsimCycles\":" << vf::PredictVfCycles(record.vf_infos) << ",\"tableCycles\":" << table
           << ",\"simCycles\":" << SimCycles(record.vf_infos)
           << ",\"cceCalls\":[";
        for (std::size_t i = 0; i < record.cce_calls.size(); ++i)
            os << (i ? "," : "") << "{\"name\":" << Quoted(record.cce_calls[i].name)
               << ",\"cycles\":" << record.cce_calls[i].cycles << "}";
        os << "],\"vf\":[";
        for (std::size_t i = 0; i < record.vf_infos.size(); ++i) {
            os << (i ? "," : "");
            WriteNodes(os, record.vf_infos[i].tree);
        }
        os << "],\"insts\":[";
        bool first = true;
        for (const vf::VfInfo &info : record.vf_infos)
            WriteInsts(os, info.tree, first);
        os << "]";
    }
    std::cout << "[VFSIM] " << os.str() << "}" << std::endl;
}

[[maybe_unused]] const bool installed = (::gtest_standin::AfterEach() = &Report, true);

} // namespace
