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

/** A whole `rows x cols` tile of `dtype`, every element valid. */
const wholeTile = (dtype: string, rows: number, cols: number): OperandTile => ({ dtype, rows, cols, vRow: rows, vCol: cols });

/** `pto.tcmp ins(%ta, %tb {cmpMode = #pto<cmp MODE>}) outs(...)`: f32 sources, an i8 destination of the same shape. */
export function compareKernel(mode: string, rows: number, cols: number): string {
  const f32 = wholeTile('f32', rows, cols);
  return genericKernel('pto.tcmp', [f32, f32], [wholeTile('i8', rows, cols)], `{cmpMode = #pto<cmp ${mode}>}`);
}

/** `pto.tcvt ins(%ta {rmode = #pto<round_mode MODE>}) outs(...)`: a `from` tile converted to a `to` tile. */
export function convertKernel(from: string, to: string, rows: number, cols: number, rmode?: string): string {
  return genericKernel('pto.tcvt', [wholeTile(from, rows, cols)], [wholeTile(to, rows, cols)], rmode ? `{rmode = #pto<round_mode ${rmode}>}` : '');
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
 * `op ins(%t0, %t1, ... : ...) outs(... : ...)` over tiles of any shapes: the sources that are not scratch are
 * loaded from GM parameters %a, %b, ... (their valid regions, rows `vCol` apart), the destination stored to %out.
 */
export const opKernel = (op: string, srcs: OperandTile[], dst: OperandTile): string => genericKernel(op, srcs, [dst]);

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
