/**
 * Inlining an instance at its call, as PTOAS's PTOInlineLibCall does, with FoldTileBufIntrinsics("shape-only")'s
 * fold: `pto.tile_valid_rows/cols` of a tile whose valid shape is static becomes that constant. The instance text is
 * the shim's printing (one op per line, values `%N`, block arguments `%argN` with the parameters first), so the
 * inlining is a renaming: parameters to the call's operands, every other value to a name of its own at this site.
 * `pto.tile_buf_addr` stays (the VM reads the tile's address from it; PTOAS folds it once tiles are placed).
 */

export interface InlineParam {
  /** The caller's value (`%ta`). */
  value: string;
  /** The tile's static valid shape, when the parameter is a tile whose type gives it. */
  valid?: [number | null, number | null];
}

/** The body to put in the op's place (its first line unindented, the others at `indent`), or why it cannot be. */
export function inlineInstance(fnText: string, params: InlineParam[], site: number, indent: string): { text: string } | { error: string } {
  const lines = fnText.split('\n');
  const header = lines[0];
  const count = [...header.matchAll(/%arg(\d+):/g)].length;
  if (count !== params.length) return { error: `the instance takes ${count} parameters, the op has ${params.length} operands` };
  if (lines[lines.length - 1].trim() !== '}' || lines[lines.length - 2].trim() !== 'return') return { error: 'the instance does not end in a bare return' };
  const body = lines.slice(1, -2);
  if (body.some((l) => /^\s*(return|func\.return)\b/.test(l))) return { error: 'the instance returns early' };
  const folded = body.map((line) => {
    const m = /^(\s*)(%\w+) = "pto\.tile_valid_(rows|cols)"\(%arg(\d+)\) : .*$/.exec(line);
    const valid = m ? params[Number(m[4])]?.valid?.[m[3] === 'rows' ? 0 : 1] : undefined;
    return m && valid !== undefined && valid !== null ? `${m[1]}${m[2]} = arith.constant ${valid} : index` : line;
  });
  const renamed = folded.map((line) =>
    line.replace(/%(\w+)/g, (_, name: string) => {
      const arg = /^arg(\d+)$/.exec(name);
      return arg && Number(arg[1]) < params.length ? params[Number(arg[1])].value : `%x${site}_${name}`;
    }),
  );
  // The body is indented by 4 in its function; in the caller it takes the op's indentation.
  const text = renamed.map((l, i) => (i === 0 ? l.replace(/^ {4}/, '').trimStart() : indent + l.replace(/^ {4}/, ''))).join('\n');
  return { text };
}
