/**
 * The verifier finds AscendC accesses outside a tile from the call's footprint (ascendcFootprint) instead of running
 * the model on the tiles' bytes. Property: for random parameters and tile sizes, the footprint's first access outside
 * a tile is exactly the error a run of the model on real tiles of those sizes throws (and no access outside means the
 * run completes).
 */
import fc from 'fast-check';
import { ModelError } from '../../../src/ascendc/model/errors';
import { outsideOf } from '../../../src/ascendc/model/memory';
import { isa } from '../../../src/spec/isa';
import { AscendcShape, ascendcFootprint, ascendcProblems, runAscendc } from '../../../src/ops/instructions/ascendc-run';
import { AscendcParams } from '../../../src/ops/instructions/ascendc-text-form';

const RUNS = Number(process.env.PTO_PROPERTY_RUNS ?? 200);

const common = {
  dtype: fc.constantFrom('f16' as const, 'f32' as const),
  mask: fc.constantFrom(128, 64, 16, 1),
  product: fc.constant('A2' as const),
  sat: fc.constant(true),
};
const stride = (max: number) => fc.integer({ min: 0, max });

const CASES = {
  'ascendc.whole_reduce_min': fc.record({
    ...common,
    repeat: fc.integer({ min: 0, max: 12 }),
    dstRepStride: stride(4),
    srcBlkStride: stride(3),
    srcRepStride: stride(10),
    order: fc.constantFrom('ORDER_VALUE_INDEX', 'ORDER_INDEX_VALUE', 'ORDER_ONLY_VALUE', 'ORDER_ONLY_INDEX'),
  }),
  'ascendc.block_reduce_sum': fc.record({
    ...common,
    repeat: fc.integer({ min: 0, max: 12 }),
    dstRepStride: stride(4),
    srcBlkStride: stride(3),
    srcRepStride: stride(10),
  }),
  'tik.vec_reduce_add': fc.record({ ...common, repeat: fc.integer({ min: 1, max: 12 }), srcRepStride: stride(10) }),
  'ascendc.copy': fc.record({
    ...common,
    repeat: fc.integer({ min: 0, max: 12 }),
    dstStride: stride(3),
    srcStride: stride(3),
    dstRepeatSize: stride(10),
    srcRepeatSize: stride(10),
  }),
};

/** Tile sizes in whole 32-byte blocks, small enough that many calls reach past them. */
const tileBytes = fc.integer({ min: 1, max: 96 }).map((blocks) => blocks * 32);

describe.each(Object.keys(CASES) as (keyof typeof CASES)[])('%s', (opName) => {
  const spec = isa().instructions.get(opName)!;
  test('the footprint finds the first access outside a tile exactly as a run of the model does', () => {
    let outside = 0;
    let inside = 0;
    fc.assert(
      fc.property(
        CASES[opName],
        tileBytes,
        tileBytes,
        fc.option(tileBytes, { nil: undefined }),
        fc.boolean(),
        (raw, srcBytes, dstBytes, workBytes, inPlace) => {
          const params = raw as unknown as AscendcParams;
          const withWork = opName === 'tik.vec_reduce_add' ? workBytes : undefined;
          const src = new Uint8Array(srcBytes);
          const tiles = { src, dst: inPlace ? src : new Uint8Array(dstBytes), work: withWork === undefined ? undefined : new Uint8Array(withWork) };
          const shape: AscendcShape = { dstIsSrc: inPlace, workIsSrc: false, workIsDst: false, workBytes: withWork };
          if (ascendcProblems(spec, params, shape).length > 0) return; // invalid parameters: reported before any footprint
          let run: string | undefined;
          try {
            runAscendc(spec, params, tiles);
          } catch (e) {
            if (!(e instanceof ModelError)) throw e;
            run = e.message;
          }
          const sizes = { src: srcBytes, dst: inPlace ? srcBytes : dstBytes, work: withWork ?? 0 };
          const first = ascendcFootprint(spec, params, shape)
            .map(({ role, access }) => outsideOf(`%${role}`, sizes[role], access))
            .find((o) => o !== undefined);
          if (first) outside++;
          else inside++;
          expect(first?.message).toBe(run);
        },
      ),
      { numRuns: RUNS },
    );
    // The property saw both verdicts, so it compares something on each side.
    expect(outside).toBeGreaterThan(0);
    expect(inside).toBeGreaterThan(0);
  });
});
