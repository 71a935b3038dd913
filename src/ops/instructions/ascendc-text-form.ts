import { Span } from '../../diag/source';
import { Attr, OpNode, attrOf } from '../../syntax/ast';
import { ElemType } from '../../types/type';
import { Instruction } from '../../spec/isa';
import { AscendcParams, BitMask, Mask, Product, ReduceOrder } from '../../ascendc/model/params';

/**
 * The PTO-AS text form of the AscendC/TIK instructions: attributes -> the model's parameters.
 *
 *   ascendc.whole_reduce_min ins(%src : T) outs(%dst : T) {mask = 128, repeat = 8, order = "value_index"}
 *
 * `mask` is an integer (contiguous mode) or `[M0, M1]` (bit mode, M0 = lanes 0..63, M1 = lanes 64..127);
 * strides are in the seeds' units; `product` selects product-specific rules; `saturation = false` gives
 * IEEE fp16 results instead of the default saturating mode.
 */

export interface AttributeProblem {
  /** The attribute (or operand) it is about, for locating the diagnostic. */
  key: string;
  span: Span;
  message: string;
}

export type { AscendcParams };

const PRODUCTS: Record<string, Product> = { a2: 'A2', '310b': '310B', '910': '910', '310p': '310P', '310': '310' };
const ORDERS: Record<string, ReduceOrder> = {
  value_index: 'ORDER_VALUE_INDEX',
  index_value: 'ORDER_INDEX_VALUE',
  only_value: 'ORDER_ONLY_VALUE',
  only_index: 'ORDER_ONLY_INDEX',
};

/** snake_case attribute -> the model's camelCase field. */
export function fieldOf(key: string): string {
  if (key === 'saturation') return 'sat';
  return key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The model's field -> the attribute that sets it. */
export function attributeOf(field: string): string {
  if (field === 'sat' || field === 'saturation') return 'saturation';
  if (field === 'repeatTimes' || field === 'repeatTime') return 'repeat';
  return field.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

const U64 = 1n << 64n;

function maskOf(a: Attr): Mask | string {
  if (a.kind === 'int') return a.value < 0n || a.value > 256n ? `${a.value} is out of range` : Number(a.value);
  if (a.kind === 'array' && a.items.length === 2 && a.items.every((i) => i.kind === 'int')) {
    const words = a.items.map((i) => (i as { value: bigint }).value);
    if (words.some((w) => w < 0n || w >= U64)) return 'words must be unsigned 64-bit integers';
    return [words[0], words[1]] as BitMask;
  }
  return 'must be an integer (contiguous mode) or [M0, M1] (bit mode: two unsigned 64-bit integers)';
}

/**
 * Reads an op's attributes into the model's parameters. Problems with the attributes themselves
 * (unknown names, wrong kinds, missing required ones) are returned; the model's validator checks the
 * values' ranges and the product tables.
 */
export function paramsFromAttributes(
  op: OpNode,
  spec: Instruction,
  dtype: ElemType,
  defaultProduct: Product,
): { params?: AscendcParams; problems: AttributeProblem[] } {
  const problems: AttributeProblem[] = [];
  const known = new Map((spec.attributes ?? []).map((a) => [a.name, a]));
  const params: Record<string, unknown> = { dtype, product: defaultProduct, sat: true };
  for (const entry of op.attrs) {
    const attr = known.get(entry.key);
    if (!attr) {
      problems.push({ key: entry.key, span: entry.span, message: `${spec.opName} has no attribute '${entry.key}' (it has ${[...known.keys()].join(', ')})` });
      continue;
    }
    const v = entry.value;
    const bad = (what: string) => problems.push({ key: entry.key, span: v.span, message: `'${entry.key}' ${what}` });
    switch (attr.kind) {
      case 'mask': {
        const mask = maskOf(v);
        if (typeof mask === 'string') bad(mask);
        else params.mask = mask;
        break;
      }
      case 'int':
        if (v.kind !== 'int') bad('must be an integer');
        else params[fieldOf(entry.key)] = Number(v.value);
        break;
      case 'bool':
        if (v.kind !== 'bool') bad('must be true or false');
        else params[fieldOf(entry.key)] = v.value;
        break;
      case 'enum': {
        const text = v.kind === 'string' ? v.value : v.kind === 'ident' ? v.name : undefined;
        if (text === undefined || !(attr.values ?? []).includes(text)) {
          bad(`must be one of ${(attr.values ?? []).map((x) => `"${x}"`).join(', ')}`);
          break;
        }
        params[fieldOf(entry.key)] = entry.key === 'order' ? ORDERS[text] : entry.key === 'product' ? PRODUCTS[text] : text;
        break;
      }
    }
  }
  for (const attr of spec.attributes ?? []) {
    if (attr.required && !attrOf(op, attr.name))
      problems.push({ key: attr.name, span: op.nameSpan, message: `${spec.opName} needs the attribute '${attr.name}'` });
  }
  if (problems.length > 0) return { problems };
  return { params: params as AscendcParams, problems };
}
