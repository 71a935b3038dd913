/**
 * The cases of PTOAS's lit tests (test/lit/pto and test/lit/tile_fusion): each `// RUN:` line that runs `ptoas` on the test file (or on a
 * part of it cut by `split-file`) is one case, with the flags that matter to an assembler and whether PTOAS is
 * expected to reject the input (`not ptoas ...`). Read from the corpus in place; nothing of it is committed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { corpusFiles } from './files';

export interface LitCase {
  /** The test file, relative to the corpus root. */
  file: string;
  /** The `split-file` part (`//--- name`), when the case runs on one. */
  part?: string;
  /** The text ptoas reads. */
  text: string;
  /** `--pto-arch`: a3 (A2/A3) or a5; undefined when the RUN line does not say (ptoas then reads the module). */
  arch?: 'a3' | 'a5';
  /** `--pto-level` (ptoas's build level; its default is level2). */
  level: 'level1' | 'level2' | 'level3';
  /** The RUN line expects ptoas to fail (`not ptoas`). */
  expectReject: boolean;
  /** The RUN line, continuations joined. */
  run: string;
}

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
 * The ptoas cases of one test file. RUN lines that run ptoas on a file another command made (`sed ... > %t.x`)
 * or on no file of the test are not cases; `skipped` names them.
 */
export function litCases(root: string, file: string): { cases: LitCase[]; skipped: string[] } {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const parts = splitParts(text);
  const cases: LitCase[] = [];
  const skipped: string[] = [];
  for (const run of runLines(text)) {
    for (const command of run.split(/\|\||&&|\||;/).map((c) => c.trim())) {
      const words = command.split(/\s+/);
      const expectReject = words[0] === 'not';
      const args = expectReject ? words.slice(1) : words;
      if (args[0] !== 'ptoas') continue;
      let arch: LitCase['arch'];
      let level: LitCase['level'] = 'level2';
      let input: string | undefined;
      for (let i = 1; i < args.length; i++) {
        const a = args[i];
        const value = (flag: string) => (a === flag ? args[++i] : a.startsWith(flag + '=') ? a.slice(flag.length + 1) : undefined);
        const archValue = value('--pto-arch');
        if (archValue !== undefined) arch = archValue === 'a5' ? 'a5' : 'a3';
        const levelValue = value('--pto-level');
        if (levelValue !== undefined) level = levelValue.startsWith('level') ? (levelValue as LitCase['level']) : (`level${levelValue}` as LitCase['level']);
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
      cases.push({ file, part, text: body, arch, level, expectReject, run });
    }
  }
  return { cases, skipped };
}

/**
 * The folders of PTOAS's lit tests measured: the tile-level ops (pto) and the tile fusion of ops (tile_fusion). Not
 * vpto, vmi_new and npu_validation: the vector micro-ops (VPTO) and board runs, which the toolchain does not cover.
 */
export const LIT_FOLDERS = ['test/lit/pto', 'test/lit/tile_fusion'];

/** Every test file of the lit folders, sorted within each. */
export function litFiles(root: string): string[] {
  return LIT_FOLDERS.flatMap((folder) => corpusFiles(root, folder, (f) => /\.(pto|mlir)$/.test(f)));
}
