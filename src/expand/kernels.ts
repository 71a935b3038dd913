/**
 * A5 tile-level kernels for the expansion tests: GM -> tiles (tload), one tile op, tiles -> GM (tstore), over tiles
 * of `rows x cols` elements of which `vRow x vCol` are valid (the partitions move the valid region only).
 */
export interface TileKernel {
  op: string;
  dtype: string;
  rows: number;
  cols: number;
  vRow: number;
  vCol: number;
}

function kernel(k: TileKernel, inputs: string[], scalar?: string): string {
  const tile = `!pto.tile_buf<loc=vec, dtype=${k.dtype}, rows=${k.rows}, cols=${k.cols}, v_row=${k.vRow}, v_col=${k.vCol}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const part = `!pto.partition_tensor_view<${k.vRow}x${k.vCol}x${k.dtype}>`;
  const view = `!pto.tensor_view<?x?x${k.dtype}>`;
  const viewOf = (p: string): string =>
    `    %${p}v = pto.make_tensor_view %${p}, shape = [%r, %c], strides = [%c, %c1] : ${view}\n` +
    `    %${p}p = pto.partition_view %${p}v, offsets = [%c0, %c0], sizes = [%r, %c] : ${view} -> ${part}\n`;
  const params = [...inputs, 'out'].map((p) => `%${p}: !pto.ptr<${k.dtype}>`).join(', ');
  const loads = inputs.map((p) => `    %t${p} = pto.alloc_tile : ${tile}\n    pto.tload ins(%${p}p : ${part}) outs(%t${p} : ${tile})\n`).join('');
  return `module attributes {pto.target_arch = "a5"} {
  func.func @kernel(${params}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = arith.constant ${k.vRow} : index
    %c = arith.constant ${k.vCol} : index
${scalar ? `    %s = arith.constant ${scalar} : ${k.dtype}\n` : ''}${[...inputs, 'out'].map(viewOf).join('')}${loads}    %td = pto.alloc_tile : ${tile}
    ${k.op} ins(${inputs.map((p) => `%t${p}`).join(', ')}${scalar ? ', %s' : ''} : ${inputs.map(() => tile).join(', ')}${scalar ? `, ${k.dtype}` : ''}) outs(%td : ${tile})
    pto.tstore ins(%td : ${tile}) outs(%outp : ${part})
    return
  }
}
`;
}

/** `op ins(%ta, %tb) outs(%td)`: out = a op b over the valid region. */
export const binaryKernel = (k: TileKernel): string => kernel(k, ['a', 'b']);

/** `op ins(%ta) outs(%td)`. */
export const unaryKernel = (k: TileKernel): string => kernel(k, ['a']);

/** `op ins(%ta, %s) outs(%td)` with the scalar a constant (`2.5`, `7`) of the tile's element type. */
export const scalarKernel = (k: TileKernel, scalar: string): string => kernel(k, ['a'], scalar);

/** `pto.tcmp ins(%ta, %tb {cmpMode = #pto<cmp MODE>}) outs(%td)`: f32 sources, an i8 destination of the same shape. */
export function compareKernel(mode: string, rows: number, cols: number): string {
  const tile = (d: string): string =>
    `!pto.tile_buf<loc=vec, dtype=${d}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const part = (d: string): string => `!pto.partition_tensor_view<${rows}x${cols}x${d}>`;
  const view = (d: string): string => `!pto.tensor_view<?x?x${d}>`;
  const viewOf = (p: string, d: string): string =>
    `    %${p}v = pto.make_tensor_view %${p}, shape = [%r, %c], strides = [%c, %c1] : ${view(d)}\n` +
    `    %${p}p = pto.partition_view %${p}v, offsets = [%c0, %c0], sizes = [%r, %c] : ${view(d)} -> ${part(d)}\n`;
  return `module attributes {pto.target_arch = "a5"} {
  func.func @kernel(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %out: !pto.ptr<i8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = arith.constant ${rows} : index
    %c = arith.constant ${cols} : index
${viewOf('a', 'f32')}${viewOf('b', 'f32')}${viewOf('out', 'i8')}    %ta = pto.alloc_tile : ${tile('f32')}
    %tb = pto.alloc_tile : ${tile('f32')}
    %td = pto.alloc_tile : ${tile('i8')}
    pto.tload ins(%ap : ${part('f32')}) outs(%ta : ${tile('f32')})
    pto.tload ins(%bp : ${part('f32')}) outs(%tb : ${tile('f32')})
    pto.tcmp ins(%ta, %tb {cmpMode = #pto<cmp ${mode}>} : ${tile('f32')}, ${tile('f32')}) outs(%td : ${tile('i8')})
    pto.tstore ins(%td : ${tile('i8')}) outs(%outp : ${part('i8')})
    return
  }
}
`;
}

/** `pto.tcvt ins(%ta {rmode = #pto<round_mode MODE>}) outs(%td)`: a `from` tile converted to a `to` tile. */
export function convertKernel(from: string, to: string, rows: number, cols: number, rmode?: string): string {
  const tile = (d: string): string =>
    `!pto.tile_buf<loc=vec, dtype=${d}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const part = (d: string): string => `!pto.partition_tensor_view<${rows}x${cols}x${d}>`;
  const view = (d: string): string => `!pto.tensor_view<?x?x${d}>`;
  const viewOf = (p: string, d: string): string =>
    `    %${p}v = pto.make_tensor_view %${p}, shape = [%r, %c], strides = [%c, %c1] : ${view(d)}\n` +
    `    %${p}p = pto.partition_view %${p}v, offsets = [%c0, %c0], sizes = [%r, %c] : ${view(d)} -> ${part(d)}\n`;
  const attrs = rmode ? ` {rmode = #pto<round_mode ${rmode}>}` : '';
  return `module attributes {pto.target_arch = "a5"} {
  func.func @kernel(%a: !pto.ptr<${from}>, %out: !pto.ptr<${to}>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = arith.constant ${rows} : index
    %c = arith.constant ${cols} : index
${viewOf('a', from)}${viewOf('out', to)}    %ta = pto.alloc_tile : ${tile(from)}
    %td = pto.alloc_tile : ${tile(to)}
    pto.tload ins(%ap : ${part(from)}) outs(%ta : ${tile(from)})
    pto.tcvt ins(%ta${attrs} : ${tile(from)}) outs(%td : ${tile(to)})
    pto.tstore ins(%td : ${tile(to)}) outs(%outp : ${part(to)})
    return
  }
}
`;
}

/** One operand tile of `opKernel`: its element type, shape and valid shape (and whether GM gives its contents). */
export interface OperandTile {
  dtype: string;
  rows: number;
  cols: number;
  vRow: number;
  vCol: number;
  /** A scratch tile (`tmp`): allocated, not loaded. */
  scratch?: boolean;
  /** The tile type's pad value (genericKernel; default 0, none). */
  pad?: number;
}

/**
 * `op ins(%t0, %t1, ... : ...) outs(%td : ...)` over tiles of any shapes: the sources that are not scratch are
 * loaded from GM parameters %a, %b, ... (their valid regions, rows `vCol` apart), the destination stored to %out.
 */
export function opKernel(op: string, srcs: OperandTile[], dst: OperandTile): string {
  const names = 'abcdefgh';
  const tile = (t: OperandTile): string =>
    `!pto.tile_buf<loc=vec, dtype=${t.dtype}, rows=${t.rows}, cols=${t.cols}, v_row=${t.vRow}, v_col=${t.vCol}, blayout=row_major, slayout=none_box, fractal=512, pad=0>`;
  const part = (t: OperandTile): string => `!pto.partition_tensor_view<${t.vRow}x${t.vCol}x${t.dtype}>`;
  const view = (t: OperandTile): string => `!pto.tensor_view<?x?x${t.dtype}>`;
  const loaded = srcs.map((t, i) => ({ t, p: names[i] })).filter((x) => !x.t.scratch);
  const gm = [...loaded, { t: dst, p: 'out' }];
  const consts = new Set(gm.flatMap(({ t }) => [t.vRow, t.vCol]));
  const viewOf = ({ t, p }: { t: OperandTile; p: string }): string =>
    `    %${p}v = pto.make_tensor_view %${p}, shape = [%k${t.vRow}, %k${t.vCol}], strides = [%k${t.vCol}, %k1] : ${view(t)}\n` +
    `    %${p}p = pto.partition_view %${p}v, offsets = [%k0, %k0], sizes = [%k${t.vRow}, %k${t.vCol}] : ${view(t)} -> ${part(t)}\n`;
  const params = gm.map(({ t, p }) => `%${p}: !pto.ptr<${t.dtype}>`).join(', ');
  const allocs = srcs.map((t, i) => `    %t${names[i]} = pto.alloc_tile : ${tile(t)}\n`).join('') + `    %td = pto.alloc_tile : ${tile(dst)}\n`;
  const loads = loaded.map(({ t, p }) => `    pto.tload ins(%${p}p : ${part(t)}) outs(%t${p} : ${tile(t)})\n`).join('');
  return `module attributes {pto.target_arch = "a5"} {
  func.func @kernel(${params}) {
${[0, 1, ...consts]
  .filter((c, i, all) => all.indexOf(c) === i)
  .map((c) => `    %k${c} = arith.constant ${c} : index\n`)
  .join(
    '',
  )}${gm.map(viewOf).join('')}${allocs}${loads}    ${op} ins(${srcs.map((_, i) => `%t${names[i]}`).join(', ')} : ${srcs.map(tile).join(', ')}) outs(%td : ${tile(dst)})
    pto.tstore ins(%td : ${tile(dst)}) outs(%outp : ${part(dst)})
    return
  }
}
`;
}

/** An operand of `genericKernel`'s op: a tile (loaded from GM unless scratch) or a scalar constant. */
export type KernelOperand = OperandTile | { scalar: string; type: string };

/**
 * `op ins(...) outs(...)` with tiles and scalars in the op's operand order, `attrs` (`{cmpMode = ...}`) after the
 * ins operands: each loaded source from GM parameters %a, %b, ... (in order), each destination stored to %out, %out1, ...
 */
export function genericKernel(op: string, ins: KernelOperand[], outs: OperandTile[], attrs = ''): string {
  const names = 'abcdefgh';
  const tile = (t: OperandTile): string =>
    `!pto.tile_buf<loc=vec, dtype=${t.dtype}, rows=${t.rows}, cols=${t.cols}, v_row=${t.vRow}, v_col=${t.vCol}, blayout=row_major, slayout=none_box, fractal=512, pad=${t.pad ?? 0}>`;
  const part = (t: OperandTile): string => `!pto.partition_tensor_view<${t.vRow}x${t.vCol}x${t.dtype}>`;
  const view = (t: OperandTile): string => `!pto.tensor_view<?x?x${t.dtype}>`;
  const isTile = (o: KernelOperand): o is OperandTile => !('scalar' in o);
  const srcs = ins.map((o, i) => ({ o, p: names[i] }));
  const loaded = srcs.filter((x): x is { o: OperandTile; p: string } => isTile(x.o) && !x.o.scratch);
  const stored = outs.map((t, i) => ({ o: t, p: i === 0 ? 'out' : `out${i}` }));
  const gm = [...loaded, ...stored];
  const consts = new Set(gm.flatMap(({ o }) => [o.vRow, o.vCol]));
  const viewOf = ({ o, p }: { o: OperandTile; p: string }): string =>
    `    %${p}v = pto.make_tensor_view %${p}, shape = [%k${o.vRow}, %k${o.vCol}], strides = [%k${o.vCol}, %k1] : ${view(o)}\n` +
    `    %${p}p = pto.partition_view %${p}v, offsets = [%k0, %k0], sizes = [%k${o.vRow}, %k${o.vCol}] : ${view(o)} -> ${part(o)}\n`;
  const value = (x: { o: KernelOperand; p: string }): string => (isTile(x.o) ? `%t${x.p}` : `%s${x.p}`);
  const typeOf = (o: KernelOperand): string => (isTile(o) ? tile(o) : o.type);
  return `module attributes {pto.target_arch = "a5"} {
  func.func @kernel(${gm.map(({ o, p }) => `%${p}: !pto.ptr<${o.dtype}>`).join(', ')}) {
${[0, 1, ...consts]
  .filter((c, i, all) => all.indexOf(c) === i)
  .map((c) => `    %k${c} = arith.constant ${c} : index\n`)
  .join('')}${srcs
    .filter((x) => !isTile(x.o))
    .map((x) => `    %s${x.p} = arith.constant ${(x.o as { scalar: string }).scalar} : ${typeOf(x.o)}\n`)
    .join('')}${gm.map(viewOf).join('')}${srcs
    .filter((x) => isTile(x.o))
    .map((x) => `    %t${x.p} = pto.alloc_tile : ${typeOf(x.o)}\n`)
    .join('')}${stored.map(({ o, p }) => `    %t${p} = pto.alloc_tile : ${tile(o)}\n`).join('')}${loaded
    .map(({ o, p }) => `    pto.tload ins(%${p}p : ${part(o)}) outs(%t${p} : ${tile(o)})\n`)
    .join('')}    ${op} ins(${srcs.map(value).join(', ')}${attrs ? ` ${attrs}` : ''} : ${ins.map(typeOf).join(', ')}) outs(${stored
    .map(({ p }) => `%t${p}`)
    .join(', ')} : ${outs.map(tile).join(', ')})
${stored.map(({ o, p }) => `    pto.tstore ins(%t${p} : ${tile(o)}) outs(%${p}p : ${part(o)})\n`).join('')}    return
  }
}
`;
}
