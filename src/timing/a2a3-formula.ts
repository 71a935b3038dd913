import { costModelTables } from '../spec/costmodel';
import { elemBytes, noData, OpCost, TileOpInput } from './cost';

/**
 * A2/A3 tile ops from pto-isa's fitted formula table (spec/costmodel/a2a3-formula.json): per op, dtype (f32 or f16)
 * and tile width, cycles = round(slope * rows * cols + bias) over the whole tile; a row with no width (cols null,
 * dtype "any") serves every width and dtype (TEXP, TSQRT), unless dtypeBlindRows is false. Widths the table lacks
 * have no data: the curves differ too much from width to width to interpolate.
 */
export function a2a3FormulaCost(input: TileOpInput, { dtypeBlindRows = true } = {}): OpCost {
  const { a2a3 } = costModelTables();
  const dtype = input.dtype === 'f32' ? 'fp32' : input.dtype === 'f16' ? 'fp16' : undefined;
  const rows = a2a3.rows.filter((r) => r.op === input.op);
  if (rows.length === 0) return noData(`pto-isa has no a2a3 formula for ${input.op}`, 'vector');
  const row =
    rows.find((r) => r.dtype === dtype && r.cols === input.cols) ??
    rows.find((r) => r.dtype === dtype && r.cols === null) ??
    (dtypeBlindRows ? rows.find((r) => r.dtype === 'any' && (r.cols === input.cols || r.cols === null)) : undefined);
  if (!row) {
    const widths = rows.filter((r) => r.dtype === dtype).map((r) => r.cols);
    return noData(
      dtype
        ? `pto-isa's a2a3 formula for ${input.op} ${input.dtype} has no curve for ${input.cols} columns (it has ${widths.join(', ')})`
        : `pto-isa's a2a3 formula for ${input.op} covers f32 and f16, not ${input.dtype}`,
      'vector',
    );
  }
  const cycles = roundCycles(row.slope * input.rows * input.cols + row.bias);
  return { kind: 'cycles', cycles, pipe: 'vector', basis: `a2a3 formula ${row.op} ${row.dtype} cols=${row.cols ?? '*'}` };
}

/** TMATMUL on A2/A3: a head plus one repeat per 16 x (32 bytes of k) x 16 fractal (f32 two cycles each, others one). */
export function a2a3MatmulCost(input: TileOpInput): OpCost {
  const { mad } = costModelTables().arch;
  const bytes = elemBytes(input.dtype);
  const perRepeat = mad.cyclesPerRepeat[input.dtype];
  if (!bytes || !perRepeat || !input.k)
    return noData(`pto-isa's cube formula covers ${Object.keys(mad.cyclesPerRepeat).join(', ')} inputs, not ${input.dtype}`, 'cube');
  const m = input.validRows ?? input.rows;
  const n = input.validCols ?? input.cols;
  const kTile = mad.kFractalBytes / bytes;
  const repeats = Math.ceil(m / mad.mTile) * Math.ceil(input.k / kTile) * Math.ceil(n / mad.nTile);
  return { kind: 'cycles', cycles: mad.headCycles + perRepeat * repeats, pipe: 'cube', basis: 'a2a3 mad formula' };
}

/** C++'s llround of a positive value; nothing below zero. */
export function roundCycles(v: number): number {
  return v <= 0 ? 0 : Math.round(v);
}
