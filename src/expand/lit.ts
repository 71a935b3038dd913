/**
 * A structural cross-check against PTOAS's lit tests (issue 38): a lit file that runs tile-level input through the
 * VPTO back end (`--pto-backend=vpto`) and CHECKs micro-ops of the output names ops our expansion must also
 * contain. This reads the micro-op names of its positive CHECK lines (not CHECK-NOT) and looks for each in our
 * expansion of the file's module: the instances' bodies hold the micro-ops PTOAS inlines. Ops PTOAS's later passes
 * add (`pto.vecscope`, `pto.castptr`: inference of vector scopes, address folding) are not the templates' and are
 * not looked for.
 */
import { expandModule, NotExpanded } from './expand';

export type LitCheck =
  /** Not a case for this check (no VPTO run, no tile op, no micro-op CHECKed). */
  | { skip: string }
  /** Why the file could not be expanded. */
  | { error: string }
  | { checked: string[]; found: string[]; missing: string[]; notExpanded: NotExpanded[] };

/**
 * What PTOAS's passes after the expansion write, which no template emits, among the names read below (a castptr,
 * which address folding adds, is not one of them).
 */
const AFTER_EXPANSION = new Set(['pto.vecscope', 'pto.strict_vecscope']);

/** The micro-op names (`pto.vadd`, `pto.plt_b32`, `pto.vmi.load`) of the file's positive CHECK lines. */
export function checkedMicroOps(text: string): string[] {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^\s*\/\/\s*[A-Z0-9_-]*?(?:CHECK|[A-Z0-9_]+)(-NEXT|-SAME|-DAG|-LABEL|-NOT|-COUNT-\d+)?:(.*)$/.exec(line);
    if (!m || m[1] === '-NOT') continue;
    for (const op of m[2].matchAll(/\bpto\.(?:vmi\.[a-z0-9_]+|v[a-z0-9_]+|p(?:lt|set|ge|and|or|xor|not|sel|pack|unpack|intlv|dintlv)[a-z0-9_]*)\b/g))
      if (!AFTER_EXPANSION.has(op[0])) names.add(op[0]);
  }
  return [...names].sort();
}

/** The lit file's check: RUN lines with the VPTO back end on A5, its CHECKed micro-ops against our expansion. */
export function litCheck(file: string, text: string, upstreamDir: string): LitCheck {
  const runs = text.split('\n').filter((l) => /^\s*\/\/\s*RUN:/.test(l));
  if (!runs.some((l) => /--pto-backend=vpto/.test(l))) return { skip: 'no RUN line with --pto-backend=vpto' };
  if (!runs.some((l) => /--pto-arch=a5/.test(l)) && !/pto\.target_arch\s*=\s*"a5"/.test(text)) return { skip: 'not an A5 run' };
  if (!/\bpto\.t[a-z0-9_.]+\s+ins\(/.test(text)) return { skip: 'no tile op (a micro-level file)' };
  const checked = checkedMicroOps(text);
  if (checked.length === 0) return { skip: 'no micro-op is CHECKed' };
  const r = expandModule(file, text, { upstreamDir, target: 'a5' });
  if ('error' in r) return r;
  if (r.expanded.length === 0) return { error: `no tile op expanded${r.notExpanded.length ? ` (${r.notExpanded[0].op}: ${r.notExpanded[0].reason})` : ''}` };
  const present = new Set([...r.text.matchAll(/\bpto\.(?:vmi\.)?[a-z0-9_]+\b/g)].map((m) => m[0]));
  return { checked, found: checked.filter((op) => present.has(op)), missing: checked.filter((op) => !present.has(op)), notExpanded: r.notExpanded };
}
