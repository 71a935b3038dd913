/**
 * tload of E8M0 scales into mat tiles in PTOAS's MX_A_ZZ / MX_B_NN global layouts (pto-isa npu/a5
 * TLoadMxCubeZZ2ZZ / NN2NN): the tile's rows x cols bytes are copied from the view's first element in order. The
 * expected tile elements follow the fractal orders the samples' golden scripts pack (convert_scale_a_format: element
 * (m, k) at byte (m/16)*16*Cols + (k/2)*32 + (m%16)*2 + k%2; convert_scale_b_format: element (k, n) at byte
 * (n/16)*16*Rows + (k/2)*32 + (n%16)*2 + k%2), worked out by hand here, never from the implementation.
 */
import { load } from '../../../../src/ops/instructions/semantics/memory';
import { InstructionContext } from '../../../../src/ops/instructions/semantics/context';
import { GlobalBuffer, OnChipMemory, PartitionView, Tile } from '../../../../src/machine/memory';
import { isa } from '../../../../src/spec/isa';
import { TileType } from '../../../../src/types/type';

const span = { start: 0, end: 0 };

function scaleType(rows: number, cols: number, layout: TileType['blayout'], valid: [number, number] = [rows, cols]): TileType {
  return {
    kind: 'tile',
    level: 'buf',
    loc: 'mat',
    dtype: '!pto.f8E8M0',
    rows,
    cols,
    vRow: valid[0],
    vCol: valid[1],
    blayout: layout,
    slayout: layout,
    fractal: 32,
    pad: 0,
    compact: 0,
  };
}

/** A global buffer of `length` bytes, byte i = (i * 7 + 3) & 0xff, viewed from element `offset` as rows x cols. */
function viewOf(length: number, offset: number, shape: number[]): PartitionView {
  const bytes = new Uint8Array(length).map((_, i) => (i * 7 + 3) & 0xff);
  return { kind: 'partition_view', buffer: new GlobalBuffer('s', '!pto.f8E8M0', bytes), shape, strides: [shape[1], 1], offset };
}

function runLoad(type: TileType, view: PartitionView): Tile {
  const tile = new OnChipMemory(isa(), 'a5').allocate(type, 'test', span);
  const trap = (message: string): never => {
    throw new Error(message);
  };
  const ctx = {
    op: { name: 'pto.tload', form: 'dps' },
    numerics: 'npu',
    backend: 'emitc',
    target: 'a5',
    tile: () => tile,
    view: () => view,
    trap,
  } as unknown as InstructionContext;
  load(ctx);
  return tile;
}

const byteAt = (i: number) => (i * 7 + 3) & 0xff;

test('MX_B_NN: a 4 x 32 tile (valid 4 x 16, Gemvmx b_scale) takes 128 bytes from the view start, (k, n) from byte (n/16)*64 + (k/2)*32 + (n%16)*2 + k%2', () => {
  const tile = runLoad(scaleType(4, 32, 'col_major', [4, 16]), viewOf(200, 10, [4, 16]));
  // (k=1, n=0): byte 1 of the view; (k=2, n=3): 32 + 6 = 38; (k=3, n=17): 64 + 32 + 2 + 1 = 99 (past the valid region, loaded all the same).
  expect(tile.get(1, 0)).toBe(byteAt(10 + 1));
  expect(tile.get(2, 3)).toBe(byteAt(10 + 38));
  expect(tile.get(3, 17)).toBe(byteAt(10 + 99));
  for (let i = 0; i < 128; i++) expect(tile.bytes[i]).toBe(byteAt(10 + i));
});

test('MX_A_ZZ: a 32 x 4 tile takes 128 bytes in order, (m, k) from byte (m/16)*64 + (k/2)*32 + (m%16)*2 + k%2', () => {
  const tile = runLoad(scaleType(32, 4, 'row_major'), viewOf(128, 0, [32, 4]));
  expect(tile.get(0, 1)).toBe(byteAt(1));
  expect(tile.get(5, 2)).toBe(byteAt(32 + 10));
  expect(tile.get(17, 3)).toBe(byteAt(64 + 32 + 2 + 1));
});

test('a view whose buffer ends before the tile does traps, naming the bytes the load reads', () => {
  expect(() => runLoad(scaleType(4, 64, 'col_major', [4, 63]), viewOf(252, 0, [4, 63]))).toThrow(
    /reads the tile's 4x64 = 256 bytes from element 0, past the buffer's 252/,
  );
});

test('an MX_B_NN tile whose cols are not whole 16-column bursts traps', () => {
  expect(() => runLoad(scaleType(4, 24, 'col_major'), viewOf(96, 0, [4, 24]))).toThrow(/multiple of 16/);
});
