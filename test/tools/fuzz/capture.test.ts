import { Capture } from '../../../src/tools/fuzz/capture';

describe('Capture', () => {
  const filler = 'w '.padEnd(99, 'x') + '\n'; // 100 characters

  test('counts the lines it accepts over the whole stream: the part left out of its text, and lines written in pieces', () => {
    const c = new Capture((line) => line.startsWith('E '));
    for (let i = 0; i < 500; i++) c.write(filler);
    c.write('E one\n'); // after 50,000 characters: left out of the text kept
    for (let i = 0; i < 500; i++) c.write(filler);
    c.write('E tw');
    c.write('o\nE thr');
    c.write(Buffer.from('ee')); // the last line, without a newline
    c.end();
    expect(c.counted).toBe(3);
    expect(c.length).toBe(100_000 + 6 + 4 + 7 + 2);
    const text = c.text();
    expect(text).not.toContain('E one');
    expect(text).toMatch(/\[\.\.\. \d+ characters left out \.\.\.\]/);
    expect(text.endsWith('E two\nE three')).toBe(true);
  });

  test('a line longer than any write is judged once, by its start', () => {
    const c = new Capture((line) => line.startsWith('E '));
    c.write('E ');
    for (let i = 0; i < 200; i++) c.write('y'.repeat(1000));
    c.write('\nw\n');
    c.end();
    expect(c.counted).toBe(1);
  });
});
