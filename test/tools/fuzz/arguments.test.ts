/** The fuzzer's pto-vm arguments for a kernel: an entry when there are several functions, a value for each scalar. */
import { kernelArguments } from '../../../src/tools/fuzz/arguments';
import { Rng } from '../../../src/tools/fuzz/rng';

const pairs = (argv: string[]) => argv.flatMap((a, i) => (argv[i - 1] === '--arg' ? [a.split('=')] : []));

test('every scalar argument of the chosen function gets a value of its kind; pointers and tiles none', () => {
  const text = `module {
  func.func @k(%p: !pto.ptr<f32>, %n: index, %flag: i1, %s: f32, %b: i64) {
    return
  }
}`;
  for (let seed = 0; seed < 50; seed++) {
    const argv = kernelArguments(text, new Rng(seed));
    expect(argv).not.toContain('--entry');
    const got = pairs(argv);
    expect(got.map(([name]) => name)).toEqual(['n', 'flag', 's', 'b']);
    const [[, n], [, flag], [, s], [, b]] = got;
    expect(Number.isInteger(Number(n))).toBe(true);
    expect(['0', '1']).toContain(flag);
    expect(Number.isFinite(Number(s))).toBe(true);
    expect(/^-?\d+$/.test(b)).toBe(true);
  }
});

test('with several functions one is chosen by --entry, and only its scalars get values; private ones are not chosen', () => {
  const text = `module {
  func.func private @helper(%x: index)
  func.func @aic(%p: !pto.ptr<f32>, %m: index) {
    return
  }
  func.func @aiv(%q: !pto.ptr<f32>, %k: i32) {
    return
  }
}`;
  const seen = new Set<string>();
  for (let seed = 0; seed < 40; seed++) {
    const argv = kernelArguments(text, new Rng(seed));
    const entry = argv[argv.indexOf('--entry') + 1];
    seen.add(entry);
    expect(pairs(argv).map(([name]) => name)).toEqual([entry === '@aic' ? 'm' : 'k']);
  }
  expect([...seen].sort()).toEqual(['@aic', '@aiv']);
});

test('a text without a function signature gets nothing', () => {
  expect(kernelArguments('module {\n}\n', new Rng(1))).toEqual([]);
  expect(kernelArguments('func.func @broken(%a: index', new Rng(1))).toEqual([]);
});
