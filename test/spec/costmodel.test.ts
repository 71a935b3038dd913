/** The build's validated copy of spec/costmodel (scripts/spec-tables.js): taken while the tables are unchanged. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SPEC_DIR } from '../../src/spec/tables';
import { costModelStamps, savedCostModel, validateCostModel } from '../../src/spec/costmodel';

describe('the saved cost-model tables', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-costmodel-'));
  const tables = path.join(dir, 'costmodel');
  fs.cpSync(path.join(SPEC_DIR, 'costmodel'), tables, { recursive: true });
  const saved = path.join(dir, 'saved.json');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is read while the files are the ones it came from, and not once one changes', () => {
    const validated = validateCostModel(tables);
    fs.writeFileSync(saved, JSON.stringify({ stamps: costModelStamps(tables), tables: validated }));
    expect(savedCostModel(saved, tables)).toStrictEqual(validated);
    const arch = path.join(tables, 'arch.json');
    fs.utimesSync(arch, new Date(), new Date(Date.now() + 5000));
    expect(savedCostModel(saved, tables)).toBeUndefined();
  });

  it('is not read when missing or broken', () => {
    expect(savedCostModel(path.join(dir, 'none.json'), tables)).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'broken.json'), '{');
    expect(savedCostModel(path.join(dir, 'broken.json'), tables)).toBeUndefined();
  });
});
