/** The fuzzer's summary, as text. */
import { CampaignSummary, commandText } from './campaign';
import { FAILURE_CLASSES } from './oracle';

const indent = (s: string, by: string) =>
  s
    .split('\n')
    .map((l) => by + l)
    .join('\n');

export function formatSummary(s: CampaignSummary): string {
  const out: string[] = [];
  const rate = s.seconds > 0 ? s.cases / s.seconds : 0;
  const runs = s.tools['pto-as'].runs + s.tools['pto-vm'].runs;
  out.push(
    `fuzz summary: seed ${s.seed}, cases ${s.start}..${s.start + s.cases - 1} (${s.cases} cases) in ${s.seconds.toFixed(1)} s (+ ${s.setupSeconds.toFixed(1)} s setup)`,
  );
  out.push(
    `  throughput: ${rate.toFixed(1)} cases/s, ${(runs / Math.max(s.seconds, 1e-9)).toFixed(1)} tool runs/s; ${s.workersStarted} worker threads started`,
  );
  out.push(`  cases: ${s.origins.mutant} mutants, ${s.origins.adversarial} adversarial programs`);
  for (const tool of ['pto-as', 'pto-vm'] as const) {
    const c = s.tools[tool];
    if (c.runs === 0) continue;
    out.push(
      `  ${tool}: ${c.runs} runs (exit 0: ${c.exit0}, exit 1: ${c.exit1}, exit 2: ${c.exit2}), ${c.failures} failing, mean ${(c.ms / c.runs).toFixed(1)} ms/run`,
    );
  }
  const known = s.findings.filter((f) => f.known).length;
  out.push(`  findings: ${s.findings.length} distinct signature(s), ${s.findings.length - known} new, ${known} known`);
  for (const cls of FAILURE_CLASSES) {
    const of = s.findings.filter((f) => f.class === cls);
    if (of.length === 0) continue;
    out.push(`  ${cls}: ${of.length} signature(s), ${of.reduce((n, f) => n + f.count, 0)} case(s)`);
    for (const f of of) {
      out.push(`    ${f.known ? '[known]' : '[NEW]  '} ${f.signature}`);
      out.push(`            ${f.tool}, ${f.count} case(s), first case ${f.caseIndex} from ${f.origin}${f.file ? `; saved as ${f.file}` : ''}`);
      out.push(`            ${commandText(f.tool, f.argv, f.file ?? 'case.pto')}`);
      if (f.text.length <= 400) out.push(indent(f.text.trimEnd(), '            | '));
      else out.push(`            (${f.text.length} bytes, from ${f.originalBytes})`);
    }
  }
  if (s.unconfirmed.length > 0) {
    out.push(`  not reproduced alone in a fresh worker (load, or state left by an earlier case): ${s.unconfirmed.length}`);
    for (const u of s.unconfirmed) out.push(`    ${u.signature} (${u.count} case(s), first ${u.caseIndex})`);
  }
  return out.join('\n');
}
