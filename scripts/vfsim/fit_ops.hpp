// Runners for the tile ops pto-isa profiled on A5 hardware (tests/costmodel/st_a5_fit, our
// test/fixtures/costmodel/single-op.json): scripts/vfsim-cycles.py writes a test per profiled shape that calls
// one of these, so the mocker records the op's vector function for VfSim as the st_a5 tests do.
// Tiles have a static valid region, so an op picks its default vector-function form as it would in a kernel.
// Written for this project (not pto-isa's code).
#pragma once

#include <pto/pto-inst.hpp>
// The A5 cost-model build includes only TAdd.hpp (and what it includes) of the A5 tile ops
// (common/pto_instr_impl.hpp); these give the _IMPL functions the other runners reach through pto-inst.hpp.
// TRSQRT is left out: npu/a5/TRsqrt.hpp uses MODE_MERGING, which the A5 mock does not define.
#include <pto/npu/a5/TDivS.hpp>
#include <pto/npu/a5/TUnaryOp.hpp>

namespace vfsim_fit {

template <typename T, int Rows, int Cols, int ValidRows, int ValidCols>
using VecTile = pto::Tile<pto::TileType::Vec, T, Rows, Cols, pto::BLayout::RowMajor, ValidRows, ValidCols>;

// Each operand gets its own 64 KiB of UB, which holds the largest profiled tile (26240 bytes).
#define VFSIM_FIT_BINARY(OP)                                                 \
    template <typename T, int Rows, int Cols, int ValidRows, int ValidCols>  \
    void Run##OP()                                                           \
    {                                                                        \
        VecTile<T, Rows, Cols, ValidRows, ValidCols> dst, src0, src1;        \
        TASSIGN(src0, 0x0);                                                  \
        TASSIGN(src1, 0x10000);                                              \
        TASSIGN(dst, 0x20000);                                               \
        ::pto::mocker::ResetTrace();                                         \
        OP(dst, src0, src1);                                                 \
    }
#define VFSIM_FIT_UNARY(OP)                                                  \
    template <typename T, int Rows, int Cols, int ValidRows, int ValidCols>  \
    void Run##OP()                                                           \
    {                                                                        \
        VecTile<T, Rows, Cols, ValidRows, ValidCols> dst, src;               \
        TASSIGN(src, 0x0);                                                   \
        TASSIGN(dst, 0x20000);                                               \
        ::pto::mocker::ResetTrace();                                         \
        OP(dst, src);                                                        \
    }
// The scalar's value does not change the recorded body.
#define VFSIM_FIT_SCALAR(OP)                                                 \
    template <typename T, int Rows, int Cols, int ValidRows, int ValidCols>  \
    void Run##OP()                                                           \
    {                                                                        \
        VecTile<T, Rows, Cols, ValidRows, ValidCols> dst, src;               \
        TASSIGN(src, 0x0);                                                   \
        TASSIGN(dst, 0x20000);                                               \
        ::pto::mocker::ResetTrace();                                         \
        OP(dst, src, static_cast<T>(2));                                     \
    }

VFSIM_FIT_BINARY(TADD)
VFSIM_FIT_BINARY(TSUB)
VFSIM_FIT_BINARY(TMUL)
VFSIM_FIT_UNARY(TEXP)
VFSIM_FIT_UNARY(TSQRT)
VFSIM_FIT_UNARY(TRECIP)
VFSIM_FIT_UNARY(TNEG)
VFSIM_FIT_SCALAR(TMINS)
VFSIM_FIT_SCALAR(TDIVS)

} // namespace vfsim_fit
