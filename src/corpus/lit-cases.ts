/**
 * The cases of PTOAS's lit tests: each `// RUN:` command that runs `ptoas` (or PTOAS's `pto-test-opt`, whose parser
 * and verifiers are ptoas's, before the passes a test names) on the test file (or on a part of it cut by
 * `split-file`, or on each chunk of `-split-input-file`) is one case, with the flags that matter to an assembler and
 * whether PTOAS is expected to reject the input (`not ptoas ...`, `! ptoas ...`). Read from the corpus in place;
 * nothing of it is committed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { corpusFiles } from './files';

export type LitTool = 'ptoas' | 'pto-test-opt';

export interface LitCase {
  /** The test file, relative to the corpus root. */
  file: string;
  /** The `split-file` part (`//--- name`), or `chunk N` (from 1) of `-split-input-file`, when the case runs on one. */
  part?: string;
  /** The tool the RUN line runs: ptoas, or pto-test-opt (the micro-level tests run most of theirs through it). */
  tool: LitTool;
  /** The text ptoas reads. */
  text: string;
  /** `--pto-arch`: a3 (A2/A3) or a5; undefined when the RUN line does not say (ptoas then reads the module). */
  arch?: 'a3' | 'a5';
  /** `--pto-backend`: vpto or emitc; undefined when the RUN line does not say (ptoas then reads the module). */
  backend?: 'emitc' | 'vpto';
  /** `--pto-level` (ptoas's build level; its default is level2). */
  level: 'level1' | 'level2' | 'level3';
  /** The RUN line expects ptoas to fail (`not ptoas`). */
  expectReject: boolean;
  /** The RUN line, continuations joined. */
  run: string;
  /** pto-test-opt's passes, in order, by name (`-vmi-to-vpto` -> vmi-to-vpto); none for ptoas. */
  passes: string[];
}

/** pto-test-opt's flags that are not passes. */
const NOT_PASSES = new Set(['split-input-file', 'verify-diagnostics', 'mlir-disable-threading', 'o', 'allow-unregistered-dialect']);

/** RUN lines with their `\` continuations joined. */
export function runLines(text: string): string[] {
  const lines: string[] = [];
  let pending: string | undefined;
  for (const raw of text.split('\n')) {
    const m = /^\s*\/\/\s*RUN:(.*)$/.exec(raw);
    if (!m) continue;
    const body = m[1].trim();
    const joined = pending === undefined ? body : `${pending} ${body}`;
    if (joined.endsWith('\\')) pending = joined.slice(0, -1).trim();
    else {
      lines.push(joined);
      pending = undefined;
    }
  }
  if (pending !== undefined) lines.push(pending);
  return lines;
}

/** `split-file` parts: `//--- name` starts one, up to the next or the end. */
export function splitParts(text: string): Map<string, string> {
  const parts = new Map<string, string>();
  const marks = [...text.matchAll(/^\/\/--- (\S+)[ \t]*$/gm)];
  marks.forEach((m, i) => {
    const start = m.index! + m[0].length + 1;
    const end = i + 1 < marks.length ? marks[i + 1].index! : text.length;
    // Keep the line numbers of the whole file, as split-file does with --leading-lines: blank lines before.
    const before = text.slice(0, start).split('\n').length - 1;
    parts.set(m[1], '\n'.repeat(before) + text.slice(start, end));
  });
  return parts;
}

/**
 * `-split-input-file` chunks: the text between `// -----` lines, each with the file's line numbers (blank lines
 * before), and whether it holds an `expected-error` (what `-verify-diagnostics` checks it reports).
 */
export function splitInputChunks(text: string): { text: string; expectsError: boolean }[] {
  const lines = text.split('\n');
  const chunks: { text: string; expectsError: boolean }[] = [];
  let start = 0;
  const close = (end: number) => {
    const body = lines.slice(start, end).join('\n');
    chunks.push({ text: '\n'.repeat(start) + body, expectsError: /expected-error/.test(body) });
  };
  lines.forEach((line, i) => {
    if (/^\/\/ -----\s*$/.test(line)) {
      close(i);
      start = i + 1;
    }
  });
  close(lines.length);
  return chunks;
}

/** The error lines FileCheck looks for under the RUN line's prefixes (`--check-prefix(es)=A,B`; CHECK when it names none). */
function checkPattern(run: string): RegExp {
  const named = [...run.matchAll(/--check-prefix(?:es)?[= ](\S+)/g)].flatMap((m) => m[1].split(','));
  const prefixes = named.length > 0 ? named : ['CHECK'];
  return new RegExp(`^\\s*//\\s*(${prefixes.map((p) => p.replace(/[^\w-]/g, '')).join('|')}):`, 'gm');
}

/** Which chunks fail, given how many error lines each holds (see litCases): walked from the last. */
export function failingChunks(checks: number[]): boolean[] {
  if (checks.every((n) => n === 0)) return checks.map(() => true);
  let owed = 0;
  const failing = checks.map(() => false);
  for (let i = checks.length - 1; i >= 0; i--) {
    if (checks[i] > 0) {
      failing[i] = true;
      owed += checks[i] - 1;
    } else if (owed > 0) {
      failing[i] = true;
      owed--;
    }
  }
  return failing;
}

/** The words of one command with what runs before the tool taken off: `(`, `not`/`!` (noted), `env [-u NAME] [VAR=...]`. */
function commandWords(command: string): { words: string[]; negated: boolean } {
  const words = command.replace(/^\(\s*/, '').split(/\s+/);
  let negated = false;
  for (;;) {
    const first: string | undefined = words[0];
    if (first === 'not' || first === '!') negated = true;
    else if (first === 'env') {
      const isSetting = (w: string | undefined) => w === '-u' || /^[A-Z_][A-Z0-9_]*=/.test(w ?? '');
      while (isSetting(words[1])) words.splice(1, words[1] === '-u' ? 2 : 1);
    } else return { words, negated };
    words.shift();
  }
}

/**
 * The ptoas and pto-test-opt cases of one test file. RUN lines that run them on a file another command made
 * (`sed ... > %t.x`) or on no file of the test (`ptoas --help`) are not cases; `skipped` names them.
 */
export function litCases(root: string, file: string): { cases: LitCase[]; skipped: string[] } {
  // Two of the micro level's tests end lines with CR (some with CR alone), which lit reads as line ends too.
  const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/\r\n?/g, '\n');
  const parts = splitParts(text);
  const cases: LitCase[] = [];
  const skipped: string[] = [];
  for (const run of runLines(text)) {
    for (const command of run.split(/\|\||&&|\||;/).map((c) => c.trim())) {
      const { words: args, negated: expectReject } = commandWords(command);
      const tool = args[0];
      if (tool !== 'ptoas' && tool !== 'pto-test-opt') continue;
      let arch: LitCase['arch'];
      let level: LitCase['level'] = 'level2';
      let backend: LitCase['backend'];
      let input: string | undefined;
      const passes: string[] = [];
      for (let i = 1; i < args.length; i++) {
        const a = args[i];
        const value = (flag: string) => (a === flag ? args[++i] : a.startsWith(flag + '=') ? a.slice(flag.length + 1) : undefined);
        const archValue = value('--pto-arch');
        if (archValue !== undefined) arch = archValue === 'a5' ? 'a5' : 'a3';
        const backendValue = value('--pto-backend');
        if (backendValue === 'vpto' || backendValue === 'emitc') backend = backendValue;
        const levelValue = value('--pto-level');
        if (levelValue !== undefined) level = levelValue.startsWith('level') ? (levelValue as LitCase['level']) : (`level${levelValue}` as LitCase['level']);
        const flag = tool === 'pto-test-opt' ? /^--?([a-z][\w-]*)$/.exec(a) : null;
        if (flag && !NOT_PASSES.has(flag[1]) && !flag[1].startsWith('pto-arch') && !flag[1].startsWith('pto-backend') && !flag[1].startsWith('pto-level'))
          passes.push(flag[1]);
        if (a === '-o') i++;
        else if (a === '%s' || a.startsWith('%t/')) input = a;
      }
      if (!input) {
        skipped.push(run);
        continue;
      }
      const part = input === '%s' ? undefined : input.slice(3);
      const body = part === undefined ? text : parts.get(part);
      if (body === undefined) {
        skipped.push(run);
        continue;
      }
      if (!args.includes('-split-input-file') && !args.includes('--split-input-file')) {
        cases.push({ file, part, text: body, tool, arch, backend, level, expectReject, run, passes });
        continue;
      }
      // Each chunk is its own input; with -verify-diagnostics a chunk must fail exactly when it expects an error.
      // Without it, `not` says only that some chunk fails: each chunk that holds FileCheck lines of the RUN line's
      // prefixes (an error checked for), and as many chunks before it as it holds errors beyond its own (the checks of
      // several chunks written after the last); all of them when no chunk holds one. The others are valid inputs.
      const verify = args.includes('-verify-diagnostics') || args.includes('--verify-diagnostics');
      const chunks = splitInputChunks(body);
      const failing = failingChunks(chunks.map((chunk) => chunk.text.match(checkPattern(run))?.length ?? 0));
      chunks.forEach((chunk, i) =>
        cases.push({
          file,
          part: `${part ? part + ' ' : ''}chunk ${i + 1}`,
          text: chunk.text,
          tool,
          arch,
          backend,
          level,
          expectReject: verify ? chunk.expectsError : expectReject && failing[i],
          run,
          passes,
        }),
      );
    }
  }
  return { cases, skipped };
}

/**
 * The folders of PTOAS's lit tests measured: the tile-level ops (pto) and the tile fusion of ops (tile_fusion). Not
 * vpto, vmi_new and npu_validation: the vector micro-ops (VPTO) and board runs, which the toolchain does not cover.
 */
export const LIT_FOLDERS = ['test/lit/pto', 'test/lit/tile_fusion'];

/** The folders of PTOAS's micro-level lit tests (VPTO, VMI), measured apart from the tile level's. */
export const MICRO_LIT_FOLDERS = ['test/lit/vpto', 'test/lit/vmi_new'];

/** Every test file of the given lit folders (the tile level's by default), sorted within each. */
export function litFiles(root: string, folders: string[] = LIT_FOLDERS): string[] {
  return folders.flatMap((folder) => corpusFiles(root, folder, (f) => /\.(pto|mlir)$/.test(f)));
}
