/**
 * The AscendC conformance cases (test/fixtures/ascendc/cases.json) through the PTO-AS text form:
 * every WholeReduceMin (W), BlockReduceSum (B), vec_reduce_add (V) and Copy (C) case becomes a program
 * (see text-harness.ts) that is assembled and run on the VM through the library API, and a handful
 * also through the real CLI (bin/pto-vm run, bin/pto-as). The T cases are TCOLMIN, a PTO tile
 * instruction with its own tests. Valid cases compare the case's expect regions bit for bit; error
 * cases must be rejected by `assemble` with one error, located on the op or on the offending attribute
 * (or operand), whose message names the problem.
 *
 * Skipped cases (they cannot be written in the text form):
 *   W26 (src at byte 16), W28 (f32 dst at byte 4100 with value_index), B19 (f32 dst at byte 4112),
 *   V22 (src at byte 66), C16 (dst at byte 8208): each is an operand address that is not aligned. In
 *   the text form an operand is a whole tile and the instruction's address is the tile's first byte;
 *   tiles start on 32-byte boundaries (the VM's allocator and src/ascendc/run.ts's model bases), and
 *   there is no operand for an offset into a tile or a sub-tile view. So every src/dst/work address is
 *   32-byte aligned and these alignment rules can never fail.
 *
 * Error cases written differently from the UB form:
 *   V17 (work_tensor at byte 256 overlapping src [0, 512)): the work operand is %src itself
 *       (`ins(%src, %src)`), the text form's one way to make work overlap src.
 *   V19 (work_elems = 39 < repeat_times = 40): the work tile's size is its element count, and a tile
 *       row is a multiple of 32 bytes, so the largest work tile below 40 halves has 32 halves; the
 *       error is located at the work tile's type.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { elemSize } from '../../src/types/type';
import { ConformanceCase, firstDifference, loadCases } from './case-harness';
import { BuildOptions, TextProgram, buildTextProgram, errorsOf, rebuildUb, runTextProgram } from './text-harness';
import { runTool } from '../fixtures/cli';

const cases = loadCases().filter((c) => c.instr !== 'TCOLMIN');

/** Cases that cannot be expressed in the text form, and why (see the header). */
const SKIPPED: Record<string, string> = {
  W26: 'src address 16: a tile operand always starts on a 32-byte boundary',
  W28: 'dst address 4100: a tile operand always starts on a 32-byte boundary',
  B19: 'dst address 4112: a tile operand always starts on a 32-byte boundary',
  V22: 'src address 66: a tile operand always starts on a 32-byte boundary',
  C16: 'dst address 8208: a tile operand always starts on a 32-byte boundary',
};

/** Where an error case's diagnostic must be: an attribute's value, an operand's type, or the op's name. */
type Locus = { attr: string } | { operand: 'src' | 'work'; occurrence: 1 | 2 } | 'op';

interface ErrorForm {
  locus: Locus;
  /** Text the message must contain, when the case's `error_expect` does not apply to the text form. */
  message?: string;
  build?: { inPlaceWork?: boolean; workBytes?: number };
}

const ERRORS: Record<string, ErrorForm> = {
  W20: { locus: { attr: 'mask' } },
  W22: { locus: { attr: 'mask' } },
  W23: { locus: { attr: 'mask' } },
  W25: { locus: { attr: 'repeat' } },
  W29: { locus: { attr: 'order' } },
  W31: { locus: { attr: 'dst_rep_stride' } },
  W32: { locus: { attr: 'src_rep_stride' } },
  B20: { locus: { attr: 'mask' } },
  B22: { locus: { operand: 'src', occurrence: 1 } }, // the dtype: the src tile's type
  B23: { locus: { attr: 'dst_rep_stride' } },
  V16: { locus: { attr: 'repeat' } },
  V17: { locus: { operand: 'src', occurrence: 2 }, build: { inPlaceWork: true } }, // the work operand
  V19: { locus: { operand: 'work', occurrence: 1 }, build: { workBytes: 64 } }, // the work tile's type
  V20: { locus: { attr: 'mask' } },
  C18: { locus: { attr: 'mask' } },
  C19: { locus: { attr: 'product' } },
  C21: { locus: { attr: 'repeat' } },
  C22: { locus: { attr: 'src_stride' } },
};

const OP_NAMES: Record<string, string> = {
  WholeReduceMin: 'ascendc.whole_reduce_min',
  BlockReduceSum: 'ascendc.block_reduce_sum',
  vec_reduce_add: 'tik.vec_reduce_add',
  Copy: 'ascendc.copy',
};

/** Options that vary the spelling over the cases: explicit defaults and decimal masks on every other case. */
function variant(c: ConformanceCase): BuildOptions {
  const odd = cases.indexOf(c) % 2 === 1;
  return { explicitDefaults: odd, decimalMasks: odd };
}

/** Offset in `prog.text` where the diagnostic of an error case must start. */
function expectedOffset(prog: TextProgram, locus: Locus): number {
  const opStart = prog.text.indexOf(prog.opText);
  const inOp = (needle: string, occurrence = 1): number => {
    let at = -1;
    for (let k = 0; k < occurrence; k++) {
      at = prog.opText.indexOf(needle, at + 1);
      if (at < 0) throw new Error(`${prog.id}: '${needle}' not in the op`);
    }
    return opStart + at + needle.length;
  };
  if (locus === 'op') return opStart + prog.opText.search(/\S/);
  if ('attr' in locus) return inOp(`${locus.attr} = `);
  return inOp(`%${locus.operand} : `, locus.occurrence);
}

function checkValid(c: ConformanceCase, prog: TextProgram, finalBytes: (arg: string) => Uint8Array): void {
  const ub = rebuildUb(c, prog, finalBytes);
  const diff = firstDifference(ub, c.expect ?? []);
  if (diff !== null) throw new Error(`${c.id} (${c.desc}) through the text form: ${diff}\n${prog.text}`);
  // The source tile is only read.
  expect(Buffer.from(finalBytes('src_out')).equals(Buffer.from(prog.inputs.get('src_in')!))).toBe(true);
}

function runValid(c: ConformanceCase, options: BuildOptions, lowered = false): void {
  const prog = buildTextProgram(c, options);
  const results = runTextProgram(prog, { lowered });
  for (const t of prog.tiles) {
    // tstore wrote every element of every output.
    expect(results.get(`${t.role}_out`)!.written).toBe(t.bytes / elemSize(t.dtype));
  }
  checkValid(c, prog, (arg) => results.get(arg)!.bytes);
}

function checkError(c: ConformanceCase, form: ErrorForm, errors: { offset: number; at: string; message: string }[], prog: TextProgram): void {
  const want = form.message ?? c.error_expect ?? '';
  const offset = expectedOffset(prog, form.locus);
  const summary = errors.map((e) => `${e.at} ${e.message}`).join('\n') || '(no error)';
  if (errors.length !== 1 || errors[0].offset !== offset || !errors[0].message.includes(want) || !errors[0].message.startsWith(OP_NAMES[c.instr])) {
    throw new Error(`${c.id} (${c.desc}): expected one error at offset ${offset} containing "${want}", got:\n${summary}\n${prog.text}`);
  }
}

describe('the fixture as the text form sees it', () => {
  test('every W/B/V/C case is run, checked as an error, or skipped with a reason', () => {
    const errorIds = cases.filter((c) => c.error !== undefined).map((c) => c.id);
    expect([...Object.keys(ERRORS), ...Object.keys(SKIPPED)].sort()).toEqual(errorIds.sort());
    expect(cases).toHaveLength(83);
  });
});

for (const instr of ['WholeReduceMin', 'BlockReduceSum', 'vec_reduce_add', 'Copy'] as const) {
  const group = cases.filter((c) => c.instr === instr);
  describe(`${OP_NAMES[instr]}: conformance cases through the text form`, () => {
    const valid = group.filter((c) => c.error === undefined);
    test.each(valid.map((c) => [`${c.id}: ${c.desc}`, c] as const))('%s', (_name, c) => runValid(c, variant(c)));
    test.each(valid.map((c) => [`${c.id} lowered to PTO tile ops`, c] as const))('%s', (_name, c) => runValid(c, variant(c), true));
    if (instr === 'vec_reduce_add') {
      test.each(valid.map((c) => [`${c.id} without a work tile`, c] as const))('%s', (_name, c) => runValid(c, { ...variant(c), work: false }));
    }
    const rejected = group.filter((c) => ERRORS[c.id]);
    test.each(rejected.map((c) => [`${c.id}: ${c.desc} (rejected)`, c] as const))('%s', (_name, c) => {
      const form = ERRORS[c.id];
      const prog = buildTextProgram(c, { ...variant(c), ...form.build });
      checkError(c, form, errorsOf(`${c.id}.pto`, prog.text), prog);
    });
    const skipped = group.filter((c) => SKIPPED[c.id]);
    test.skip.each(skipped.map((c) => [`${c.id}: ${c.desc} -- not expressible: ${SKIPPED[c.id]}`] as const))('%s', () => undefined);
  });
}

// ---------------------------------------------------------------------------------------------------
// The real CLI.

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ascendc-text-form-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const cli = runTool;

const byId = (id: string): ConformanceCase => {
  const c = cases.find((k) => k.id === id);
  if (!c) throw new Error(`no case ${id}`);
  return c;
};

describe('conformance cases through the CLI (pto-as, then pto-vm run --target a5 --check-lowering with .bin arguments)', () => {
  // Every valid case, so that the CLI path (files, .bin arguments, the lowering, --check-lowering) sees them all.
  const VALID = cases.filter((c) => c.error === undefined && !SKIPPED[c.id]).map((c) => c.id);
  const programs = new Map<string, TextProgram>();
  const fileOf = (id: string) => path.join(tmp, `${id}.pto`);
  beforeAll(() => {
    for (const id of VALID) {
      const c = byId(id);
      programs.set(id, buildTextProgram(c, variant(c)));
      fs.writeFileSync(fileOf(id), programs.get(id)!.text);
    }
  });

  // One pto-as run over all their files (each file is assembled on its own; a process per file cost about a fifth of
  // a second each): a report on any of them, or an exit code other than 0, fails it.
  test('pto-as accepts every one silently', () => {
    const asm = cli('pto-as', ...VALID.map(fileOf), '--target', 'a5');
    // Only the summary a run over several files ends with: no diagnostic.
    expect([asm.status, asm.stdout, asm.stderr]).toEqual([0, '', `${VALID.length} files: no errors\n`]);
  });

  test.each(VALID)('%s', (id) => {
    const c = byId(id);
    const prog = programs.get(id)!;
    const file = fileOf(id);
    const args: string[] = [];
    for (const [name, bytes] of prog.inputs) {
      const bin = path.join(tmp, `${id}-${name}.bin`);
      fs.writeFileSync(bin, bytes);
      args.push('--arg', `${name}=${bin}`);
    }
    const outFile = (arg: string) => path.join(tmp, `${id}-${arg}.bin`);
    for (const arg of prog.outputs.values()) args.push('--out', `${arg}=${outFile(arg)}`);
    // Lowered (the default) and direct, compared byte for byte by --check-lowering.
    const run = cli('pto-vm', 'run', file, '--target', 'a5', '--check-lowering', ...args);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/: note: --check-lowering: the lowered program and the direct model agree on all \d+ bytes of /);
    checkValid(c, prog, (arg) => new Uint8Array(fs.readFileSync(outFile(arg))));
  });

  const REJECTED = ['W23', 'W29', 'B22', 'V17', 'V19', 'C19', 'C22'];
  test.each(REJECTED)('%s is rejected by pto-as and pto-vm with a located error', (id) => {
    const c = byId(id);
    const form = ERRORS[id];
    const prog = buildTextProgram(c, { ...variant(c), ...form.build });
    const file = path.join(tmp, `${id}.pto`);
    fs.writeFileSync(file, prog.text);
    const errors = errorsOf(file, prog.text);
    checkError(c, form, errors, prog);
    // The model's rules for the parameters (E0601) or an access outside a tile (E0602).
    expect(errors[0].code).toMatch(/^E060[12]$/);
    const line = `${file}:${errors[0].at}: error[${errors[0].code}]: ${errors[0].message}`;
    for (const r of [cli('pto-as', file, '--target', 'a5'), cli('pto-vm', 'run', file, '--target', 'a5')]) {
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')).toContain(line);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// programs/block-reduce-sum.pto, programs/vec-reduce-add.pto, programs/copy.pto.

interface JsonRun {
  outputs: Record<string, { dtype: string; values: (number | string)[]; input: string; written: number }>;
}

function runJson(program: string, ...args: string[]): JsonRun {
  const r = cli('pto-vm', 'run', program, '--json', ...args);
  expect([r.status, r.stderr]).toEqual([0, '']);
  return JSON.parse(r.stdout) as JsonRun;
}

/** Runs a program with %x bound to `x` (a .bin file) and returns %out's bytes. */
function runWith(program: string, name: string, x: Uint8Array): Uint8Array {
  const input = path.join(tmp, `${name}-x.bin`);
  const output = path.join(tmp, `${name}-out.bin`);
  fs.writeFileSync(input, x);
  const r = cli('pto-vm', 'run', program, '--arg', `x=${input}`, '--out', `out=${output}`);
  expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
  return new Uint8Array(fs.readFileSync(output));
}

function f16Bytes(values: number[]): Uint8Array {
  const out = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => {
    // Integers up to 2048 and the sums below are exact in f16: encode directly.
    const dv = new DataView(new ArrayBuffer(4));
    dv.setFloat32(0, v);
    const f = dv.getUint32(0);
    const sign = (f >>> 16) & 0x8000;
    const exp = ((f >>> 23) & 0xff) - 127 + 15;
    const mant = (f >>> 13) & 0x3ff;
    if (v !== 0 && (exp <= 0 || exp >= 31 || (f & 0x1fff) !== 0)) throw new Error(`${v} is not an exact normal f16`);
    out.writeUInt16LE(v === 0 ? 0 : sign | (exp << 10) | mant, i * 2);
  });
  return new Uint8Array(out);
}

function i32Bytes(values: number[]): Uint8Array {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => out.writeInt32LE(v, i * 4));
  return new Uint8Array(out);
}

describe('the shipped AscendC programs', () => {
  const PROGRAMS = ['block-reduce-sum', 'vec-reduce-add', 'copy'].map((p) => path.join('programs', `${p}.pto`));

  test('pto-as accepts them silently (default target a2a3, and a5)', () => {
    for (const target of [[], ['--target', 'a5']]) {
      const r = cli('pto-as', ...PROGRAMS, ...target);
      expect([r.status, r.stdout, r.stderr]).toEqual([0, '', `${PROGRAMS.length} files: no errors\n`]);
    }
  });

  test('pto-vm runs them with generated inputs and prints their results', () => {
    for (const program of PROGRAMS) {
      const r = cli('pto-vm', 'run', program);
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/ops executed\n%out: (f16|i32), wrote \d+ of \d+ elements/);
    }
  });

  test('block-reduce-sum on generated inputs: each output is its block sum (within f16 rounding)', () => {
    const run = runJson('programs/block-reduce-sum.pto');
    const x = run.outputs.x.values as number[];
    const out = run.outputs.out.values as number[];
    expect(run.outputs.x.input).toMatch(/^random:256/);
    expect(out).toHaveLength(16);
    for (let k = 0; k < 16; k++) {
      const exact = x.slice(16 * k, 16 * k + 16).reduce((s, v) => s + v, 0);
      expect(Math.abs(out[k] - exact)).toBeLessThanOrEqual(0.1);
    }
  });

  test('block-reduce-sum by hand: x[i] = i gives 256k + 120', () => {
    const out = runWith('programs/block-reduce-sum.pto', 'brs', f16Bytes(Array.from({ length: 256 }, (_, i) => i)));
    expect(Buffer.from(out)).toEqual(Buffer.from(f16Bytes(Array.from({ length: 16 }, (_, k) => 256 * k + 120))));
  });

  test('vec-reduce-add on generated inputs: the sum of all 256 (within f16 rounding)', () => {
    const run = runJson('programs/vec-reduce-add.pto');
    const x = run.outputs.x.values as number[];
    expect(x).toHaveLength(256);
    expect(run.outputs.out.values).toHaveLength(1);
    const exact = x.reduce((s, v) => s + v, 0);
    expect(Math.abs((run.outputs.out.values[0] as number) - exact)).toBeLessThanOrEqual(0.5);
  });

  test('vec-reduce-add by hand: x[i] = i gives 255 * 256 / 2 = 32640', () => {
    const out = runWith('programs/vec-reduce-add.pto', 'vra', f16Bytes(Array.from({ length: 256 }, (_, i) => i)));
    expect(Buffer.from(out)).toEqual(Buffer.from(f16Bytes([32640])));
  });

  test('vec-reduce-add by hand: 1.0 everywhere gives 256; 0.5 at one lane of each repeat gives 1', () => {
    const ones = runWith('programs/vec-reduce-add.pto', 'vra1', f16Bytes(new Array(256).fill(1)));
    expect(Buffer.from(ones)).toEqual(Buffer.from(f16Bytes([256])));
    const x = new Array(256).fill(0);
    x[5] = 0.5;
    x[200] = 0.5;
    const half = runWith('programs/vec-reduce-add.pto', 'vra2', f16Bytes(x));
    expect(Buffer.from(half)).toEqual(Buffer.from(f16Bytes([1])));
  });

  test('copy on generated inputs: out[r][c] = x[r][c] for c < 8', () => {
    const run = runJson('programs/copy.pto');
    const x = run.outputs.x.values as number[];
    const out = run.outputs.out.values as number[];
    expect(out).toEqual(Array.from({ length: 32 }, (_, i) => x[Math.floor(i / 8) * 64 + (i % 8)]));
  });

  test('copy by hand: x[r][c] = 100r + c gives out[r][c] = 100r + c, c < 8', () => {
    const x = Array.from({ length: 256 }, (_, i) => 100 * Math.floor(i / 64) + (i % 64));
    const out = runWith('programs/copy.pto', 'copy', i32Bytes(x));
    expect(Buffer.from(out)).toEqual(Buffer.from(i32Bytes(Array.from({ length: 32 }, (_, i) => 100 * Math.floor(i / 8) + (i % 8)))));
  });
});
