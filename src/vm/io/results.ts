import { GlobalBuffer } from '../../machine/memory';
import { Scalar } from '../../numerics/elements';

export function bufferValues(b: GlobalBuffer, limit = b.length): Scalar[] {
  const out: Scalar[] = [];
  const size = b.codec.size;
  const n = Math.min(limit, b.length);
  // Only the elements listed are made (a generated input's other chunks need not be).
  const bytes = b.materialize(0, n * size);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) out.push(b.codec.read(view, i * size));
  return out;
}

/** JSON-safe: NaN and infinities as strings, 64-bit integers as decimal strings. */
export function formatValue(v: Scalar): number | string {
  if (typeof v === 'bigint') return v.toString();
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) return '-0';
  return v;
}

const SHOWN = 64;

/** The shortest decimal that reads back as the same element (f32 -3.7731953, not -3.773195266723633). */
export function shortestDecimal(v: Scalar, round: (x: number) => Scalar): string {
  if (typeof v === 'bigint' || !Number.isFinite(v) || Number.isInteger(v)) return String(formatValue(v));
  for (let digits = 1; digits <= 17; digits++) {
    const text = v.toPrecision(digits);
    if (round(Number(text)) === v) return String(Number(text));
  }
  return String(v);
}

/** How many elements of the buffer the program stored. */
export function writtenCount(b: GlobalBuffer): number {
  const marks = b.written;
  // Only where a store may have been (a generated input's chunks stored into): its other marks are all 0.
  let n = 0;
  for (const [start, end] of b.storedRanges()) for (let i = start; i < end; i++) n += marks[i];
  return n;
}

/** A short human summary: for each argument the program wrote, how much and the first values. */
export function summarize(buffers: GlobalBuffer[], origins: Map<string, string>): string {
  const lines: string[] = [];
  for (const b of buffers) {
    const written = writtenCount(b);
    if (written === 0) continue;
    lines.push(`%${b.name}: ${b.elem}, wrote ${written} of ${b.length} elements (input: ${origins.get(b.name) ?? '?'})`);
    const shown: number[] = [];
    for (let i = 0; i < b.length && shown.length < SHOWN; i++) if (b.written[i]) shown.push(i);
    const size = b.codec.size;
    const value = (i: number) => {
      const bytes = b.materialize(i * size, (i + 1) * size);
      return b.codec.read(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), i * size);
    };
    for (let k = 0; k < shown.length; k += 8) {
      const row = shown.slice(k, k + 8);
      lines.push(`  [${row[0]}] ` + row.map((i) => shortestDecimal(value(i), b.codec.round)).join(' '));
    }
    if (written > SHOWN) lines.push(`  ... ${written - SHOWN} more (use --out ${b.name}=FILE.npy or --json)`);
  }
  if (lines.length === 0) lines.push('no pointer argument was written');
  return lines.join('\n') + '\n';
}
