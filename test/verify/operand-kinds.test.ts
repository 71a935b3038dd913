/**
 * Every operand the tables declare `scalar` must be a scalar and every `tile` a tile: checked generically for each
 * instruction (src/ops/instructions/definition.ts), with an error at the operand. Before the op registry, scalars
 * were checked only for ops on a name list, so `pto.texpands` with a tile where the scalar goes verified and then
 * trapped in the VM.
 */
import { at, diagLines, kernel, run, tileBuf } from '../fixtures/verify/helpers';

const TILE = tileBuf({ dtype: 'f32', rows: 8, cols: 64 });
/** How the messages print it: PTOAS's compact form. */
const TILE_PRINTED = '!pto.tile_buf<vec, 8x64xf32>';

function verify(line: string): { diags: string[]; text: string } {
  const text = kernel([
    `%t = pto.alloc_tile : ${TILE}`,
    `%d = pto.alloc_tile : ${TILE}`,
    '%c0 = arith.constant 0 : index',
    '%f = arith.constant 1.5 : f32',
    line,
    'return',
  ]);
  return { diags: diagLines(run(text, 'a5')), text };
}

describe('operands declared scalar or tile are checked for that kind', () => {
  it('rejects pto.texpands with a tile where the scalar goes, at the operand type', () => {
    const { diags, text } = verify(`pto.texpands ins(%t : ${TILE}) outs(%d : ${TILE})`);
    expect(diags).toEqual([
      `${at(text, TILE, 0, text.indexOf('pto.texpands'))}: error[E0502]: pto.texpands: scalar must be a scalar (index, integer or float), got ${TILE_PRINTED}`,
    ]);
  });

  it('accepts pto.texpands with a scalar', () => {
    expect(verify(`pto.texpands ins(%f : f32) outs(%d : ${TILE})`).diags).toEqual([]);
  });

  it('rejects pto.tgetval with a tile as its offset', () => {
    const { diags, text } = verify(`%v = pto.tgetval ins(%t, %d : ${TILE}, ${TILE}) outs : f32`);
    expect(diags).toEqual([
      `${at(text, TILE, 1, text.indexOf('pto.tgetval'))}: error[E0502]: pto.tgetval: offset must be a scalar (index, integer or float), got ${TILE_PRINTED}`,
    ]);
  });

  it('rejects pto.tsetval with a tile as its value', () => {
    const { diags } = verify(`pto.tsetval ins(%c0, %t : index, ${TILE}) outs(%d : ${TILE})`);
    expect(diags).toHaveLength(1);
    expect(diags[0]).toContain(`error[E0502]: pto.tsetval: value must be a scalar (index, integer or float), got ${TILE_PRINTED}`);
  });

  it('rejects a scalar where a tile goes', () => {
    const { diags } = verify(`pto.texpands ins(%f : f32) outs(%c0 : index)`);
    expect(diags).toContainEqual(expect.stringContaining('error[E0502]: pto.texpands: dst must be a tile, got index'));
  });
});
