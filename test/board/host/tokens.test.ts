/**
 * The host harness's preprocessor (src/board/host/tokens.ts): `#if` conditions as the VPTO suite's launch.cpp writes
 * them, evaluated for the host's compile (no __CCE_AICORE__), by hand.
 */
import { preprocess, HostSyntaxError } from '../../../src/board/host/tokens';

const kept = (text: string, predefined: Record<string, string> = {}) =>
  preprocess(text, 'launch.cpp', predefined)
    .map((t) => t.text)
    .join(' ');

describe('#if', () => {
  test('defined(X), !, && and ||: device-only blocks are left out, host ones kept', () => {
    const text = [
      '#if defined(__CCE_AICORE__) && defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2201)',
      'device',
      '#endif',
      '#if !defined(__CCE_AICORE__) && !defined(TMRGSORT_HPP)',
      'host',
      '#endif',
      '#if defined A || defined(B)',
      'either',
      '#else',
      'neither',
      '#endif',
    ].join('\n');
    expect(kept(text)).toBe('host neither');
    expect(kept(text, { A: '' })).toBe('host either');
  });

  test('macros are expanded and compared; an unknown name is 0', () => {
    const text = '#if __NPU_ARCH__ == 2201 && UNKNOWN == 0\nyes\n#else\nno\n#endif\n#if (X >= 3) || 0\nbig\n#endif';
    expect(kept(text, { __NPU_ARCH__: '2201', X: '3' })).toBe('yes big');
    expect(kept(text, { __NPU_ARCH__: '2002', X: '2' })).toBe('no');
  });

  test('an #if inside a block left out is not read; a condition that cannot be read is an error', () => {
    expect(kept('#if 0\n#if defined(\n#endif\n#endif\nafter')).toBe('after');
    expect(() => kept('#if defined(\nx\n#endif')).toThrow(HostSyntaxError);
  });
});
