import { Instruction, isa, knownOps } from '../spec/isa';
import { opRegistry } from '../ops/registry';
import { TARGETS } from '../spec/schema';
import { ElemType } from '../types/type';
import { specTables } from '../spec/tables';
import { MICRO_SEMANTICS } from '../micro/execute';

/** Prints docs/isa.md: the coverage table and the instruction reference, generated from spec/. */

const ELEMENTS: ElemType[] = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f16', 'bf16', 'f32'];

/** The operand whose element types the coverage table shows: the first source tile with a list, else the destination. */
function keyOperand(i: Instruction): string | undefined {
  const withList = (name: string) => TARGETS.some((t) => (i.dtypes[t]?.[name] ?? []).length > 0);
  const tiles = i.operands.filter((o) => o.kind === 'tile');
  return (tiles.find((o) => o.role === 'src' && withList(o.name)) ?? tiles.find((o) => o.role === 'dst' && withList(o.name)))?.name;
}

function coverageCell(i: Instruction, target: (typeof TARGETS)[number], e: ElemType): string {
  const table = i.dtypes[target];
  if (!table) return '';
  const key = keyOperand(i);
  const list = key ? (table[key] ?? []) : [];
  if (list.length > 0 && !list.includes(e)) return '';
  return i.implemented ? 'R' : 'v';
}

function coverage(instructions: Instruction[]): string[] {
  const head = TARGETS.flatMap((t) => ELEMENTS.map((e) => `${t === 'a2a3' ? 'A2' : 'A5'} ${e}`));
  const lines = [
    '## Coverage',
    '',
    'One row per instruction, one column per target and element type (of its first source tile, or of its',
    'destination when the sources have no list). **R**: verified and run by the VM. **v**: verified by `pto-as`; the VM',
    'reports it as not implemented (see "Not run by the VM" below for why). Empty: the ISA does not define it.',
    '',
    `| instruction | family | ${head.join(' | ')} |`,
    `|---|---|${head.map(() => ':-:').join('|')}|`,
  ];
  for (const i of instructions)
    lines.push(`| \`${i.opName}\` | ${i.family} | ${TARGETS.flatMap((t) => ELEMENTS.map((e) => coverageCell(i, t, e))).join(' | ')} |`);
  const run = instructions.filter((i) => i.implemented).length;
  lines.push('', `${instructions.length} instructions described, ${run} run by the VM.`);
  return lines;
}

function holes(instructions: Instruction[]): string[] {
  const lines = ['## Not run by the VM', '', 'Instructions the verifier checks but the VM does not run, and why:', ''];
  const missing = instructions.filter((i) => !i.implemented);
  if (missing.length === 0) lines.push('None.');
  for (const i of missing) lines.push(`- \`${i.opName}\`: ${(i.notes ?? ['(no reason recorded)']).join(' ')}`);
  const { gaps } = knownOps();
  lines.push(
    '',
    '## PTO ops without an instruction table',
    '',
    'Ops of the PTOAS dialect or the manual that `spec/instructions/` does not describe (the verifier says "not implemented yet"):',
    '',
  );
  for (const g of gaps) lines.push(`- ${g.reason}: ${g.ops.map((o) => `\`${o}\``).join(', ')}`);
  return lines;
}

/**
 * Today's dialect: each tile-level op of PTOAS at the reference commit, and how far the toolchain takes it. An op
 * is parsed and verified when the registry defines it, and run when its definition runs it (for a table
 * instruction: when its table says the VM implements it).
 */
function dialectCoverage(): string[] {
  const registry = opRegistry();
  const { ptoas } = knownOps();
  const status = (name: string): 'run' | 'verified' | 'not implemented' => {
    const entry = registry.lookup(name);
    if (!entry) return 'not implemented';
    const instruction = isa().instructions.get(name.slice('pto.'.length));
    if (instruction) return instruction.implemented ? 'run' : 'verified';
    return entry.def.execute ? 'run' : 'verified';
  };
  const by = new Map<string, string[]>();
  for (const name of ptoas) by.set(status(name), [...(by.get(status(name)) ?? []), name]);
  const count = (k: string) => by.get(k)?.length ?? 0;
  const lines = [
    "## Today's PTOAS dialect",
    '',
    `The tile-level ops of PTOAS at e32488c9 (\`include/PTO/IR/PTOOps.td\`; the VPTO micro-ops come later): ${ptoas.length} ops, of which`,
    `${count('run') + count('verified')} are parsed and verified, ${count('run')} of them run by the VM, and ${count('not implemented')} not implemented yet.`,
    '',
  ];
  const labels: Record<string, string> = {
    run: 'Parsed, verified and run',
    verified: 'Parsed and verified; the VM says it does not run them yet',
    'not implemented': 'Not implemented yet (the verifier says so)',
  };
  for (const k of ['run', 'verified', 'not implemented']) {
    lines.push(`**${labels[k]}** (${count(k)}): ${(by.get(k) ?? []).map((n) => `\`${n}\``).join(', ') || 'none'}.`, '');
  }
  return lines;
}

/**
 * The micro-op level: each op of PTOAS's VPTOOps.td, VPTOUbOps.td and VMIOps.td (spec/known-ops.json's `vpto`), and
 * how far the toolchain takes it. An op with a row in spec/micro/ is parsed in its format and verified by its row's
 * rules; it runs when its row is a region, a definition of its own, or names a semantics the VM has. An op defined
 * elsewhere (src/ops) counts as the tile-level ops do.
 */
function microCoverage(): string[] {
  const rows = new Map(specTables().micro.map((r) => [r.name, r]));
  const registry = opRegistry();
  const status = (name: string): 'run' | 'verified' | 'not supported' => {
    const row = rows.get(name);
    // An op of the micro level defined outside spec/micro/ (pto.tile_buf_addr, a tile's address).
    if (!row) {
      const entry = registry.lookup(name);
      return !entry ? 'not supported' : entry.def.execute ? 'run' : 'verified';
    }
    return row.region || row.definition || (row.semantics && MICRO_SEMANTICS[row.semantics]) ? 'run' : 'verified';
  };
  const levels: [string, (name: string) => boolean][] = [
    ['VPTO (`VPTOOps.td`)', (n) => !n.startsWith('pto.ub.') && !n.startsWith('pto.vmi.')],
    ['VPTO, the A2/A3 form (`VPTOUbOps.td`, `pto.ub.*`)', (n) => n.startsWith('pto.ub.')],
    ['VMI (`VMIOps.td`, `pto.vmi.*`)', (n) => n.startsWith('pto.vmi.')],
  ];
  const labels: Record<string, string> = {
    run: 'Parsed, verified and run',
    verified: 'Parsed and verified; the VM traps "not implemented yet"',
    'not supported': 'Not supported yet (pto-as says so at the op)',
  };
  const lines = ['## The micro-op level', '', "PTOAS e32488c9's micro-op level ([vpto.md](vpto.md)), by the file that defines each op.", ''];
  for (const [title, inLevel] of levels) {
    const names = [...knownOps().microOps].filter(inLevel).sort();
    const by = new Map<string, string[]>();
    for (const name of names) by.set(status(name), [...(by.get(status(name)) ?? []), name]);
    lines.push(`### ${title}: ${names.length} ops`, '');
    for (const k of ['run', 'verified', 'not supported']) {
      const list = by.get(k) ?? [];
      lines.push(`**${labels[k]}** (${list.length}): ${list.map((n) => `\`${n}\``).join(', ') || 'none'}.`, '');
    }
  }
  return lines;
}

function reference(instructions: Instruction[]): string[] {
  const lines = [
    '## Instructions',
    '',
    '| instruction | family | operands (L2: outs / ins) | tile locations | layouts | a2a3 dtypes | a5 dtypes | VM |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const i of instructions) {
    const operands = `${i.outs.map((o) => o.name).join(', ')} / ${i.ins.map((o) => o.name + (o.optional ? '?' : '')).join(', ')}`;
    const locs = Object.entries(i.tileLocs)
      .map(([k, v]) => `${k}: ${v.join('/')}`)
      .join('; ');
    const layouts =
      Object.entries(i.layouts)
        .filter(([, v]) => v !== 'any')
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ') || 'any';
    const dtypes = TARGETS.map((t) => {
      const table = i.dtypes[t];
      if (!table) return 'n/a';
      const sets = [...new Set(Object.values(table).map((l) => l.join(', ')))];
      return sets.length === 1
        ? sets[0]
        : Object.entries(table)
            .map(([k, v]) => `${k}: ${v.join(', ')}`)
            .join('; ');
    });
    lines.push(`| \`${i.opName}\` | ${i.family} | ${operands} | ${locs} | ${layouts} | ${dtypes[0]} | ${dtypes[1]} | ${i.implemented ? 'yes' : 'no'} |`);
  }
  lines.push('', '## Notes', '');
  for (const i of instructions) for (const n of i.notes ?? []) lines.push(`- \`${i.opName}\`: ${n}`);
  return lines;
}

export function isaTable(): string {
  const instructions = [...isa().instructions.values()];
  // By family, then in table order within a family.
  const pto = instructions.filter((i) => i.dialect === 'pto').sort((a, b) => a.family.localeCompare(b.family));
  const lines = [
    '# Instruction coverage',
    '',
    'Generated from `spec/` by `npm run docs:isa`; do not edit by hand.',
    '',
    ...dialectCoverage(),
    ...microCoverage(),
    ...coverage(pto),
    '',
    ...holes(pto),
    '',
    ...reference(instructions),
  ];
  return lines.join('\n') + '\n';
}

if (require.main === module) process.stdout.write(isaTable());
