import { ascendc } from './ascendc';
import { Semantics } from './context';
import { elementwise } from './elementwise';
import { load, store } from './memory';
import { move } from './move';
import { colArgReduce, colReduce, rowArgReduce, rowReduce } from './reduce';
import { expandScalar, getValue, setValue } from './scalar';

/** VM dispatch: the `semantics` name of each instruction in spec/instructions.json -> its implementation. */
export const SEMANTICS: Record<string, Semantics> = {
  load,
  store,
  move,
  'col-reduce': colReduce,
  'row-reduce': rowReduce,
  'row-arg-reduce': rowArgReduce,
  'col-arg-reduce': colArgReduce,
  elementwise,
  ascendc,
  'expand-scalar': expandScalar,
  'get-value': getValue,
  'set-value': setValue,
};
