import { STORED_FORMATS, StoredFormat } from '../types/type';

/**
 * The element types a table may name, in the order messages list them: the standard ones and A5's low-precision
 * formats (by their MLIR spelling). Plain data, apart from the schema, so that a run need not load zod for it.
 */
export const ELEM_TYPE_NAMES = [
  'i8',
  'u8',
  'i16',
  'u16',
  'i32',
  'u32',
  'i64',
  'u64',
  'f16',
  'bf16',
  'f32',
  ...(Object.keys(STORED_FORMATS) as StoredFormat[]),
] as const;
