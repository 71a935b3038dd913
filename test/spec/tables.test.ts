/**
 * The build's validated copy of spec/ (dist/spec/tables.json, written by scripts/spec-tables.js), which the tools
 * read instead of validating spec/ with zod at every start: it is exactly what zod validation of spec/ yields now,
 * and a run ignores it when spec/ has changed since (dist/ must be built: `npm test` builds it first).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { SavedSpecTables, SPEC_DIR, savedTables, specFiles, specHash, specStamps } from '../../src/spec/tables';
import { validateSpec } from '../../src/spec/validate-tables';

const ROOT = path.join(__dirname, '..', '..');
const SHIPPED = path.join(ROOT, 'dist', 'spec', 'tables.json');

describe('dist/spec/tables.json', () => {
  const shipped: SavedSpecTables = JSON.parse(fs.readFileSync(SHIPPED, 'utf8'));

  test('holds what zod validation of spec/ yields (defaults applied), for the spec/ files of this checkout', () => {
    const validated = validateSpec(SPEC_DIR);
    // JSON keeps every value zod yields (no undefined, Map or bigint that a round trip would lose).
    expect(JSON.parse(JSON.stringify(validated))).toStrictEqual(validated);
    expect(shipped.tables).toStrictEqual(validated);
    expect(shipped.hash).toBe(specHash(SPEC_DIR));
  });

  test('zod has filled in the defaults: every instruction names its dialect', () => {
    const dialects = new Set(shipped.tables.isa.instructions.map((i) => i.dialect));
    expect([...dialects].sort()).toEqual(['ascendc', 'pto', 'tik']);
  });
});

describe('a validated copy', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-spec-'));
    fs.mkdirSync(path.join(dir, 'instructions'));
    fs.mkdirSync(path.join(dir, 'micro'));
    for (const f of specFiles(SPEC_DIR)) fs.copyFileSync(path.join(SPEC_DIR, f), path.join(dir, f));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('is taken for the tables it came from, whatever directory holds them', () => {
    expect(savedTables(SHIPPED, dir)).toStrictEqual(validateSpec(SPEC_DIR));
  });

  test('is taken without hashing the tables while each keeps its size and time', () => {
    const saved: SavedSpecTables = { ...JSON.parse(fs.readFileSync(SHIPPED, 'utf8')), stamps: specStamps(dir), hash: 'not checked' };
    fs.writeFileSync(path.join(dir, 'saved.json'), JSON.stringify(saved));
    expect(savedTables(path.join(dir, 'saved.json'), dir)).toStrictEqual(saved.tables);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(dir, 'sync.json'), later, later);
    expect(savedTables(path.join(dir, 'saved.json'), dir)).toBeUndefined();
  });

  test('is taken when a table has a new time but the same contents (its hash)', () => {
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(dir, 'sync.json'), later, later);
    expect(savedTables(SHIPPED, dir)).toStrictEqual(validateSpec(SPEC_DIR));
  });

  test('is ignored once any table has changed, or a table is added', () => {
    for (const f of ['dtype-sets.json', 'sync.json', 'known-ops.json', 'instructions/reduce.json']) {
      fs.appendFileSync(path.join(dir, f), ' ');
      expect(savedTables(SHIPPED, dir)).toBeUndefined();
      fs.copyFileSync(path.join(SPEC_DIR, f), path.join(dir, f));
    }
    expect(savedTables(SHIPPED, dir)).toBeDefined();
    fs.writeFileSync(path.join(dir, 'instructions', 'zz-new.json'), '{"instructions": []}');
    expect(savedTables(SHIPPED, dir)).toBeUndefined();
  });

  test('is ignored when missing or unreadable', () => {
    expect(savedTables(path.join(dir, 'none.json'), dir)).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"hash": ');
    expect(savedTables(path.join(dir, 'broken.json'), dir)).toBeUndefined();
  });
});

describe('the built tools', () => {
  test('load spec/ from the validated copy, without loading zod', () => {
    const script = `const { specTables } = require(${JSON.stringify(path.join(ROOT, 'dist', 'spec', 'tables.js'))});
      const tables = specTables();
      console.log(JSON.stringify({ zod: Object.keys(require.cache).some((k) => k.includes('node_modules/zod/')), instructions: tables.isa.instructions.length }));`;
    const run = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    expect(run).toEqual({ zod: false, instructions: validateSpec(SPEC_DIR).isa.instructions.length });
  });
});
