import { DIAGNOSTICS } from '../../diag/catalog';
import { LocatedError } from '../../diag/located-error';
import { Span } from '../../diag/source';
import * as scf from '../../ops/structure/scf';
import * as tiles from '../../ops/memory/tiles';
import { OpNode, Operand, ResultDef, TypeRef } from '../../syntax/ast';
import { newOp, withSegments } from '../../syntax/build';
import { TileType, Type, printType } from '../../types/type';
import { TypeTable } from '../../syntax/type-table';

/** A program that cannot be converted to the requested level, located at the construct that prevents it. */
export function conversionError(message: string, span: Span): LocatedError {
  return new LocatedError(DIAGNOSTICS.levelConversion, message, span);
}

/** The key of a value use as SSA names it: `%x`, or `%x#1` for one result of a multi-result op. */
export function useKey(o: Operand): string | undefined {
  const v = o.value;
  if (!v) return undefined;
  return v.index !== undefined ? `${v.name}#${v.index}` : v.name;
}

/** The keys of an op's results, one per value: `%x:2` gives `%x#0`, `%x#1`. */
export function resultKeys(results: ResultDef[]): string[] {
  return results.flatMap((r) => (r.count > 1 ? Array.from({ length: r.count }, (_, i) => `${r.name}#${i}`) : [r.name]));
}

/** Every value name a function defines or uses, so that new names never collide with them. */
export class Names {
  private readonly taken = new Set<string>();

  constructor(fn: OpNode) {
    const visit = (op: OpNode): void => {
      for (const r of op.results) this.taken.add(r.name);
      for (const o of op.operands) if (o.value) this.taken.add(o.value.name);
      for (const p of op.params ?? []) this.taken.add(p.name);
      for (const region of op.regions) {
        for (const b of region.blocks) {
          for (const a of b.args) this.taken.add(a.name);
          b.ops.forEach(visit);
        }
      }
    };
    visit(fn);
  }

  /** `base` itself if it is free, else `base_1`, `base_2`, ... */
  fresh(base: string): string {
    // `%12` may not take a suffix (a name starting with a digit is all digits): `%v12_1`.
    const stem = base.replace(/#/g, '_').replace(/^%(\d)/, '%v$1');
    if (!this.taken.has(stem) && !/^%v\d+$/.test(stem)) {
      this.taken.add(stem);
      return stem;
    }
    for (let i = 1; ; i++) {
      const candidate = `${stem}_${i}`;
      if (!this.taken.has(candidate)) {
        this.taken.add(candidate);
        return candidate;
      }
    }
  }

  /** Marks a name as used (one kept from the input). */
  claim(name: string): void {
    this.taken.add(name);
  }

  has(name: string): boolean {
    return this.taken.has(name);
  }
}

/** Tile types at one level: `!pto.tile_buf` (2) or `!pto.tile` (1); other types unchanged. */
export class TypeSpeller {
  constructor(
    readonly types: TypeTable,
    private readonly level: 1 | 2,
  ) {}

  parse(t: TypeRef | undefined): Type | undefined {
    return t ? this.types.resolve(t).type : undefined;
  }

  tile(t: TypeRef | undefined): TileType | undefined {
    const parsed = this.parse(t);
    return parsed?.kind === 'tile' && !parsed.memref ? parsed : undefined;
  }

  /** The type spelled at this level: a tile type becomes a buffer (level 2) or a value (level 1). */
  text(t: Type): string {
    if (t.kind !== 'tile' || t.memref) return printType(t);
    return printType({ ...t, level: this.level === 2 ? 'buf' : 'value' });
  }

  ref(t: TypeRef): TypeRef;
  ref(t: TypeRef | undefined): TypeRef | undefined;
  ref(t: TypeRef | undefined): TypeRef | undefined {
    if (!t) return undefined;
    const parsed = this.parse(t);
    return parsed ? { text: this.text(parsed), span: t.span } : t;
  }
}

export function allocTile(name: string, type: TypeRef, span: Span): OpNode {
  return newOp(tiles.allocTile.name, 'custom', span, { results: [{ name, count: 1, span }], resultTypes: [type] });
}

/** `pto.tmov ins(%src : T) outs(%dst : T)`: a whole-tile copy. */
export function tileCopy(src: Operand, dst: Operand, span: Span): OpNode {
  return newOp(
    'pto.tmov',
    'dps',
    span,
    withSegments([
      ['ins', [src]],
      ['outs', [dst]],
    ]),
  );
}

export function yieldOp(values: Operand[], span: Span): OpNode {
  return newOp(scf.yieldOp.name, 'custom', span, withSegments([['values', values]]));
}

/** The results of a rewritten op: the ones kept, under new names when the input grouped them as `%x:N`. */
export function keptResults(results: ResultDef[], keep: boolean[], rename: (key: string, name: string) => void, names: Names, span: Span): ResultDef[] {
  const keys = resultKeys(results);
  if (results.every((r) => r.count === 1)) return results.filter((_, i) => keep[i]);
  const kept: ResultDef[] = [];
  keys.forEach((key, i) => {
    if (!keep[i]) return;
    const name = names.fresh(key);
    rename(key, name);
    kept.push({ name, count: 1, span });
  });
  return kept;
}
