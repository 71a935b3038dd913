/**
 * How far the toolchain gets through PTOAS's corpus: each sample and lit case assembled as ptoas would be asked
 * to, with the first error of each that fails, grouped. For developers:
 *
 *   node dist/corpus/survey.js PTOAS_EXPORT [samples|lit-valid|lit-invalid|runs|lit-micro-valid|lit-micro-invalid] [--list]
 *   node dist/corpus/survey.js PTOAS_EXPORT lit-micro --write-exceptions
 *
 * `runs` runs every function of each sample that assembles, with generated inputs (src/corpus/runs.ts). The lit-micro
 * surveys measure the micro level's lit folders (test/lit/vpto, test/lit/vmi_new), ptoas and pto-test-opt cases,
 * apart from the tile level's; `--write-exceptions` rewrites test/corpus/upstream-micro-exceptions.json from a run.
 */
import { BuildLevel, CodeBackend } from '../ir/definition';
import * as fs from 'fs';
import * as path from 'path';
import { assemble } from '../verify/assemble';
import { LIT_FOLDERS, litCases, litFiles, MICRO_LIT_FOLDERS } from './lit-cases';
import { namesA5Target, sampleCases } from './samples';
import { TargetName } from '../spec/schema';
import { runWithGeneratedInputs } from './runs';
import { VECTOR_LEVEL_UNSUPPORTED } from '../syntax/op-syntax';

export interface Outcome {
  name: string;
  accepted: boolean;
  /** The first error, `line:col: message`. */
  error?: string;
  /** The case uses PTOAS's vector micro-ops (VPTO), which the toolchain does not support yet: counted apart. */
  microOps?: boolean;
}

/** The cases that count towards the acceptance rates: those that do not need the vector micro-ops. */
export function tileLevel(outcomes: Outcome[]): Outcome[] {
  return outcomes.filter((o) => !o.microOps);
}

/**
 * `passes`: pto-test-opt's (whose checks apply in its order); undefined for ptoas, whose back end's pipeline applies.
 * `cliArch`: the target is ptoas's --pto-arch, which replaces the module's pto.target_arch (driver.cpp's
 * loadInputModule); otherwise a module naming A5 is verified for A5 whatever the target.
 */
export function assembleCase(
  name: string,
  text: string,
  target: TargetName | undefined,
  level?: BuildLevel,
  backend?: CodeBackend,
  passes?: string[],
  cliArch = false,
): Outcome {
  const result = assemble(name, text, { target: cliArch || !namesA5Target(text) ? target : undefined, level, backend, passes });
  const first = result.diags.sorted().find((d) => d.severity === 'error');
  if (!first) return { name, accepted: true };
  const at = result.source.position(first.span.start);
  const microOps = result.diags.items.some((d) => d.severity === 'error' && d.message.includes(VECTOR_LEVEL_UNSUPPORTED));
  return { name, accepted: false, error: `${at.line}:${at.col}: ${first.message}`, ...(microOps ? { microOps } : {}) };
}

/** Each sample assembled as the runner builds it; `accepted` means as the runner expects (an `_invalid` one rejected). */
export function surveySamples(root: string): Outcome[] {
  return sampleCases(root).map((c) => {
    const outcome = assembleCase(c.file, fs.readFileSync(path.join(root, c.file), 'utf8'), c.target);
    if (!c.expectReject) return outcome;
    return outcome.accepted
      ? { name: c.file, accepted: false, error: '0:0: accepted, but the sample runner expects ptoas to reject it' }
      : { name: c.file, accepted: true };
  });
}

/**
 * The lit cases of `folders` that PTOAS accepts (or, with expectReject, rejects), each assembled as its RUN line
 * runs ptoas. The tile level's folders count ptoas's cases only (their pto-test-opt ones test passes), the micro
 * level's pto-test-opt's as well: most of test/lit/vmi_new runs through it.
 */
export function surveyLit(root: string, expectReject: boolean, folders: string[] = LIT_FOLDERS): Outcome[] {
  const micro = folders !== LIT_FOLDERS;
  const outcomes: Outcome[] = [];
  for (const file of litFiles(root, folders)) {
    const seen = new Set<string>();
    for (const c of litCases(root, file).cases) {
      if (!micro && c.tool !== 'ptoas') continue;
      // The default level (level2) is left out of the name.
      const name = `${c.file}${c.part ? ':' + c.part : ''}${c.arch ? ' --pto-arch=' + c.arch : ''}${c.level !== 'level2' ? ' --pto-level=' + c.level : ''}`;
      if (c.expectReject !== expectReject || seen.has(name)) continue;
      seen.add(name);
      outcomes.push(
        assembleCase(
          name,
          c.text,
          c.arch === 'a5' ? 'a5' : c.arch === 'a3' ? 'a2a3' : undefined,
          c.level,
          c.backend,
          c.tool === 'pto-test-opt' ? c.passes : undefined,
          c.tool === 'ptoas' && c.arch !== undefined,
        ),
      );
    }
  }
  return outcomes;
}

/** The micro level's lit cases, as surveyLit; an invalid case counts as accepted (agrees) when it is rejected. */
export function surveyMicroLit(root: string, expectReject: boolean): Outcome[] {
  const outcomes = surveyLit(root, expectReject, MICRO_LIT_FOLDERS);
  return expectReject ? outcomes.map(agreeWhenRejected) : outcomes;
}

/** An invalid case's outcome turned round: it agrees with PTOAS when rejected; accepted, its error says so. */
export function agreeWhenRejected(o: Outcome): Outcome {
  return o.accepted ? { name: o.name, accepted: false, error: '0:0: accepted' } : { name: o.name, accepted: true };
}

/**
 * The generated inputs of a sample run: integer scalars 1 (pypto's kernels take offsets, counts and indexes, which
 * 1 keeps inside their views more often than the legacy corpus's 32), pointers with no static size 1 Mi zeros.
 */
const RUN_DEFAULTS = { integerDefault: '1', unsizedElements: 1 << 20 };

/** Each function of each sample that assembles, run with generated inputs (`FILE @function`): accepted when it runs to its end. */
export function surveyRuns(root: string, maxSteps = 10_000_000): Outcome[] {
  const outcomes: Outcome[] = [];
  for (const c of sampleCases(root)) {
    if (c.expectReject) continue;
    const text = fs.readFileSync(path.join(root, c.file), 'utf8');
    const run = runWithGeneratedInputs(c.file, text, { target: namesA5Target(text) ? undefined : c.target, maxSteps, keepBuffers: false, ...RUN_DEFAULTS });
    for (const f of run.functions ?? [])
      outcomes.push({ name: `${c.file} @${f.symbol}`, accepted: f.trap === undefined, ...(f.trap ? { error: `0:0: ${f.trap}` } : {}) });
  }
  return outcomes;
}

/** The first errors grouped by their message with numbers and names blanked, most frequent first. */
export function tally(outcomes: Outcome[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    if (o.accepted) continue;
    const key = o
      .error!.replace(/^\d+:\d+: /, '')
      .replace(/%[\w#]+/g, '%v')
      .replace(/\d+/g, 'N')
      .slice(0, 100);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/** Where the micro lit cases that do not go as PTOAS goes are listed (test/corpus/upstream-micro.test.ts reads it). */
export const MICRO_EXCEPTIONS = path.join(__dirname, '../../test/corpus/upstream-micro-exceptions.json');

export interface MicroExceptions {
  litValid: Record<string, string>;
  litInvalid: Record<string, string>;
}

/** What a listed case is written with when no one has given a reason: its first error, as a run finds it. */
const AUTO_REASON = /^(first error |accepted, but PTOAS rejects it)/;

/**
 * The exceptions list from a run: every case that does not agree, with the reason listed before when someone wrote
 * one (a reason that is not a first error), else the first error.
 */
export function microExceptions(valid: Outcome[], invalid: Outcome[], before?: MicroExceptions): MicroExceptions {
  const list = (outcomes: Outcome[], listed: Record<string, string> = {}) =>
    Object.fromEntries(
      outcomes
        .filter((o) => !o.accepted)
        .map((o) => {
          const kept = listed[o.name];
          const auto = o.error === '0:0: accepted' ? 'accepted, but PTOAS rejects it' : `first error ${o.error}`;
          return [o.name, kept !== undefined && !AUTO_REASON.test(kept) ? kept : auto];
        }),
    );
  return { litValid: list(valid, before?.litValid), litInvalid: list(invalid, before?.litInvalid) };
}

if (require.main === module) {
  const [root, which = 'samples', ...flags] = process.argv.slice(2);
  const surveys = ['samples', 'runs', 'lit-valid', 'lit-invalid', 'lit-micro-valid', 'lit-micro-invalid', 'lit-micro'];
  if (!root || !fs.existsSync(root) || !surveys.includes(which) || (flags.includes('--write-exceptions') && which !== 'lit-micro')) {
    console.error(
      `usage: node dist/corpus/survey.js PTOAS_EXPORT [${surveys.join('|')}] [--list]\n       node dist/corpus/survey.js PTOAS_EXPORT lit-micro --write-exceptions`,
    );
    process.exit(2);
  }
  if (which.startsWith('lit-micro')) {
    const kinds = which === 'lit-micro' ? ['valid', 'invalid'] : [which.slice('lit-micro-'.length)];
    const runs = kinds.map((kind) => ({ kind, outcomes: surveyMicroLit(root, kind === 'invalid') }));
    for (const { kind, outcomes } of runs) {
      const agree = outcomes.filter((o) => o.accepted).length;
      console.log(`lit-micro-${kind}: ${agree}/${outcomes.length} ${kind === 'valid' ? 'accepted' : 'rejected'}`);
      if (flags.includes('--list')) for (const o of outcomes) console.log(`${o.accepted ? 'ok  ' : 'FAIL'} ${o.name}${o.error ? '  ' + o.error : ''}`);
      else for (const [message, n] of tally(outcomes).slice(0, 60)) console.log(String(n).padStart(5), message);
    }
    if (flags.includes('--write-exceptions')) {
      const before = fs.existsSync(MICRO_EXCEPTIONS) ? (JSON.parse(fs.readFileSync(MICRO_EXCEPTIONS, 'utf8')) as MicroExceptions) : undefined;
      const list = microExceptions(runs[0].outcomes, runs[1].outcomes, before);
      fs.writeFileSync(MICRO_EXCEPTIONS, JSON.stringify(list, null, 2) + '\n');
      console.log(`wrote ${MICRO_EXCEPTIONS}: ${Object.keys(list.litValid).length} valid, ${Object.keys(list.litInvalid).length} invalid cases listed`);
    }
    process.exit(0);
  }
  const outcomes = which === 'samples' ? surveySamples(root) : which === 'runs' ? surveyRuns(root) : surveyLit(root, which === 'lit-invalid');
  const counted = tileLevel(outcomes);
  const accepted = counted.filter((o) => o.accepted).length;
  const apart = outcomes.length - counted.length;
  console.log(
    `${which}: ${accepted}/${counted.length} ${which === 'runs' ? 'run to the end' : 'accepted'}${apart ? ` (and ${apart} that need VPTO micro-ops, not supported yet)` : ''}`,
  );
  if (flags.includes('--list')) for (const o of outcomes) console.log(`${o.accepted ? 'ok  ' : 'FAIL'} ${o.name}${o.error ? '  ' + o.error : ''}`);
  else for (const [message, n] of tally(outcomes).slice(0, 60)) console.log(String(n).padStart(5), message);
}
