import { LocatedError } from '../../src/diag/located-error';
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../../src/verify/assemble';
import { formatAll } from '../../src/diag/diagnostic';
import { runFunction, runLaunch, Value } from '../../src/vm/interpreter';
import { GlobalBuffer } from '../../src/machine/memory';

/** Assembles `text`, binds pointer arguments to the given arrays, runs the only function. */
function run(text: string, args: Record<string, Float32Array | Int32Array | bigint | number>, target: 'a2a3' | 'a5' = 'a2a3', maxSteps = 1e6) {
  const asm = assemble('test.pto', text, { target });
  if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
  const fn = [...asm.program.functions.values()][0];
  const values = new Map<string, Value>();
  const buffers: Record<string, GlobalBuffer> = {};
  for (const [name, v] of Object.entries(args)) {
    if (v instanceof Float32Array || v instanceof Int32Array) {
      const elem = v instanceof Float32Array ? 'f32' : 'i32';
      buffers[name] = new GlobalBuffer(name, elem, new Uint8Array(v.buffer.slice(0)));
      values.set('%' + name, buffers[name]);
    } else values.set('%' + name, v);
  }
  const result = runFunction(asm.program, asm.types, fn, values, { numerics: 'cpu-sim', maxSteps });
  const f32 = (name: string) => new Float32Array(buffers[name].bytes.buffer.slice(0));
  const i32 = (name: string) => new Int32Array(buffers[name].bytes.buffer.slice(0));
  return { result, f32, i32, buffers };
}

const TB = (rows: number, cols: number, dtype = 'f32', extra = '') =>
  `!pto.tile_buf<loc=vec, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0${extra}>`;

describe('control flow', () => {
  it('runs colsum-loop.pto: block column sums accumulated in order, rounded to f32 after every add', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', 'programs', 'colsum-loop.pto'), 'utf8');
    const x = new Float32Array(64 * 32).map((_, i) => Math.fround(Math.sin(i) * 3.7 + (i % 7) * 0.013));
    const { f32 } = run(text, { x, out: new Float32Array(32) });
    const expected = new Float32Array(32);
    for (let c = 0; c < 32; c++) {
      const blockSum = (b: number) => {
        let s = x[b * 16 * 32 + c];
        for (let r = 1; r < 16; r++) s = Math.fround(s + x[(b * 16 + r) * 32 + c]);
        return s;
      };
      let acc = blockSum(0);
      for (let b = 1; b < 4; b++) acc = Math.fround(acc + blockSum(b));
      expected[c] = acc;
    }
    expect(Array.from(f32('out'))).toEqual(Array.from(expected));
  });

  it('stops a run at --max-steps with a trap located at the op that would exceed it', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', 'programs', 'colsum-loop.pto'), 'utf8');
    const args = { x: new Float32Array(64 * 32), out: new Float32Array(32) };
    // 15 ops up to and including scf.for, 3 iterations of a step each and the body's 5 ops, then partition_view,
    // tstore, return.
    expect(run(text, args, 'a2a3', 36).result.steps).toBe(36);
    expect(() => run(text, args, 'a2a3', 35)).toThrow('stopped after 35 steps (--max-steps)');
  });

  it('threads iter_args through scf.for and results out of scf.if', () => {
    const text = `module {
  func.func @f(%out: !pto.ptr<f32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %next = arith.addi %acc, %i : index
      scf.yield %next : index
    }
    %big = arith.cmpi sgt, %sum, %c3 : index
    %rows = scf.if %big -> (index) {
      scf.yield %c1 : index
    } else {
      scf.yield %c0 : index
    }
    %v = pto.make_tensor_view %out, shape = [%c1, %sum], strides = [%sum, %c1] : !pto.tensor_view<?x?xf32>
    return
  }
}`;
    // 0+1+2+3 = 6 > 3: the loop and the if run; nothing is stored, so only check it runs to the end.
    const { result } = run(text, { out: new Float32Array(8), n: 4n });
    expect(result.steps).toBeGreaterThan(10);
  });

  it('runs scf.while until its condition is false', () => {
    const text = `module {
  func.func @w(%out: !pto.ptr<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %r:2 = scf.while (%i = %c0, %s = %c0) : (index, index) -> (index, index) {
      %go = arith.cmpi slt, %i, %c5 : index
      scf.condition(%go) %i, %s : index, index
    } do {
    ^bb0(%i2: index, %s2: index):
      %i3 = arith.addi %i2, %c1 : index
      %s3 = arith.muli %i3, %i3 : index
      %s4 = arith.addi %s2, %s3 : index
      scf.yield %i3, %s4 : index, index
    }
    %len = arith.addi %r#1, %c0 : index
    %v = pto.make_tensor_view %out, shape = [%c1, %len], strides = [%len, %c1] : !pto.tensor_view<?x?xi32>
    %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %len] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x?xi32>
    return
  }
}`;
    // 1+4+9+16+25 = 55: the partition of 1x55 over a buffer of 55 elements is fine, of 54 it is not.
    expect(() => run(text, { out: new Int32Array(55) })).not.toThrow();
  });
});

describe('Level 1 results', () => {
  it('an op with two tile results gives each its own storage (tdeinterleave: evens and odds)', () => {
    const T = '!pto.tile<loc=vec, dtype=f32, rows=1, cols=8, v_row=1, v_col=8, blayout=row_major, slayout=none_box, fractal=512, pad=0>';
    const text = `module {
  func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %xv = pto.make_tensor_view %x, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %yv = pto.make_tensor_view %y, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [1, 8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x8xf32>
    %lo = pto.partition_view %yv, offsets = [%c0, %c0], sizes = [1, 8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x8xf32>
    %hi = pto.partition_view %yv, offsets = [%c0, %c8], sizes = [1, 8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x8xf32>
    %t = pto.tload %xp : !pto.partition_tensor_view<1x8xf32> -> ${T}
    %even, %odd = pto.tdeinterleave %t, %t : (${T}, ${T}) -> (${T}, ${T})
    pto.tstore %even, %lo : (${T}, !pto.partition_tensor_view<1x8xf32>) -> ()
    pto.tstore %odd, %hi : (${T}, !pto.partition_tensor_view<1x8xf32>) -> ()
    return
  }
}`;
    const x = Float32Array.from([0, 1, 2, 3, 4, 5, 6, 7]);
    const { f32 } = run(text, { x, y: new Float32Array(16) }, 'a5');
    // The stream x ++ x: evens 0 2 4 6 0 2 4 6, odds 1 3 5 7 1 3 5 7.
    expect(Array.from(f32('y'))).toEqual([0, 2, 4, 6, 0, 2, 4, 6, 1, 3, 5, 7, 1, 3, 5, 7]);
  });
});

describe('func.call', () => {
  it('runs call.pto: arguments by value, tiles shared with the caller, results returned', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'syntax', 'call.pto'), 'utf8');
    const asm = assemble('call.pto', text);
    if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
    const x = new Float32Array(64).map((_, i) => Math.fround(i * 0.37 - 9));
    const buffer = new GlobalBuffer('x', 'f32', new Uint8Array(x.buffer.slice(0)));
    runFunction(asm.program, asm.types, asm.program.functions.get('main')!, new Map<string, Value>([['%x', buffer]]), { numerics: 'npu', maxSteps: 1000 });
    // Doubling is exact in f32 here: three doublings are x * 8.
    expect(Array.from(new Float32Array(buffer.bytes.buffer.slice(0)))).toEqual(Array.from(x, (v) => v * 8));
  });

  it('checks a call against the callee', () => {
    const text = `module {
  func.func private @f(%a: index) -> index {
    return %a : index
  }
  func.func @g() {
    %c = arith.constant 1 : i32
    %r = func.call @f(%c) : (i32) -> index
    %s = func.call @missing(%r) : (index) -> index
    return
  }
}`;
    const lines = formatAll(assemble('t.pto', text).diags)
      .split('\n')
      .filter((l) => / error\[E\d{4}\]: /.test(l));
    expect(lines).toEqual([
      't.pto:7:10: error[E0401]: func.call: @f takes (index) -> (index), but this call says (i32) -> (index)',
      't.pto:8:20: error[E0401]: func.call: no function @missing in this module',
    ]);
  });

  it('stops runaway recursion with a located trap (vpto: the back end that does not refuse recursion)', () => {
    const text = `module attributes {pto.backend = "vpto"} {
  func.func @f(%a: index) {
    func.call @f(%a) : (index) -> ()
    return
  }
}`;
    const asm = assemble('t.pto', text);
    expect(asm.diags.hasErrors()).toBe(false);
    expect(() =>
      runFunction(asm.program, asm.types, asm.program.functions.get('f')!, new Map<string, Value>([['%a', 0n]]), { numerics: 'npu', maxSteps: 1e6 }),
    ).toThrow(/func.call: calls nested deeper than 64/);
  });
});

describe('memory', () => {
  const loadStore = (rows: number, cols: number, viewRows: number) => `module {
  func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = arith.constant ${viewRows} : index
    %c = arith.constant ${cols} : index
    %va = pto.make_tensor_view %a, shape = [%r, %c], strides = [%c, %c1] : !pto.tensor_view<?x?xf32>
    %vb = pto.make_tensor_view %b, shape = [%r, %c], strides = [%c, %c1] : !pto.tensor_view<?x?xf32>
    %t = pto.alloc_tile : ${TB(rows, cols)}
    %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%r, %c] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<${viewRows}x${cols}xf32>
    %pb = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%r, %c] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<${viewRows}x${cols}xf32>
    pto.tload ins(%pa : !pto.partition_tensor_view<${viewRows}x${cols}xf32>) outs(%t : ${TB(rows, cols)})
    pto.tstore ins(%t : ${TB(rows, cols)}) outs(%pb : !pto.partition_tensor_view<${viewRows}x${cols}xf32>)
    return
  }
}`;

  it('copies global -> tile -> global exactly', () => {
    const a = new Float32Array(8 * 16).map((_, i) => i * 0.5 - 3);
    const { f32 } = run(loadStore(8, 16, 8), { a, b: new Float32Array(8 * 16) });
    expect(Array.from(f32('b'))).toEqual(Array.from(a));
  });

  it('traps an access past the end of a global buffer, naming the buffer', () => {
    try {
      run(loadStore(8, 16, 8), { a: new Float32Array(100), b: new Float32Array(128) });
      throw new Error('no trap');
    } catch (e) {
      expect(e).toBeInstanceOf(LocatedError);
      expect((e as LocatedError).message).toBe('pto.tload: a: element 100 is out of bounds (the buffer has 100 elements of f32)');
    }
  });

  it('tiles share the UB when they are not live at once; too many live at once are refused before the run', () => {
    // Seven 32 KB f32 tiles: used one at a time they share their space (memory planning) on both targets; all
    // live at the end, they fit in a5's 248 KB as PTOAS plans it, but a2a3's 192 KB holds six.
    const mov = (i: number) => `    pto.tmov ins(%t${i} : ${TB(64, 128)}) outs(%t${i} : ${TB(64, 128)})`;
    const allocs = Array.from({ length: 7 }, (_, i) => `    %t${i} = pto.alloc_tile : ${TB(64, 128)}\n${mov(i)}`).join('\n');
    const text = (end: string) => `module {\n  func.func @k() {\n${allocs}\n${end}    return\n  }\n}`;
    expect(() => run(text(''), {}, 'a5')).not.toThrow();
    expect(() => run(text(''), {}, 'a2a3')).not.toThrow();
    const allLive = text(Array.from({ length: 7 }, (_, i) => mov(i) + '\n').join(''));
    expect(() => run(allLive, {}, 'a5')).not.toThrow();
    expect(() => run(allLive, {}, 'a2a3')).toThrow('error[E0437]: vec overflow: the 7 UB tiles live here need 229376 bytes');
  });
});

describe('numerics profiles', () => {
  const program = `module {
  func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %va = pto.make_tensor_view %a, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %vb = pto.make_tensor_view %b, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x8xf32>
    %pb = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%c1, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x8xf32>
    %s = pto.alloc_tile : ${TB(4, 8)}
    %d = pto.alloc_tile : ${TB(1, 8)}
    pto.tload ins(%pa : !pto.partition_tensor_view<4x8xf32>) outs(%s : ${TB(4, 8)})
    pto.tcolmin ins(%s : ${TB(4, 8)}) outs(%d : ${TB(1, 8)})
    pto.tstore ins(%d : ${TB(1, 8)}) outs(%pb : !pto.partition_tensor_view<1x8xf32>)
    return
  }
}`;

  it('tcolmin: a NaN in a later row wins under npu (vmin propagates NaN) but not under cpu-sim (strict < scan)', () => {
    // Column 0: NaN in row 2; column 1: NaN in row 0; column 2: +0 then -0; other columns plain numbers.
    const a = new Float32Array(32).map((_, i) => 10 - i);
    a[2 * 8 + 0] = NaN;
    a[0 * 8 + 1] = NaN;
    a[0 * 8 + 2] = 0;
    for (let r = 1; r < 4; r++) a[r * 8 + 2] = -0;
    const runWith = (numerics: 'npu' | 'cpu-sim') => {
      const asm = assemble('t.pto', program);
      if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
      const fn = [...asm.program.functions.values()][0];
      const b = new GlobalBuffer('b', 'f32', new Uint8Array(32));
      const values = new Map<string, Value>([
        ['%a', new GlobalBuffer('a', 'f32', new Uint8Array(a.buffer.slice(0)))],
        ['%b', b],
      ]);
      runFunction(asm.program, asm.types, fn, values, { numerics, maxSteps: 1e6 });
      return Array.from(new Float32Array(b.bytes.buffer.slice(0)));
    };
    const npu = runWith('npu');
    const sim = runWith('cpu-sim');
    expect(npu[0]).toBeNaN();
    expect(sim[0]).toBe(-14); // rows 0, 1, 3 of column 0: 10, 2, -14
    expect(npu[1]).toBeNaN();
    expect(sim[1]).toBeNaN(); // a NaN that comes first wins in both
    expect(Object.is(npu[2], 0)).toBe(true); // +0 first: -0 is not strictly smaller
    expect(Object.is(sim[2], 0)).toBe(true);
    expect(npu.slice(3)).toEqual([-17, -18, -19, -20, -21]); // row 3 holds each column's minimum: 10 - (24 + c)
    expect(sim.slice(3)).toEqual(npu.slice(3));
  });
});

describe('manual placement (alloc_tile addr = %a)', () => {
  // Two views of the same UB bytes: a 2x8 f32 tile at 1024 and a 1x16 f32 tile at 1024.
  const placed = (addr2: number) => `module {
  func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %at = arith.constant 1024 : index
    %at2 = arith.constant ${addr2} : index
    %va = pto.make_tensor_view %a, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
    %vb = pto.make_tensor_view %b, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
    %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x8xf32>
    %pb = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>
    %t = pto.alloc_tile addr = %at : ${TB(2, 8)}
    %u = pto.alloc_tile addr = %at2 : ${TB(1, 16)}
    pto.tload ins(%pa : !pto.partition_tensor_view<2x8xf32>) outs(%t : ${TB(2, 8)})
    pto.tstore ins(%u : ${TB(1, 16)}) outs(%pb : !pto.partition_tensor_view<1x16xf32>)
    return
  }
}`;

  it('tiles at the same address share their bytes', () => {
    const a = new Float32Array(16).map((_, i) => i + 0.5);
    const { f32 } = run(placed(1024), { a, b: new Float32Array(16) });
    expect(Array.from(f32('b'))).toEqual(Array.from(a));
  });

  it('an unaligned constant address is a verifier error; an out-of-buffer one a trap at the address operand', () => {
    expect(() => run(placed(1000), { a: new Float32Array(16), b: new Float32Array(16) })).toThrow(
      '15:32: error[E0405]: pto.alloc_tile: addr must be aligned to 32 bytes for local tile memory space, got 1000',
    );
    expect(() => run(placed(196608 - 32), { a: new Float32Array(16), b: new Float32Array(16) })).toThrow(
      'pto.alloc_tile: a 64-byte tile at address 196576 ends past the 196608-byte UB of a2a3',
    );
  });
});

describe('tload custom pad values (pto-isa PadValueCustom: bit 32 set, the element bits below)', () => {
  const program = (pad: string) => `module {
  func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %xv = pto.make_tensor_view %x, shape = [%c2, %c2], strides = [%c2, %c1] : !pto.tensor_view<?x?xf32>
    %yv = pto.make_tensor_view %y, shape = [%c2, %c4], strides = [%c4, %c1] : !pto.tensor_view<?x?xf32>
    %xp = pto.partition_view %xv, offsets = [%c0, %c0], sizes = [%c2, %c2] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x2xf32>
    %yp = pto.partition_view %yv, offsets = [%c0, %c0], sizes = [%c2, %c4] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x4xf32>
    %t = pto.alloc_tile addr = %c0 : ${TB(2, 8).replace('v_col=8', 'v_col=2').replace('pad=0', `pad=${pad}`)}
    %u = pto.alloc_tile addr = %c0 : ${TB(2, 8).replace('v_col=8', 'v_col=4')}
    pto.tload ins(%xp : !pto.partition_tensor_view<2x2xf32>) outs(%t : ${TB(2, 8).replace('v_col=8', 'v_col=2').replace('pad=0', `pad=${pad}`)})
    pto.tstore ins(%u : ${TB(2, 8).replace('v_col=8', 'v_col=4')}) outs(%yp : !pto.partition_tensor_view<2x4xf32>)
    return
  }
}`;

  it('pads f32 with the float whose bits the value carries: 0x1bf800000 is -1.0', () => {
    const { f32 } = run(program('0x1bf800000'), { x: new Float32Array([1, 2, 3, 4]), y: new Float32Array(8) });
    expect(Array.from(f32('y'))).toEqual([1, 2, -1, -1, 3, 4, -1, -1]);
  });

  it('keeps the bits exactly, a NaN payload included', () => {
    const { buffers } = run(program('0x17fc01234'), { x: new Float32Array([1, 2, 3, 4]), y: new Float32Array(8) });
    expect(new DataView(buffers.y.bytes.buffer).getUint32(8, true)).toBe(0x7fc01234);
  });
});

describe('runtime queries', () => {
  it('pto.get_block_idx/num and get_subblock_idx/num are i64: the VM runs one block of one sub-block', () => {
    const tb = TB(1, 8, 'i32');
    const text = `module {
  func.func @k(%out: !pto.ptr<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %b = pto.get_block_idx
    %bn = pto.get_block_num
    %s = pto.get_subblock_idx
    %sn = pto.get_subblock_num
    %t = pto.alloc_tile : ${tb}
    %b32 = arith.trunci %b : i64 to i32
    %bn32 = arith.trunci %bn : i64 to i32
    %s32 = arith.trunci %s : i64 to i32
    %sn32 = arith.trunci %sn : i64 to i32
    pto.tsetval ins(%c0, %b32 : index, i32) outs(%t : ${tb})
    pto.tsetval ins(%c1, %bn32 : index, i32) outs(%t : ${tb})
    pto.tsetval ins(%c2, %s32 : index, i32) outs(%t : ${tb})
    pto.tsetval ins(%c3, %sn32 : index, i32) outs(%t : ${tb})
    %v = pto.make_tensor_view %out, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>
    %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %c8] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x8xi32>
    pto.tstore ins(%t : ${tb}) outs(%p : !pto.partition_tensor_view<1x8xi32>)
    return
  }
}`;
    const { i32 } = run(text, { out: new Int32Array(8).fill(-1) });
    expect(Array.from(i32('out')).slice(0, 4)).toEqual([0, 1, 0, 1]);
  });

  it('a launch on 3 blocks of 2 sub-blocks runs 6 cores in order, each with its own indices, over shared global memory', () => {
    // Core (b, s) writes [b, blocks, s, subblocks, order] at row b * subblocks + s of %out; `order` is how many cores
    // ran before it, counted in %out[30], which every core reads and increments.
    const text = `module {
  func.func @k(%out: !pto.ptr<i32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c30 = arith.constant 30 : index
    %one = arith.constant 1 : i32
    %b = pto.get_block_idx
    %bn = pto.get_block_num
    %s = pto.get_subblock_idx
    %sn = pto.get_subblock_num
    %bs = arith.muli %b, %sn : i64
    %row64 = arith.addi %bs, %s : i64
    %row = arith.index_cast %row64 : i64 to index
    %base = arith.muli %row, %c5 : index
    %p = pto.addptr %out, %base : !pto.ptr<i32> -> !pto.ptr<i32>
    %order = pto.load_scalar %out[%c30] : !pto.ptr<i32> -> i32
    %next = arith.addi %order, %one : i32
    pto.store_scalar %next, %out[%c30] : !pto.ptr<i32>, i32
    %b32 = arith.trunci %b : i64 to i32
    %bn32 = arith.trunci %bn : i64 to i32
    %s32 = arith.trunci %s : i64 to i32
    %sn32 = arith.trunci %sn : i64 to i32
    %c0 = arith.constant 0 : index
    pto.store_scalar %b32, %p[%c0] : !pto.ptr<i32>, i32
    pto.store_scalar %bn32, %p[%c1] : !pto.ptr<i32>, i32
    pto.store_scalar %s32, %p[%c2] : !pto.ptr<i32>, i32
    pto.store_scalar %sn32, %p[%c3] : !pto.ptr<i32>, i32
    pto.store_scalar %order, %p[%c4] : !pto.ptr<i32>, i32
    return
  }
}`;
    const asm = assemble('launch.pto', text);
    if (asm.diags.hasErrors()) throw new Error(formatAll(asm.diags));
    const out = new GlobalBuffer('out', 'i32', new Uint8Array(31 * 4));
    const fn = [...asm.program.functions.values()][0];
    const result = runLaunch(asm.program, asm.types, fn, new Map<string, Value>([['%out', out]]), { numerics: 'npu', maxSteps: 1e6 }, 3, 2);
    const got = Array.from(new Int32Array(out.bytes.buffer.slice(0)));
    const rows = [0, 1, 2].flatMap((b) => [0, 1].map((s) => [b, 3, s, 2, b * 2 + s]));
    expect(got).toEqual([...rows.flat(), 6]);
    expect(result.steps).toBe(6 * 30); // 30 ops per core, counted in the kernel above
  });
});
