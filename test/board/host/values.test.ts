/** C literals as the host-harness interpreter reads them (src/board/host/values.ts), values worked out by hand. */
import { parseNumber } from '../../../src/board/host/values';

describe('parseNumber', () => {
  test("a hex literal's trailing F is a digit, not a float suffix", () => {
    // tdivs's launch.cpp passes (unsigned short)0x7BEF, f16 65000 rounded: 7*4096 + 11*256 + 14*16 + 15 = 31727.
    expect(parseNumber('0x7BEF')).toEqual({ t: 'int', type: 'i32', v: 31727n });
    expect(parseNumber('0xFFu')).toEqual({ t: 'int', type: 'u32', v: 255n });
    expect(parseNumber('0x3F800000U')).toEqual({ t: 'int', type: 'u32', v: 0x3f800000n });
  });

  test('decimal literals keep their suffixes', () => {
    expect(parseNumber('3.0f')).toEqual({ t: 'float', type: 'f32', v: 3 });
    expect(parseNumber('1e3')).toEqual({ t: 'float', type: 'f64', v: 1000 });
    expect(parseNumber('010')).toEqual({ t: 'int', type: 'i32', v: 8n });
    expect(parseNumber('7UL')).toEqual({ t: 'int', type: 'u64', v: 7n });
  });
});
