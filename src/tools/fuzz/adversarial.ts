/**
 * Generated adversarial programs, one family per known class of tool failure (issue 16): deep nesting, parse
 * blow-ups, sizes past memory, out-of-storage tile access, malformed constants, huge shifts, runaway loops. Each
 * generator takes a seeded generator and returns a whole program; sizes and depths are drawn from the class's range.
 */
import { Rng } from './rng';

export interface Adversary {
  name: string;
  /** The known class it aims at (for the report). */
  aims: string;
  make(rng: Rng): string;
}

const tileType = (dtype: string, rows: number | string, cols: number | string, slayout = 'none_box', blayout = 'row_major', loc = 'vec') =>
  `!pto.tile_buf<loc=${loc}, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=${blayout}, slayout=${slayout}, fractal=512, pad=0>`;

/** A function around `body` (indented statements), with two f32 pointer arguments %a and %b by default. */
function kernel(body: string[], args = '%a: !pto.ptr<f32>, %b: !pto.ptr<f32>', attrs = '', functionAttrs = ''): string {
  return [
    `module${attrs} {`,
    `  func.func @k(${args})${functionAttrs} {`,
    '    %c0 = arith.constant 0 : index',
    '    %c1 = arith.constant 1 : index',
    '    %c16 = arith.constant 16 : index',
    ...body.map((l) => '    ' + l),
    '    return',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** A 16x16 f32 round trip a -> tile -> b, with the tile's shape and the views' sizes given. */
function roundTrip(
  rows: number | string,
  cols: number | string,
  viewRows: number | string,
  viewCols: number | string,
  slayout = 'none_box',
  blayout = 'row_major',
  dtype = 'f32',
): string[] {
  const t = tileType(dtype, rows, cols, slayout, blayout);
  return [
    `%r = arith.constant ${viewRows} : index`,
    `%n = arith.constant ${viewCols} : index`,
    `%av = pto.make_tensor_view %a, shape = [%r, %n], strides = [%n, %c1] : !pto.tensor_view<?x?x${dtype}>`,
    `%bv = pto.make_tensor_view %b, shape = [%r, %n], strides = [%n, %c1] : !pto.tensor_view<?x?x${dtype}>`,
    `%t = pto.alloc_tile : ${t}`,
    `%ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%r, %n] : !pto.tensor_view<?x?x${dtype}> -> !pto.partition_tensor_view<${viewRows}x${viewCols}x${dtype}>`,
    `%bp = pto.partition_view %bv, offsets = [%c0, %c0], sizes = [%r, %n] : !pto.tensor_view<?x?x${dtype}> -> !pto.partition_tensor_view<${viewRows}x${viewCols}x${dtype}>`,
    `pto.tload ins(%ap : !pto.partition_tensor_view<${viewRows}x${viewCols}x${dtype}>) outs(%t : ${t})`,
    `pto.tstore ins(%t : ${t}) outs(%bp : !pto.partition_tensor_view<${viewRows}x${viewCols}x${dtype}>)`,
  ];
}

const HUGE = ['10000000000', '100000000000', '4294967296', '2147483648', '1000000000000000000', '9223372036854775807'];
const DEPTHS = [200, 300, 400, 1000, 3000];
const nest = (open: string, close: string, depth: number, inner: string) => open.repeat(depth) + inner + close.repeat(depth);

export const ADVERSARIES: Adversary[] = [
  {
    name: 'nested-attribute',
    aims: 'deep nesting in an attribute',
    make: (rng) => {
      const depth = rng.pick(DEPTHS);
      const [o, c] = rng.pick([
        ['[', ']'],
        ['{a = ', '}'],
        ['(', ')'],
      ]);
      return kernel([`%x = arith.constant {k = ${nest(o, c, depth, '1')}} 1 : index`]);
    },
  },
  {
    name: 'nested-type',
    aims: 'deep nesting in a type',
    make: (rng) => {
      const depth = rng.pick(DEPTHS);
      const inner = rng.chance(0.5) ? nest('<', '>', depth, 'f32') : nest('!pto.ptr<', '>', depth, 'f32');
      return kernel([], `%a: !pto.ptr<${inner}>, %b: !pto.ptr<f32>`);
    },
  },
  {
    name: 'nested-affine-map',
    aims: 'deep nesting in an affine map',
    make: (rng) => {
      const depth = rng.pick(DEPTHS);
      return kernel([`%x = affine.apply affine_map<(d0) -> (${nest('(', ')', depth, 'd0 + 1')})>(%c1)`]);
    },
  },
  {
    name: 'nested-scf-if',
    aims: 'deep nesting of regions (scf.if)',
    make: (rng) => {
      const depth = rng.pick([300, 1000, 2000]);
      const body = ['%t = arith.cmpi eq, %c0, %c0 : index'];
      for (let i = 0; i < depth; i++) body.push(' '.repeat(i) + 'scf.if %t {');
      for (let i = depth - 1; i >= 0; i--) body.push(' '.repeat(i) + '}');
      return kernel(body);
    },
  },
  {
    name: 'nested-scf-for',
    aims: 'deep nesting of regions (scf.for)',
    make: (rng) => {
      const depth = rng.pick([300, 1000]);
      const body: string[] = [];
      for (let i = 0; i < depth; i++) body.push(`scf.for %i${i} = %c0 to %c1 step %c1 {`);
      for (let i = 0; i < depth; i++) body.push('}');
      return kernel(body);
    },
  },
  {
    name: 'huge-array-attribute',
    aims: 'parse blow-up (array attribute of 10^6 elements)',
    make: (rng) => {
      const n = rng.pick([100_000, 1_000_000]);
      return kernel([`%x = arith.constant {k = [${new Array<string>(n).fill('0').join(', ')}]} 1 : index`]);
    },
  },
  {
    name: 'closing-braces',
    aims: 'parse blow-up (16k closing braces)',
    make: (rng) => {
      const n = rng.pick([4096, 16384, 65536]);
      const c = rng.pick(['}', ']', ')', '>']);
      return kernel([]).replace('    return\n', '    return\n' + c.repeat(n) + '\n');
    },
  },
  {
    name: 'opening-braces',
    aims: 'parse blow-up (unclosed brackets)',
    make: (rng) => {
      const n = rng.pick([4096, 16384, 65536]);
      const o = rng.pick(['{', '[', '(', '<']);
      return kernel([`%x = arith.constant ${o.repeat(n)}`]);
    },
  },
  {
    name: 'result-group',
    aims: 'parse blow-up (%x:N result groups)',
    make: (rng) => {
      const n = rng.pick(['10000000', '4294967296', '1000000000000000000', '100000']);
      const op = rng.pick([
        `arith.constant 0 : index`,
        `scf.if %t -> (index) {\n      scf.yield %c0 : index\n    } else {\n      scf.yield %c1 : index\n    }`,
      ]);
      return kernel(['%t = arith.cmpi eq, %c0, %c0 : index', `%x:${n} = ${op}`]);
    },
  },
  {
    name: 'huge-view',
    aims: 'sizes past memory (tensor view / argument)',
    make: (rng) => {
      const n = rng.pick(HUGE);
      return kernel(
        roundTrip(16, 16, rng.chance(0.5) ? n : 16, rng.chance(0.5) ? 16 : n).map((l) =>
          l.replace(/sizes = \[%r, %n\]/, 'sizes = [%c16, %c16]').replace(/<\d+x\d+x/g, '<16x16x'),
        ),
      );
    },
  },
  {
    name: 'huge-tile',
    aims: 'sizes past memory (tile)',
    make: (rng) => {
      const r = rng.pick(['65536', '1048576', '100000', '4294967296']);
      const c = rng.pick(['65536', '1048576', '8', '16']);
      return kernel(roundTrip(r, c, 16, 16));
    },
  },
  {
    name: 'huge-memref-argument',
    aims: 'sizes past memory (memref argument)',
    make: (rng) => {
      const n = rng.pick(['100000x100000', '10000000000', '4294967296x4', '1000000x1000000']);
      return ['module {', `  func.func @k(%x: memref<${n}xf32, #pto.address_space<gm>>) {`, '    return', '  }', '}', ''].join('\n');
    },
  },
  {
    name: 'boxed-tile-overrun',
    aims: 'a boxed tile accessed past its storage',
    make: (rng) => {
      // NZ and ZN boxes (and ND/DN for contrast), on vec and mat, with views larger or smaller than the tile.
      const [blayout, slayout] = rng.pick([
        ['col_major', 'row_major'],
        ['row_major', 'col_major'],
        ['row_major', 'row_major'],
        ['col_major', 'col_major'],
        ['col_major', 'none_box'],
      ]);
      const dtype = rng.pick(['f32', 'f16', 'i8', 'bf16']);
      const rows = rng.pick([16, 32, 64]);
      const cols = rng.pick([16, 32, 64]);
      const loc = rng.pick(['vec', 'mat']);
      const t = tileType(dtype, rows, cols, slayout, blayout, loc);
      const [vr, vc] = [rng.pick([rows, rows * 2, 16, 1]), rng.pick([cols, cols * 2, 16, 1])];
      const view = `!pto.partition_tensor_view<${vr}x${vc}x${dtype}>`;
      const target = rng.pick(['a5', 'a2a3']);
      return kernel(
        [
          `%r = arith.constant ${vr} : index`,
          `%n = arith.constant ${vc} : index`,
          `%av = pto.make_tensor_view %a, shape = [%r, %n], strides = [%n, %c1] : !pto.tensor_view<?x?x${dtype}>`,
          `%bv = pto.make_tensor_view %b, shape = [%r, %n], strides = [%n, %c1] : !pto.tensor_view<?x?x${dtype}>`,
          `%t = pto.alloc_tile : ${t}`,
          `%ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%r, %n] : !pto.tensor_view<?x?x${dtype}> -> ${view}`,
          `%bp = pto.partition_view %bv, offsets = [%c0, %c0], sizes = [%r, %n] : !pto.tensor_view<?x?x${dtype}> -> ${view}`,
          `pto.tload ins(%ap : ${view}) outs(%t : ${t})`,
          `pto.tstore ins(%t : ${t}) outs(%bp : ${view})`,
        ],
        `%a: !pto.ptr<${dtype}>, %b: !pto.ptr<${dtype}>`,
        ` attributes {pto.target_arch = "${target}"}`,
      );
    },
  },
  {
    name: 'constant-with-operands',
    aims: 'a constant op with operands',
    make: (rng) =>
      kernel(
        [
          rng.pick([
            '%x = arith.constant %c1 : index',
            '%x = arith.constant %c0, %c1 {value = 1 : index} : index',
            '%x = "arith.constant"(%c1) {value = 1 : index} : (index) -> index',
            '%x = "arith.constant"(%c1) : (index) -> index',
            '%x = arith.constant(%c1) 1 : index',
          ]),
          '%y = arith.addi %x, %c1 : index',
        ],
        '',
      ),
  },
  {
    name: 'huge-shift',
    aims: 'arith.shli by a huge amount',
    make: (rng) => {
      const [type, amount] = rng.pick([
        ['index', '1000000000'],
        ['index', '1000000000000000000'],
        ['i64', '1000000000'],
        ['i64', '9223372036854775807'],
        ['i64', '64'],
        ['i64', '-1'],
        ['i32', '2147483647'],
        ['i32', '32'],
        ['i8', '127'],
      ]);
      const op = rng.pick('arith.shli arith.shli arith.shrui arith.shrsi'.split(' '));
      return kernel(
        [
          `%v = arith.constant 3 : ${type}`,
          `%s = arith.constant ${amount} : ${type}`,
          `%x = ${op} %v, %s : ${type}`,
          `%y = ${op} %x, %s : ${type}`,
          `%z = arith.muli %y, %y : ${type}`,
        ],
        '',
      );
    },
  },
  {
    name: 'huge-arith',
    aims: 'integer arithmetic at the edges',
    make: (rng) => {
      const [type, a] = rng.pick([
        ['index', '9223372036854775807'],
        ['index', '-9223372036854775808'],
        ['i64', '-9223372036854775808'],
        ['i32', '-2147483648'],
        ['i16', '-32768'],
        ['i8', '-128'],
        ['i1', '1'],
      ]);
      const b = rng.pick(['0', '-1', '1']);
      // Op names space-separated: one quoted alone counts as a client of that op (test/architecture.test.ts).
      const op = rng.pick('arith.divsi arith.remsi arith.divui arith.remui arith.ceildivsi arith.floordivsi arith.muli arith.addi arith.subi'.split(' '));
      return kernel(
        [`%p = arith.constant ${a} : ${type}`, `%q = arith.constant ${b} : ${type}`, `%x = ${op} %p, %q : ${type}`, `%y = ${op} %x, %x : ${type}`],
        '',
      );
    },
  },
  {
    name: 'empty-loop',
    aims: 'runaway loops (empty scf.for body, 10^18 iterations)',
    make: (rng) => {
      const n = rng.pick(['1000000000000000000', '9223372036854775807', '100000000', '4294967296']);
      const step = rng.pick(['%c1', '%c1', '%c0']);
      return kernel([`%n = arith.constant ${n} : index`, `scf.for %i = %c0 to %n step ${step} {`, '}'], '');
    },
  },
  {
    name: 'tile-loop',
    aims: 'runaway loops (a tile loop past --max-steps)',
    make: (rng) => {
      const n = rng.pick(['100000', '1000000', '1000000000']);
      const rows = rng.pick([16, 64, 128]);
      const t = tileType('f32', rows, 64);
      return kernel(
        [
          `%n = arith.constant ${n} : index`,
          `%t = pto.alloc_tile : ${t}`,
          `%u = pto.alloc_tile : ${t}`,
          `scf.for %i = %c0 to %n step %c1 {`,
          `  pto.tadd ins(%t, %u : ${t}, ${t}) outs(%t : ${t})`,
          `  pto.texp ins(%t : ${t}) outs(%u : ${t})`,
          '}',
        ],
        '',
      );
    },
  },
  {
    name: 'while-loop',
    aims: 'runaway loops (scf.while that never ends)',
    make: () =>
      kernel(
        [
          '%true = arith.constant true',
          '%w = scf.while (%x = %c0) : (index) -> (index) {',
          '  scf.condition(%true) %x : index',
          '} do {',
          '^bb0(%y: index):',
          '  scf.yield %y : index',
          '}',
        ],
        '',
      ),
  },
  {
    name: 'recursion',
    aims: 'runaway recursion through func.call',
    make: () => ['module {', '  func.func @k() {', '    func.call @k() : () -> ()', '    return', '  }', '}', ''].join('\n'),
  },
  {
    name: 'long-line',
    aims: 'parse blow-up (a very long name or number)',
    make: (rng) => {
      const n = rng.pick([100_000, 1_000_000]);
      return kernel([
        rng.pick([
          `%${'v'.repeat(n)} = arith.constant 1 : index`,
          `%x = arith.constant ${'9'.repeat(n)} : index`,
          `%x = arith.constant 1.${'5'.repeat(n)} : f32`,
        ]),
      ]);
    },
  },
  {
    name: 'many-statements',
    aims: 'size stress (many statements)',
    make: (rng) => {
      const n = rng.pick([10_000, 50_000]);
      const body: string[] = [];
      for (let i = 0; i < n; i++) body.push(`%v${i} = arith.addi %c1, %c1 : index`);
      return kernel(body);
    },
  },
  {
    name: 'many-pipes',
    aims: 'module-wide checks quadratic in the ops (the pipe rules looked at every op for each pipe)',
    make: (rng) => {
      const n = rng.pick([3000, 6000]);
      if (rng.chance(0.5)) {
        // Frontend initializations of one id: each is compared with the others (uniqueness, peers).
        const init = 'pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024}(gm_slot_buffer = %gm : !pto.ptr<f32, gm>)';
        return kernel(Array(n).fill(init), '%gm: !pto.ptr<f32, gm>', '', ' attributes {pto.kernel_kind = #pto.kernel_kind<vector>}');
      }
      const body = ['%consumer = arith.constant 0 : i32'];
      for (let i = 0; i < n; i++)
        body.push(
          `%p${i} = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8, local_slot_num = 8, flag_base = 0}(%gm : memref<256xf32, #pto.address_space<gm>>, %consumer : i32) -> !pto.pipe`,
        );
      return kernel(body, '%gm: memref<256xf32, #pto.address_space<gm>>');
    },
  },
];
