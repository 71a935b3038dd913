/** micro/semantics/load-store.ts: distribution modes on numbered bytes, expected layouts written out by hand. */
import { lanes, vregOf } from '../../../src/micro/semantics/core';
import { loadFootprint, vlds, vldsx2, vsts, vstsx2 } from '../../../src/micro/semantics/load-store';
import { pattern, plt } from '../../../src/micro/semantics/predicate';

const fail = (message: string): never => {
  throw new Error(message);
};
/** UB bytes 0, 1, 2, ... (mod 256). */
const ramp = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => i & 0xff);
const u16 = (lo: number, hi: number) => lo | (hi << 8);

describe('vlds', () => {
  it('NORM copies 256 bytes', () => {
    expect(Array.from(vlds('NORM', ramp(512), fail))).toEqual(Array.from(ramp(256)));
    expect(loadFootprint('NORM', fail)).toBe(256);
  });
  it('BRC_B32 and BRC_B16 repeat the first element; BRC_BLK the first 32-byte block', () => {
    const b32 = lanes(vlds('BRC_B32', ramp(4), fail), 'u32');
    expect(new Set(b32)).toEqual(new Set([0x03020100]));
    expect(lanes(vlds('BRC_B16', ramp(2), fail), 'u16')[127]).toBe(0x0100);
    const blk = vlds('BRC_BLK', ramp(32), fail);
    expect([blk[0], blk[31], blk[32], blk[255]]).toEqual([0, 31, 0, 31]);
    expect(loadFootprint('BRC_B16', fail)).toBe(2);
    expect(loadFootprint('BRC_BLK', fail)).toBe(32);
  });
  it('US_B16 doubles each element, DS_B16 keeps every other one', () => {
    const us = lanes(vlds('US_B16', ramp(128), fail), 'u16');
    expect(us.slice(0, 4)).toEqual([u16(0, 1), u16(0, 1), u16(2, 3), u16(2, 3)]);
    expect(us[127]).toBe(u16(126, 127));
    const ds = lanes(vlds('DS_B8', ramp(512), fail), 'u8');
    expect(ds.slice(0, 3)).toEqual([0, 2, 4]);
    expect(ds[128]).toBe(0); // byte 256 of the window
    expect(loadFootprint('DS_B16', fail)).toBe(512);
  });
  it('UNPK_B16 puts element i in the low half of 32-bit lane i', () => {
    const r = lanes(vlds('UNPK_B16', ramp(128), fail), 'u32');
    expect(r.slice(0, 2)).toEqual([u16(0, 1), u16(2, 3)]);
    expect(r[63]).toBe(u16(126, 127));
  });
  it('traps on the modes not implemented', () => {
    expect(() => vlds('SPLT4CHN', ramp(256), fail)).toThrow('vlds distribution SPLT4CHN is not implemented yet');
    expect(() => vlds('US_B32', ramp(256), fail)).toThrow('not implemented yet');
  });
});

describe('vldsx2 / vstsx2', () => {
  it('DINTLV_B32 splits even and odd elements; INTLV_B32 puts them back', () => {
    const { low, high } = vldsx2('DINTLV_B32', ramp(512), fail);
    expect(lanes(low, 'u32').slice(0, 2)).toEqual([0x03020100, 0x0b0a0908]);
    expect(lanes(high, 'u32')[0]).toBe(0x07060504);
    expect(Array.from(vstsx2('INTLV_B32', low, high, fail))).toEqual(Array.from(ramp(512)));
  });
  it('INTLV_B8 alternates bytes', () => {
    const out = vstsx2('INTLV_B8', vregOf('u8', [1, 2]), vregOf('u8', [9, 8]), fail);
    expect(Array.from(out.slice(0, 4))).toEqual([1, 9, 2, 8]);
  });
});

describe('vsts', () => {
  it('NORM_B32 writes the active lanes only', () => {
    const img = vsts('NORM_B32', vregOf('u32', [0x04030201, 0x08070605]), plt('b32', 1).mask, fail);
    expect(Array.from(img.bytes.slice(0, 4))).toEqual([1, 2, 3, 4]);
    expect(Array.from(img.written.slice(0, 8))).toEqual([1, 1, 1, 1, 0, 0, 0, 0]);
  });
  it('1PT_B16 writes lane 0 whatever the mask', () => {
    const img = vsts('1PT_B16', vregOf('u16', [0xbeef, 7]), pattern('b16', 'PAT_ALLF', fail), fail);
    expect(Array.from(img.written.slice(0, 4))).toEqual([1, 1, 0, 0]);
    expect(Array.from(img.bytes.slice(0, 2))).toEqual([0xef, 0xbe]);
  });
  it('PK_B64 keeps the low 32 bits of each 64-bit lane, under a b32 mask read every 8th bit', () => {
    const v = vregOf('u32', [11, 12, 13, 14]); // 64-bit lanes 0, 1 = (11, 12), (13, 14)
    const img = vsts('PK_B64', v, pattern('b32', 'PAT_ALL', fail), fail);
    expect(lanes(img.bytes, 'u32').slice(0, 2)).toEqual([11, 13]);
    expect(img.written.slice(0, 128).every((b) => b === 1)).toBe(true);
    expect(img.written[128]).toBe(0);
  });
  it('PK_B16 keeps the low byte of active 16-bit lanes; PK4_B32 the low byte of 32-bit lanes', () => {
    const pk = vsts('PK_B16', vregOf('u16', [0x1234, 0x5678, 0x9abc]), plt('b16', 2).mask, fail);
    expect(Array.from(pk.bytes.slice(0, 3))).toEqual([0x34, 0x78, 0]);
    expect(Array.from(pk.written.slice(0, 3))).toEqual([1, 1, 0]);
    const pk4 = vsts('PK4_B32', ramp(256), pattern('b32', 'PAT_ALL', fail), fail);
    expect(Array.from(pk4.bytes.slice(0, 3))).toEqual([0, 4, 8]);
    expect(pk4.written[63]).toBe(1);
    expect(pk4.written[64]).toBe(0);
  });
});
