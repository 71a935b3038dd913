import * as fs from 'fs';
import * as path from 'path';
import { isaTable } from '../../src/tools/isa-table';

describe('docs/isa.md', () => {
  it('is the table generated from spec/instructions/*.json (run `npm run docs:isa` after changing the spec)', () => {
    const committed = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'isa.md'), 'utf8');
    expect(committed).toBe(isaTable());
  });

  it('lists TCOLMIN with the seed dtypes on a2a3 and the 2026-08 list (with 64-bit integers) on a5', () => {
    const row = isaTable().split('\n').find((l) => l.startsWith('| `pto.tcolmin`'))!;
    const cells = row.split('|').map((c) => c.trim());
    expect(cells[6]).toBe('i16, i32, f16, f32');
    expect(cells[7]).toBe('i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32');
  });
});
