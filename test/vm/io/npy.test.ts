/**
 * .npy tests. The fixtures are written out by hand from the format spec
 * (numpy.lib.format): magic "\x93NUMPY", version bytes, little-endian header
 * length (u16 for 1.0, u32 for 2.0/3.0), then the header dict padded with spaces
 * and a final '\n' so the data starts at a multiple of 64. Modern NumPy (>= 1.24)
 * also inserts 21 - len(str(shape[0])) spaces after the dict (room to grow the
 * first axis in place), so e.g. the (2, 3) header is the 59-character dict,
 * 20 growth spaces, 38 alignment spaces and '\n': 118 bytes, 128 with the prefix.
 */
import fc from 'fast-check';
import { NpyDtype, NpyError, dtypeItemSize, npyDescr, parseNpy, writeNpy } from '../../../src/vm/io/npy';

/** Bytes of a latin-1/ASCII string. */
function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}
function bytes(...parts: Array<number[] | string>): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? ascii(p) : p)));
}
const MAGIC = [0x93, ...ascii('NUMPY')];

/** np.save(np.arange(6, dtype='<f4').reshape(2, 3)) as written by NumPy >= 1.24. */
const ARANGE6_F4_2x3 = bytes(
  MAGIC,
  [1, 0],
  [0x76, 0x00], // version 1.0, header length 118
  "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
  ' '.repeat(20 + 38),
  '\n',
  [0x00, 0x00, 0x00, 0x00], // 0.0f
  [0x00, 0x00, 0x80, 0x3f], // 1.0f
  [0x00, 0x00, 0x00, 0x40], // 2.0f
  [0x00, 0x00, 0x40, 0x40], // 3.0f
  [0x00, 0x00, 0x80, 0x40], // 4.0f
  [0x00, 0x00, 0xa0, 0x40], // 5.0f
);

/** np.save(np.array([1, -2, 3, -4, 32767], dtype='<i2')): 1-D shape '(5,)'. */
const I2_1D = bytes(
  MAGIC,
  [1, 0],
  [0x76, 0x00],
  "{'descr': '<i2', 'fortran_order': False, 'shape': (5,), }",
  ' '.repeat(20 + 40),
  '\n',
  [0x01, 0x00, 0xfe, 0xff, 0x03, 0x00, 0xfc, 0xff, 0xff, 0x7f],
);

/** np.save(np.float64(3.5)): 0-d shape '()', one element, no growth spaces. */
const F8_SCALAR = bytes(
  MAGIC,
  [1, 0],
  [0x76, 0x00],
  "{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
  ' '.repeat(62),
  '\n',
  [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x40], // 3.5 = 0x400c000000000000
);

/** Format 2.0 (u32 header length), as np.lib.format.write_array(..., version=(2, 0)) writes [1, 2, 65535] as '<u2'. */
const U2_V2 = bytes(
  MAGIC,
  [2, 0],
  [0x74, 0x00, 0x00, 0x00], // header length 116; 12-byte prefix + 116 = 128
  "{'descr': '<u2', 'fortran_order': False, 'shape': (3,), }",
  ' '.repeat(20 + 38),
  '\n',
  [0x01, 0x00, 0x02, 0x00, 0xff, 0xff],
);

/** Same with version 3.0 (UTF-8 header; byte-identical here because the header is ASCII). */
const U2_V3 = bytes(
  MAGIC,
  [3, 0],
  [0x74, 0x00, 0x00, 0x00],
  "{'descr': '<u2', 'fortran_order': False, 'shape': (3,), }",
  ' '.repeat(20 + 38),
  '\n',
  [0x01, 0x00, 0x02, 0x00, 0xff, 0xff],
);

/** Older NumPy: no growth spaces and only 16-byte alignment (10 + 70 = 80). */
const OLD_STYLE_I4 = bytes(
  MAGIC,
  [1, 0],
  [0x46, 0x00], // header length 70: 10 + 57 + 12 + 1 = 80
  "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
  ' '.repeat(12),
  '\n',
  [0x07, 0x00, 0x00, 0x00, 0xf9, 0xff, 0xff, 0xff], // 7, -7
);

/** np.save(np.asfortranarray(np.arange(6, dtype='<i4').reshape(2, 3))): column-major data 0 3 1 4 2 5. */
const FORTRAN_I4_2x3 = bytes(
  MAGIC,
  [1, 0],
  [0x76, 0x00],
  "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }",
  ' '.repeat(20 + 39),
  '\n', // 'True' is one shorter than 'False'
  [0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0],
);

/** np.save(np.array([1, 2, -3], dtype='>f4')): big-endian data. */
const BIG_ENDIAN_F4 = bytes(
  MAGIC,
  [1, 0],
  [0x76, 0x00],
  "{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }",
  ' '.repeat(20 + 40),
  '\n',
  [0x3f, 0x80, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0xc0, 0x40, 0x00, 0x00],
);

/** A header as a Python 2 era NumPy could write it: long-integer 'L' suffixes. */
const PY2_LONGS = bytes(
  MAGIC,
  [1, 0],
  [0x46, 0x00],
  "{'descr': '<u1', 'fortran_order': False, 'shape': (2L, 1L), }",
  ' '.repeat(8),
  '\n', // 10 + 61 + 8 + 1 = 80
  [0xaa, 0xbb],
);

function floats32(data: Uint8Array): number[] {
  return [...new Float32Array(data.buffer, data.byteOffset, data.length / 4)];
}

/** Build a version 1.0 file around any header text, padding to 64 like NumPy. */
function v1File(headerDict: string, data: number[] = []): Uint8Array {
  const padding = 64 - ((10 + headerDict.length + 1) % 64);
  const header = headerDict + ' '.repeat(padding) + '\n';
  return bytes(MAGIC, [1, 0], [header.length & 0xff, header.length >> 8], header, data);
}

function expectNpyError(run: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    run();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(NpyError);
  expect((thrown as Error).message).toMatch(message);
}

describe('hand-built fixtures', () => {
  it('have the sizes the spec demands (data 64-byte aligned, header ends in newline)', () => {
    for (const [fixture, prefixLength] of [
      [ARANGE6_F4_2x3, 10],
      [I2_1D, 10],
      [F8_SCALAR, 10],
      [U2_V2, 12],
      [U2_V3, 12],
      [FORTRAN_I4_2x3, 10],
      [BIG_ENDIAN_F4, 10],
    ] as const) {
      const view = new DataView(fixture.buffer);
      const headerLength = prefixLength === 10 ? view.getUint16(8, true) : view.getUint32(8, true);
      const dataStart = prefixLength + headerLength;
      expect(dataStart).toBe(128);
      expect(fixture[dataStart - 1]).toBe(0x0a);
    }
  });
});

describe('parseNpy', () => {
  it('reads a 2-D float32 array (format 1.0)', () => {
    const array = parseNpy(ARANGE6_F4_2x3);
    expect(array).toMatchObject({ dtype: 'f32', descr: '<f4', shape: [2, 3], fortranOrder: false });
    expect(floats32(array.data)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('reads a 1-D shape (5,)', () => {
    const array = parseNpy(I2_1D);
    expect(array).toMatchObject({ dtype: 'i16', descr: '<i2', shape: [5] });
    expect([...new Int16Array(array.data.buffer)]).toEqual([1, -2, 3, -4, 32767]);
  });

  it('reads a 0-d shape () holding one element', () => {
    const array = parseNpy(F8_SCALAR);
    expect(array).toMatchObject({ dtype: 'f64', shape: [] });
    expect([...new Float64Array(array.data.buffer)]).toEqual([3.5]);
  });

  it('reads format 2.0 and 3.0 headers', () => {
    for (const fixture of [U2_V2, U2_V3]) {
      const array = parseNpy(fixture);
      expect(array).toMatchObject({ dtype: 'u16', descr: '<u2', shape: [3] });
      expect([...new Uint16Array(array.data.buffer)]).toEqual([1, 2, 65535]);
    }
  });

  it('reads a UTF-8 header in format 3.0', () => {
    // No supported descr is non-ASCII, so use an unsupported one: the error message quoting
    // it intact shows the two bytes of 'é' were decoded as one UTF-8 character.
    const header = "{'descr': '<f4\u00e9', 'fortran_order': False, 'shape': (0,), }";
    const encoded = new TextEncoder().encode(header + '\n');
    const file = bytes(MAGIC, [3, 0], [encoded.length, 0, 0, 0], [...encoded]);
    expectNpyError(() => parseNpy(file), /unsupported dtype '<f4\u00e9'/);
  });

  it('accepts older, differently padded and differently quoted headers', () => {
    expect([...new Int32Array(parseNpy(OLD_STYLE_I4).data.buffer)]).toEqual([7, -7]);
    const py2 = parseNpy(PY2_LONGS);
    expect(py2).toMatchObject({ dtype: 'u8', shape: [2, 1] });
    expect([...py2.data]).toEqual([0xaa, 0xbb]);
    const reordered = parseNpy(v1File('{"shape": (2,), "fortran_order": False, "descr": "<u4"}', [1, 0, 0, 0, 2, 0, 0, 0]));
    expect(reordered).toMatchObject({ dtype: 'u32', shape: [2] });
    expect([...new Uint32Array(reordered.data.buffer)]).toEqual([1, 2]);
  });

  it('converts Fortran-order data to C order', () => {
    const array = parseNpy(FORTRAN_I4_2x3);
    expect(array).toMatchObject({ dtype: 'i32', shape: [2, 3], fortranOrder: true });
    expect([...new Int32Array(array.data.buffer)]).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('converts 3-D Fortran-order data to C order', () => {
    // Element (i, j, k) of a (2, 3, 4) array sits at i + 2j + 6k in Fortran order and
    // at 12i + 4j + k in C order. Store the C index as the value (one byte each).
    const fortranData: number[] = new Array(24);
    for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 4; k++) fortranData[i + 2 * j + 6 * k] = 12 * i + 4 * j + k;
    const array = parseNpy(v1File("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3, 4), }", fortranData));
    expect([...array.data]).toEqual(Array.from({ length: 24 }, (_, n) => n));
  });

  it('leaves 1-D Fortran-order data alone and handles empty Fortran arrays', () => {
    expect([...parseNpy(v1File("{'descr': '|u1', 'fortran_order': True, 'shape': (3,), }", [5, 6, 7])).data]).toEqual([5, 6, 7]);
    expect(parseNpy(v1File("{'descr': '<f4', 'fortran_order': True, 'shape': (0, 3), }")).data.length).toBe(0);
  });

  it('byte-swaps big-endian data to little-endian', () => {
    const array = parseNpy(BIG_ENDIAN_F4);
    expect(array).toMatchObject({ dtype: 'f32', descr: '>f4', shape: [3] });
    expect(floats32(array.data)).toEqual([1, 2, -3]);

    const i2 = parseNpy(v1File("{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }", [0x12, 0x34, 0xff, 0xfe]));
    expect([...new Int16Array(i2.data.buffer)]).toEqual([0x1234, -2]);
    const f8 = parseNpy(v1File("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", [0x40, 0x0c, 0, 0, 0, 0, 0, 0]));
    expect([...new Float64Array(f8.data.buffer)]).toEqual([3.5]);
    const u8 = parseNpy(v1File("{'descr': '>u8', 'fortran_order': False, 'shape': (1,), }", [1, 2, 3, 4, 5, 6, 7, 8]));
    expect([...new BigUint64Array(u8.data.buffer)]).toEqual([0x0102030405060708n]);
    const f2 = parseNpy(v1File("{'descr': '>f2', 'fortran_order': False, 'shape': (1,), }", [0x3c, 0x00]));
    expect([...f2.data]).toEqual([0x00, 0x3c]); // f16 1.0, now little-endian
    const byte = parseNpy(v1File("{'descr': '>i1', 'fortran_order': False, 'shape': (1,), }", [0x80]));
    expect([...byte.data]).toEqual([0x80]);
  });

  it('byte-swaps and reorders a big-endian Fortran-order array', () => {
    // (2, 2) '>u2' matrix [[1, 2], [3, 4]] stored column-major: 1 3 2 4.
    const array = parseNpy(v1File("{'descr': '>u2', 'fortran_order': True, 'shape': (2, 2), }", [0, 1, 0, 3, 0, 2, 0, 4]));
    expect([...new Uint16Array(array.data.buffer)]).toEqual([1, 2, 3, 4]);
  });

  it('maps every supported descr to its dtype', () => {
    const cases: Array<[string, NpyDtype, number]> = [
      ['<f2', 'f16', 2],
      ['<f4', 'f32', 4],
      ['<f8', 'f64', 8],
      ['|i1', 'i8', 1],
      ['<i1', 'i8', 1],
      ['|u1', 'u8', 1],
      ['<u1', 'u8', 1],
      ['<i2', 'i16', 2],
      ['<u2', 'u16', 2],
      ['<i4', 'i32', 4],
      ['<u4', 'u32', 4],
      ['<i8', 'i64', 8],
      ['<u8', 'u64', 8],
      ['|b1', 'bool', 1],
      // bf16 as saved via ml_dtypes: np.save writes a 2-byte void; str(dtype) is 'bfloat16'.
      ['<V2', 'bf16', 2],
      ['|V2', 'bf16', 2],
      ['bfloat16', 'bf16', 2],
    ];
    for (const [descr, dtype, itemSize] of cases) {
      const data = Array.from({ length: itemSize }, (_, i) => i + 1);
      const array = parseNpy(v1File(`{'descr': '${descr}', 'fortran_order': False, 'shape': (1,), }`, data));
      expect({ descr, dtype: array.dtype, data: [...array.data] }).toEqual({ descr, dtype, data });
    }
  });

  it('returns a copy of the data that starts at offset 0', () => {
    const file = new Uint8Array(ARANGE6_F4_2x3);
    const array = parseNpy(file);
    file[128] = 0xff;
    expect(array.data.byteOffset).toBe(0);
    expect(array.data[0]).toBe(0);
  });

  it('reads from a Uint8Array that is a view into a larger buffer', () => {
    const container = new Uint8Array(ARANGE6_F4_2x3.length + 3);
    container.set(ARANGE6_F4_2x3, 3);
    expect(floats32(parseNpy(container.subarray(3)).data)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  describe('errors', () => {
    const header =
      (dict: string, data: number[] = []) =>
      () =>
        parseNpy(v1File(dict, data));

    it('rejects a bad magic string', () => {
      expectNpyError(() => parseNpy(bytes('PK\u0003\u0004 not numpy')), /magic/);
      expectNpyError(() => parseNpy(new Uint8Array(0)), /magic/);
    });

    it('rejects unsupported versions', () => {
      const withVersion = (major: number, minor: number) => {
        const file = new Uint8Array(ARANGE6_F4_2x3);
        file[6] = major;
        file[7] = minor;
        return () => parseNpy(file);
      };
      expectNpyError(withVersion(4, 0), /unsupported \.npy format version 4\.0/);
      expectNpyError(withVersion(1, 1), /version 1\.1/);
      expectNpyError(withVersion(0, 0), /version 0\.0/);
    });

    it('rejects truncated files', () => {
      expectNpyError(() => parseNpy(ARANGE6_F4_2x3.subarray(0, 9)), /truncated/);
      expectNpyError(() => parseNpy(ARANGE6_F4_2x3.subarray(0, 100)), /header claims 118 bytes but only 90 follow/);
    });

    it('rejects malformed header dicts', () => {
      expectNpyError(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), "), /malformed \.npy header/);
      expectNpyError(header("{'descr': '<f4' 'fortran_order': False}"), /malformed \.npy header.*expected '}'/);
      expectNpyError(header("['descr', '<f4']"), /expected a dict/);
      expectNpyError(header("{'descr': '<f4, 'fortran_order': False, 'shape': (1,), }"), /malformed/);
      expectNpyError(header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } junk"), /trailing text/);
      expectNpyError(header("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,), }"), /duplicate key 'descr'/);
      expectNpyError(header("{'descr': '<f4', 'shape': (1,), }"), /keys must be exactly.*got 'descr', 'shape'/);
      expectNpyError(header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1, }"), /keys must be exactly/);
      expectNpyError(header("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }"), /'fortran_order' must be True or False, got 0/);
      expectNpyError(header("{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3], }"), /'shape' must be a tuple.*got \[2, 3\]/);
      expectNpyError(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3), }"), /'shape' must be a tuple of non-negative integers/);
      expectNpyError(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,), }"), /malformed/);
    });

    it('rejects unsupported dtypes', () => {
      const withDescr = (descr: string) => header(`{'descr': ${descr}, 'fortran_order': False, 'shape': (1,), }`, [0, 0, 0, 0, 0, 0, 0, 0]);
      expectNpyError(withDescr("'<c8'"), /unsupported dtype '<c8'/);
      expectNpyError(withDescr("'<U2'"), /unsupported dtype '<U2'/);
      expectNpyError(withDescr("'|O'"), /unsupported dtype '\|O'/);
      expectNpyError(withDescr("'<f16'"), /unsupported dtype '<f16'/);
      expectNpyError(withDescr("'|V4'"), /unsupported dtype '\|V4'/);
      expectNpyError(withDescr("'|f4'"), /needs an explicit byte order/);
      expectNpyError(withDescr("'=f4'"), /native byte order '=' is ambiguous/);
      expectNpyError(withDescr("[('x', '<f4')]"), /structured dtypes are not supported/);
    });

    it('rejects data whose length does not match the shape', () => {
      expectNpyError(() => parseNpy(ARANGE6_F4_2x3.subarray(0, ARANGE6_F4_2x3.length - 1)), /needs 24 bytes but the file has 23/);
      expectNpyError(() => parseNpy(bytes([...ARANGE6_F4_2x3], [0])), /needs 24 bytes but the file has 25/);
      expectNpyError(header("{'descr': '<i8', 'fortran_order': False, 'shape': (), }", [1, 2, 3, 4]), /needs 8 bytes but the file has 4/);
    });

    it('rejects a format 3.0 header that is not UTF-8', () => {
      const file = new Uint8Array(U2_V3);
      file[13] = 0xff; // the quote opening 'descr': 0xff never occurs in UTF-8
      expectNpyError(() => parseNpy(file), /not valid UTF-8/);
    });
  });
});

describe('writeNpy', () => {
  it('writes exactly the bytes NumPy writes (1.0 header, 64-byte alignment, growth spaces)', () => {
    expect(writeNpy('f32', [2, 3], ARANGE6_F4_2x3.subarray(128))).toEqual(ARANGE6_F4_2x3);
    expect(writeNpy('i16', [5], I2_1D.subarray(128))).toEqual(I2_1D);
    expect(writeNpy('f64', [], F8_SCALAR.subarray(128))).toEqual(F8_SCALAR);
  });

  it('pads so the data is 64-byte aligned, like NumPy adding a full 64 spaces when already aligned', () => {
    for (let ndim = 0; ndim < 40; ndim++) {
      const file = writeNpy('u8', new Array(ndim).fill(1), new Uint8Array([42]));
      const headerLength = file[8] | (file[9] << 8);
      expect((10 + headerLength) % 64).toBe(0);
      expect(file[10 + headerLength - 1]).toBe(0x0a);
      expect(file[file.length - 1]).toBe(42);
    }
  });

  it('writes bf16 as <u2', () => {
    const file = writeNpy('bf16', [2], new Uint8Array([0x80, 0x3f, 0x00, 0x40]));
    const array = parseNpy(file);
    expect(array).toMatchObject({ dtype: 'u16', descr: '<u2', shape: [2] });
    expect([...array.data]).toEqual([0x80, 0x3f, 0x00, 0x40]);
  });

  it('switches to format 2.0 when the header does not fit a u16 length', () => {
    const shape = new Array(22_000).fill(1); // '(1, 1, ..., 1)' is ~66000 characters
    const file = writeNpy('u8', shape, new Uint8Array([9]));
    expect([...file.subarray(0, 8)]).toEqual([...MAGIC, 2, 0]);
    const headerLength = new DataView(file.buffer).getUint32(8, true);
    expect(headerLength).toBeGreaterThan(0xffff);
    expect((12 + headerLength) % 64).toBe(0);
    const array = parseNpy(file);
    expect(array.shape).toEqual(shape);
    expect([...array.data]).toEqual([9]);
  });

  it('rejects inconsistent arguments', () => {
    expectNpyError(() => writeNpy('f32', [2, 3], new Uint8Array(23)), /needs 24 bytes, got 23/);
    expectNpyError(() => writeNpy('f32', [-1], new Uint8Array(0)), /invalid shape/);
    expectNpyError(() => writeNpy('f32', [1.5], new Uint8Array(0)), /invalid shape/);
    expectNpyError(() => writeNpy('c64' as NpyDtype, [1], new Uint8Array(8)), /unknown dtype 'c64'/);
  });
});

describe('npyDescr / dtypeItemSize', () => {
  it('map every dtype', () => {
    const expected: Record<NpyDtype, [string, number]> = {
      f16: ['<f2', 2],
      bf16: ['<u2', 2],
      f32: ['<f4', 4],
      f64: ['<f8', 8],
      i8: ['|i1', 1],
      u8: ['|u1', 1],
      i16: ['<i2', 2],
      u16: ['<u2', 2],
      i32: ['<i4', 4],
      u32: ['<u4', 4],
      i64: ['<i8', 8],
      u64: ['<u8', 8],
      bool: ['|b1', 1],
    };
    for (const [dtype, [descr, size]] of Object.entries(expected) as Array<[NpyDtype, [string, number]]>) {
      expect([dtype, npyDescr(dtype), dtypeItemSize(dtype)]).toEqual([dtype, descr, size]);
    }
  });
});

describe('round trips', () => {
  const ALL_DTYPES: NpyDtype[] = ['f16', 'bf16', 'f32', 'f64', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'bool'];

  it('writeNpy then parseNpy preserves shape and bytes for every dtype', () => {
    const arbitraryCase = fc.tuple(fc.constantFrom(...ALL_DTYPES), fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 })).chain(([dtype, shape]) => {
      const length = shape.reduce((n, d) => n * d, 1) * dtypeItemSize(dtype);
      return fc.tuple(fc.constant(dtype), fc.constant(shape), fc.uint8Array({ minLength: length, maxLength: length }));
    });
    fc.assert(
      fc.property(arbitraryCase, ([dtype, shape, data]) => {
        const array = parseNpy(writeNpy(dtype, shape, data));
        const expectedDtype = dtype === 'bf16' ? 'u16' : dtype; // bf16 is stored as '<u2'
        expect(array).toEqual({ dtype: expectedDtype, descr: npyDescr(dtype), shape, fortranOrder: false, data });
      }),
      { numRuns: 2000 },
    );
  });

  it('preserves typed values, e.g. float64 specials and 64-bit integer extremes', () => {
    const doubles = new Float64Array([0, -0, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE, Math.PI]);
    const back = new Float64Array(parseNpy(writeNpy('f64', [7], new Uint8Array(doubles.buffer))).data.buffer);
    expect([...back]).toEqual([...doubles]);
    const longs = new BigInt64Array([-(2n ** 63n), 2n ** 63n - 1n, -1n]);
    const backLongs = new BigInt64Array(parseNpy(writeNpy('i64', [3], new Uint8Array(longs.buffer))).data.buffer);
    expect([...backLongs]).toEqual([...longs]);
  });
});
