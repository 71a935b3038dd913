/**
 * Lane semantics of PTOAS's VPTO vector micro-ops: pure functions over registers, no parsing, no memory model.
 * The op definitions (src/ops) call them from their `execute`; each function traps through the `fail` it is given
 * ("... is not implemented yet" for cases no source settles).
 *
 * Registers (core.ts):
 * - `VReg` = Uint8Array(256): little-endian lanes of the op's ElemType (64 x b32, 128 x b16, 256 x b8, 32 x b64);
 * - `Mask` = Uint8Array(32): 256 bits, bit i (byte i >> 3, bit i & 7) governs byte i of a register; a lane of a
 *   `size`-byte element is governed by bit lane * size, and masks made here set only that bit;
 * - helpers: newVReg, newMask, laneCount, laneActive, maskBit, vregOf(elem, values), lanes(v, elem).
 *
 * Inactive lanes of a computed register are zero (core.ts mapLanes says why).
 *
 * Families:
 * - predicate.ts: plt(g, remaining) -> { mask, remaining }, pltm(g, loop, bound), pattern(g, 'PAT_ALL' | 'PAT_ALLF' |
 *   'PAT_VL<n>', fail) for pset_b* and pge_b*, pand/por/pxor(a, b, governing), pnot(a, governing), psel(a, b, sel),
 *   ppack/punpack(src, 'LOWER' | 'HIGHER');
 * - lanewise.ts: binary(name, elem, a, b, mask, fail) for BINARY_OPS (vadd vsub vmul vdiv vmax vmin vand vor vxor
 *   vshl vshr), vecScalar(name, elem, a, scalar, mask, fail) for VEC_SCALAR_OPS (vadds vmuls vmaxs vmins vshls
 *   vshrs), unary(name, elem, a, mask, fail) (vabs vneg vexp vln vsqrt vrelu vnot), vlrelu, vprelu,
 *   carry('vaddc' | 'vsubc' | 'vaddcs' | 'vsubcs', elem, a, b, mask, fail, carryIn?) -> { result, carry };
 * - load-store.ts: loadFootprint(dist), vlds(dist, window, fail) for NORM, BRC_B8/16/32, BRC_BLK, US/DS_B8/16,
 *   UNPK_B8/16/32; vldsx2(DINTLV_Bw, window) -> { low, high }; vsts(dist, v, mask) -> { bytes, written } for NORM_Bw,
 *   1PT_Bw, PK_B16/32/64, PK4_B32; vstsx2(INTLV_Bw, low, high) -> 512 bytes. The window starts at the effective
 *   address; bounds, alignment and post-update are the caller's;
 * - compare-select.ts: vcmp(mode, elem, a, b, seed, fail) and vcmps(mode, elem, a, scalar, seed, fail) -> Mask
 *   (eq ne lt le gt ge), vsel(size, a, b, mask), vselr(size, src, idx, fail);
 * - conversion.ts: vcvt(from, to, a, mask, { rnd?, sat?, part? }, fail) with the attributes as written (rnd R A F C
 *   Z O, sat SAT/NOSAT, part EVEN/ODD/P0-P3), vtrc(elem, a, mask, rnd, fail), vcvtRounding(rnd, fail);
 * - reduction.ts: vcadd(elem, a, mask, fail) (result of vcaddResultType(elem): i8 -> i16, u8 -> u16, i16 -> i32,
 *   u16 -> u32), vcmaxmin('vcmax' | 'vcmin', elem, a, mask, fail), vcgroup('vcgadd' | 'vcgmax' | 'vcgmin', elem, a,
 *   mask, fail), vcpadd(elem, a, mask, fail);
 * - rearrange.ts: vbr(elem, scalar), vdupScalar(elem, scalar, mask), vdupLane(size, src, 'LOWEST' | 'HIGHEST', mask,
 *   fail), vci(elem, base, 'ASC' | 'DESC', fail), vintlv/vdintlv(size, lhs, rhs) -> { low, high }, vpack(size, src,
 *   'LOWER' | 'HIGHER', fail) (size = the source lane's bytes), vunpack('vsunpack' | 'vzunpack', narrowElem, src,
 *   part 0 | 1, fail), vsqz(size, src, mask), vusqz(elem, mask, fail).
 */
export * from './core';
export * from './predicate';
export * from './lanewise';
export * from './load-store';
export * from './compare-select';
export * from './conversion';
export * from './reduction';
export * from './rearrange';
export * from './fused';
