import { ddmin, halveRepetitions, lineUnits, minimize, tokenUnits } from '../../../src/tools/fuzz/minimize';

describe('the minimizer', () => {
  it('reduces lines to the ones a failure needs (a synthetic predicate)', async () => {
    const input = Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join('');
    const fails = async (s: string) => s.includes('line 17\n') && s.includes('line 42\n');
    const m = await minimize(input, fails);
    expect(m.text).toBe('line 17\nline 42\n');
    expect(m.tests).toBeLessThan(200);
  });

  it('then reduces tokens within the lines', async () => {
    const input = '%a = arith.addi %b , %c : index\n%d = arith.muli %e , %f : i32\n';
    const fails = async (s: string) => /%b\b/.test(s) && /\bi32\b/.test(s);
    const m = await minimize(input, fails);
    expect(m.text.replace(/\s+/g, ' ').trim()).toBe('%b i32');
  });

  it('halves long repetitions while the failure stays (deep nesting)', async () => {
    const input = `x = ${'['.repeat(1000)}1${']'.repeat(1000)}\n`;
    const fails = async (s: string) => /\[{200}/.test(s) && /\]{200}/.test(s);
    const m = await minimize(input, fails);
    expect(m.text.length).toBeLessThan(1000);
    expect(await fails(m.text)).toBe(true);
    expect(halveRepetitions('a' + 'ab'.repeat(40) + 'z')).toBe('a' + 'ab'.repeat(20) + 'z');
    expect(halveRepetitions('short')).toBe('short');
  });

  it('keeps the input when nothing smaller fails, and stays within its budget', async () => {
    expect((await minimize('a b c\n', async (s) => s === 'a b c\n')).text).toBe('a b c\n');
    let calls = 0;
    const m = await minimize(Array.from({ length: 1000 }, (_, i) => `${i}\n`).join(''), async (s) => (calls++, s.split('\n').length > 500), { maxTests: 20 });
    expect(m.tests).toBeLessThanOrEqual(21);
    expect(calls).toBeLessThanOrEqual(21);
  });

  it('splits into units that join back to the text', async () => {
    const text = '  %x = f(%y) // c\n\nz';
    expect(lineUnits(text).join('')).toBe(text);
    expect(tokenUnits(text).join('')).toBe(text);
    expect(await ddmin(['a', 'b', 'c', 'd'], async (s) => s.includes('c'), { tests: 0, spent: false } as never)).toEqual(['c']);
  });
});
