/**
 * Reads the AscendC conformance cases (test/fixtures/ascendc/cases.json, a copy of
 * conformance/ascendc/cases.json) and runs them through the direct semantic model.
 *
 * The case file gives only the parameters that differ from the instruction's defaults. The defaults used
 * here are those the case file's regions imply: src at byte 0; dst at 4096 (WholeReduceMin,
 * BlockReduceSum), 8192 (Copy, TCOLMIN) or 192512 (vec_reduce_add); a full contiguous mask; the
 * instruction's default strides. vec_reduce_add's work_tensor is not located by the cases (its contents are
 * unspecified and never checked); it defaults to 188416 (184 KiB), clear of every case's src and dst.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { numberToF16Bits } from '../../src/numerics/float16';
import {
  BitMask,
  DType,
  Mask,
  ModelError,
  Problem,
  Product,
  ReduceOrder,
  blockReduceSum,
  copy,
  fullMask,
  tikMask,
  validateBlockReduceSum,
  validateCopy,
  validateVecReduceAdd,
  validateWholeReduceMin,
  vecReduceAdd,
  wholeReduceMin,
} from '../../src/ascendc/model';
import { TileRef, tcolmin, validateTcolmin } from './tcolmin-model';

export interface Region {
  addr: number;
  dtype: string;
  count: number;
  bits?: string;
  gen?: string;
  values?: unknown[];
}

export interface ConformanceCase {
  id: string;
  instr: 'WholeReduceMin' | 'BlockReduceSum' | 'vec_reduce_add' | 'Copy' | 'TCOLMIN';
  desc: string;
  product: Product;
  sat: boolean;
  params: Record<string, unknown>;
  ub_size: number;
  fill_byte: number;
  init: Region[];
  expect?: Region[];
  error?: string;
  error_expect?: string;
  result?: string;
}

export function loadCases(): ConformanceCase[] {
  const file = join(__dirname, '..', 'fixtures', 'ascendc', 'cases.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { cases: ConformanceCase[] }).cases;
}

export const DEFAULT_SRC = 0;
export const DEFAULT_DST: Record<ConformanceCase['instr'], number> = {
  WholeReduceMin: 4096,
  BlockReduceSum: 4096,
  Copy: 8192,
  TCOLMIN: 8192,
  vec_reduce_add: 192512,
};
export const DEFAULT_WORK = 188416;

const REGION_WORD: Record<string, number> = { f16: 2, bf16: 2, u16: 2, i16: 2, f32: 4, u32: 4, i32: 4 };

function wordSize(dtype: string): number {
  const size = REGION_WORD[dtype];
  if (!size) throw new Error(`unknown region dtype ${dtype}`);
  return size;
}

/** The generators of the case file ("generators"): exact in the region's dtype. */
function generate(gen: string, dtype: string): number[] {
  let m: RegExpMatchArray | null;
  let values: number[];
  if ((m = gen.match(/^F1\((\d+)(?:,\s*k=(\d+))?\)$/))) {
    const k = m[2] === undefined ? 11 : Number(m[2]);
    values = Array.from({ length: Number(m[1]) }, (_, i) => (((i * 37 + k) % 97) - 48) / 8);
  } else if ((m = gen.match(/^F2\((\d+)\)$/))) {
    values = Array.from({ length: Number(m[1]) }, (_, i) => (((i * 7919) % 2003) - 1001) / 64);
  } else if ((m = gen.match(/^I1\((\d+)\)$/))) {
    values = Array.from({ length: Number(m[1]) }, (_, i) => 3 * i - 100);
  } else {
    throw new Error(`unknown generator ${gen}`);
  }
  return values.map((x) => {
    switch (dtype) {
      case 'f16': {
        const bits = numberToF16Bits(x);
        return bits;
      }
      case 'f32': {
        const dv = new DataView(new ArrayBuffer(4));
        dv.setFloat32(0, x);
        return dv.getUint32(0);
      }
      default:
        return x >>> 0;
    }
  });
}

/** A region's words as little-endian bytes. */
export function regionBytes(region: Region): Uint8Array {
  const size = wordSize(region.dtype);
  const words =
    region.bits !== undefined
      ? region.bits
          .trim()
          .split(/\s+/)
          .map((w) => parseInt(w, 16))
      : generate(region.gen ?? '', region.dtype);
  if (words.length !== region.count) throw new Error(`region @${region.addr}: ${words.length} words, count says ${region.count}`);
  const out = new Uint8Array(words.length * size);
  const dv = new DataView(out.buffer);
  words.forEach((w, i) => (size === 2 ? dv.setUint16(i * size, w, true) : dv.setUint32(i * size, w >>> 0, true)));
  return out;
}

/** The case's UB: ub_size bytes of fill_byte, then the init regions. */
export function buildUb(c: ConformanceCase): Uint8Array {
  const ub = new Uint8Array(c.ub_size).fill(c.fill_byte);
  for (const region of c.init) ub.set(regionBytes(region), region.addr);
  return ub;
}

/** null when every expected region matches bit for bit, else a description of the first differing byte. */
export function firstDifference(ub: Uint8Array, regions: readonly Region[]): string | null {
  for (const region of regions) {
    const want = regionBytes(region);
    const size = wordSize(region.dtype);
    for (let k = 0; k < want.length; k++) {
      const got = ub[region.addr + k];
      if (got !== want[k]) {
        const word = Math.floor(k / size);
        const hexWord = (bytes: ArrayLike<number>, at: number) =>
          Array.from({ length: size }, (_, j) => bytes[at + size - 1 - j].toString(16).padStart(2, '0')).join('');
        return (
          `first differing byte at address ${region.addr + k} (byte ${k} of the region @${region.addr}, ${region.dtype} word ${word}): ` +
          `expected 0x${want[k].toString(16).padStart(2, '0')}, got 0x${got.toString(16).padStart(2, '0')}; ` +
          `word expected 0x${hexWord(want, word * size)}, got 0x${hexWord(ub, region.addr + word * size)}`
        );
      }
    }
  }
  return null;
}

function parseMask(raw: unknown): Mask | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'number') return raw;
  const words = raw as string[];
  return [BigInt(words[0]), BigInt(words[1])] as BitMask;
}

function num(v: unknown): number | undefined {
  return v === undefined ? undefined : Number(v);
}

/** "a,b,c" or "{a,b,c,d}" -> numbers. */
function list(v: unknown): number[] | undefined {
  if (v === undefined) return undefined;
  return String(v)
    .replace(/[{}\s]/g, '')
    .split(',')
    .map(Number);
}

/**
 * TCOLMIN tiles per case. The case file describes them in words ("valid": "3x5", "2x16 with ...", or
 * nothing for the two error cases); this table transcribes those descriptions.
 */
const TCOLMIN_TILES: Record<string, { src: TileRef; dst: TileRef }> = {
  // valid rows 0 of a 16x16 f32 tile: early return
  T02: {
    src: { addr: 0, dtype: 'f32', rows: 16, cols: 16, validRow: 0, validCol: 16 },
    dst: { addr: 8192, dtype: 'f32', rows: 1, cols: 16, validRow: 1, validCol: 16 },
  },
  // f16 16x16 = F1(256), valid 3x5
  T03: {
    src: { addr: 0, dtype: 'f16', rows: 16, cols: 16, validRow: 3, validCol: 5 },
    dst: { addr: 8192, dtype: 'f16', rows: 1, cols: 16, validRow: 1, validCol: 5 },
  },
  // f16 2x16
  T05: {
    src: { addr: 0, dtype: 'f16', rows: 2, cols: 16, validRow: 2, validCol: 16 },
    dst: { addr: 8192, dtype: 'f16', rows: 1, cols: 16, validRow: 1, validCol: 16 },
  },
  // int16 1x16
  T06: {
    src: { addr: 0, dtype: 'i16', rows: 1, cols: 16, validRow: 1, validCol: 16 },
    dst: { addr: 8192, dtype: 'i16', rows: 1, cols: 16, validRow: 1, validCol: 16 },
  },
  // valid col mismatch: src 16x16 f32 (valid 16 cols), dst valid 8 cols
  T08: {
    src: { addr: 0, dtype: 'f32', rows: 16, cols: 16, validRow: 16, validCol: 16 },
    dst: { addr: 8192, dtype: 'f32', rows: 1, cols: 16, validRow: 1, validCol: 8 },
  },
  // dtype mismatch: src f32, dst f16
  T09: {
    src: { addr: 0, dtype: 'f32', rows: 16, cols: 16, validRow: 16, validCol: 16 },
    dst: { addr: 8192, dtype: 'f16', rows: 1, cols: 16, validRow: 1, validCol: 16 },
  },
};

/** A case turned into a validation and a run of the model. */
export interface PreparedCase {
  validate(): Problem[];
  run(ub: Uint8Array): void;
}

export function prepare(c: ConformanceCase): PreparedCase {
  const q = c.params;
  const dtype = q.dtype as DType;
  const src = num(q.src) ?? DEFAULT_SRC;
  const dst = num(q.dst) ?? DEFAULT_DST[c.instr];
  const common = { dtype, product: c.product, sat: c.sat };
  switch (c.instr) {
    case 'WholeReduceMin': {
      const s = list(q.strides);
      const p = {
        ...common,
        mask: parseMask(q.mask) ?? fullMask(dtype),
        repeat: Number(q.repeat),
        dstRepStride: num(q.dstRepStride) ?? s?.[0],
        srcBlkStride: num(q.srcBlkStride) ?? s?.[1],
        srcRepStride: num(q.srcRepStride) ?? s?.[2],
        order: q.order as ReduceOrder | undefined,
      };
      return { validate: () => validateWholeReduceMin(dst, src, p), run: (ub) => wholeReduceMin(ub, dst, src, p) };
    }
    case 'BlockReduceSum': {
      const p = {
        ...common,
        mask: parseMask(q.mask) ?? fullMask(dtype),
        repeat: Number(q.repeat),
        dstRepStride: num(q.dstRepStride),
        srcBlkStride: num(q.srcBlkStride),
        srcRepStride: num(q.srcRepStride),
      };
      return { validate: () => validateBlockReduceSum(dst, src, p), run: (ub) => blockReduceSum(ub, dst, src, p) };
    }
    case 'vec_reduce_add': {
      const tik = parseMask(q.mask_tik) as BitMask | undefined;
      const p = {
        ...common,
        mask: parseMask(q.mask) ?? (tik ? tikMask(tik) : fullMask(dtype)),
        repeat: Number(q.repeat_times),
        srcRepStride: num(q.src_rep_stride),
        workElems: num(q.work_elems),
      };
      const work = num(q.work) ?? DEFAULT_WORK;
      return { validate: () => validateVecReduceAdd(dst, src, work, p), run: (ub) => vecReduceAdd(ub, dst, src, work, p) };
    }
    case 'Copy': {
      const s = list(q.params);
      const p = {
        ...common,
        mask: parseMask(q.mask) ?? fullMask(dtype),
        repeat: Number(q.repeat),
        dstStride: s?.[0],
        srcStride: s?.[1],
        dstRepeatSize: s?.[2],
        srcRepeatSize: s?.[3],
      };
      return { validate: () => validateCopy(dst, src, p), run: (ub) => copy(ub, dst, src, p) };
    }
    case 'TCOLMIN': {
      const tiles = TCOLMIN_TILES[c.id];
      if (!tiles) throw new Error(`no TCOLMIN tiles for case ${c.id}`);
      return { validate: () => validateTcolmin(tiles.dst, tiles.src), run: (ub) => tcolmin(ub, tiles.dst, tiles.src) };
    }
  }
}

/** Runs a case's model call and returns the problems it raised (validation or ModelError), or null when it ran. */
export function problemsOf(prepared: PreparedCase, ub: Uint8Array): { problems: Problem[]; thrown?: ModelError } {
  const problems = prepared.validate();
  if (problems.length > 0) return { problems };
  try {
    prepared.run(ub);
  } catch (e) {
    if (e instanceof ModelError) return { problems: [...e.problems], thrown: e };
    throw e;
  }
  return { problems: [] };
}
