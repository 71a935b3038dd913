/**
 * `#pto.vmi.layout<...>`, the physical placement a VMI type may carry (VMIAttrs.td; parsed, printed and verified by
 * VMILayoutAttr in lib/PTO/IR/VMI.cpp): `contiguous[, lane_stride = s]`, `deinterleaved = 2|4[, lane_stride = s]`,
 * `block_deinterleaved = 2|4`, `num_groups = n[, slots = k][, lane_stride = s]`. A logical value does not observe it;
 * types compare by its canonical text (VMILayoutAttr::print's).
 */
export interface VmiLayout {
  kind: 'contiguous' | 'deinterleaved' | 'block_deinterleaved' | 'num_groups';
  factor: number;
  slots: number;
  laneStride: number;
}

/** The layout `#pto.vmi.layout<...>` spells, or what is wrong with it (VMI.cpp's messages). */
export function parseVmiLayout(text: string): VmiLayout | { error: string } {
  const m = /^#pto\.vmi\.layout<\s*([a-z_]+)\s*(?:=\s*(-?\d+))?\s*((?:,\s*[a-z_]+\s*=\s*-?\d+\s*)*)>$/.exec(text.trim());
  if (!m) return { error: `malformed VMI layout '${text}'` };
  const kind = m[1];
  if (kind !== 'contiguous' && kind !== 'deinterleaved' && kind !== 'block_deinterleaved' && kind !== 'num_groups')
    return { error: "expected VMI layout kind 'contiguous' or 'deinterleaved' or 'block_deinterleaved' or 'num_groups'" };
  if ((kind === 'contiguous') !== (m[2] === undefined)) return { error: `malformed VMI layout '${text}'` };
  const layout: VmiLayout = { kind, factor: m[2] === undefined ? 1 : Number(m[2]), slots: 0, laneStride: 1 };
  const allowed = kind === 'num_groups' ? ['slots', 'lane_stride'] : kind === 'block_deinterleaved' ? [] : ['lane_stride'];
  for (const field of m[3].split(',').slice(1)) {
    const [key, value] = field.split('=').map((s) => s.trim());
    if (!allowed.includes(key))
      return { error: kind === 'num_groups' ? "expected 'slots = <integer>' or 'lane_stride = <integer>'" : "expected 'lane_stride = <integer>'" };
    if (key === 'slots') layout.slots = Number(value);
    else layout.laneStride = Number(value);
  }
  const problem = layoutProblem(layout);
  return problem ? { error: problem } : layout;
}

/** VMILayoutAttr::verify. */
function layoutProblem(l: VmiLayout): string | undefined {
  if (l.laneStride <= 0) return `#pto.vmi.layout<${l.kind}> requires lane_stride to be positive`;
  if ((l.kind === 'deinterleaved' || l.kind === 'block_deinterleaved') && l.factor !== 2 && l.factor !== 4)
    return `#pto.vmi.layout<${l.kind} = ${l.factor}> expected factor to be 2 or 4`;
  if (l.kind === 'num_groups' && l.factor <= 0) return `#pto.vmi.layout<num_groups = ${l.factor}> requires num_groups to be positive`;
  if (l.kind === 'num_groups' && l.slots < 0) return `#pto.vmi.layout<num_groups = ${l.factor}, slots = ${l.slots}> requires slots to be omitted or positive`;
  return undefined;
}

/** The canonical text (VMILayoutAttr::print's). */
export function printVmiLayout(l: VmiLayout): string {
  let s = l.kind;
  if (l.kind !== 'contiguous') s += ` = ${l.factor}`;
  if (l.slots !== 0) s += `, slots = ${l.slots}`;
  if (l.laneStride !== 1) s += `, lane_stride = ${l.laneStride}`;
  return `#pto.vmi.layout<${s}>`;
}
