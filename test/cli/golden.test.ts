/**
 * The reference simulator's cases through the command-line tool, as a user would run them:
 * `pto-vm run CASE.pto --numerics cpu-sim --arg in0=IN0.bin ... --arg out=INIT.bin --out out=OUT.bin`,
 * then the output file compared bit for bit with the simulator's (test/vm/golden-harness.ts builds the
 * programs; test/vm/golden.test.ts runs every case in-process on both targets).
 *
 * A process per case costs about a quarter of a second, so by default one case of each
 * (op, dtype, input kind, extra options) runs here; `PTO_GOLDEN_CLI=all` runs every case.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TARGETS } from '../../src/spec/schema';
import { runToolAsync } from '../fixtures/cli';
import { GoldenCase, buildProgram, expectedVerdict, loadManifest, readFixture, targetRule, verdict } from '../vm/golden-harness';

const all = process.env.PTO_GOLDEN_CLI === 'all';
const key = (c: GoldenCase) => [c.op, c.dtype, c.odt, c.input_kind, ...c.extra].join(' ');
const cases = loadManifest().filter((c, i, list) => all || list.findIndex((d) => key(d) === key(c)) === i);

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pto-golden-cli-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs one case through bin/pto-vm on the first target that allows it; resolves to 'bit-exact' or a report. */
async function runThroughCli(c: GoldenCase): Promise<string> {
  const target = TARGETS.find(targetRule(c).allows)!;
  const program = buildProgram(c, c.inputs.map(readFixture));
  const file = path.join(tmp, `${c.name}.pto`);
  fs.writeFileSync(file, program.text);
  const args = program.args.map((a) => {
    const bin = path.join(tmp, `${c.name}.${a.name}.bin`);
    fs.writeFileSync(bin, a.bytes);
    return `--arg=${a.name}=${bin}`;
  });
  const result = path.join(tmp, `${c.name}.result.bin`);
  const run = await runToolAsync('pto-vm', 'run', file, '--target', target, '--numerics', 'cpu-sim', ...args, `--out=${program.output}=${result}`);
  if (run.status !== 0) return `pto-vm exited ${run.status}: ${run.stderr}`;
  return verdict(c, readFixture(c.output), new Uint8Array(fs.readFileSync(result)), target);
}

/** Runs the cases two processes at a time (CI machines have few cores). */
async function runAll(): Promise<Map<string, string>> {
  const reports = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      reports.set(c.name, await runThroughCli(c).catch((e: Error) => `the harness failed: ${e.message}`));
    }
  };
  await Promise.all([worker(), worker()]);
  return reports;
}

let reports: Promise<Map<string, string>>;
beforeAll(() => {
  reports = runAll();
}, 600_000);

test.each(cases.map((c) => [c.name]))(
  '%s through bin/pto-vm',
  async (name) => {
    expect((await reports).get(name)).toBe(expectedVerdict(cases.find((c) => c.name === name)!));
  },
  600_000,
);
