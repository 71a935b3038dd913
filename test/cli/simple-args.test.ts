/**
 * The command lines the tools parse without yargs (src/cli/simple-args.ts): whatever the simple parse returns is what
 * yargs returns for the same command line, with the tools' own options; everything else it leaves to yargs.
 */
import fc from 'fast-check';
import { COMMAND_LINE as PTO_AS, parseWithYargs as ptoAsYargs } from '../../src/cli/pto-as';
import { RUN_COMMAND_LINE as PTO_VM_RUN, parseWithYargs as ptoVmYargs } from '../../src/cli/pto-vm';
import { CommandLine, parseSimply } from '../../src/cli/simple-args';

/** yargs' arguments, or 'usage error'. */
function yargsResult(parse: (argv: string[]) => unknown, argv: string[]): unknown {
  try {
    return parse(argv);
  } catch {
    return 'usage error';
  }
}

const tools: [string, CommandLine, (argv: string[]) => unknown][] = [
  ['pto-as', PTO_AS, ptoAsYargs],
  ['pto-vm', PTO_VM_RUN, ptoVmYargs],
];

describe('the usual command lines are parsed without yargs, as yargs parses them', () => {
  test.each([
    ['pto-as', ['/tmp/empty.pto']],
    ['pto-as', ['a.pto', 'b.pto', '--target', 'a5', '--emit', 'canonical']],
    ['pto-as', ['a.pto', '--emit=json', '-o', 'out.json', '--level', 'level3']],
    ['pto-as', ['a.pto', '--output', 'out.txt']],
    ['pto-as', ['a.pto', 'b.pto', '--diagnostics-format', 'sarif', '--werror', '-q', '--color', 'always']],
    ['pto-as', ['a.pto', '--verify-diagnostics', '--split-input-file', '--color=never']],
    ['pto-vm', ['run', 'programs/tcolmin.pto', '--target', 'a5']],
    ['pto-vm', ['run', '123', '--json', '--max-steps', '5']],
    ['pto-vm', ['run', 'k.pto', '--arg', 'arg0=zeros:16', '--arg', '1:arg1=@0', '--out', 'arg1=y.npy', '--ranks', '2']],
    ['pto-vm', ['run', 'k.pto', '--blocks=4', '--numerics', 'cpu-sim', '--pto-backend', 'vpto', '--strict-sync', '--schedule-seed', '0']],
  ])('%s %j', (tool, argv) => {
    const [, line, yargs] = tools.find(([name]) => name === tool)!;
    const simple = parseSimply(argv, line);
    expect(simple).toBeDefined();
    expect(simple).toEqual(yargsResult(yargs, argv));
  });

  test('with their defaults and every spelling of each option', () => {
    expect(parseSimply(['run', 'k.pto', '--max-steps', '7'], PTO_VM_RUN)).toEqual({
      _: ['run'],
      $0: 'pto-vm',
      file: 'k.pto',
      arg: [],
      out: [],
      numerics: 'npu',
      json: false,
      profile: false,
      quiet: false,
      'json-values': 1048576,
      jsonValues: 1048576,
      'max-steps': 7,
      maxSteps: 7,
      timeout: 600,
      'max-memory': 1073741824,
      maxMemory: 1073741824,
      direct: false,
      'check-lowering': false,
      checkLowering: false,
      blocks: 1,
      ranks: 1,
      'strict-sync': false,
      strictSync: false,
      'sync-check': true,
      syncCheck: true,
    });
    expect(parseSimply(['a.pto', '-o', 'x'], PTO_AS)).toEqual({
      _: ['a.pto'],
      $0: 'pto-as',
      emit: 'none',
      o: 'x',
      output: 'x',
      'diagnostics-format': 'text',
      diagnosticsFormat: 'text',
      werror: false,
      quiet: false,
      q: false,
      color: 'auto',
      'verify-diagnostics': false,
      verifyDiagnostics: false,
      'split-input-file': false,
      splitInputFile: false,
    });
  });
});

describe('the rest is left to yargs', () => {
  test.each([
    ['pto-as', []],
    ['pto-as', ['--help']],
    ['pto-as', ['a.pto', '--emit', 'bogus']],
    ['pto-as', ['a.pto', '--bogus']],
    ['pto-as', ['a.pto', '--target', 'a5', '--target', 'a2a3']],
    ['pto-as', ['1e3']],
    ['pto-as', ['--', 'a.pto']],
    ['pto-as', ['a.pto', '--emit']],
    ['pto-as', ['--explain', 'E0302']],
    ['pto-as', ['-', '--emit', 'canonical']],
    ['pto-as', ['a.pto', '--version']],
    ['pto-as', ['a.pto', '-h']],
    ['pto-vm', ['run']],
    ['pto-vm', ['validate', 'samples/']],
    ['pto-vm', ['--target', 'a5', 'run', 'k.pto']],
    ['pto-vm', ['run', 'k.pto', 'extra']],
    ['pto-vm', ['run', 'k.pto', '--json', 'false']],
    ['pto-vm', ['run', 'k.pto', '--no-json']],
    ['pto-vm', ['run', 'k.pto', '--maxSteps', '3']],
    ['pto-vm', ['run', 'k.pto', '--max-steps', '0x10']],
    ['pto-vm', ['run', 'k.pto', '--arg', 'a=1', 'b=2']],
    ['pto-vm', ['run', 'k.pto', '--arg=a=1']],
    ['pto-vm', ['run', 'k.pto', '--blocks', '-1']],
  ])('%s %j', (tool, argv) => {
    const [, line] = tools.find(([name]) => name === tool)!;
    expect(parseSimply(argv, line)).toBeUndefined();
  });
});

describe('on generated command lines', () => {
  const values = ['a5', 'a2a3', 'level3', 'canonical', 'json', 'none', 'cpu-sim', 'npu', 'vpto', 'bogus', 'true', 'false'];
  const numbers = ['0', '1', '7', '007', '1e3', '0x10', '-1', '2.5', '99999999999999999', 'NaN', ''];
  const words = ['k.pto', 'run', 'validate', 'arg0=zeros:16', '1:arg1=@0', './x.pto', '--', '-', '3'];

  /** An option of the table, as the tools' users write it, with a value of its kind (not always a valid one). */
  function usualPiece(line: CommandLine): fc.Arbitrary<string[]> {
    const forms = Object.entries(line.options).map(([name, spec]) => {
      const flag = fc.constantFrom(...[name, ...(spec.alias ? [spec.alias] : [])].map((n) => (n.length === 1 ? `-${n}` : `--${n}`)));
      if (spec.type === 'boolean') return flag.map((f) => [f]);
      const value = fc.constantFrom(...(spec.choices ?? (spec.type === 'number' ? numbers : words)), 'bogus');
      return fc.tuple(flag, value, fc.boolean()).map(([f, v, joined]) => (joined && f.startsWith('--') ? [`${f}=${v}`] : [f, v]));
    });
    return fc.oneof(...forms, fc.constantFrom<string[]>(['other.pto']));
  }

  /** An option with or without a value, in some spelling (right or wrong); or a positional argument. */
  function anyPiece(line: CommandLine): fc.Arbitrary<string[]> {
    const flags = Object.entries(line.options).flatMap(([name, spec]) => {
      const spellings = [name, ...(spec.alias ? [spec.alias] : [])].map((n) => (n.length === 1 ? `-${n}` : `--${n}`));
      return [...spellings, `--no-${name}`, `--${name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}`];
    });
    const flag = fc.constantFrom(...flags);
    const value = fc.constantFrom(...values, ...numbers, ...words);
    return fc.oneof(
      flag.map((f) => [f]),
      fc.tuple(flag, value).map(([f, v]) => [f, v]),
      fc.tuple(flag, value).map(([f, v]) => [`${f}=${v}`]),
      fc.constantFrom(...words, ...numbers).map((w) => [w]),
    );
  }

  const piece = (line: CommandLine) => fc.oneof({ arbitrary: usualPiece(line), weight: 4 }, { arbitrary: anyPiece(line), weight: 1 });

  test.each(tools)('%s: a command line the simple parse takes, yargs parses the same way', (_tool, line, yargs) => {
    // Mostly the command (when the tool has one) and a file, then options and arguments in any order.
    const start = fc.oneof(
      { arbitrary: fc.constant([...(line.command ? [line.command.name] : []), 'k.pto']), weight: 9 },
      { arbitrary: fc.constant([]), weight: 1 },
    );
    const argv = fc.tuple(start, fc.array(piece(line), { maxLength: 5 })).map(([first, pieces]) => [...first, ...pieces.flat()]);
    let taken = 0;
    fc.assert(
      fc.property(argv, (args) => {
        const simple = parseSimply(args, line);
        if (simple === undefined) return;
        taken++;
        expect(yargsResult(yargs, args)).toEqual(simple);
      }),
      { numRuns: 2000 },
    );
    // The generator reaches command lines the simple parse takes, not only ones it leaves to yargs.
    expect(taken).toBeGreaterThan(300);
  });
});
