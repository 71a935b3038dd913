import * as fs from 'fs';
import { Diagnostic } from '../diag/diagnostic';
import { LocatedError } from '../diag/located-error';
import { FileDiagnostic } from '../diag/report-formats';
import { checkExpectations, splitInputFile } from '../diag/verify-diagnostics';
import { printCanonical } from '../emit/canonical';
import { moduleToJson } from '../emit/json';
import { emitAtLevel } from '../emit/level-convert';
import { BuildLevel } from '../ir/definition';
import { lowerProgram } from '../lower';
import { TargetName } from '../spec/schema';
import { Assembled, assemble } from '../verify/assemble';

/** What pto-as does with each file (src/cli/pto-as.ts reads them from the command line). */
export interface FileOptions {
  target?: TargetName;
  level?: BuildLevel;
  emit: 'none' | 'canonical' | 'lowered' | 'l1' | 'l2' | 'json';
  /** Check the file's `expected-*` comments against its diagnostics instead of reporting them. */
  verifyDiagnostics: boolean;
  /** Assemble each `// -----` chunk on its own. */
  splitInputFile: boolean;
  /** Warnings are errors (reported as errors, and fail the file). */
  werror: boolean;
  /** Warnings are not reported. */
  quiet: boolean;
  /** `--passes`: the PTOAS passes whose input checks apply (default: the back end's pipeline). */
  passes?: string[];
}

/** One file's outcome. */
export interface FileReport {
  file: string;
  /** Why it could not be read (`ENOENT`); then it has nothing else. */
  unreadable?: string;
  /** What to report, in source order per chunk. */
  diagnostics: FileDiagnostic[];
  errors: number;
  warnings: number;
  /** The emitted text (of every chunk, `// -----` between them), when the file has no errors. */
  output?: string;
}

/** The command line's name for standard input, and what diagnostics call it. */
export const STDIN = '-';
const STDIN_NAME = '<stdin>';

export function processFile(file: string, options: FileOptions): FileReport {
  let text: string;
  try {
    text = fs.readFileSync(file === STDIN ? 0 : file, 'utf8');
  } catch (e) {
    return { file, unreadable: (e as NodeJS.ErrnoException).code ?? String(e), diagnostics: [], errors: 0, warnings: 0 };
  }
  const name = file === STDIN ? STDIN_NAME : file;
  const diagnostics: FileDiagnostic[] = [];
  const outputs: string[] = [];
  for (const chunk of options.splitInputFile ? splitInputFile(text) : [text]) {
    const result = assemble(name, chunk, { target: options.target, level: options.level, passes: options.passes });
    let produced: Diagnostic[] = result.diags.sorted();
    if (!result.diags.hasErrors() && options.emit !== 'none') {
      try {
        outputs.push(emit(result, options.emit));
      } catch (e) {
        if (!(e instanceof LocatedError)) throw e;
        produced = [...produced, e.diagnostic];
      }
    }
    let reported = options.verifyDiagnostics ? checkExpectations(result.source, produced) : produced;
    if (options.werror) reported = reported.map((d) => (d.severity === 'warning' ? { ...d, severity: 'error' } : d));
    if (options.quiet) reported = reported.filter((d) => d.severity !== 'warning');
    for (const diagnostic of reported) diagnostics.push({ source: result.source, diagnostic });
  }
  const errors = diagnostics.filter((d) => d.diagnostic.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.diagnostic.severity === 'warning').length;
  return { file, diagnostics, errors, warnings, ...(errors === 0 && options.emit !== 'none' ? { output: outputs.join('// -----\n') } : {}) };
}

/** The text `--emit` asks for; a program the conversion or the lowering cannot take throws a LocatedError. */
function emit(result: Assembled, form: Exclude<FileOptions['emit'], 'none'>): string {
  switch (form) {
    case 'canonical':
      return printCanonical(result.module, result.types);
    case 'json':
      return JSON.stringify(moduleToJson(result.module, result.source), null, 1) + '\n';
    case 'lowered':
      return printCanonical(lowerProgram(result).module, result.types);
    case 'l1':
    case 'l2':
      return emitAtLevel(result, form === 'l1' ? 1 : 2);
  }
}

/** `3 files: 1 with errors, 1 unreadable (2 errors, 1 warning)`: the last line of a run on more than one file. */
export function summaryLine(reports: readonly FileReport[]): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const unreadable = reports.filter((r) => r.unreadable !== undefined).length;
  const withErrors = reports.filter((r) => r.errors > 0).length;
  const errors = reports.reduce((n, r) => n + r.errors, 0);
  const warnings = reports.reduce((n, r) => n + r.warnings, 0);
  const files = [
    withErrors > 0 || unreadable === 0 ? (withErrors > 0 ? `${withErrors} with errors` : 'no errors') : '',
    unreadable > 0 ? `${unreadable} unreadable` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const totals = [errors > 0 ? count(errors, 'error') : '', warnings > 0 ? count(warnings, 'warning') : ''].filter(Boolean).join(', ');
  return `${count(reports.length, 'file')}: ${files}${totals ? ` (${totals})` : ''}`;
}
