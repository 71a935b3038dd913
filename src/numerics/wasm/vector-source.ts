/**
 * The VM's f32 vector kernels as WebAssembly text, with 128-bit SIMD (four f32 lanes): the fast path of the hottest
 * f32 instructions. Each operation gets loops of its own (a call per vector would cost more than the vector), so
 * the text is written by these templates; scripts/build-wasm.js compiles it into vector-module.ts, and a test checks
 * that the two agree. The module imports its memory (`vm.memory`): an instance runs over the memory that holds a
 * core's vector buffer, so that tiles are operands where they are; operands are byte offsets into it.
 *
 * Numerics are those of src/numerics/arithmetic.ts and of the reductions' definitions, bit for bit (tests compare
 * them): f32 add/sub/mul/div are IEEE operations rounded to nearest even (what JS computes in double and rounds with
 * Math.fround: the double rounding is innocuous for these four); a NaN result follows x86's rule whatever the host
 * (the first NaN operand, quieted, else the negative default NaN 0xffc00000). max/min: `a < b ? b : a` /
 * `b < a ? b : a` (pmax/pmin); under npu the first NaN operand wins. A NaN comes out quieted, as a value that went
 * through a JS double does.
 */

/** The binary operations, in the order of their index (the `op` the callers pass). */
export const VECTOR_OPERATIONS = ['add', 'sub', 'mul', 'div', 'max', 'min'] as const;
export type VectorOperation = (typeof VECTOR_OPERATIONS)[number];

const QUIET = '(v128.const i32x4 0x00400000 0x00400000 0x00400000 0x00400000)';
const DEFAULT_NAN = '(v128.const i32x4 0xffc00000 0xffc00000 0xffc00000 0xffc00000)';
const isNan = (v: string) => `(f32x4.ne (local.get ${v}) (local.get ${v}))`;

/**
 * v := x86's NaN where v is NaN (the first operand's quieted, else the second's quieted, else the default NaN).
 * Lanes without a NaN (the common case) take one test and no select.
 */
const x86Nan = (v: string, first: string, second: string) => `(if (v128.any_true ${isNan(v)}) (then (local.set ${v} (v128.bitselect
      (v128.bitselect (v128.or (local.get ${first}) ${QUIET}) (v128.bitselect (v128.or (local.get ${second}) ${QUIET}) ${DEFAULT_NAN} ${isNan(second)}) ${isNan(first)})
      (local.get ${v}) ${isNan(v)}))))`;

/** $v := $v with its NaN lanes quieted. */
const quieted = (v: string) => `(if (v128.any_true ${isNan(v)}) (then (local.set ${v} (v128.or (local.get ${v}) (v128.and ${isNan(v)} ${QUIET})))))`;

/**
 * The lanes $v<k> of `$x<k> op $y<k>` without the NaN rules (`k` names one of the vectors a loop step holds), and
 * the test for lanes that need those rules: a NaN result, or under npu max/min a NaN operand (pmax/pmin may drop
 * it).
 */
function plainOperation(op: VectorOperation, k: string): string {
  const instruction = op === 'max' || op === 'min' ? `p${op}` : op;
  return `(local.set $v${k} (f32x4.${instruction} (local.get $x${k}) (local.get $y${k})))`;
}

function needsNanRule(op: VectorOperation, npu: boolean, k: string): string {
  return npu && (op === 'max' || op === 'min') ? `(v128.or ${isNan(`$x${k}`)} ${isNan(`$y${k}`)})` : isNan(`$v${k}`);
}

/** $v<k> after the NaN rules of the operation (each rule tests its lanes first). */
function nanRules(op: VectorOperation, npu: boolean, k: string): string {
  const [x, y, v] = [`$x${k}`, `$y${k}`, `$v${k}`];
  if (op === 'max' || op === 'min') {
    const nanFirst = npu
      ? `(if (v128.any_true (v128.or ${isNan(x)} ${isNan(y)})) (then
      (local.set ${v} (v128.bitselect (local.get ${y}) (local.get ${v}) ${isNan(y)}))
      (local.set ${v} (v128.bitselect (local.get ${x}) (local.get ${v}) ${isNan(x)}))))`
      : '';
    return `${nanFirst}\n      ${quieted(v)}`;
  }
  return x86Nan(v, x, y);
}

/** The lanes $v<k> of `$x<k> op $y<k>`, NaN rules included. */
const operation = (op: VectorOperation, npu: boolean, k: string) => `${plainOperation(op, k)}\n      ${nanRules(op, npu, k)}`;

const UNROLL = [0, 1, 2, 3].map(String);
const vectorLocals = (ks: string[]) => ks.map((k) => `(local $x${k} v128) (local $y${k} v128) (local $v${k} v128)`).join(' ');

const profileName = (npu: boolean) => (npu ? 'npu' : 'cpu_sim');

/**
 * d[k] = a[k] op b[k] for k < n (n a multiple of 4; the caller does the rest). Sixteen elements a step where it
 * can, with one test for NaN lanes among them (the NaN rules are rare work), then four a step. Every vector of a
 * step is loaded before any is stored: d may be a or b itself.
 */
function tiles(op: VectorOperation, npu: boolean): string {
  const needs = UNROLL.map((k) => needsNanRule(op, npu, k));
  return `(func (export "tiles_${op}_${profileName(npu)}") (param $d i32) (param $a i32) (param $b i32) (param $n i32)
  (local $end i32) (local $end16 i32) ${vectorLocals(UNROLL)}
  (local.set $end (i32.add (local.get $d) (i32.shl (local.get $n) (i32.const 2))))
  (local.set $end16 (i32.add (local.get $d) (i32.shl (i32.and (local.get $n) (i32.const -16)) (i32.const 2))))
  (block $done16 (loop $next16
    (br_if $done16 (i32.ge_u (local.get $d) (local.get $end16)))
    ${UNROLL.map((k) => `(local.set $x${k} (v128.load offset=${16 * +k} (local.get $a)))`).join('\n    ')}
    ${UNROLL.map((k) => `(local.set $y${k} (v128.load offset=${16 * +k} (local.get $b)))`).join('\n    ')}
    ${UNROLL.map((k) => plainOperation(op, k)).join('\n    ')}
    (if (v128.any_true (v128.or (v128.or ${needs[0]} ${needs[1]}) (v128.or ${needs[2]} ${needs[3]}))) (then
      ${UNROLL.map((k) => nanRules(op, npu, k)).join('\n      ')}))
    ${UNROLL.map((k) => `(v128.store offset=${16 * +k} (local.get $d) (local.get $v${k}))`).join('\n    ')}
    (local.set $d (i32.add (local.get $d) (i32.const 64)))
    (local.set $a (i32.add (local.get $a) (i32.const 64)))
    (local.set $b (i32.add (local.get $b) (i32.const 64)))
    (br $next16)))
  (block $done (loop $next
    (br_if $done (i32.ge_u (local.get $d) (local.get $end)))
    (local.set $x0 (v128.load (local.get $a)))
    (local.set $y0 (v128.load (local.get $b)))
    ${operation(op, npu, '0')}
    (v128.store (local.get $d) (local.get $v0))
    (local.set $d (i32.add (local.get $d) (i32.const 16)))
    (local.set $a (i32.add (local.get $a) (i32.const 16)))
    (local.set $b (i32.add (local.get $b) (i32.const 16)))
    (br $next))))`;
}

/** Row r of the rows x cols matrix at a (cols a multiple of 4) op the f32 at s + 4r (a per-row operand), into d. */
function rows(op: VectorOperation, npu: boolean): string {
  return `(func (export "rows_${op}_${profileName(npu)}") (param $d i32) (param $a i32) (param $s i32) (param $rows i32) (param $cols i32)
  (local $r i32) (local $end i32) ${vectorLocals(['0'])}
  (block $done (loop $row
    (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
    (local.set $y0 (v128.load32_splat (i32.add (local.get $s) (i32.shl (local.get $r) (i32.const 2)))))
    (local.set $end (i32.add (local.get $d) (i32.shl (local.get $cols) (i32.const 2))))
    (block $row_done (loop $next
      (br_if $row_done (i32.ge_u (local.get $d) (local.get $end)))
      (local.set $x0 (v128.load (local.get $a)))
      ${operation(op, npu, '0')}
      (v128.store (local.get $d) (local.get $v0))
      (local.set $d (i32.add (local.get $d) (i32.const 16)))
      (local.set $a (i32.add (local.get $a) (i32.const 16)))
      (br $next)))
    (local.set $r (i32.add (local.get $r) (i32.const 1)))
    (br $row))))`;
}

/** The f32 at $p + k * $stride for k = 0..3, as four lanes, into $x. */
const column = `(local.set $x (f32x4.replace_lane 3 (f32x4.replace_lane 2 (f32x4.replace_lane 1
        (v128.load32_zero (local.get $q))
        (f32.load (i32.add (local.get $q) (local.get $stride))))
        (f32.load (i32.add (local.get $q) (local.get $stride2))))
        (f32.load (i32.add (local.get $q) (local.get $stride3)))))`;

/**
 * cpu-sim row sums of the rows x cols matrix at a, its rows $stride bytes apart (rows a multiple of 4: the caller
 * makes sure the rows past its own are memory to read), into the rows f32 at d: each row in order
 * from its first element, rounded to f32 after every add; a NaN sum keeps the running sum's NaN (x86's order for
 * `sum += x` as the simulator is compiled). Four rows at a time, one per lane.
 */
const rowSums = `(func (export "row_sums_cpu_sim") (param $d i32) (param $a i32) (param $rows i32) (param $cols i32) (param $stride i32)
  (local $r i32) (local $c i32) (local $stride2 i32) (local $stride3 i32) (local $q i32)
  (local $x v128) (local $y v128) (local $v v128)
  (local.set $stride2 (i32.shl (local.get $stride) (i32.const 1)))
  (local.set $stride3 (i32.add (local.get $stride2) (local.get $stride)))
  (block $done (loop $group
    (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
    (local.set $q (i32.add (local.get $a) (i32.mul (local.get $r) (local.get $stride))))
    ${column}
    (local.set $y (local.get $x))
    (local.set $c (i32.const 1))
    (block $row_done (loop $next
      (br_if $row_done (i32.ge_u (local.get $c) (local.get $cols)))
      (local.set $q (i32.add (local.get $q) (i32.const 4)))
      ${column}
      (local.set $v (f32x4.add (local.get $y) (local.get $x)))
      ${x86Nan('$v', '$y', '$x')}
      (local.set $y (local.get $v))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $next)))
    (local.set $v (local.get $y))
    ${quieted('$v')}
    (v128.store (i32.add (local.get $d) (i32.shl (local.get $r) (i32.const 2))) (local.get $v))
    (local.set $r (i32.add (local.get $r) (i32.const 4)))
    (br $group))))`;

/** The module's text: the kernels over an imported memory of any size. */
export function vectorWat(): string {
  const functions: string[] = [];
  for (const op of VECTOR_OPERATIONS)
    for (const npu of [false, true]) {
      functions.push(tiles(op, npu));
      functions.push(rows(op, npu));
    }
  functions.push(rowSums);
  return `(module\n(import "vm" "memory" (memory 1))\n${functions.join('\n')}\n)\n`;
}
