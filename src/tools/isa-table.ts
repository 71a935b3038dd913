import { isa } from '../spec/isa';
import { TARGETS } from '../spec/schema';

/** Prints docs/isa.md: the instruction coverage table, generated from spec/instructions/*.json. */
export function isaTable(): string {
  const spec = isa();
  const lines = [
    '# Instruction coverage',
    '',
    'Generated from `spec/instructions/*.json` by `npm run docs:isa`; do not edit by hand.',
    '',
    '| instruction | family | operands (L2: outs / ins) | tile locations | layouts | a2a3 dtypes | a5 dtypes | VM |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const i of spec.instructions.values()) {
    const operands = `${i.outs.map((o) => o.name).join(', ')} / ${i.ins.map((o) => o.name + (o.optional ? '?' : '')).join(', ')}`;
    const locs = Object.entries(i.tileLocs).map(([k, v]) => `${k}: ${v.join('/')}`).join('; ');
    const layouts = Object.entries(i.layouts).filter(([, v]) => v !== 'any').map(([k, v]) => `${k}: ${v}`).join('; ') || 'any';
    const dtypes = TARGETS.map((t) => {
      const table = i.dtypes[t];
      if (!table) return 'n/a';
      const sets = [...new Set(Object.values(table).map((l) => l.join(', ')))];
      return sets.length === 1 ? sets[0] : Object.entries(table).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ');
    });
    lines.push(`| \`${i.opName}\` | ${i.family} | ${operands} | ${locs} | ${layouts} | ${dtypes[0]} | ${dtypes[1]} | ${i.implemented ? 'yes' : 'no'} |`);
  }
  lines.push('', '## Notes', '');
  for (const i of spec.instructions.values()) for (const n of i.notes ?? []) lines.push(`- \`${i.opName}\`: ${n}`);
  return lines.join('\n') + '\n';
}

if (require.main === module) process.stdout.write(isaTable());
