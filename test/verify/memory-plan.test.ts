/**
 * Memory planning (src/verify/memory-plan.ts) as PTOAS's PlanMemory decides it: a tile is live from its first use
 * to its last, a dead tile's space is reused, and the tiles live at one point must fit the capacity PTOAS assumes
 * (A5's UB: 2031616 bits = 253952 bytes, PTOPlanMemory.cpp's kA5 MemSpec; A2/A3's: 196608). The byte counts below
 * are rows x cols x 4 for f32, rounded up to 256 (already multiples here).
 */
import { assemble } from '../../src/verify/assemble';
import { BoundOp } from '../../src/ir/bound';
import { BuildLevel } from '../../src/ir/definition';
import { TargetName } from '../../src/spec/schema';
import { lineOf, shapes } from '../fixtures/memory-plan';

interface Found {
  code: string;
  line: number;
  message: string;
  notes: { line: number; message: string }[];
}

function check(text: string, target?: TargetName, level?: BuildLevel): Found[] {
  const { diags, source } = assemble('plan.pto', text, { target, level });
  return diags.items
    .filter((d) => d.severity === 'error')
    .map((d) => ({
      code: d.code!,
      line: source.position(d.span.start).line,
      message: d.message,
      notes: (d.notes ?? []).map((n) => ({ line: source.position(n.span.start).line, message: n.message })),
    }));
}

/** The planned offset of each allocation of @k, by the name of the tile it gives. */
function offsets(text: string, target?: TargetName): Map<string, number | undefined> {
  const { program, diags } = assemble('plan.pto', text, { target });
  expect(diags.hasErrors()).toBe(false);
  const fn = [...program.bound.functions.values()].find((f) => f.name === 'k')!;
  const out = new Map<string, number | undefined>();
  const walk = (ops: BoundOp[]) => {
    for (const op of ops) {
      if (op.placement) op.results.forEach((slot, i) => out.set(op.node.results[i]?.name ?? `#${i}`, op.placement!.offsets.get(slot)?.[0]));
      for (const r of op.regions) for (const b of r.blocks) walk(b.ops);
    }
  };
  for (const b of fn.body!.blocks) walk(b.ops);
  return out;
}

const K64 = shapes(128, 128); // 65536 bytes a tile
const K128 = shapes(128, 256); // 131072 bytes a tile

describe('two phases of 64 KB tiles on A5, never all live at once', () => {
  // a, b, s are live at the tadd (192 KB); c, d, p at the tmul: six tiles (384 KB) in a 248 KB UB.
  const { alloc, load, store, op, kernel } = K64;
  const text = kernel(
    [
      ...['a', 'b', 's'].map(alloc),
      load('a', 'x'),
      load('b', 'y'),
      op('tadd', ['a', 'b'], 's'),
      store('s', 'o1'),
      ...['c', 'd', 'p'].map(alloc),
      load('c', 'x'),
      load('d', 'y'),
      op('tmul', ['c', 'd'], 'p'),
      store('p', 'o2'),
    ],
    'a5',
  );

  it('is accepted', () => expect(check(text)).toEqual([]));

  it("the second phase takes the first one's space, in order of first use", () => {
    // Reuse path (384 KB >= 253952): a at 0, b after it, s after b; c, d, p where a, b, s were.
    expect(offsets(text)).toEqual(
      new Map([
        ['%a', 0],
        ['%b', 65536],
        ['%s', 131072],
        ['%c', 0],
        ['%d', 65536],
        ['%p', 131072],
      ]),
    );
  });

  it('tiles that fit together are placed one after another, sharing nothing (PTOAS skips reuse then)', () => {
    const small = shapes(16, 16);
    const t = small.kernel([...['a', 'b'].map(small.alloc), small.load('a', 'x'), small.store('a', 'o1'), small.load('b', 'y'), small.store('b', 'o2')], 'a5');
    expect(offsets(t)).toEqual(
      new Map([
        ['%a', 0],
        ['%b', 1024],
      ]),
    );
  });
});

describe('tiles live at once that exceed the buffer are rejected where they first do', () => {
  it('two 128 KB tiles live together on A5 (262144 > 253952, though the hardware UB has 262144)', () => {
    const { alloc, load, store, op, kernel } = K128;
    const text = kernel([alloc('a'), alloc('b'), load('a', 'x'), load('b', 'y'), op('tadd', ['a', 'b'], 'a'), store('a', 'o1')], 'a5');
    const found = check(text);
    expect(found).toEqual([
      {
        code: 'E0437',
        line: lineOf(text, 'pto.tload ins(%yp'),
        message:
          "vec overflow: the 2 UB tiles live here need 262144 bytes, more than the 253952 bytes PTOAS's memory planning has on a5 (a dead tile's space is reused, a live one's never)",
        notes: [
          { line: lineOf(text, '%a = pto.alloc_tile'), message: '%a (!pto.tile_buf<vec, 128x256xf32>, 131072 bytes) is live here' },
          { line: lineOf(text, '%b = pto.alloc_tile'), message: '%b (!pto.tile_buf<vec, 128x256xf32>, 131072 bytes) is live here' },
        ],
      },
    ]);
  });

  it('four 64 KB tiles live together on A5', () => {
    const { alloc, load, op, store, kernel } = K64;
    const text = kernel(
      [
        ...['a', 'b', 'c', 'd'].map(alloc),
        ...['a', 'b', 'c', 'd'].map((t) => load(t, 'x')),
        op('tadd', ['a', 'b'], 'a'),
        op('tadd', ['c', 'd'], 'c'),
        op('tadd', ['a', 'c'], 'a'),
        store('a', 'o1'),
      ],
      'a5',
    );
    const found = check(text);
    expect(found.map((f) => [f.code, f.line, f.notes.map((n) => n.message.split(' ')[0])])).toEqual([
      ['E0437', lineOf(text, 'outs(%d'), ['%a', '%b', '%c', '%d']],
    ]);
    expect(found[0].message).toContain('need 262144 bytes, more than the 253952 bytes');
    // Three of them fit: d's load is where the fourth joins.
    expect(check(text.replace(/outs\(%d/, 'outs(%c').replace(/\(%c, %d/, '(%c, %c'))).toEqual([]);
  });

  it('a tile counts from its first use, not its alloc, and until its last use', () => {
    // Allocated together, but a is dead (stored) before b is first written: they share the space.
    const { alloc, load, store, kernel } = K128;
    expect(check(kernel([alloc('a'), alloc('b'), load('a', 'x'), store('a', 'o1'), load('b', 'y'), store('b', 'o2')], 'a5'))).toEqual([]);
    // A use of a after b's first one keeps both live there.
    const late = kernel([alloc('a'), alloc('b'), load('a', 'x'), load('b', 'y'), store('a', 'o1'), store('b', 'o2')], 'a5');
    expect(check(late).map((f) => f.line)).toEqual([lineOf(late, 'pto.tload ins(%yp')]);
  });

  it('a view of a tile keeps it live (pto.subview, pto.treshape, pto.bitcast)', () => {
    const { alloc, load, store, kernel, T } = K128;
    const view = (src: string) => `%v = pto.treshape %${src} : ${T} -> ${T}`;
    // The reshape of a is stored after b is loaded: a is live there.
    const text = kernel(
      [
        alloc('a'),
        alloc('b'),
        load('a', 'x'),
        view('a'),
        load('b', 'y'),
        `pto.tstore ins(%v : ${T}) outs(%o1p : !pto.partition_tensor_view<128x256xf32>)`,
        store('b', 'o2'),
      ],
      'a5',
    );
    expect(check(text).map((f) => [f.line, f.notes.length])).toEqual([[lineOf(text, 'pto.tload ins(%yp'), 2]]);
  });

  it('A2/A3 has 192 KB', () => {
    const { alloc, load, op, store, kernel } = K64;
    const body = [...['a', 'b', 'c'].map(alloc), load('a', 'x'), load('b', 'y'), op('tadd', ['a', 'b'], 'c'), store('c', 'o1')];
    expect(check(kernel(body), 'a2a3')).toEqual([]); // 196608 bytes: exactly full
    const four = [
      ...['a', 'b', 'c', 'd'].map(alloc),
      load('a', 'x'),
      load('b', 'y'),
      load('d', 'y'),
      op('tadd', ['a', 'b'], 'c'),
      op('tadd', ['c', 'd'], 'c'),
      store('c', 'o1'),
    ];
    expect(check(kernel(four), 'a2a3').map((f) => f.code)).toEqual(['E0437']);
  });

  it('at level3 nothing is planned (PTOAS skips PlanMemory): tiles are placed by address there', () => {
    const { load, store, kernel, T } = K128;
    const placed = ['a', 'b'].map((t, i) => `%${t}addr = arith.constant ${i * 131072} : i64\n    %${t} = pto.alloc_tile addr = %${t}addr : ${T}`);
    expect(check(kernel([...placed, load('a', 'x'), load('b', 'y'), store('a', 'o1'), store('b', 'o2')], 'a2a3'), undefined, 'level3')).toEqual([]);
  });
});

describe('loops', () => {
  const { alloc, load, store, kernel } = K128;
  const loop = (body: string[]) => ['scf.for %i = %c0 to %c2 step %c1 {', ...body.map((l) => '  ' + l), '}'];

  it('tiles allocated in a loop body reuse each other there', () => {
    const text = kernel(loop([alloc('a'), load('a', 'x'), store('a', 'o1'), alloc('b'), load('b', 'y'), store('b', 'o2')]), 'a2a3');
    expect(check(text)).toEqual([]);
    expect(offsets(text)).toEqual(
      new Map([
        ['%a', 0],
        ['%b', 0],
      ]),
    );
  });

  it('a tile allocated before a loop and used in it is live for the whole loop (the next iteration may read it)', () => {
    const text = kernel([alloc('a'), ...loop([load('a', 'x'), store('a', 'o1'), alloc('b'), load('b', 'y'), store('b', 'o2')])], 'a2a3');
    const found = check(text);
    expect(found.map((f) => [f.code, f.line, f.notes.map((n) => [n.line, n.message.split(' ')[0]])])).toEqual([
      [
        'E0437',
        lineOf(text, 'pto.tload ins(%yp'),
        [
          [lineOf(text, '%a = pto.alloc_tile'), '%a'],
          [lineOf(text, '%b = pto.alloc_tile'), '%b'],
        ],
      ],
    ]);
    expect(found[0].message).toContain('need 262144 bytes, more than the 196608 bytes');
  });

  it('a tile used only before a loop is dead in it; one used after it is live through it (PTOAS: live at the loop)', () => {
    const before = kernel([alloc('a'), load('a', 'x'), store('a', 'o1'), ...loop([alloc('b'), load('b', 'y'), store('b', 'o2')])], 'a2a3');
    expect(check(before)).toEqual([]);
    const after = kernel([alloc('a'), ...loop([alloc('b'), load('b', 'y'), store('b', 'o2')]), load('a', 'x'), store('a', 'o1')], 'a2a3');
    expect(check(after).map((f) => [f.line, f.notes.length])).toEqual([[lineOf(after, 'pto.tload ins(%yp'), 2]]);
  });

  it('Level 1: a tile carried by a loop lives through it, beside the value each iteration computes', () => {
    const l1 = (rows: number, cols: number) => {
      const V = `!pto.tile<loc=vec, f32, ${rows}, ${cols}, RowMajor, NoneBox, None, Zero>`;
      const s = shapes(rows, cols);
      return s.kernel(
        [
          `%t0 = pto.tload %xp : !pto.partition_tensor_view<${rows}x${cols}xf32> -> ${V}`,
          `%r = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %t0) -> (${V}) {`,
          `  %n = pto.tadd %t, %t : (${V}, ${V}) -> ${V}`,
          `  scf.yield %n : ${V}`,
          '}',
          `pto.tstore %r, %o1p : (${V}, !pto.partition_tensor_view<${rows}x${cols}xf32>) -> ()`,
        ],
        'a2a3',
      );
    };
    expect(check(l1(128, 128))).toEqual([]);
    const text = l1(128, 256);
    expect(check(text).map((f) => [f.line, f.notes.map((n) => n.message.split(' ')[0])])).toEqual([[lineOf(text, 'scf.for'), ['%t0', '%n']]]);
  });
});

describe('tiles PTOAS gives no storage', () => {
  const rowmax = (target: TargetName) => {
    // src and tmp are 2x16384 f32 (128 KB each), dst 2x8 (256 bytes after rounding): PTOAS's issue558 shape.
    const src = '!pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=16384, v_row=2, v_col=16384, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
    const dst = '!pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=8, v_row=2, v_col=1, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
    const text = [
      'module {',
      '  func.func @k() {',
      `    %src = pto.alloc_tile : ${src}`,
      `    %tmp = pto.alloc_tile : ${src}`,
      `    %dst = pto.alloc_tile : ${dst}`,
      `    pto.trowmax ins(%src, %tmp : ${src}, ${src}) outs(%dst : ${dst})`,
      '    return',
      '  }',
      '}',
    ].join('\n');
    return check(text, target);
  };

  it("A5's trowmax never touches its tmp: a tile used only there takes no room", () => {
    expect(rowmax('a5')).toEqual([]);
    // A2/A3 uses it: 131072 x 2 + 256 > 196608.
    expect(rowmax('a2a3').map((f) => [f.code, f.notes.map((n) => n.message.split(' ')[0])])).toEqual([['E0437', ['%src', '%tmp', '%dst']]]);
  });

  it('a tile nothing uses takes no room', () => {
    const { alloc, load, store, kernel } = K128;
    expect(check(kernel([alloc('a'), alloc('b'), alloc('c'), load('a', 'x'), store('a', 'o1')], 'a2a3'))).toEqual([]);
  });
});

describe('multi-tile buffers (alloc_multi_tile): count tiles, live alike', () => {
  const { alloc, load, store, op, kernel, T } = shapes(128, 128);
  const MT = '!pto.multi_tile_buf<vec, 128x128xf32, count=2>';
  const body = (extra: string[]) => [
    `%mb = pto.alloc_multi_tile : ${MT}`,
    `%m0 = pto.multi_tile_get %mb[%c0] : ${MT} -> ${T}`,
    `%m1 = pto.multi_tile_get %mb[%c1] : ${MT} -> ${T}`,
    load('m0', 'x'),
    load('m1', 'y'),
    ...extra,
    op('tadd', ['m0', 'm1'], 'm0'),
    store('m0', 'o1'),
  ];

  it('a buffer of two 64 KB tiles takes 128 KB from its first use to its last use through either tile', () => {
    const fits = kernel([alloc('a'), ...body([load('a', 'x'), op('tadd', ['a', 'm1'], 'm1')])], 'a5');
    expect(check(fits)).toEqual([]);
    expect(offsets(fits).get('%mb')).toBe(0);
    const over = kernel([alloc('a'), alloc('b'), ...body([load('a', 'x'), load('b', 'x'), op('tadd', ['a', 'b'], 'm1')])], 'a5');
    const found = check(over);
    expect(found.map((f) => [f.line, f.notes.map((n) => n.message)])).toEqual([
      [
        lineOf(over, 'outs(%b'),
        [
          '%mb (!pto.multi_tile_buf<vec, 128x128xf32, count=2>, 131072 bytes) is live here',
          '%a (!pto.tile_buf<vec, 128x128xf32>, 65536 bytes) is live here',
          '%b (!pto.tile_buf<vec, 128x128xf32>, 65536 bytes) is live here',
        ],
      ],
    ]);
  });
});
