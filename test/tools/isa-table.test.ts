import * as fs from 'fs';
import * as path from 'path';
import { isa } from '../../src/spec/isa';
import { isaTable } from '../../src/tools/isa-table';

describe('docs/isa.md', () => {
  it('is the table generated from spec/instructions/*.json (run `npm run docs:isa` after changing the spec)', () => {
    const committed = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'isa.md'), 'utf8');
    expect(committed).toBe(isaTable());
  });

  it('lists TCOLMIN with the seed dtypes on a2a3 and the 2026-08 list (with 64-bit integers) on a5', () => {
    const table = isaTable();
    const row = table
      .slice(table.indexOf('## Instructions'))
      .split('\n')
      .find((l) => l.startsWith('| `pto.tcolmin`'))!;
    const cells = row.split('|').map((c) => c.trim());
    expect(cells[6]).toBe('i16, i32, f16, f32');
    expect(cells[7]).toBe('i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32');
  });

  it('explains every hole: an instruction the VM does not run has a note saying why', () => {
    const unexplained = [...isa().instructions.values()].filter((i) => !i.implemented && (i.notes ?? []).length === 0).map((i) => i.opName);
    expect(unexplained).toEqual([]);
  });

  it('marks each cell of the coverage table from the dtype lists: R where the VM runs it, v where only the verifier does', () => {
    const row = (name: string) =>
      isaTable()
        .split('\n')
        .find((l) => l.startsWith(`| \`pto.${name}\` |`))!
        .split('|')
        .map((c) => c.trim());
    // Columns: instruction, family, then a2a3 i8..f32 (11), then a5 i8..f32 (11).
    const tcolmin = row('tcolmin');
    expect(tcolmin.slice(3, 14)).toEqual(['', '', 'R', '', 'R', '', '', '', 'R', '', 'R']);
    expect(tcolmin.slice(14, 25)).toEqual(Array(11).fill('R'));
  });
});
