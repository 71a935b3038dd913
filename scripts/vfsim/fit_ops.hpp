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
// The ops pto-isa's A5 curves lack (scripts/vfsim-cycles.py NO_CURVE_CASES): reductions, row broadcasts, fills.
#include <pto/npu/a5/TRowReduce.hpp>
#include <pto/npu/a5/TRowExpandAdd.hpp>
#include <pto/npu/a5/TRowExpandSub.hpp>
#include <pto/npu/a5/TRowExpandMul.hpp>
#include <pto/npu/a5/TRowExpandDiv.hpp>
#include <pto/npu/a5/TRowExpandMax.hpp>
#include <pto/npu/a5/TRowExpandMin.hpp>
#include <pto/npu/a5/TColSum.hpp>
#include <pto/npu/a5/TColMax.hpp>
#include <pto/npu/a5/TColMin.hpp>
#include <pto/npu/a5/TExpandS.hpp>
#include <pto/npu/a5/TMaxs.hpp>
#include <pto/npu/a5/TColExpandAdd.hpp>
#include <pto/npu/a5/TColExpandSub.hpp>
#include <pto/npu/a5/TColExpandMul.hpp>
#include <pto/npu/a5/TColExpandDiv.hpp>
#include <pto/npu/a5/TColExpandMax.hpp>
#include <pto/npu/a5/TColExpandMin.hpp>

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

// A row reduction into a column-major Rows x 1 tile (softmax's layout); the scratch tile is unused on A5.
#define VFSIM_FIT_ROW_REDUCE(OP)                                                                        \
    template <typename T, int Rows, int Cols, int ValidRows, int ValidCols>                             \
    void Run##OP()                                                                                      \
    {                                                                                                   \
        VecTile<T, Rows, Cols, ValidRows, ValidCols> src, tmp;                                          \
        pto::Tile<pto::TileType::Vec, T, Rows, 1, pto::BLayout::ColMajor, ValidRows, 1> dst;            \
        TASSIGN(src, 0x0);                                                                              \
        TASSIGN(tmp, 0x10000);                                                                          \
        TASSIGN(dst, 0x20000);                                                                          \
        ::pto::mocker::ResetTrace();                                                                    \
        OP(dst, src, tmp);                                                                              \
    }
// A row broadcast: src1 holds one value a row, column-major Rows x 1 (as a row reduction leaves it).
#define VFSIM_FIT_ROW_EXPAND(OP)                                                                        \
    template <typename T, int Rows, int Cols, int ValidRows, int ValidCols>                             \
    void Run##OP()                                                                                      \
    {                                                                                                   \
        VecTile<T, Rows, Cols, ValidRows, ValidCols> dst, src0;                                         \
        pto::Tile<pto::TileType::Vec, T, Rows, 1, pto::BLayout::ColMajor, ValidRows, 1> src1;           \
        TASSIGN(src0, 0x0);                                                                             \
        TASSIGN(src1, 0x10000);                                                                         \
        TASSIGN(dst, 0x20000);                                                                          \
        ::pto::mocker::ResetTrace();                                                                    \
        OP(dst, src0, src1);                                                                            \
    }
// A column reduction into a 1 x Cols row (TCOLSUM's two-operand form: not the binary-tree one).
#define VFSIM_FIT_COL_REDUCE(OP)                                                                        \
    template <typename T, int Rows, int Cols, int ValidRows, int ValidCols>                             \
    void Run##OP()                                                                                      \
    {                                                                                                   \
        VecTile<T, Rows, Cols, ValidRows, ValidCols> src;                                               \
        VecTile<T, 1, Cols, 1, ValidCols> dst;                                                          \
        TASSIGN(src, 0x0);                                                                              \
        TASSIGN(dst, 0x20000);                                                                          \
        ::pto::mocker::ResetTrace();                                                                    \
        OP(dst, src);                                                                                   \
    }
// A column broadcast: src1 holds one row, 1 x Cols (as a column reduction leaves it).
#define VFSIM_FIT_COL_EXPAND(OP)                                                                        \
    template <typename T, int Rows, int Cols, int ValidRows, int ValidCols>                             \
    void Run##OP()                                                                                      \
    {                                                                                                   \
        VecTile<T, Rows, Cols, ValidRows, ValidCols> dst, src0;                                         \
        VecTile<T, 1, Cols, 1, ValidCols> src1;                                                         \
        TASSIGN(src0, 0x0);                                                                             \
        TASSIGN(src1, 0x10000);                                                                         \
        TASSIGN(dst, 0x20000);                                                                          \
        ::pto::mocker::ResetTrace();                                                                    \
        OP(dst, src0, src1);                                                                            \
    }
#define VFSIM_FIT_FILL(OP)                                                                              \
    template <typename T, int Rows, int Cols, int ValidRows, int ValidCols>                             \
    void Run##OP()                                                                                      \
    {                                                                                                   \
        VecTile<T, Rows, Cols, ValidRows, ValidCols> dst;                                               \
        TASSIGN(dst, 0x20000);                                                                          \
        ::pto::mocker::ResetTrace();                                                                    \
        OP(dst, static_cast<T>(2));                                                                     \
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
VFSIM_FIT_SCALAR(TADDS)
VFSIM_FIT_SCALAR(TSUBS)
VFSIM_FIT_SCALAR(TMULS)
VFSIM_FIT_SCALAR(TMAXS)
VFSIM_FIT_ROW_REDUCE(TROWSUM)
VFSIM_FIT_ROW_REDUCE(TROWMAX)
VFSIM_FIT_ROW_REDUCE(TROWMIN)
VFSIM_FIT_ROW_EXPAND(TROWEXPANDADD)
VFSIM_FIT_ROW_EXPAND(TROWEXPANDSUB)
VFSIM_FIT_ROW_EXPAND(TROWEXPANDMUL)
VFSIM_FIT_ROW_EXPAND(TROWEXPANDDIV)
VFSIM_FIT_ROW_EXPAND(TROWEXPANDMAX)
VFSIM_FIT_ROW_EXPAND(TROWEXPANDMIN)
VFSIM_FIT_COL_REDUCE(TCOLSUM)
VFSIM_FIT_COL_REDUCE(TCOLMAX)
VFSIM_FIT_COL_REDUCE(TCOLMIN)
VFSIM_FIT_FILL(TEXPANDS)
VFSIM_FIT_COL_EXPAND(TCOLEXPANDADD)
VFSIM_FIT_COL_EXPAND(TCOLEXPANDSUB)
VFSIM_FIT_COL_EXPAND(TCOLEXPANDMUL)
VFSIM_FIT_COL_EXPAND(TCOLEXPANDDIV)
VFSIM_FIT_COL_EXPAND(TCOLEXPANDMAX)
VFSIM_FIT_COL_EXPAND(TCOLEXPANDMIN)

} // namespace vfsim_fit
