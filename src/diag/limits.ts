/**
 * The limits the tools keep to, as data: each is checked before the work it bounds (an allocation, a loop) and
 * reported as a located error naming the construct and its size. docs/cli.md lists them (a test keeps the two in
 * step); a limit with a flag can be raised from the command line.
 */
export interface Limit {
  /** The default value. */
  value: number;
  unit: 'bytes' | 'steps' | 'cores' | 'seconds' | 'values' | 'levels' | 'characters' | 'diagnostics';
  /** The option that sets it, if any. */
  flag?: string;
  /** What it bounds, as docs/cli.md says it. */
  what: string;
}

export const LIMITS = {
  nesting: {
    value: 64,
    unit: 'levels',
    what: 'the nesting of brackets ((, [, {, <) in one statement, and of regions in one another',
  },
  statementLength: {
    // The grammar's matcher keeps a memo per character of a statement (~3 KB each on a list attribute): this bounds
    // it at ~1 s and ~250 MB. The longest statement in PTOAS's 3024 test files (a function of 35 tile arguments) has
    // 4662 characters.
    value: 65536,
    unit: 'characters',
    what: 'the text of one statement or block label, without the regions it holds',
  },
  resultGroup: {
    value: 4096,
    unit: 'values',
    what: 'the values of one result group (`%x:N = ...`) in the source',
  },
  diagnostics: {
    // Each shown with its source line: a file of stray `}` would otherwise print one per character.
    value: 1000,
    unit: 'diagnostics',
    what: 'the errors shown for one file, and the warnings apart; a note at the first left out counts the rest',
  },
  globalMemory: {
    value: 2 ** 30,
    unit: 'bytes',
    flag: '--max-memory',
    what: "the global memory of a run: every pointer argument's buffer, generated or read from a file, together",
  },
  steps: {
    value: 1e8,
    unit: 'steps',
    flag: '--max-steps',
    what: 'the steps of each core: an executed op or a loop iteration',
  },
  time: {
    value: 600,
    unit: 'seconds',
    flag: '--timeout',
    what: 'the wall-clock time of a run, checked every 256 steps of a core (a tile instruction counts 16)',
  },
  jsonValues: {
    // A 1 GiB buffer as JSON text would outgrow the longest string the runtime makes (and take minutes to read).
    value: 2 ** 20,
    unit: 'values',
    flag: '--json-values',
    what: 'the values `--json` lists for each buffer (the first ones, with a warning; `--out NAME=FILE.npy` writes them all)',
  },
  printBuffer: {
    // Per core, as the device's print buffer is: a core's output then does not depend on what other cores printed.
    value: 16 * 2 ** 20,
    unit: 'characters',
    what: "the text one core prints (pto.tprint, pto.print); past it the core's later prints are left out, with a warning",
  },
  cores: {
    value: 4096,
    unit: 'cores',
    what: 'the cores of a run: blocks x sub-blocks x ranks',
  },
} satisfies Record<string, Limit>;

/** A byte count as messages show it: exact, with a binary-prefixed size beside it when large. */
export function showBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = n;
  let unit = -1;
  while (v >= 1024 && unit < units.length - 1) {
    v /= 1024;
    unit++;
  }
  return `${n} bytes (${v.toFixed(v < 10 ? 1 : 0)} ${units[unit]})`;
}
