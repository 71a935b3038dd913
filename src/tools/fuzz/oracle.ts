/**
 * What a fuzz case must satisfy, and the signature of a failure. A tool run may reject its input (exit 1 with located
 * diagnostics) or refuse a command line (exit 2), but it must not crash, print a stack trace, exit otherwise, print
 * an error without a FILE:LINE:COL location, take too long, use too much memory, or write files nobody asked for.
 */
import { CaseRequest, CaseResult, ToolName } from './protocol';

export type FailureClass =
  /** An exception escaped main (the tool would print "internal error: ..."), or the output says "internal error". */
  | 'internal-error'
  /** A JavaScript stack trace in the output. */
  | 'stack-trace'
  /** An exit code outside {0, 1, 2}. */
  | 'bad-exit-code'
  /** An error line that is not `FILE:LINE:COL: error[CODE]: ...` (nor a usage error with exit code 2). */
  | 'unlocated-error'
  /** A located error whose line or column is outside the file. */
  | 'bad-location'
  /** Exit code 0 with an error printed, or exit code 1 with no error printed. */
  | 'exit-mismatch'
  /** A file written where none was asked for. */
  | 'stray-output'
  /** No answer within the time limit: the worker was terminated. */
  | 'timeout'
  /** The worker ran out of memory (V8 heap limit, or the process grew past the memory limit). */
  | 'out-of-memory'
  /** The worker died of something else (a native crash, an exit). */
  | 'worker-died';

export const FAILURE_CLASSES: FailureClass[] = [
  'internal-error',
  'stack-trace',
  'bad-exit-code',
  'unlocated-error',
  'bad-location',
  'exit-mismatch',
  'stray-output',
  'timeout',
  'out-of-memory',
  'worker-died',
];

export interface Failure {
  class: FailureClass;
  tool: ToolName;
  /** One line saying what went wrong (the exception's message, the offending output line). */
  message: string;
  /** class + the message with numbers, names and paths abstracted: what findings are deduplicated by. */
  signature: string;
}

const STACK_LINE = /^\s*at (?:.+ \()?(?:\/|node:|file:|[A-Za-z]:\\)[^\n]*:\d+:\d+\)?\s*$/m;
const ERROR_WORD = /(?:^|: )error(?:\[[^\]]*\])?: /;

/** The message with what varies between instances of one bug abstracted: paths, numbers, SSA and symbol names, quoted text. */
export function abstractMessage(message: string, path?: string): string {
  let s = message.split('\n')[0];
  if (path) s = s.split(path).join('FILE');
  return (
    s
      .replace(/(?:\/[\w.+-]+)+\.pto/g, 'FILE')
      // Quoted text is the program's, except the property an internal error was reading.
      .replace(/(reading )?'([^']*)'/g, (_m: string, reading: string | undefined, q: string) => (reading ? `reading '${q}'` : "'S'"))
      .replace(/"[^"]*"/g, '"S"')
      .replace(/%[A-Za-z0-9_$.-]+/g, '%V')
      .replace(/@[A-Za-z0-9_$.-]+/g, '@F')
      .replace(/0x[0-9a-fA-F]+/g, 'N')
      .replace(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?n?/gi, 'N')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200)
  );
}

export function signatureOf(cls: FailureClass, message: string, path?: string): string {
  return `${cls}: ${abstractMessage(message, path)}`;
}

function fail(cls: FailureClass, tool: ToolName, message: string, path?: string): Failure {
  const line = message.split('\n')[0].slice(0, 500);
  return { class: cls, tool, message: line, signature: signatureOf(cls, line, path) };
}

/** The first failure of a finished run, or undefined when the run is acceptable. */
export function check(req: CaseRequest, res: CaseResult): Failure | undefined {
  const tool = req.tool;
  if (res.exception)
    return fail(
      'internal-error',
      tool,
      `${res.exception.name && res.exception.name !== 'Error' ? res.exception.name + ': ' : ''}${res.exception.message}`,
      res.path,
    );
  const output = res.stderr + '\n' + res.stdout;
  const internal = /internal error: ?(.*)/.exec(output);
  if (internal) return fail('internal-error', tool, internal[1], res.path);
  const stack = STACK_LINE.exec(output);
  if (stack) return fail('stack-trace', tool, stack[0].trim(), res.path);
  if (res.code !== 0 && res.code !== 1 && res.code !== 2) return fail('bad-exit-code', tool, `exit code ${String(res.code)}`, res.path);
  const diag = checkDiagnostics(req, res);
  if (diag) return diag;
  if (res.strays.length > 0) return fail('stray-output', tool, `wrote ${res.strays.join(', ')}`, res.path);
  return undefined;
}

/** A diagnostic's first line, located in the program at `path`: its line, column and severity. */
const LOCATED = /^(\d+):(\d+): (error|warning|note)(\[[A-Z]\d{4}\])?: /;

/**
 * Whether a line of a tool's stderr is an error located in the program at `path`. The worker counts these over the
 * whole stream (CaseResult.stderrErrors): the text it keeps is cut to a head and a tail, and a cut can fall inside
 * or around the one error among a thousand warnings.
 */
export function isLocatedError(line: string, path: string): boolean {
  return line.startsWith(path + ':') && LOCATED.exec(line.slice(path.length + 1))?.[3] === 'error';
}

/** Every error line located in the program and in range; the exit code agrees with the errors printed. */
function checkDiagnostics(req: CaseRequest, res: CaseResult): Failure | undefined {
  const tool = req.tool;
  const lines = res.stderr.split('\n');
  const sourceLines = req.text.split('\n');
  const prefix = res.path + ':';
  // Counted over the whole stream; the kept text's lines are checked one by one below.
  const errors = res.stderrErrors;
  let usage = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith(prefix)) {
      const m = LOCATED.exec(line.slice(prefix.length));
      if (m) {
        const [lineNo, col] = [Number(m[1]), Number(m[2])];
        if (m[3] === 'error' && !m[4]) return fail('unlocated-error', tool, `error without a code: ${line}`, res.path);
        const text = sourceLines[lineNo - 1];
        if (lineNo < 1 || col < 1 || text === undefined || col > text.length + 1)
          return fail('bad-location', tool, `${m[3]} at ${lineNo}:${col} outside the file: ${line}`, res.path);
        i += 2; // the source line and the caret
        continue;
      }
      // FILE: note: ... (a run's notes) is fine; FILE: error: ... is an error without a position.
      if (ERROR_WORD.test(line)) return fail('unlocated-error', tool, line, res.path);
      continue;
    }
    if (/^error: /.test(line) && res.code === 2) {
      usage = true;
      continue;
    }
    if (ERROR_WORD.test(line) || /^\s*(?:Type|Range|Syntax|Reference)?Error\b/.test(line)) return fail('unlocated-error', tool, line, res.path);
  }
  if (res.code === 0 && errors > 0) return fail('exit-mismatch', tool, `exit code 0 after ${errors} error(s)`, res.path);
  if (res.code === 1 && errors === 0 && !usage)
    return fail('exit-mismatch', tool, `exit code 1 without an error: ${firstLine(res.stderr) || firstLine(res.stdout)}`, res.path);
  if (res.code === 2 && !usage) return fail('exit-mismatch', tool, `exit code 2 without a usage error: ${firstLine(res.stderr)}`, res.path);
  return undefined;
}

function firstLine(s: string): string {
  return s.split('\n').find((l) => l.trim().length > 0) ?? '';
}

/** A failure the pool saw (timeout, memory, a dead worker): the ops of the program stand in for a message. */
export function poolFailure(cls: 'timeout' | 'out-of-memory' | 'worker-died', tool: ToolName, detail: string, text: string): Failure {
  const ops = opsOf(text);
  const message = `${detail}`;
  return { class: cls, tool, message, signature: `${cls}: ${tool} [${ops.join(' ')}]` };
}

/** The distinct op names of a program (dialect.op), sorted, at most 8: a stand-in for where a hang happens. */
export function opsOf(text: string): string[] {
  const ops = new Set<string>();
  for (const m of text.matchAll(/(?:^|[=\s])((?:arith|scf|pto|func|affine|memref|hivm|tik|ascendc)\.[a-z_0-9.]+)/g)) ops.add(m[1]);
  return [...ops].sort().slice(0, 8);
}

/** Whether a signature matches a known one (`*` matches anything). */
export function matchesKnown(signature: string, pattern: string): boolean {
  if (!pattern.includes('*')) return signature === pattern;
  const re = new RegExp(
    '^' +
      pattern
        .split('*')
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*') +
      '$',
  );
  return re.test(signature);
}
