import * as ohm from 'ohm-js';
import { TypeRef } from './ast';
import { ptoGrammar } from './grammar';
import { BLayout, CUSTOM_PAD_BASE, ElemType, SLayout, TILE_LOCS, TileLoc, TileType, Type, defaultLayout, scalarFromName } from '../types/type';

export interface TypeParse {
  type?: Type;
  error?: string;
  /** Accepted spellings that are deprecated or incomplete. */
  warnings: string[];
}

interface BodyItem {
  key?: string;
  kind: 'shaped' | 'dims' | 'number' | 'dynamic' | 'attr' | 'type' | 'pretty' | 'ident';
  text: string;
}

/**
 * Interns types: each distinct type text is parsed once (the grammar's `TypeParameters` rule), however
 * many times a program repeats it.
 */
export class TypeTable {
  private readonly cache = new Map<string, TypeParse>();
  private readonly respelled = new WeakMap<TypeRef, string>();
  private readonly grammar = ptoGrammar();
  private readonly semantics = bodySemantics(this.grammar);
  private readonly aliases = new Map<string, string>();

  /** `!name = type`: later uses of `!name` mean that type. */
  defineAlias(name: string, text: string): void {
    this.aliases.set(name, text);
    this.cache.delete(name);
  }

  /**
   * The type a written type means: its text, or the spelling the verifier decided it stands for (an old spelling
   * it normalized, see `respell`). Everything after parsing reads written types through here.
   */
  resolve(ref: TypeRef): TypeParse {
    return this.parse(this.spelling(ref));
  }

  /** The text of a written type as it is meant: its canonical spelling when the verifier normalized it. */
  spelling(ref: TypeRef): string {
    return this.respelled.get(ref) ?? ref.text;
  }

  /**
   * Records that a written type is an old spelling of `canonical` (`!pto.tensor_view<2xf32>`, a rank where the
   * shape goes). The AST keeps what was written; printers and passes see the canonical spelling through `resolve`.
   */
  respell(ref: TypeRef, canonical: string): void {
    this.respelled.set(ref, canonical);
  }

  parse(text: string): TypeParse {
    let result = this.cache.get(text);
    if (!result) {
      result = this.parseUncached(text);
      this.cache.set(text, result);
    }
    return result;
  }

  private parseUncached(text: string): TypeParse {
    if (this.aliases.has(text)) {
      // Follow a chain of aliases (`!a = !b`), refusing cycles.
      const seen = new Set([text]);
      let target = this.aliases.get(text)!;
      while (this.aliases.has(target)) {
        if (seen.has(target)) return { error: `type alias ${text} refers to itself`, warnings: [] };
        seen.add(target);
        target = this.aliases.get(target)!;
      }
      return this.parse(target);
    }
    const scalar = scalarFromName(text);
    if (scalar && !text.startsWith('int') && !text.startsWith('uint') && text !== 'half' && text !== 'float') {
      return { type: { kind: 'scalar', elem: scalar }, warnings: [] };
    }
    if (text.startsWith('memref<')) return this.parseMemref(text);
    const m = /^!([A-Za-z_][\w$.]*)(<[\s\S]*>)?$/.exec(text);
    if (!m) return { type: { kind: 'opaque', text }, warnings: [] };
    const name = m[1];
    const body = m[2];
    if (!['pto.tile_buf', 'pto.tile', 'pto.ptr', 'pto.tensor_view', 'pto.partition_tensor_view', 'pto.tile_view'].includes(name)) {
      return { type: { kind: 'opaque', text }, warnings: [] };
    }
    if (!body) return { error: `'!${name}' needs parameters '<...>'`, warnings: [] };
    const match = this.grammar.match(body, 'TypeParameters');
    if (match.failed()) {
      const shaped = /^<\s*((?:[0-9?]+x)+)([A-Za-z_]\w*)\s*>$/.exec(body);
      if (shaped && !scalarFromName(shaped[2])) return { error: `unknown element type '${shaped[2]}' in '!${name}${body}'`, warnings: [] };
      return { error: `malformed parameters of '!${name}'`, warnings: [] };
    }
    const items = this.semantics(match).items() as BodyItem[];
    switch (name) {
      case 'pto.ptr':
        return pointerType(items);
      case 'pto.tensor_view':
      case 'pto.partition_tensor_view':
        return viewType(name === 'pto.tensor_view' ? 'tensor_view' : 'partition_view', items);
      case 'pto.tile_view': {
        const view = viewType('partition_view', items);
        return { ...view, warnings: [`'!pto.tile_view' is the old name of '!pto.partition_tensor_view'`, ...view.warnings] };
      }
      default:
        return tileType(name === 'pto.tile_buf' ? 'buf' : 'value', items);
    }
  }

  private parseMemref(text: string): TypeParse {
    const match = this.grammar.match(text.slice('memref'.length), 'TypeParameters');
    if (match.failed()) return { error: `malformed memref type '${text}'`, warnings: [] };
    return memrefType(this.semantics(match).items() as BodyItem[], text);
  }
}

/**
 * The memref form: a buffer in an address space. On chip it is a row-major tile whose rows are all but the
 * last dimension (`memref<16x16x16xf16, ...<vec>>` is a 256x16 tile); in global memory it is a view.
 */
function memrefType(items: BodyItem[], text: string): TypeParse {
  const warnings: string[] = [];
  const shaped = items[0]?.kind === 'shaped' ? parseShaped(items[0].text) : undefined;
  if (!shaped?.elem) return { error: `'${text}' needs a shape and element type first, e.g. memref<16x16xf32, #pto.address_space<vec>>`, warnings };
  let layout: string | undefined;
  let spaceName: string | undefined;
  for (const item of items.slice(1)) {
    const space = /^#pto\.address_space<\s*(\w+)\s*>$/.exec(item.text);
    if (space) spaceName = space[1];
    else if (item.kind === 'pretty' && item.text.startsWith('strided')) layout = item.text.replace(/\s+/g, ' ');
    else return { error: `unsupported memref parameter '${item.text}' (expected strided<...> or #pto.address_space<...>)`, warnings };
  }
  if (!spaceName) return { error: `'${text}' needs an address space (#pto.address_space<gm|vec|mat|...>)`, warnings };
  if (spaceName === 'ub') {
    warnings.push(`'#pto.address_space<ub>' is the old name of '#pto.address_space<vec>'`);
    spaceName = 'vec';
  }
  const { shape, elem } = shaped;
  if (spaceName === 'gm') return { type: { kind: 'partition_view', shape, elem, memref: { shape, layout, space: 'gm' } }, warnings };
  if (!(TILE_LOCS as readonly string[]).includes(spaceName))
    return { error: `unknown address space '${spaceName}' (expected gm or one of ${TILE_LOCS.join(', ')})`, warnings };
  if (shape.some((d) => d === null)) return { error: `an on-chip memref needs a static shape, got '${items[0].text}'`, warnings };
  const dims = shape as number[];
  const cols = dims[dims.length - 1];
  const rows = dims.slice(0, -1).reduce((a, b) => a * b, 1);
  const loc = spaceName as TileLoc;
  const tile: TileType = { ...defaultTile('buf', loc, elem, rows, cols), blayout: 'row_major', slayout: 'none_box', memref: { shape, layout, space: loc } };
  return { type: tile, warnings };
}

function bodySemantics(grammar: ohm.Grammar): ohm.Semantics {
  const semantics = grammar.createSemantics();
  semantics.addOperation<any>('items', {
    TypeParameters(_o, list, _c) {
      return list.asIteration().children.map((item) => item.items());
    },
    TypeItem_keyed(key, _eq, value) {
      return { ...value.items(), key: key.sourceString };
    },
    TypeItem_positional(value) {
      return value.items();
    },
    TypeItemValue(this: ohm.Node, v) {
      const kinds: Record<string, BodyItem['kind']> = {
        shaped: 'shaped',
        dimList: 'dims',
        number: 'number',
        dialectAttr: 'attr',
        typeToken: 'type',
        genericPretty: 'pretty',
        ident: 'ident',
      };
      const kind = v.ctorName === '_terminal' ? 'dynamic' : (kinds[v.ctorName] ?? 'ident');
      return { kind, text: this.sourceString };
    },
  });
  return semantics;
}

function pointerType(items: BodyItem[]): TypeParse {
  const elem = items[0] && scalarFromName(items[0].text);
  if (!elem || items[0].key) return { error: `'!pto.ptr' expects an element type, e.g. '!pto.ptr<f32>'`, warnings: [] };
  const warnings = items.length > 1 ? [`'!pto.ptr<T, space>' is the old spelling; PTOAS now accepts only '!pto.ptr<T>'`] : [];
  return { type: { kind: 'ptr', elem }, warnings };
}

function parseShaped(text: string): { shape: (number | null)[]; elem?: ElemType } {
  const parts = text.split('x');
  const elemName = parts.pop()!;
  return { shape: parts.map((d) => (d === '?' ? null : Number(d))), elem: scalarFromName(elemName) };
}

function viewType(kind: 'tensor_view' | 'partition_view', items: BodyItem[]): TypeParse {
  const spelled = kind === 'tensor_view' ? '!pto.tensor_view' : '!pto.partition_tensor_view';
  if (items.length !== 1 || items[0].kind !== 'shaped') {
    return { error: `'${spelled}' expects a shape and element type, e.g. '${spelled}<16x16xf32>'`, warnings: [] };
  }
  const { shape, elem } = parseShaped(items[0].text);
  if (!elem) return { error: `unknown element type in '${spelled}<${items[0].text}>'`, warnings: [] };
  return { type: { kind, shape, elem }, warnings: [] };
}

const KEY_ORDER = ['loc', 'dtype', 'rows', 'cols', 'v_row', 'v_col', 'blayout', 'slayout', 'fractal', 'pad'];

/** Positional spellings of the ISA manual: `loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero`. */
const BLAYOUT_NAMES: Record<string, BLayout> = { row_major: 'row_major', col_major: 'col_major', RowMajor: 'row_major', ColMajor: 'col_major' };
const SLAYOUT_NAMES: Record<string, SLayout> = {
  none_box: 'none_box',
  row_major: 'row_major',
  col_major: 'col_major',
  NoneBox: 'none_box',
  RowMajor: 'row_major',
  ColMajor: 'col_major',
};

const PAD_VALUES: Record<string, number> = {
  null: 0,
  zero: 1,
  max: 2,
  min: 3,
  Null: 0,
  Zero: 1,
  Max: 2,
  Min: 3,
  PadNull: 0,
  PadZero: 1,
  PadMax: 2,
  PadMin: 3,
};
/** The manual's fractal enum; every box of the Vec/Mat/Left/Right tiles is 512 bytes. */
const FRACTAL_NAMES: Record<string, number> = { None: 512, NZ: 512, ZN: 512, FR: 512, RN: 512 };

function tileType(level: 'buf' | 'value', items: BodyItem[]): TypeParse {
  const spelled = level === 'buf' ? '!pto.tile_buf' : '!pto.tile';
  const warnings: string[] = [];
  const fields: Partial<Record<string, BodyItem>> = {};
  const keyed = items.filter((i) => i.key !== undefined);
  const positional = items.filter((i) => i.key === undefined);

  if (level === 'buf' && (positional.length > 0 || items.length === 0)) {
    warnings.push(`'${spelled}<...>' in the manual's short form: PTOAS accepts only the keyword form (loc=..., dtype=..., rows=..., ...)`);
  }
  if (items.length === 1 && items[0].kind === 'shaped') {
    // `!pto.tile<16x16xf32>`: a Vec tile with default layout.
    const { shape, elem } = parseShaped(items[0].text);
    if (!elem || shape.length !== 2 || shape.some((d) => d === null))
      return { error: `'${spelled}<${items[0].text}>' needs two static dims and an element type`, warnings };
    return { type: defaultTile(level, 'vec', elem, shape[0]!, shape[1]!), warnings };
  }

  for (const item of keyed) {
    const key = item.key!;
    if (key === 'valid') {
      // Legacy `valid=RxC`.
      const dims = item.text.split('x');
      if (dims.length !== 2) return { error: `'valid' expects 'ROWSxCOLS', got '${item.text}'`, warnings };
      if (fields.v_row || fields.v_col) return { error: `${spelled} valid region is given twice (valid=${item.text} and v_row/v_col)`, warnings };
      fields.v_row = { kind: dims[0] === '?' ? 'dynamic' : 'number', text: dims[0] };
      fields.v_col = { kind: dims[1] === '?' ? 'dynamic' : 'number', text: dims[1] };
      warnings.push(`'valid=${item.text}' is the old spelling of 'v_row=${dims[0]}, v_col=${dims[1]}'`);
      continue;
    }
    if (!KEY_ORDER.includes(key)) return { error: `unknown ${spelled} parameter '${key}' (expected one of ${KEY_ORDER.join(', ')})`, warnings };
    if (fields[key]) {
      const again = keyed.some((i) => i.key === 'valid') && (key === 'v_row' || key === 'v_col') ? 'valid region' : `parameter '${key}'`;
      return { error: `${spelled} ${again} is given twice`, warnings };
    }
    fields[key] = item;
  }

  // Early PTOAS output: `!pto.tile_buf<32x64xf32, #pto.address_space<ub>>`, and windows with `strided<[32, 1], offset: [?, ?]>`.
  for (const item of positional.filter((i) => i.kind === 'attr' || (i.kind === 'pretty' && i.text.startsWith('strided')))) {
    const space = /^#pto\.address_space<\s*(\w+)\s*>$/.exec(item.text);
    if (space) {
      if (fields.loc) return { error: `${spelled} location is given twice`, warnings };
      fields.loc = { kind: 'ident', text: space[1] === 'ub' ? 'vec' : space[1] };
      warnings.push(`'${item.text}' in a tile type is the old spelling of 'loc=${fields.loc.text}'`);
    } else if (item.kind === 'pretty') {
      warnings.push(`'${item.text.replace(/\s+/g, ' ')}' in a tile type is ignored: a window's strides come from the tile it is a pto.subset of`);
    } else {
      return { error: `unexpected '${item.text}' in '${spelled}<...>'`, warnings };
    }
  }
  positional.splice(0, positional.length, ...positional.filter((i) => !(i.kind === 'attr' || (i.kind === 'pretty' && i.text.startsWith('strided')))));

  if (positional.length > 0) {
    // Manual forms: `loc=vec, f32, 16, 16[, BLayout, SLayout, Fractal, Pad]`, `f32, 16, 16`, `vec, 16x16xf16, valid=?x?`.
    let rest = positional;
    if (!fields.loc && rest[0]?.kind === 'ident' && (TILE_LOCS as readonly string[]).includes(rest[0].text)) {
      fields.loc = rest[0];
      rest = rest.slice(1);
    }
    if (rest[0]?.kind === 'shaped') {
      const { shape, elem } = parseShaped(rest[0].text);
      if (!elem || shape.length !== 2) return { error: `'${rest[0].text}' must be ROWSxCOLSxTYPE`, warnings };
      fields.dtype = { kind: 'type', text: rest[0].text.split('x').pop()! };
      fields.rows = { kind: 'number', text: String(shape[0]) };
      fields.cols = { kind: 'number', text: String(shape[1]) };
      rest = rest.slice(1);
    } else {
      const names = ['dtype', 'rows', 'cols'];
      for (const n of names) {
        if (fields[n]) continue;
        if (rest.length === 0) break;
        fields[n] = rest[0];
        rest = rest.slice(1);
      }
    }
    const optional = ['blayout', 'slayout', 'fractal', 'pad'];
    for (const n of optional) {
      if (rest.length === 0) break;
      if (fields[n]) return { error: `${spelled} parameter '${n}' is given twice`, warnings };
      fields[n] = rest[0];
      rest = rest.slice(1);
    }
    if (rest.length > 0) return { error: `too many parameters in '${spelled}<...>'`, warnings };
  } else if (level === 'buf') {
    const order = keyed.map((i) => i.key);
    const missing = KEY_ORDER.filter((k) => !fields[k] && k !== 'v_row' && k !== 'v_col');
    if (missing.length > 0) warnings.push(`missing ${spelled} parameter(s) ${missing.join(', ')}: defaults used (PTOAS requires every parameter)`);
    const expected = KEY_ORDER.filter((k) => order.includes(k));
    if (!order.includes('valid') && order.join() !== expected.join())
      warnings.push(`${spelled} parameters are out of order (PTOAS requires ${KEY_ORDER.join(', ')})`);
  }

  const locText = fields.loc?.text ?? 'vec';
  let loc = locText as TileLoc;
  if (locText === 'ub') {
    loc = 'vec';
    warnings.push(`'loc=ub' is the old name of 'loc=vec'`);
  } else if (!(TILE_LOCS as readonly string[]).includes(locText)) {
    return { error: `unknown tile location '${locText}' (expected one of ${TILE_LOCS.join(', ')})`, warnings };
  }
  if (!fields.dtype) return { error: `${spelled} needs an element type (dtype)`, warnings };
  const dtype = scalarFromName(fields.dtype.text);
  if (!dtype || dtype === 'index' || dtype === 'i1' || dtype === 'f64') return { error: `'${fields.dtype.text}' is not a tile element type`, warnings };
  const rows = positiveInt(fields.rows, 'rows');
  if (typeof rows === 'string') return { error: `${spelled}: ${rows}`, warnings };
  const cols = positiveInt(fields.cols, 'cols');
  if (typeof cols === 'string') return { error: `${spelled}: ${cols}`, warnings };
  const vRow = validDim(fields.v_row, rows, 'v_row');
  if (typeof vRow === 'string') return { error: `${spelled}: ${vRow}`, warnings };
  const vCol = validDim(fields.v_col, cols, 'v_col');
  if (typeof vCol === 'string') return { error: `${spelled}: ${vCol}`, warnings };

  const blayout = fields.blayout ? BLAYOUT_NAMES[fields.blayout.text] : defaultLayout(loc).blayout;
  if (!blayout) return { error: `unknown blayout '${fields.blayout!.text}' (expected row_major or col_major)`, warnings };
  const slayout = fields.slayout ? SLAYOUT_NAMES[fields.slayout.text] : defaultLayout(loc).slayout;
  if (!slayout) return { error: `unknown slayout '${fields.slayout!.text}' (expected none_box, row_major or col_major)`, warnings };
  let fractal = loc === 'acc' ? 1024 : 512;
  if (fields.fractal) {
    const f = fields.fractal.kind === 'number' || fields.fractal.kind === 'dims' ? Number(fields.fractal.text) : FRACTAL_NAMES[fields.fractal.text];
    if (f === undefined || !Number.isInteger(f)) return { error: `unknown fractal '${fields.fractal.text}'`, warnings };
    if (fields.fractal.kind === 'ident' && fields.fractal.text !== 'None') fractal = loc === 'acc' ? 1024 : f;
    else if (fields.fractal.kind !== 'ident') fractal = f;
  }
  let pad = 0;
  if (fields.pad) {
    const p = fields.pad.kind === 'number' || fields.pad.kind === 'dims' ? Number(fields.pad.text) : PAD_VALUES[fields.pad.text];
    // A custom pad value is pto-isa's encoding: bit 32 set, the element's bit pattern below (PadValueCustom).
    const custom = p !== undefined && Number.isInteger(p) && p >= CUSTOM_PAD_BASE && p < 2 * CUSTOM_PAD_BASE;
    if (p === undefined || !Number.isInteger(p) || p < 0 || (p > 3 && !custom)) {
      return {
        error: `unknown pad '${fields.pad.text}' (expected 0..3, null, zero, max, min, or a custom value 0x1XXXXXXXX: bit 32 set, the element's bits below)`,
        warnings,
      };
    }
    pad = p;
  }
  return { type: { kind: 'tile', level, loc, dtype, rows, cols, vRow, vCol, blayout, slayout, fractal, pad }, warnings };
}

function positiveInt(item: BodyItem | undefined, name: string): number | string {
  if (!item) return `missing '${name}'`;
  const n = Number(item.text);
  if (!(item.kind === 'number' || item.kind === 'dims') || !Number.isInteger(n) || n <= 0) return `'${name}' must be a positive integer, got '${item.text}'`;
  return n;
}

function validDim(item: BodyItem | undefined, physical: number, name: string): number | null | string {
  if (!item) return physical;
  if (item.kind === 'dynamic' || item.text === '?' || item.text === '-1') return null;
  const n = Number(item.text);
  if (!Number.isInteger(n) || n < 0) return `'${name}' must be a non-negative integer or '?', got '${item.text}'`;
  return n;
}

function defaultTile(level: 'buf' | 'value', loc: TileLoc, dtype: ElemType, rows: number, cols: number): TileType {
  return { kind: 'tile', level, loc, dtype, rows, cols, vRow: rows, vCol: cols, ...defaultLayout(loc), fractal: loc === 'acc' ? 1024 : 512, pad: 0 };
}
