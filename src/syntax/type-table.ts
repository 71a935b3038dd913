import * as ohm from 'ohm-js';
import { TypeRef } from './ast';
import { ptoGrammar } from './grammar';
import { Actions, RecordedShape, Unreplayable, keepVisited, recordShape, replayShape } from './shape-cache';
import { GenerationalMap } from './generational-map';
import { StatementShape, statementShape } from './statement-shape';
import { MICRO_TYPE_NAMES, microType } from './micro-types';
import {
  BLayout,
  CUSTOM_PAD_BASE,
  ElemType,
  HANDLE_KINDS,
  POINTER_SPACE_NAMES,
  PointerSpace,
  SLayout,
  TILE_DEFAULTS,
  TILE_LOCS,
  TileLoc,
  TileType,
  Type,
  defaultLayout,
  scalarFromName,
} from '../types/type';

/** The dialect types whose parameters this table reads; other `!dialect.name` types stay opaque. */

const PARAMETERIZED = [
  'pto.tile_buf',
  'pto.tile',
  'pto.ptr',
  'pto.tensor_view',
  'pto.partition_tensor_view',
  'pto.tile_view',
  'pto.multi_tile_buf',
  'pto.eventid_array',
  'pto.local_array',
  'pto.struct',
];

export interface TypeParse {
  type?: Type;
  error?: string;
  /**
   * Where in the type's text the error is, when one key or value of its parameters is at fault ([start, end) from
   * the type's first character): a diagnostic underlines that part, not a type of a hundred characters.
   */
  at?: { start: number; end: number };
  /** Accepted spellings that are deprecated or incomplete. */
  warnings: string[];
}

/**
 * The parse with its blamed parameter placed in the type's text (`at`, from the body's offset `bodyAt`). The parameters
 * are found again by their commas, in the order `items` has them, only for an error.
 */
function placed(parse: Blamed, bodyAt: number, body: string, items: BodyItem[]): TypeParse {
  if (!parse.blamed) return parse;
  const { item, part } = parse.blamed;
  const { blamed: _, ...rest } = parse;
  const k = items.indexOf(item);
  const ranges = k < 0 ? undefined : parameterRanges(body);
  if (!ranges || ranges.length !== items.length) return rest;
  let [start, end] = ranges[k];
  const eq = item.key === undefined ? -1 : body.indexOf('=', start);
  if (eq >= 0 && eq < end) {
    if (part === 'key') end = eq;
    else start = eq + 1;
  }
  while (start < end && body.charCodeAt(start) <= 32) start++;
  while (end > start && body.charCodeAt(end - 1) <= 32) end--;
  return { ...rest, at: { start: bodyAt + start, end: bodyAt + end } };
}

/** [start, end) of each parameter of a `<...>` body: split at its commas outside brackets and strings. */
function parameterRanges(body: string): [number, number][] {
  const ranges: [number, number][] = [];
  let depth = 0;
  let start = 1;
  for (let i = 1; i < body.length - 1; i++) {
    const c = body[i];
    if (c === '"') {
      for (i++; i < body.length && body[i] !== '"'; i++) if (body[i] === '\\') i++;
    } else if (c === '-' && body[i + 1] === '>') i++;
    else if ('<([{'.includes(c)) depth++;
    else if ('>)]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      ranges.push([start, i]);
      start = i + 1;
    }
  }
  ranges.push([start, body.length - 1]);
  return ranges;
}

/** An error of one parameter's key or value, which `parseUncached` turns into a place in the type's text (`at`). */
type Blamed = TypeParse & { blamed?: { item: BodyItem; part: 'key' | 'value' } };

/** The error `error`, at the key or the value of the parameter `item` (when the parameters hold it). */
function blame(item: BodyItem | undefined, part: 'key' | 'value', error: string, warnings: string[]): Blamed {
  return item ? { error, warnings, blamed: { item, part } } : { error, warnings };
}

/** One item of a type's parameters: `key=value` or a value alone, with what kind of value it is. */
export interface BodyItem {
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
  /** How many types were respelled (most programs: none, and no lookup is needed). */
  private respellings = 0;
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
    return this.respellings === 0 ? ref.text : (this.respelled.get(ref) ?? ref.text);
  }

  /**
   * Records that a written type is an old spelling of `canonical` (`!pto.tensor_view<2xf32>`, a rank where the
   * shape goes). The AST keeps what was written; printers and passes see the canonical spelling through `resolve`.
   */
  respell(ref: TypeRef, canonical: string): void {
    this.respelled.set(ref, canonical);
    this.respellings++;
  }

  parse(text: string): TypeParse {
    let result = this.cache.get(text);
    if (!result) {
      if (this.aliases.size === 0) {
        // Without aliases a type's meaning is its text's: the files of a run share it (compiler output repeats its
        // types from file to file); its objects are only read.
        result = aliasFreeParses.get(text);
        if (!result) aliasFreeParses.set(text, (result = this.parseUncached(text)));
      } else result = this.parseUncached(text);
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
      const meant = this.parse(target);
      // A place in the target's text is none in the alias's.
      return meant.at ? { ...meant, at: undefined } : meant;
    }
    const scalar = scalarFromName(text);
    if (scalar && !text.startsWith('int') && !text.startsWith('uint') && text !== 'half' && text !== 'float') {
      return { type: { kind: 'scalar', elem: scalar }, warnings: [] };
    }
    if (text.startsWith('memref<')) return this.parseMemref(text);
    const m = /^!([A-Za-z_][\w$.]*)(<[\s\S]*>)?$/.exec(text);
    // A dialect type's name is an identifier (the scanner's fast path cuts out any `!...<...>`).
    if (!m) return text.startsWith('!') ? { error: `malformed type '${text}'`, warnings: [] } : { type: { kind: 'opaque', text }, warnings: [] };
    const name = m[1];
    const body = m[2];
    const handle = HANDLE_KINDS.find((h) => name === `pto.${h}`);
    if (handle) return body ? { error: `'!${name}' takes no parameters`, warnings: [] } : { type: { kind: 'handle', handle }, warnings: [] };
    if (MICRO_TYPE_NAMES.includes(name)) return { ...microType(name, body), warnings: [] };
    if (!PARAMETERIZED.includes(name)) {
      // The pto dialect is PTOAS's own: it parses its types itself and refuses a name it does not define (as
      // MLIR's default dialect type parser does). Other dialects' types stay opaque: PTOAS allows unregistered ones.
      if (name.startsWith('pto.')) return { error: `unknown type '${name.slice(4)}' in the pto dialect`, warnings: [] };
      return { type: { kind: 'opaque', text }, warnings: [] };
    }
    if (!body) return { error: `'!${name}' needs parameters '<...>'`, warnings: [] };
    const items = parameterItems(body);
    if (items) return placed(this.parameterized(name, items), text.length - body.length, body, items);
    const shaped = /^<\s*((?:[0-9?]+x)+)([A-Za-z_]\w*)\s*>$/.exec(body);
    if (shaped && !scalarFromName(shaped[2])) return { error: `unknown element type '${shaped[2]}' in '!${name}${body}'`, warnings: [] };
    return { error: `malformed parameters of '!${name}'`, warnings: [] };
  }

  /** A parameterized type of the pto dialect, from its parameters. */
  private parameterized(name: string, items: BodyItem[]): Blamed {
    switch (name) {
      case 'pto.multi_tile_buf':
        return this.multiTileType(items);
      case 'pto.eventid_array': {
        const size = items.length === 1 && !items[0].key ? positiveInt(items[0], 'size') : `'!pto.eventid_array' takes one size, e.g. '!pto.eventid_array<4>'`;
        return typeof size === 'string' ? { error: size, warnings: [] } : { type: { kind: 'eventid_array', size }, warnings: [] };
      }
      case 'pto.local_array': {
        const shaped = items.length === 1 && items[0].kind === 'shaped' ? parseShaped(items[0].text) : undefined;
        if (!shaped?.elem || shaped.shape.some((d) => d === null || d <= 0))
          return { error: `'!pto.local_array' takes a static shape and an element type, e.g. '!pto.local_array<64xi32>'`, warnings: [] };
        return { type: { kind: 'local_array', shape: shaped.shape as number[], elem: shaped.elem }, warnings: [] };
      }
      case 'pto.struct': {
        const fields: Type[] = [];
        for (const [i, item] of items.entries()) {
          const field: TypeParse =
            item.key || item.kind !== 'type' ? { error: `a '!pto.struct' field must be a type, got '${item.text}'`, warnings: [] } : this.parse(item.text);
          if (!field.type) return { error: field.error ?? `bad field '${item.text}'`, warnings: [] };
          if (!isStructStorable(field.type))
            return {
              error: `'!pto.struct' field ${i} type ${item.text} is not scalar-storable: a field is an 8/16/32/64-bit integer, f16, bf16, f32, f64 or a nested '!pto.struct'`,
              warnings: [],
            };
          fields.push(field.type);
        }
        if (fields.length === 0) return { error: `'!pto.struct' needs at least one field`, warnings: [] };
        return { type: { kind: 'struct', fields }, warnings: [] };
      }
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

  /** `<vec, 16x16xf16, count=2>` or `<!pto.tile_buf<...>, count=2>`: the slot's type, then how many. */
  private multiTileType(items: BodyItem[]): Blamed {
    const last = items[items.length - 1];
    if (!last || last.key !== 'count')
      return { error: `'!pto.multi_tile_buf' ends with count=N, e.g. '!pto.multi_tile_buf<vec, 16x16xf16, count=2>'`, warnings: [] };
    const count = positiveInt(last, 'count');
    if (typeof count === 'string') return { error: count, warnings: [] };
    const slotItems = items.slice(0, -1);
    const slot =
      slotItems.length === 1 && slotItems[0].kind === 'type'
        ? this.parse(slotItems[0].text)
        : isCompactForm(slotItems)
          ? compactTile('buf', slotItems)
          : { error: `'!pto.multi_tile_buf' needs a tile: a location and shape (vec, 16x16xf16) or a '!pto.tile_buf<...>'`, warnings: [] };
    // A nested type's error is placed in its own text: here, at the slot.
    if (!slot.type) return 'at' in slot && slot.at ? blame(slotItems[0], 'value', slot.error!, slot.warnings) : slot;
    if (slot.type.kind !== 'tile' || slot.type.level !== 'buf') return { error: `the slot of a '!pto.multi_tile_buf' must be a !pto.tile_buf`, warnings: [] };
    // PTOAS's bounds (PTOMultiBuffer.h): 2 to 16 slots.
    if (count < 2) return { error: `a '!pto.multi_tile_buf' count must be >= 2, got ${count}`, warnings: [] };
    if (count > 16) return { error: `a '!pto.multi_tile_buf' count must be <= 16, got ${count}`, warnings: [] };
    // A row_plus_one slot's storage is longer than its shape: consecutive slots would overlap.
    if (slot.type.compact === 2)
      return {
        error: `a '!pto.multi_tile_buf' slot cannot use row_plus_one compaction (compact=2): its padded storage would overlap the next slot`,
        warnings: [],
      };
    return { type: { kind: 'multi_tile', slot: slot.type, count }, warnings: slot.warnings };
  }

  private parseMemref(text: string): TypeParse {
    const items = parameterItems(text.slice('memref'.length));
    if (!items) return { error: `malformed memref type '${text}'`, warnings: [] };
    return memrefType(items, text);
  }
}

/** Types parsed by tables without aliases, kept per generation (src/syntax/generational-map.ts). */
const aliasFreeParses = new GenerationalMap<string, TypeParse>(50_000);

/** Bodies whose items are kept per generation (a program writes a few hundred distinct types; generational-map.ts). */
const PARAMETER_CACHE_LIMIT = 50_000;
const parameterCache = new GenerationalMap<string, readonly BodyItem[] | null>(PARAMETER_CACHE_LIMIT);
/** The shapes of the bodies met lately (src/syntax/shape-cache.ts): `rows=16` and `rows=32` are matched once. */
const parameterShapes: ParameterShapes = new GenerationalMap(PARAMETER_CACHE_LIMIT);
let parameterGrammar: { grammar: ohm.Grammar; semantics: ohm.Semantics; actions: Actions } | undefined;

/**
 * The items of a type's `<...>` (the grammar's `TypeParameters`), or undefined when it does not match. Read once per
 * distinct text in the process: the type tables of the files of one run share them (compiler output repeats its
 * types from file to file); the items are only read.
 */
function parameterItems(body: string): BodyItem[] | undefined {
  const known = parameterCache.get(body);
  if (known !== undefined) return (known as BodyItem[] | null) ?? undefined;
  const items = readParameters(body, parameterShapes);
  parameterCache.set(body, items ?? null);
  return items;
}

/** Recorded shapes of type parameters, by shape key (see `readParameters`): a Map, or the process's bounded cache. */
export type ParameterShapes = Pick<Map<string, RecordedShape | 'unreplayable'>, 'get'> & { set(key: string, value: RecordedShape | 'unreplayable'): unknown };

/**
 * The items of a body: built from the recorded match of its shape, or matched (and its shape recorded). Without
 * shapes, matched: what the shapes must give (tests compare the two).
 */
export function readParameters(body: string, shapes: ParameterShapes | undefined): BodyItem[] | undefined {
  const grammar = ptoGrammar();
  if (parameterGrammar?.grammar !== grammar) {
    const actions = bodyActions();
    parameterGrammar = { grammar, semantics: grammar.createSemantics().addOperation<unknown>('items', actions), actions };
  }
  const shape = shapes ? statementShape(body, { dims: true }) : undefined;
  const recorded = shape ? shapes!.get(shape.key) : undefined;
  if (recorded && recorded !== 'unreplayable') {
    const items = replayed(recorded, body, shape!);
    if (items) return items;
    shapes!.set(shape!.key, 'unreplayable');
  }
  const match = grammar.match(body, 'TypeParameters');
  if (match.failed()) return undefined;
  const tree = parameterGrammar.semantics(match);
  if (shape && recorded === undefined) {
    const recording = recordShape(tree as unknown as ohm.Node, shape, parameterGrammar.actions);
    const items = replayed(recording, body, shape);
    if (items) keepVisited(recording);
    shapes!.set(shape.key, items ? recording : 'unreplayable');
    if (items) return items;
  }
  return tree.items() as BodyItem[];
}

function replayed(recorded: RecordedShape, body: string, shape: StatementShape): BodyItem[] | undefined {
  try {
    return replayShape(recorded, body, shape) as BodyItem[];
  } catch (e) {
    if (e instanceof Unreplayable) return undefined;
    throw e;
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
  // Without an address space a memref is global memory: PTOAS's lowering reads it so (PTOToEmitC's
  // getAddressSpaceOrGM, InsertSync's getPointerLikeAddressSpace).
  if (!spaceName)
    return {
      type: { kind: 'partition_view', shape: shaped.shape, elem: shaped.elem, memref: { shape: shaped.shape, layout, space: 'gm', spaceless: true } },
      warnings,
    };
  if (spaceName === 'ub') {
    warnings.push(`'#pto.address_space<ub>' is the old name of '#pto.address_space<vec>'`);
    spaceName = 'vec';
  }
  const { shape, elem } = shaped;
  if (spaceName === 'gm') return { type: { kind: 'partition_view', shape, elem, memref: { shape, layout, space: 'gm' } }, warnings };
  if (!(TILE_LOCS as readonly string[]).includes(spaceName))
    return { error: `unknown address space '${spaceName}' (expected gm or one of ${TILE_LOCS.join(', ')})`, warnings };
  const loc = spaceName as TileLoc;
  // A dynamic shape names no tile: a pointer into the space, as PTOAS's micro-level ops take such buffers.
  if (shape.some((d) => d === null)) return { type: { kind: 'ptr', elem, space: loc, memref: { shape, layout, space: loc } }, warnings };
  const dims = shape as number[];
  const cols = dims[dims.length - 1];
  const rows = dims.slice(0, -1).reduce((a, b) => a * b, 1);
  const tile: TileType = { ...defaultTile('buf', loc, elem, rows, cols), blayout: 'row_major', slayout: 'none_box', memref: { shape, layout, space: loc } };
  return { type: tile, warnings };
}

/** The `items()` operation: a body's items, each with its key, its kind and its text. */
function bodyActions(): Actions {
  return {
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
        SpacedShape: 'shaped',
        dimList: 'dims',
        number: 'number',
        dialectAttr: 'attr',
        typeToken: 'type',
        genericPretty: 'pretty',
        ident: 'ident',
      };
      const kind = v.ctorName === '_terminal' ? 'dynamic' : (kinds[v.ctorName] ?? 'ident');
      return { kind, text: v.ctorName === 'SpacedShape' ? this.sourceString.replace(/\s+/g, '') : this.sourceString };
    },
  } as Actions;
}

function pointerType(items: BodyItem[]): Blamed {
  const elem = items[0] && scalarFromName(items[0].text);
  if (!elem || items[0].key || items.length > 2) {
    const wrong = !elem || items[0].key ? items[0] : items[2];
    return blame(wrong, 'value', `'!pto.ptr' expects an element type and an optional address space, e.g. '!pto.ptr<f32, gm>'`, []);
  }
  if (items.length === 1) return { type: { kind: 'ptr', elem, space: 'gm' }, warnings: [] };
  const spaceName = items[1].text;
  const space = (Object.keys(POINTER_SPACE_NAMES) as PointerSpace[]).find((s) => POINTER_SPACE_NAMES[s].includes(spaceName));
  if (!space || items[1].key) {
    const names = Object.values(POINTER_SPACE_NAMES).flat().join('|');
    return blame(items[1], 'value', `'!pto.ptr' address space must be one of ${names}, got '${spaceName}'`, []);
  }
  return { type: { kind: 'ptr', elem, space }, warnings: [] };
}

/** `16x?xf32`: the dims, and the element type after them (whose own name may hold an `x`, as `!pto.hif8x2` does). */
function parseShaped(text: string): { shape: (number | null)[]; elemName: string; elem?: ElemType } {
  const [, dims, elemName] = /^((?:[0-9?]+x)+)(.*)$/.exec(text) ?? [text, '', text];
  const shape = dims
    .slice(0, -1)
    .split('x')
    .filter((d) => d !== '')
    .map((d) => (d === '?' ? null : Number(d)));
  return { shape, elemName, elem: scalarFromName(elemName) };
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

function tileType(level: 'buf' | 'value', items: BodyItem[]): Blamed {
  const spelled = level === 'buf' ? '!pto.tile_buf' : '!pto.tile';
  const warnings: string[] = [];
  const fields: Partial<Record<string, BodyItem>> = {};
  const keyed = items.filter((i) => i.key !== undefined);
  const positional = items.filter((i) => i.key === undefined);

  if (isCompactForm(items)) return compactTile(level, items);
  const earlyPtoas = positional.some((i) => i.kind === 'attr' && i.text.startsWith('#pto.address_space'));
  if (level === 'buf' && items[0]?.key !== 'loc' && !earlyPtoas) {
    return {
      error: `malformed ${spelled}: expected '${spelled}<LOC, ROWSxCOLSxTYPE[, key=value...]>' or the keyed form 'loc=..., dtype=..., rows=..., ...'`,
      warnings,
    };
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
    if (!KEY_ORDER.includes(key) && key !== 'compact')
      return blame(item, 'key', `unknown ${spelled} parameter '${key}' (expected one of ${KEY_ORDER.join(', ')}, compact)`, warnings);
    if (fields[key]) {
      const again = keyed.some((i) => i.key === 'valid') && (key === 'v_row' || key === 'v_col') ? 'valid region' : `parameter '${key}'`;
      return blame(item, 'key', `${spelled} ${again} is given twice`, warnings);
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
      const { shape, elem, elemName } = parseShaped(rest[0].text);
      if (!elem || shape.length !== 2) return { error: `'${rest[0].text}' must be ROWSxCOLSxTYPE`, warnings };
      fields.dtype = { kind: 'type', text: elemName };
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
    // The keyed form: every key, in order (an old spelling `valid=RxC` may stand for v_row and v_col), then an
    // optional compact=.
    const order = keyed.map((i) => i.key);
    const missing = KEY_ORDER.filter((k) => !fields[k]);
    if (missing.length > 0) return { error: `${spelled} in the keyed form needs every key: missing ${missing.join(', ')}`, warnings };
    const expected = [...KEY_ORDER, 'compact'].filter((k) => order.includes(k));
    if (!order.includes('valid') && order.join() !== expected.join()) {
      const first = keyed[order.findIndex((k, i) => k !== expected[i])];
      return blame(first, 'key', `${spelled} keys are out of order (the keyed form is ${KEY_ORDER.join(', ')}[, compact])`, warnings);
    }
  }

  const locText = fields.loc?.text ?? 'vec';
  let loc = locText as TileLoc;
  if (locText === 'ub') {
    loc = 'vec';
    warnings.push(`'loc=ub' is the old name of 'loc=vec'`);
  } else if (!(TILE_LOCS as readonly string[]).includes(locText)) {
    return blame(fields.loc, 'value', `unknown tile location '${locText}' (expected one of ${TILE_LOCS.join(', ')})`, warnings);
  }
  if (!fields.dtype) return { error: `${spelled} needs an element type (dtype)`, warnings };
  const dtype = tileElement(fields.dtype.text);
  if (!dtype) return blame(fields.dtype, 'value', `'${fields.dtype.text}' is not a tile element type`, warnings);
  const rows = positiveInt(fields.rows, 'rows');
  if (typeof rows === 'string') return blame(fields.rows, 'value', `${spelled}: ${rows}`, warnings);
  const cols = positiveInt(fields.cols, 'cols');
  if (typeof cols === 'string') return blame(fields.cols, 'value', `${spelled}: ${cols}`, warnings);
  const vRow = validDim(fields.v_row, rows, 'v_row');
  if (typeof vRow === 'string') return blame(fields.v_row, 'value', `${spelled}: ${vRow}`, warnings);
  const vCol = validDim(fields.v_col, cols, 'v_col');
  if (typeof vCol === 'string') return blame(fields.v_col, 'value', `${spelled}: ${vCol}`, warnings);

  const blayout = fields.blayout ? BLAYOUT_NAMES[fields.blayout.text] : defaultLayout(loc).blayout;
  if (!blayout) return blame(fields.blayout, 'value', `unknown blayout '${fields.blayout!.text}' (expected row_major or col_major)`, warnings);
  const slayout = fields.slayout ? SLAYOUT_NAMES[fields.slayout.text] : defaultLayout(loc).slayout;
  if (!slayout) return blame(fields.slayout, 'value', `unknown slayout '${fields.slayout!.text}' (expected none_box, row_major or col_major)`, warnings);
  let fractal = loc === 'acc' ? 1024 : 512;
  if (fields.fractal) {
    const f = fields.fractal.kind === 'number' || fields.fractal.kind === 'dims' ? Number(fields.fractal.text) : FRACTAL_NAMES[fields.fractal.text];
    if (f === undefined || !Number.isInteger(f)) return blame(fields.fractal, 'value', `unknown fractal '${fields.fractal.text}'`, warnings);
    if (fields.fractal.kind === 'ident' && fields.fractal.text !== 'None') fractal = loc === 'acc' ? 1024 : f;
    else if (fields.fractal.kind !== 'ident') fractal = f;
  }
  const pad = fields.pad ? padValue(fields.pad) : 0;
  if (typeof pad === 'string') return blame(fields.pad, 'value', pad, warnings);
  const compact = fields.compact ? compactMode(fields.compact) : 0;
  if (typeof compact === 'string') return blame(fields.compact, 'value', compact, warnings);
  return blameFinished(finishTile({ kind: 'tile', level, loc, dtype, rows, cols, vRow, vCol, blayout, slayout, fractal, pad, compact }, warnings), fields);
}

/** A rule of the whole tile broken (finishTile): blamed on the parameter the message names first. */
function blameFinished(parse: TypeParse, fields: Partial<Record<string, BodyItem>>): Blamed {
  if (!parse.error) return parse;
  const key = /^\S+ valid rows/.test(parse.error)
    ? 'v_row'
    : /^\S+ valid cols/.test(parse.error)
      ? 'v_col'
      : /fractal/.test(parse.error)
        ? 'fractal'
        : undefined;
  return key ? blame(fields[key], 'value', parse.error, parse.warnings) : parse;
}

/** `<vec, 16x16xf32, ...>`: a location, then the shape with the element type. */
function isCompactForm(items: BodyItem[]): boolean {
  const [first, second] = items;
  return first?.kind === 'ident' && !first.key && (TILE_LOCS as readonly string[]).includes(first.text) && second?.kind === 'shaped' && !second.key;
}

const COMPACT_KEYS = ['valid', 'blayout', 'slayout', 'fractal', 'pad', 'compact'];

/**
 * PTOAS's compact form `!pto.tile_buf<LOC, RxCxT[, valid=RxC][, blayout=..][, slayout=..][, fractal=N][, pad=N][, compact=N]>`:
 * the keys left out take PTOAS's defaults, the same for every location (TILE_DEFAULTS).
 */
function compactTile(level: 'buf' | 'value', items: BodyItem[]): Blamed {
  const spelled = level === 'buf' ? '!pto.tile_buf' : '!pto.tile';
  const warnings: string[] = [];
  const loc = items[0].text as TileLoc;
  const { shape, elemName } = parseShaped(items[1].text);
  const elem = tileElement(elemName);
  if (shape.length !== 2) return blame(items[1], 'value', `${spelled}: the compact form has exactly two shape dims, got '${items[1].text}'`, warnings);
  if (!elem) return blame(items[1], 'value', `'${elemName}' is not a tile element type`, warnings);
  if (shape.some((d) => d === null)) return blame(items[1], 'value', `${spelled}: the shape must be static, got '${items[1].text}'`, warnings);
  const [rows, cols] = shape as number[];
  const given = new Map<string, BodyItem>();
  for (const item of items.slice(2)) {
    if (!item.key) return blame(item, 'value', `unexpected '${item.text}' in ${spelled}: the compact form continues with key=value`, warnings);
    if (!COMPACT_KEYS.includes(item.key))
      return blame(item, 'key', `unknown key '${item.key}' in ${spelled} (expected one of ${COMPACT_KEYS.join(', ')})`, warnings);
    if (given.has(item.key)) return blame(item, 'key', `duplicate ${item.key} in ${spelled}`, warnings);
    given.set(item.key, item);
  }
  let vRow: number | null = rows;
  let vCol: number | null = cols;
  const valid = given.get('valid');
  if (valid) {
    const dims = valid.text.split('x');
    if (!(valid.kind === 'dims' || valid.kind === 'number') || dims.length !== 2)
      return blame(valid, 'value', `${spelled} valid must have exactly two dims, got '${valid.text}'`, warnings);
    [vRow, vCol] = dims.map((d) => (d === '?' ? null : Number(d)));
  }
  const blayout = given.has('blayout') ? LAYOUT_KEYWORDS.blayout[given.get('blayout')!.text] : TILE_DEFAULTS.blayout;
  if (!blayout) return blame(given.get('blayout'), 'value', `unknown blayout '${given.get('blayout')!.text}' (expected row_major or col_major)`, warnings);
  const slayout = given.has('slayout') ? LAYOUT_KEYWORDS.slayout[given.get('slayout')!.text] : TILE_DEFAULTS.slayout;
  if (!slayout)
    return blame(given.get('slayout'), 'value', `unknown slayout '${given.get('slayout')!.text}' (expected none_box, row_major or col_major)`, warnings);
  const fractalItem = given.get('fractal');
  const fractal = fractalItem ? Number(fractalItem.text) : TILE_DEFAULTS.fractal;
  if (fractalItem && !(fractalItem.kind === 'number' || fractalItem.kind === 'dims'))
    return blame(fractalItem, 'value', `fractal must be an integer, got '${fractalItem.text}'`, warnings);
  const pad = given.has('pad') ? padValue(given.get('pad')!) : TILE_DEFAULTS.pad;
  if (typeof pad === 'string') return blame(given.get('pad'), 'value', pad, warnings);
  const compact = given.has('compact') ? compactMode(given.get('compact')!) : TILE_DEFAULTS.compact;
  if (typeof compact === 'string') return blame(given.get('compact'), 'value', compact, warnings);
  const finished = finishTile({ kind: 'tile', level, loc, dtype: elem, rows, cols, vRow, vCol, blayout, slayout, fractal, pad, compact }, warnings);
  // The compact form's valid region is one parameter (`valid=RxC`).
  return blameFinished(finished, { v_row: valid, v_col: valid, fractal: fractalItem });
}

/** PTOAS's spellings of the layouts in both forms. */
const LAYOUT_KEYWORDS: { blayout: Record<string, BLayout>; slayout: Record<string, SLayout> } = {
  blayout: { row_major: 'row_major', col_major: 'col_major' },
  slayout: { none_box: 'none_box', row_major: 'row_major', col_major: 'col_major' },
};

/** Box sizes PTOAS allows: 32 (MX scales), 512 (the A/B and Vec boxes), 1024 (the accumulator's). */
const FRACTAL_SIZES = [32, 512, 1024];

/** The checks PTOAS makes of every tile_buf, whichever form spelled it. */
function finishTile(tile: TileType, warnings: string[]): TypeParse {
  const spelled = tile.level === 'buf' ? '!pto.tile_buf' : '!pto.tile';
  if (tile.vRow !== null && tile.vRow > tile.rows) return { error: `${spelled} valid rows (${tile.vRow}) exceed its rows (${tile.rows})`, warnings };
  if (tile.vCol !== null && tile.vCol > tile.cols) return { error: `${spelled} valid cols (${tile.vCol}) exceed its cols (${tile.cols})`, warnings };
  if (!FRACTAL_SIZES.includes(tile.fractal)) return { error: `unsupported fractal ${tile.fractal} (one of ${FRACTAL_SIZES.join(', ')})`, warnings };
  return { type: tile, warnings };
}

function padValue(item: BodyItem): number | string {
  const p = item.kind === 'number' || item.kind === 'dims' ? Number(item.text) : PAD_VALUES[item.text];
  // A custom pad value is pto-isa's encoding: bit 32 set, the element's bit pattern below (PadValueCustom).
  const custom = p !== undefined && Number.isInteger(p) && p >= CUSTOM_PAD_BASE && p < 2 * CUSTOM_PAD_BASE;
  if (p === undefined || !Number.isInteger(p) || p < 0 || (p > 3 && !custom)) {
    return `unknown pad '${item.text}' (expected 0..3, null, zero, max, min, or a custom value 0x1XXXXXXXX: bit 32 set, the element's bits below)`;
  }
  return p;
}

function compactMode(item: BodyItem): number | string {
  const c = Number(item.text);
  if (!(item.kind === 'number' || item.kind === 'dims') || !Number.isInteger(c) || c < 0 || c > 2) {
    return `unknown compact '${item.text}' (expected 0 none, 1 normal or 2 row_plus_one)`;
  }
  return c;
}

/** The element type of a tile: a scalar type other than index, i1 and f64, or one of the stored formats. */
function tileElement(text: string): ElemType | undefined {
  const e = scalarFromName(text);
  return e === 'index' || e === 'i1' || e === 'f64' ? undefined : e;
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
  return {
    kind: 'tile',
    level,
    loc,
    dtype,
    rows,
    cols,
    vRow: rows,
    vCol: cols,
    ...defaultLayout(loc),
    fractal: loc === 'acc' ? 1024 : 512,
    pad: 0,
    compact: 0,
  };
}

/** The fields PTOAS's C++ emission can name exactly (an i1 or an f8 would silently become a float). */
const STRUCT_SCALARS: readonly string[] = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f16', 'bf16', 'f32', 'f64'];

function isStructStorable(t: Type): boolean {
  return t.kind === 'struct' || (t.kind === 'scalar' && STRUCT_SCALARS.includes(t.elem));
}
