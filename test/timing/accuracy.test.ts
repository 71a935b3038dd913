import * as fs from 'fs';
import { accuracySummary, accuracyTable, compareAll, Compared } from './datapoints';

/**
 * Issue 39's first "done when": on pto-isa's profiled single-op datapoints (hardware measurements), our estimate
 * against pto-isa's own model and against a +-10% band. The shares asserted are the ones measured today; the test
 * prints the datapoints that miss either bar (docs/performance.md has the whole table: set COSTMODEL_TABLE=FILE
 * to write it).
 */
describe('single-op estimates against the profiled datapoints', () => {
  const rows = compareAll();
  const share = (f: (r: Compared) => boolean): number => rows.filter(f).length / rows.length;
  if (process.env.COSTMODEL_TABLE) {
    fs.writeFileSync(process.env.COSTMODEL_TABLE, `${accuracySummary(rows)}\n\n${accuracyTable(rows)}\n`);
  }

  it('reads every profiled datapoint of st and st_a5_fit', () => {
    expect(rows.length).toBe(791);
    expect(rows.filter((r) => r.point.arch === 'a5').length).toBe(676);
  });

  it('on A5 is pto-isa`s fitted model itself: every datapoint passes pto-isa`s own check (precision + 0.05 >= accuracy)', () => {
    const a5 = rows.filter((r) => r.point.arch === 'a5');
    expect(a5.filter((r) => r.cost.kind !== 'cycles').map((r) => r.point.test)).toEqual([]);
    expect(a5.filter((r) => r.ours + 0.05 < r.point.accuracy - 1e-9).map((r) => r.point.test)).toEqual([]);
  });

  it('is at least as accurate as pto-isa`s model on the measured share, and within 10% on the measured share', () => {
    const asGood = share((r) => r.asGood);
    const within = share((r) => r.within10);
    const misses = rows
      .filter((r) => !r.asGood || !r.within10)
      .map((r) => {
        const ours = r.cost.kind === 'cycles' ? r.cost.cycles : `no data (${r.cost.reason})`;
        return `${r.point.arch} ${r.point.test}: profiled ${r.point.profiled}, ours ${ours}, precision ${r.ours.toFixed(3)} vs ${r.point.accuracy}`;
      });
    console.log(`as good as pto-isa: ${(asGood * 100).toFixed(1)}%, within 10%: ${(within * 100).toFixed(1)}%\n${misses.join('\n')}`);
    // The issue asks for >= 95% and >= 90%; these are today's floors (see docs/performance.md for what is missing).
    expect(rows.filter((r) => r.asGood).length).toBeGreaterThanOrEqual(781);
    expect(rows.filter((r) => r.within10).length).toBeGreaterThanOrEqual(694);
  });
});
