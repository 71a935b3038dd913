import { DiagnosticBag } from '../diag/diagnostic';
import { Span } from '../diag/source';
import { Block, Module, OpNode, Operand, Region, TypeRef, attrOf, segment } from '../syntax/ast';
import { ElemType, TileType, Type, elemSize, elemTypeName, printType } from '../types/type';
import { TypeTable } from '../syntax/type-table';
import { Instruction, Isa, isa, knownOps } from '../spec/isa';
import { TargetName } from '../spec/schema';
import { Dims, checkDimRule, dimsOfType, viewFitsFlatBuffer, viewMatchesValid } from '../spec/valid';
import { BoundInstruction, BoundOperand, Program } from '../ir/program';
import { ModelError } from '../ascendc/model/errors';
import { DEFAULT_PRODUCT } from '../ascendc/model/params';
import { ascendcProblems, runAscendc } from '../ops/instructions/ascendc-run';
import { attributeOf, paramsFromAttributes } from '../ops/instructions/ascendc-text-form';
import { layoutProblem, tileTypeProblems } from '../ops/tile-rules';
import { subsetType, treshapeProblem } from '../ops/tile-views';
import { attributeValues, readAttribute } from '../ops/attributes';
import { INSTRUCTION_CHECKS } from '../ops/instructions/checks';
import { parseAffineMap } from '../syntax/affine';
import { CMPF_PREDICATE_NAMES, FLOAT_BINARY_OPS, FLOAT_CAST_OPS } from '../spec/arith';
import { syncOps } from '../spec/sync';
import { verifySyncOp } from '../ops/sync';

export interface VerifyOptions {
  /** From the command line; overrides the module's `pto.target_arch`. */
  target?: TargetName;
}

const ARITH_BINARY = new Set(['arith.addi', 'arith.subi', 'arith.muli', 'arith.divsi', 'arith.divui', 'arith.remsi', 'arith.remui',
  'arith.andi', 'arith.ori', 'arith.xori', 'arith.minsi', 'arith.maxsi', 'arith.minui', 'arith.maxui', 'arith.ceildivsi', 'arith.floordivsi',
  'arith.shli', 'arith.shrsi', 'arith.shrui']);
const ARITH_CASTS = new Set(['arith.index_cast', 'arith.index_castui', 'arith.extsi', 'arith.extui', 'arith.trunci']);
const CMPI_PREDICATES = new Set(['eq', 'ne', 'slt', 'sle', 'sgt', 'sge', 'ult', 'ule', 'ugt', 'uge']);

/** AST -> verified program. Every problem is a diagnostic; verification goes on to find them all. */
export function verifyModule(module: Module, types: TypeTable, diags: DiagnosticBag, options: VerifyOptions = {}): Program {
  return new Verifier(module, types, diags, options).run();
}

type Scope = Map<string, { type: Type; span: Span }>;

/** The type of a value whose definition could not be verified. */
const UNKNOWN: Type = { kind: 'opaque', text: '?' };
const isUnknown = (t: Type): boolean => t.kind === 'opaque' && t.text === '?';

class Verifier {
  private readonly spec: Isa = isa();
  private readonly target: TargetName;
  private readonly program: Program;
  private scopes: Scope[] = [];
  /** All names defined so far in the current function (SSA: one definition each). */
  private functionNames = new Map<string, Span>();
  private functionTypes = new Map<string, Type>();
  /** Integer `arith.constant` values of the current function, by SSA name, for rules on static operands. */
  private integerConstants = new Map<string, bigint>();
  private readonly reportedTypes = new Set<string>();
  private currentFunction: OpNode | undefined;
  /** Views typed in the old rank-only spelling (`!pto.tensor_view<2xf32>` for rank 2), by value name: the text and its rewrite. */
  private rankOnlyViews = new Map<string, { old: string; canonical: string }>();
  /** A region was never closed: where each op belongs is a guess, so placement checks are skipped. */
  private readonly unclosedRegion: boolean;

  constructor(
    module: Module,
    private readonly types: TypeTable,
    private readonly diags: DiagnosticBag,
    options: VerifyOptions,
  ) {
    const fromModule = this.targetFromModule(module);
    this.target = options.target ?? fromModule ?? 'a2a3';
    this.program = { module, target: this.target, functions: new Map(), instructions: new Map(), syncOps: new Map(), valueTypes: new Map() };
    this.unclosedRegion = hasUnclosedRegion(module.ops);
  }

  /** Every function of the module by name, so that a call may come before its callee. */
  private readonly callees = new Map<string, OpNode>();

  run(): Program {
    const collect = (ops: OpNode[]): void => {
      for (const op of ops) {
        if (op.name === 'func.func' && op.symbol !== undefined && !this.callees.has(op.symbol)) this.callees.set(op.symbol, op);
        if (op.name === 'module') for (const b of op.regions[0]?.blocks ?? []) collect(b.ops);
      }
    };
    collect(this.program.module.ops);
    for (const op of this.program.module.ops) {
      if (op.name === 'module') this.verifyModuleOp(op);
      else if (op.name === 'func.func') this.verifyFunction(op);
      else this.diags.error(op.nameSpan, `'${op.name}' is not allowed at the top level (expected 'module' or 'func.func')`);
    }
    this.checkPlacementLevel();
    return this.program;
  }

  /**
   * Tiles are placed by address (`alloc_tile addr = %a`) only at PTOAS's level 3, and there every tile is:
   * a program places all its tiles or none.
   */
  private checkPlacementLevel(): void {
    const allocs: OpNode[] = [];
    const visit = (ops: OpNode[]): void => {
      for (const op of ops) {
        if (op.name === 'pto.alloc_tile') allocs.push(op);
        for (const r of op.regions) for (const b of r.blocks) visit(b.ops);
      }
    };
    visit(this.program.module.ops);
    const placed = allocs.filter((op) => op.segments.addr);
    if (placed.length === 0 || placed.length === allocs.length) return;
    for (const op of allocs.filter((a) => !a.segments.addr)) {
      this.diags.error(op.nameSpan, "pto.alloc_tile needs 'addr = %a' here: other tiles of this program are placed by address (PTOAS's level 3), and a program places all its tiles or none", [
        { message: 'placed by address here', span: placed[0].span },
      ]);
    }
  }

  private targetFromModule(module: Module): TargetName | undefined {
    for (const op of module.ops) {
      if (op.name !== 'module') continue;
      const arch = attrOf(op, 'pto.target_arch');
      if (!arch) continue;
      const value = arch.kind === 'string' ? arch.value : arch.kind === 'ident' ? arch.name : undefined;
      if (value === 'a2a3' || value === 'a5') return value;
      this.diags.error(arch.span, `unknown pto.target_arch ${JSON.stringify(value ?? '')} (expected "a2a3" or "a5")`);
    }
    return undefined;
  }

  private verifyModuleOp(op: OpNode): void {
    for (const block of op.regions[0]?.blocks ?? []) {
      for (const inner of block.ops) {
        if (inner.name === 'func.func') this.verifyFunction(inner);
        else if (inner.name === 'module') this.verifyModuleOp(inner);
        else this.diags.error(inner.nameSpan, `'${inner.name}' is not allowed directly in a module (expected 'func.func')`);
      }
    }
  }

  private verifyFunction(fn: OpNode): void {
    const name = fn.symbol ?? '';
    if (this.program.functions.has(name)) this.diags.error(fn.nameSpan, `redefinition of function @${name}`);
    else this.program.functions.set(name, fn);
    this.currentFunction = fn;
    this.functionNames = new Map();
    this.functionTypes = new Map();
    this.integerConstants = new Map();
    this.rankOnlyViews = new Map();
    this.program.valueTypes.set(fn, this.functionTypes);
    this.scopes = [new Map()];
    for (const t of fn.resultTypes) this.resolveType(t);
    const body = fn.regions[0];
    if (body) {
      this.verifyRegion(body, fn);
      const last = body.blocks[body.blocks.length - 1]?.ops.at(-1);
      if (!this.unclosedRegion && (!last || last.name !== 'func.return')) {
        this.diags.error({ start: body.span.end - 1, end: body.span.end }, `function @${name} must end with 'return'`);
      }
    }
    this.currentFunction = undefined;
  }

  private verifyRegion(region: Region, owner: OpNode): void {
    for (const block of region.blocks) this.verifyBlock(block, owner);
  }

  private verifyBlock(block: Block, owner: OpNode): void {
    this.scopes.push(new Map());
    for (const arg of block.args) {
      const type = arg.type ? this.resolveType(arg.type) : undefined;
      this.define(arg.name, type ?? UNKNOWN, arg.span);
    }
    for (const op of block.ops) this.verifyOp(op, owner);
    this.scopes.pop();
  }

  // ---- values ----------------------------------------------------------------------------------

  private define(name: string, type: Type, span: Span): void {
    const previous = this.functionNames.get(name);
    if (previous) {
      this.diags.error(span, `redefinition of SSA value ${name}`, [{ message: 'previously defined here', span: previous }]);
      return;
    }
    this.functionNames.set(name, span);
    this.functionTypes.set(name, type);
    this.scopes[this.scopes.length - 1].set(name, { type, span });
  }

  private lookup(name: string): { type: Type; span: Span } | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i].get(name);
      if (found) return found;
    }
    return undefined;
  }

  /** The type of a used operand; reports undefined values and type mismatches with the definition. */
  private useOperand(operand: Operand): Type | undefined {
    if (operand.literal !== undefined) return { kind: 'scalar', elem: 'index' };
    const ref = operand.value!;
    const key = ref.index !== undefined ? `${ref.name}#${ref.index}` : ref.name;
    let found = this.lookup(key);
    if (!found && ref.index === 0) found = this.lookup(ref.name);
    if (!found) {
      const elsewhere = this.functionNames.get(key);
      this.diags.error(ref.span, elsewhere ? `${key} is not visible here (defined in a region that does not enclose this use)` : `use of undefined value ${key}`);
      return undefined;
    }
    if (isUnknown(found.type)) {
      // Defined by an op that failed to verify: trust the use's type, so no errors cascade.
      return operand.type ? this.resolveType(operand.type) : undefined;
    }
    const rankOnly = this.rankOnlyViews.get(key);
    if (operand.type && rankOnly?.old === operand.type.text) operand.type.text = rankOnly.canonical; // normalized, as its definition was
    if (operand.type) {
      const declared = this.resolveType(operand.type);
      if (declared && printType(declared) !== printType(found.type) && found.type.kind !== 'opaque') {
        this.diags.error(operand.type.span, `type of ${key} is ${printType(found.type)}, but this use says ${printType(declared)}`, [
          { message: `${key} defined here`, span: found.span },
        ]);
      }
    }
    return found.type;
  }

  private resolveType(ref: TypeRef): Type | undefined {
    const parsed = this.types.parse(ref.text);
    if (parsed.error) {
      if (!this.reportedTypes.has(ref.text)) {
        this.reportedTypes.add(ref.text);
        this.diags.error(ref.span, parsed.error);
      }
      return undefined;
    }
    const key = ref.text + '@warn';
    if (parsed.warnings.length > 0 && !this.reportedTypes.has(key)) {
      this.reportedTypes.add(key);
      for (const w of parsed.warnings) this.diags.warning(ref.span, w);
    }
    const type = parsed.type!;
    if (type.kind === 'tile') {
      const wellFormedKey = ref.text + '@' + this.target;
      if (!this.reportedTypes.has(wellFormedKey)) {
        this.reportedTypes.add(wellFormedKey);
        for (const p of tileTypeProblems(type, this.target, this.spec)) this.diags.error(ref.span, `invalid tile type: ${p}`);
      }
    }
    return type;
  }

  private defineResults(op: OpNode, types: (Type | undefined)[]): void {
    let k = 0;
    for (const r of op.results) {
      if (r.count === 1) this.define(r.name, types[k++] ?? UNKNOWN, r.span);
      else for (let i = 0; i < r.count; i++) this.define(`${r.name}#${i}`, types[k++] ?? UNKNOWN, r.span);
    }
  }

  private resultCount(op: OpNode): number {
    return op.results.reduce((n, r) => n + r.count, 0);
  }

  private expectResults(op: OpNode, n: number): boolean {
    const got = this.resultCount(op);
    if (got !== n) {
      this.diags.error(op.results[0]?.span ?? op.nameSpan, `'${op.name}' produces ${n} result(s), but ${got} ${got === 1 ? 'is' : 'are'} named`);
      return false;
    }
    return true;
  }

  // ---- ops -------------------------------------------------------------------------------------

  private verifyOp(op: OpNode, parent: OpNode): void {
    for (const l of op.legacy ?? []) this.diags.warning(l.span, l.message);
    const operandTypes = op.operands.map((o) => this.useOperand(o));
    const declaredResults = op.resultTypes.map((t) => this.resolveType(t));
    switch (op.name) {
      case 'func.return':
        if (parent.name !== 'func.func' && !this.unclosedRegion) this.diags.error(op.nameSpan, "'func.return' is only allowed directly in func.func");
        return this.verifyReturn(op, operandTypes);
      case 'func.func':
      case 'module':
        this.diags.error(op.nameSpan, `'${op.name}' must be at the top level or directly in a module`);
        return;
      case 'arith.constant':
        return this.verifyConstant(op, declaredResults);
      case 'arith.cmpi':
        return this.verifyCmpi(op, operandTypes);
      case 'arith.cmpf': {
        const pred = attrOf(op, 'predicate');
        if (pred?.kind === 'ident' && !(CMPF_PREDICATE_NAMES as readonly string[]).includes(pred.name)) {
          this.diags.error(pred.span, `unknown arith.cmpf predicate '${pred.name}' (expected ${CMPF_PREDICATE_NAMES.join(', ')})`);
        }
        operandTypes.forEach((t, i) => {
          if (t && !isFloatScalar(t)) this.diags.error(op.operands[i].span, 'arith.cmpf compares floating-point values');
        });
        this.expectResults(op, 1);
        return this.defineResults(op, [{ kind: 'scalar', elem: 'i1' }]);
      }
      case 'arith.select':
        if (!isScalarOf(operandTypes[0], ['i1'])) this.diags.error(op.operands[0].span, 'arith.select condition must be i1');
        this.expectResults(op, 1);
        return this.defineResults(op, declaredResults);
      case 'scf.for':
        return this.verifyFor(op, operandTypes, declaredResults);
      case 'scf.if':
        return this.verifyIf(op, operandTypes, declaredResults);
      case 'scf.while':
        return this.verifyWhile(op, declaredResults);
      case 'scf.yield':
      case 'scf.condition':
        return this.verifyTerminator(op, parent);
      case 'pto.get_block_idx':
      case 'pto.get_block_num':
      case 'pto.get_subblock_idx':
      case 'pto.get_subblock_num':
        // Runtime queries: no operands, one i64 result (PTOAS writes no type).
        if (op.operands.length > 0) this.diags.error(op.operands[0].span, `'${op.name}' takes no operands`);
        this.expectResults(op, 1);
        return this.defineResults(op, [{ kind: 'scalar', elem: 'i64' }]);
      case 'pto.section.vector':
      case 'pto.section.cube':
        this.expectResults(op, 0);
        for (const r of op.regions) this.verifyRegion(r, op);
        return;
      case 'pto.make_tensor_view':
        return this.verifyMakeTensorView(op, operandTypes, declaredResults);
      case 'pto.partition_view':
        return this.verifyPartitionView(op, operandTypes, declaredResults);
      case 'pto.alloc_tile':
        return this.verifyAllocTile(op, operandTypes, declaredResults);
      case 'pto.treshape':
        if (op.form === 'ssa') return this.verifyTreshape(op, operandTypes, declaredResults);
        break;
      case 'pto.subset':
        return this.verifySubset(op, operandTypes);
      case 'func.call':
        return this.verifyCall(op, operandTypes, declaredResults);
      case 'pto.addptr':
      case 'pto.load_scalar':
      case 'pto.store_scalar':
        return this.verifyPointerOp(op, operandTypes, declaredResults);
      case 'pto.get_tensor_view_dim':
        return this.verifyViewDim(op, operandTypes, declaredResults);
      case 'pto.print':
        if (operandTypes[0] && operandTypes[0].kind !== 'scalar') this.diags.error(op.operands[0].span, `pto.print prints a scalar, not ${printType(operandTypes[0])}`);
        this.expectResults(op, 0);
        return;
      case 'pto.trap':
        if (op.operands.length > 0 || op.resultTypes.length > 0) this.diags.error(op.span, "pto.trap takes no operands and gives no results: 'pto.trap'");
        this.expectResults(op, 0);
        return;
      case 'pto.bitcast':
        return this.verifyBitcast(op, operandTypes, declaredResults);
      case 'memref.alloc':
      case 'pto.pointer_cast':
        return this.verifyMemrefBuffer(op, operandTypes, declaredResults);
      case 'memref.subview':
        return this.verifyMemrefSubview(op, operandTypes, declaredResults);
      case 'pto.bind_tile':
        return this.verifyBindTile(op, operandTypes, declaredResults);
      case 'affine.apply':
        return this.verifyAffineApply(op, operandTypes);
    }
    if (ARITH_BINARY.has(op.name)) {
      for (let i = 0; i < op.operands.length; i++) {
        if (!isIntegerLike(operandTypes[i])) this.diags.error(op.operands[i].span, `'${op.name}' needs integer or index operands`);
      }
      this.expectResults(op, 1);
      return this.defineResults(op, declaredResults);
    }
    if ((FLOAT_BINARY_OPS as readonly string[]).includes(op.name) || op.name === 'arith.negf') {
      for (let i = 0; i < op.operands.length; i++) {
        if (operandTypes[i] && !isFloatScalar(operandTypes[i]!)) this.diags.error(op.operands[i].span, `'${op.name}' needs floating-point operands`);
      }
      if (op.operands.length !== (op.name === 'arith.negf' ? 1 : 2)) this.diags.error(op.span, `'${op.name}' takes ${op.name === 'arith.negf' ? 1 : 2} operand(s)`);
      this.expectResults(op, 1);
      return this.defineResults(op, declaredResults);
    }
    if ((FLOAT_CAST_OPS as readonly string[]).includes(op.name)) {
      const [from, to] = [operandTypes[0], declaredResults[0]];
      const fromFloat = op.name === 'arith.fptosi' || op.name === 'arith.fptoui' || op.name === 'arith.extf' || op.name === 'arith.truncf';
      const toFloat = op.name !== 'arith.fptosi' && op.name !== 'arith.fptoui';
      const ok = (t: Type | undefined, float: boolean) => !t || (float ? isFloatScalar(t) : isIntegerLike(t));
      if (!ok(from, fromFloat) || !ok(to, toFloat)) this.diags.error(op.span, `'${op.name}' converts ${fromFloat ? 'a float' : 'an integer'} to ${toFloat ? 'a float' : 'an integer'}`);
      this.expectResults(op, 1);
      return this.defineResults(op, declaredResults);
    }
    if (ARITH_CASTS.has(op.name)) {
      if (!isIntegerLike(operandTypes[0]) || !isIntegerLike(declaredResults[0])) this.diags.error(op.span, `'${op.name}' converts between integer and index types`);
      this.expectResults(op, 1);
      return this.defineResults(op, declaredResults);
    }
    const instruction = this.spec.instructions.get(op.name);
    if (instruction) return this.verifyInstruction(op, instruction, operandTypes, declaredResults);
    const sync = syncOps().get(op.name);
    if (sync) {
      this.expectResults(op, 0);
      const verified = verifySyncOp(op, sync, this.target, this.diags);
      if (verified) this.program.syncOps.set(op, verified);
      return;
    }
    if (knownOps().names.has(op.name) || op.name.startsWith('arith.') || op.name.startsWith('scf.')) {
      this.diags.error(op.nameSpan, `${op.name} is not implemented yet`);
    } else {
      this.diags.error(op.nameSpan, `unknown op '${op.name}'`);
    }
    // Keep its results defined so that later uses do not cascade into more errors.
    this.defineResults(op, declaredResults);
  }

  private verifyReturn(op: OpNode, operandTypes: (Type | undefined)[]): void {
    const fn = this.currentFunction;
    if (!fn) return;
    const expected = fn.resultTypes.map((t) => this.resolveType(t));
    if (expected.length !== operandTypes.length) {
      this.diags.error(op.span, `function @${fn.symbol} returns ${expected.length} value(s), but 'return' has ${operandTypes.length}`);
      return;
    }
    expected.forEach((t, i) => {
      const got = operandTypes[i];
      if (t && got && printType(t) !== printType(got)) this.diags.error(op.operands[i].span, `return value ${i} has type ${printType(got)}, expected ${printType(t)}`);
    });
  }

  private verifyConstant(op: OpNode, declared: (Type | undefined)[]): void {
    const value = attrOf(op, 'value')!;
    const type = declared[0];
    if (!type) {
      if (value.kind !== 'bool') this.diags.error(value.span, "arith.constant needs a type, e.g. '0 : index'");
    } else if (type.kind !== 'scalar') {
      this.diags.error(value.span, `arith.constant of type ${printType(type)} is not supported (expected an integer, index or float type)`);
    } else if (value.kind === 'float' && !['f16', 'bf16', 'f32', 'f64'].includes(type.elem)) {
      this.diags.error(value.span, `a float literal cannot have type ${printType(type)}`);
    } else if (value.kind === 'int') {
      const bits = type.elem === 'index' || type.elem === 'f64' ? 64 : type.elem === 'i1' ? 1 : elemSize(type.elem) * 8;
      const isFloat = ['f16', 'bf16', 'f32'].includes(type.elem);
      if (!isFloat && (value.value >= 1n << BigInt(bits) || value.value < -(1n << BigInt(bits - 1)))) {
        this.diags.error(value.span, `${value.value} does not fit in ${printType(type)}`);
      }
    }
    this.expectResults(op, 1);
    if (value.kind === 'int' && op.results.length === 1 && op.results[0].count === 1) this.integerConstants.set(op.results[0].name, value.value);
    this.defineResults(op, [type ?? (value.kind === 'bool' ? { kind: 'scalar', elem: 'i1' } : undefined)]);
  }

  private verifyCmpi(op: OpNode, operandTypes: (Type | undefined)[]): void {
    const pred = attrOf(op, 'predicate');
    if (pred?.kind === 'ident' && !CMPI_PREDICATES.has(pred.name)) {
      this.diags.error(pred.span, `unknown arith.cmpi predicate '${pred.name}' (expected ${[...CMPI_PREDICATES].join(', ')})`);
    }
    operandTypes.forEach((t, i) => {
      if (!isIntegerLike(t)) this.diags.error(op.operands[i].span, 'arith.cmpi compares integer or index values');
    });
    this.expectResults(op, 1);
    this.defineResults(op, [{ kind: 'scalar', elem: 'i1' }]);
  }

  private verifyFor(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    for (const k of ['lb', 'ub', 'step']) {
      const i = op.segments[k][0];
      if (!isIntegerLike(operandTypes[i])) this.diags.error(op.operands[i].span, `scf.for ${k === 'lb' ? 'lower bound' : k === 'ub' ? 'upper bound' : 'step'} must be an index or integer`);
    }
    const body = op.regions[0];
    const ivArg = body.blocks[0].args[0];
    if (ivArg && !ivArg.type) ivArg.type = { text: 'index', span: ivArg.span };
    this.expectResults(op, declared.length);
    this.verifyRegion(body, op);
    this.checkYields(op, body, declared);
    this.defineResults(op, declared);
  }

  private verifyIf(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    if (!isScalarOf(operandTypes[0], ['i1'])) this.diags.error(op.operands[0].span, 'scf.if condition must be i1');
    this.expectResults(op, declared.length);
    if (declared.length > 0 && op.regions.length < 2) this.diags.error(op.nameSpan, "an scf.if with results needs an 'else' region");
    for (const r of op.regions) {
      this.verifyRegion(r, op);
      this.checkYields(op, r, declared);
    }
    this.defineResults(op, declared);
  }

  private verifyWhile(op: OpNode, declared: (Type | undefined)[]): void {
    this.expectResults(op, declared.length);
    const [before, after] = op.regions;
    this.verifyRegion(before, op);
    const condition = before.blocks.at(-1)?.ops.at(-1);
    if (!condition || condition.name !== 'scf.condition') this.diags.error(before.span, "the first region of scf.while must end with 'scf.condition'");
    this.verifyRegion(after, op);
    this.checkYields(op, after, op.operands.map((o) => (o.type ? this.resolveType(o.type) : undefined)));
    this.defineResults(op, declared);
  }

  /** The region's terminator yields values of the given types (an empty yield may be left out). */
  private checkYields(op: OpNode, region: Region, types: (Type | undefined)[]): void {
    const last = region.blocks.at(-1)?.ops.at(-1);
    if (!last || last.name !== 'scf.yield') {
      if (types.length > 0) this.diags.error({ start: region.span.end - 1, end: region.span.end }, `this region of '${op.name}' must end with 'scf.yield' of ${types.length} value(s)`);
      return;
    }
    const values = segment(last, 'values');
    if (values.length !== types.length) {
      this.diags.error(last.span, `'scf.yield' gives ${values.length} value(s), but '${op.name}' expects ${types.length}`);
      return;
    }
    values.forEach((v, i) => {
      const t = v.type ? this.types.parse(v.type.text).type : undefined;
      const want = types[i];
      if (t && want && printType(t) !== printType(want)) this.diags.error(v.span, `yielded value ${i} has type ${printType(t)}, but '${op.name}' expects ${printType(want)}`);
    });
  }

  private verifyTerminator(op: OpNode, parent: OpNode): void {
    const allowed = op.name === 'scf.condition' ? ['scf.while'] : ['scf.for', 'scf.if', 'scf.while'];
    if (!allowed.includes(parent.name)) this.diags.error(op.nameSpan, `'${op.name}' is only allowed inside ${allowed.join(' or ')}`);
  }

  private verifyMakeTensorView(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const ptr = operandTypes[0];
    let result = declared[0];
    if (ptr && ptr.kind !== 'ptr') this.diags.error(op.operands[0].span, `pto.make_tensor_view needs a !pto.ptr source, got ${printType(ptr)}`);
    if (result && result.kind !== 'tensor_view') this.diags.error(op.resultTypes[0].span, `pto.make_tensor_view produces a !pto.tensor_view, not ${printType(result)}`);
    const entries = op.segments.shape.length;
    if (result?.kind === 'tensor_view' && result.shape.length === 1 && entries > 1 && result.shape[0] === entries && op.segments.strides.length === entries) {
      // Older PTOAS wrote a view's rank where its shape goes: `shape = [%m, %n] ... : !pto.tensor_view<2xf32>`.
      const canonical = printType({ kind: 'tensor_view', shape: new Array(entries).fill(null), elem: result.elem });
      const old = op.resultTypes[0].text;
      this.diags.warning(op.resultTypes[0].span, `'${old}' gives the view's rank (the old spelling); write its shape: '${canonical}'`);
      for (const r of op.results) this.rankOnlyViews.set(r.name, { old, canonical });
      op.resultTypes[0].text = canonical;
      declared = [this.resolveType(op.resultTypes[0])];
      result = declared[0];
    }
    if (result?.kind === 'tensor_view') {
      const rank = result.shape.length;
      for (const seg of ['shape', 'strides']) {
        if (op.segments[seg].length !== rank) this.diags.error(op.span, `${seg} has ${op.segments[seg].length} entries, but the view has rank ${rank}`);
      }
      if (ptr?.kind === 'ptr' && ptr.elem !== result.elem) this.diags.error(op.resultTypes[0].span, `view element type ${result.elem} differs from the pointer's ${ptr.elem}`);
    }
    this.checkIndexOperands(op, ['shape', 'strides'], operandTypes);
    this.expectResults(op, 1);
    this.defineResults(op, declared);
  }

  private verifyPartitionView(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const source = operandTypes[0];
    const result = declared[0];
    if (!result) {
      if (op.resultTypes.length === 0) this.diags.error(op.span, "pto.partition_view needs a result type: ': SOURCE_TYPE -> !pto.partition_tensor_view<...>'");
    } else if (result.kind !== 'partition_view') {
      this.diags.error(op.resultTypes[0].span, `pto.partition_view produces a !pto.partition_tensor_view, not ${printType(result)}`);
    }
    if (source && source.kind !== 'tensor_view') this.diags.error(op.operands[0].span, `pto.partition_view needs a !pto.tensor_view source, got ${printType(source)}`);
    if (source?.kind === 'tensor_view') {
      for (const seg of ['offsets', 'sizes']) {
        if (op.segments[seg].length !== source.shape.length) this.diags.error(op.span, `${seg} has ${op.segments[seg].length} entries, but the source view has rank ${source.shape.length}`);
      }
      if (result?.kind === 'partition_view' && result.elem !== source.elem) this.diags.error(op.resultTypes[0].span, `partition element type ${result.elem} differs from the source's ${source.elem}`);
    }
    this.checkIndexOperands(op, ['offsets', 'sizes'], operandTypes);
    this.expectResults(op, 1);
    this.defineResults(op, declared);
  }

  private verifyAllocTile(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const t = declared[0];
    if (t && t.kind !== 'tile') this.diags.error(op.resultTypes[0].span, `pto.alloc_tile produces a !pto.tile_buf, not ${printType(t)}`);
    if (t?.kind === 'tile') {
      for (const [key, dim] of [['valid_row', t.vRow], ['valid_col', t.vCol]] as const) {
        const given = op.segments[key] !== undefined;
        const field = key === 'valid_row' ? 'v_row' : 'v_col';
        if (dim === null && !given) this.diags.error(op.nameSpan, `the type has ${field}=? so pto.alloc_tile needs '${key} = %value'`);
        if (dim !== null && given) this.diags.error(op.operands[op.segments[key][0]].span, `'${key}' is only allowed when the type has ${field}=?`);
      }
    }
    this.checkIndexOperands(op, ['valid_row', 'valid_col', 'addr'], operandTypes);
    this.expectResults(op, 1);
    this.defineResults(op, declared);
  }

  /** `%v = pto.treshape %t : A -> B`: B views A's bytes. */
  private verifyTreshape(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const [src] = operandTypes;
    const [dst] = declared;
    if (op.operands.length !== 1 || op.resultTypes.length !== 1) {
      this.diags.error(op.span, "pto.treshape takes one tile: '%v = pto.treshape %t : SOURCE_TYPE -> RESULT_TYPE'");
    } else if (src && src.kind !== 'tile') {
      this.diags.error(op.operands[0].span, `pto.treshape needs a tile, got ${printType(src)}`);
    } else if (dst && dst.kind !== 'tile') {
      this.diags.error(op.resultTypes[0].span, `pto.treshape produces a tile, not ${printType(dst)}`);
    } else if (src && dst) {
      const problem = treshapeProblem(src as TileType, dst as TileType);
      if (problem) this.diags.error(op.resultTypes[0].span, `pto.treshape: ${problem}`);
    }
    this.expectResults(op, 1);
    this.defineResults(op, declared);
  }

  /** `%v = pto.subset %t[%r, %c] sizes [R, C] : T`: an R x C window of %t with %t's strides. */
  private verifySubset(op: OpNode, operandTypes: (Type | undefined)[]): void {
    const parent = operandTypes[0];
    const sizesAttr = attrOf(op, 'sizes');
    const sizes = sizesAttr?.kind === 'array' ? sizesAttr.items.map((i) => (i.kind === 'int' ? Number(i.value) : NaN)) : [];
    let result: Type | undefined;
    if (parent && parent.kind !== 'tile') {
      this.diags.error(op.operands[0].span, `pto.subset needs a tile, got ${printType(parent)}`);
    } else if (parent) {
      if (op.segments.offsets.length !== 2) this.diags.error(op.span, `pto.subset needs 2 offsets (row, col), got ${op.segments.offsets.length}`);
      const { type, problem } = subsetType(parent, sizes);
      if (problem) this.diags.error(sizesAttr?.span ?? op.span, `pto.subset: ${problem}`);
      else {
        for (const p of tileTypeProblems(type!, this.target, this.spec)) this.diags.error(sizesAttr?.span ?? op.span, `pto.subset: the window is not a valid tile: ${p}`);
        result = type;
      }
    }
    this.checkIndexOperands(op, ['offsets'], operandTypes);
    this.expectResults(op, 1);
    this.defineResults(op, [result]);
  }

  /** `func.call @f(%a) : (A) -> R`: the callee exists and its signature is the one written. */
  private verifyCall(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const calleeAttr = attrOf(op, 'callee')!;
    const name = calleeAttr.kind === 'symbol' ? calleeAttr.name : '';
    const callee = this.callees.get(name);
    if (!callee) {
      this.diags.error(calleeAttr.span, `func.call: no function @${name} in this module`);
    } else {
      const params = (callee.params ?? []).map((p) => (p.type ? this.types.parse(p.type.text).type : undefined));
      const results = callee.resultTypes.map((t) => this.types.parse(t.text).type);
      const show = (ts: (Type | undefined)[]) => `(${ts.map((t) => (t ? printType(t) : '?')).join(', ')})`;
      const differs = (a: (Type | undefined)[], b: (Type | undefined)[]) => a.length !== b.length || a.some((t, i) => t && b[i] && printType(t) !== printType(b[i]!));
      if (differs(operandTypes, params) || differs(declared, results)) {
        this.diags.error(op.nameSpan, `func.call: @${name} takes ${show(params)} -> ${show(results)}, but this call says ${show(operandTypes)} -> ${show(declared)}`, [
          { message: `@${name} defined here`, span: callee.nameSpan },
        ]);
      }
      if (callee === this.currentFunction) this.diags.warning(op.nameSpan, `@${name} calls itself: the VM stops recursion after 64 nested calls`);
    }
    this.expectResults(op, declared.length);
    this.defineResults(op, declared);
  }

  // ---- pointers, scalars in memory, debugging ----------------------------------------------------

  /** `pto.addptr %p, %n`, `pto.load_scalar %p[%n]`, `pto.store_scalar %v, %p[%n]`: element offsets from a pointer. */
  private verifyPointerOp(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const ptrIndex = op.segments.ptr[0];
    const ptr = operandTypes[ptrIndex];
    if (ptr && ptr.kind !== 'ptr') this.diags.error(op.operands[ptrIndex].span, `${op.name} needs a !pto.ptr, got ${printType(ptr)}`);
    const offset = operandTypes[op.segments.offset[0]];
    if (offset && !(offset.kind === 'scalar' && offset.elem === 'index')) this.diags.error(op.operands[op.segments.offset[0]].span, `the offset must be an index, got ${printType(offset)}`);
    const scalar = op.name === 'pto.addptr' ? undefined : op.name === 'pto.load_scalar' ? declared[0] : operandTypes[op.segments.value[0]];
    const where = op.name === 'pto.load_scalar' ? op.resultTypes[0]?.span : op.operands[op.segments.value?.[0] ?? 0].span;
    if (op.name === 'pto.addptr' && ptr && declared[0] && printType(ptr) !== printType(declared[0])) {
      this.diags.error(op.resultTypes[0].span, `pto.addptr gives a pointer of its operand's type ${printType(ptr)}, not ${printType(declared[0])}`);
    }
    if (scalar && ptr?.kind === 'ptr' && !(scalar.kind === 'scalar' && scalar.elem === ptr.elem)) {
      this.diags.error(where ?? op.span, `the value must be the pointer's element type ${elemTypeName(ptr.elem)}, got ${printType(scalar)}`);
    }
    this.expectResults(op, op.name === 'pto.store_scalar' ? 0 : 1);
    this.defineResults(op, declared);
  }

  /** `pto.get_tensor_view_dim %v, %d : !pto.tensor_view<...> -> index`. */
  private verifyViewDim(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const [view, dim] = operandTypes;
    if (view && !(view.kind === 'tensor_view' || (view.kind === 'partition_view' && view.memref))) {
      this.diags.error(op.operands[0].span, `pto.get_tensor_view_dim needs a !pto.tensor_view or a global memref, got ${printType(view)}`);
    }
    if (dim && !(dim.kind === 'scalar' && dim.elem === 'index')) this.diags.error(op.operands[1].span, `the dimension must be an index, got ${printType(dim)}`);
    const known = op.operands[1].value ? this.integerConstants.get(op.operands[1].value.name) : undefined;
    if (known !== undefined && (view?.kind === 'tensor_view' || view?.kind === 'partition_view') && (known < 0n || known >= BigInt(view.shape.length))) {
      this.diags.error(op.operands[1].span, `dimension ${known} is out of range: the view has rank ${view.shape.length}`);
    }
    if (declared[0] && !(declared[0].kind === 'scalar' && declared[0].elem === 'index')) this.diags.error(op.resultTypes[0].span, `pto.get_tensor_view_dim gives an index, not ${printType(declared[0])}`);
    this.expectResults(op, 1);
    this.defineResults(op, declared);
  }

  /** `%b = pto.bitcast %t : A -> B`: the same bytes read as another element type of the same size. */
  private verifyBitcast(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const [src] = operandTypes;
    const [dst] = declared;
    if (op.operands.length !== 1 || op.resultTypes.length !== 1) {
      this.diags.error(op.span, "pto.bitcast takes one tile: '%b = pto.bitcast %t : SOURCE_TYPE -> RESULT_TYPE'");
    } else if (src && dst) {
      if (src.kind !== 'tile' || dst.kind !== 'tile') this.diags.error(op.span, 'pto.bitcast needs a tile and gives a tile');
      else {
        const problem =
          src.dtype === dst.dtype ? 'the element types are the same (use pto.treshape to change the shape or layout)'
          : elemSize(src.dtype) !== elemSize(dst.dtype) ? `${elemTypeName(src.dtype)} and ${elemTypeName(dst.dtype)} differ in size`
          : printType({ ...src, dtype: dst.dtype }) !== printType(dst) ? 'only the element type may change (location, shape, valid region and layout stay)'
          : undefined;
        if (problem) this.diags.error(op.resultTypes[0].span, `pto.bitcast: ${problem}`);
      }
    }
    this.expectResults(op, 1);
    this.defineResults(op, declared);
  }

  // ---- the memref form (after PTOAS's memory planning) -----------------------------------------

  /** `memref.alloc() : memref<...>` and `pto.pointer_cast(%addr) : memref<...>`: an on-chip buffer, as a tile. */
  private verifyMemrefBuffer(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const t = declared[0];
    if (t && !(t.kind === 'tile' && t.memref)) this.diags.error(op.resultTypes[0].span, `${op.name} produces an on-chip memref (memref<..., #pto.address_space<vec>>), not ${printType(t)}`);
    if (op.name === 'memref.alloc' && op.operands.length > 0) this.diags.error(op.operands[0].span, 'memref.alloc with dynamic sizes is not supported: give the memref a static shape');
    if (op.name === 'pto.pointer_cast' && op.operands.length !== 1) this.diags.error(op.span, `pto.pointer_cast takes one address, got ${op.operands.length}`);
    this.checkIndexOperands(op, ['addr'], operandTypes);
    this.expectResults(op, 1);
    this.defineResults(op, declared);
  }

  /** `memref.subview %gm[offsets] [sizes] [strides] : A to B`: a box of a global memref. */
  private verifyMemrefSubview(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const [source] = operandTypes;
    const [result] = declared;
    const isGlobal = (t: Type | undefined) => t?.kind === 'partition_view' && t.memref !== undefined;
    if (source && !isGlobal(source)) this.diags.error(op.operands[0].span, `memref.subview needs a global memref (#pto.address_space<gm>), got ${printType(source)}`);
    if (result && !isGlobal(result)) this.diags.error(op.resultTypes[0].span, `memref.subview produces a global memref, not ${printType(result)}`);
    if (source?.kind === 'partition_view' && result?.kind === 'partition_view') {
      for (const seg of ['offsets', 'sizes', 'strides']) {
        if (op.segments[seg].length !== source.shape.length) this.diags.error(op.span, `${seg} has ${op.segments[seg].length} entries, but the source has rank ${source.shape.length}`);
      }
      segment(op, 'sizes').forEach((o, i) => {
        if (o.literal !== undefined && result.shape[i] !== null && result.shape[i] !== o.literal) this.diags.error(o.span, `size ${o.literal} differs from the result's dimension ${result.shape[i]}`);
      });
      segment(op, 'strides').forEach((o) => {
        if (o.literal !== 1) this.diags.error(o.span, 'memref.subview strides other than 1 are not supported');
      });
      if (result.elem !== source.elem) this.diags.error(op.resultTypes[0].span, `element type ${result.elem} differs from the source's ${source.elem}`);
    }
    this.checkIndexOperands(op, ['offsets', 'sizes', 'strides'], operandTypes);
    this.expectResults(op, 1);
    this.defineResults(op, declared);
  }

  /** `%v = pto.bind_tile %buf, %rows, %cols {config = ...} : A -> A`: the buffer with a valid region, as a tile. */
  private verifyBindTile(op: OpNode, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const [source] = operandTypes;
    if (op.operands.length !== 3) this.diags.error(op.span, `pto.bind_tile takes a buffer and its valid rows and columns, got ${op.operands.length} operand(s)`);
    if (source && source.kind !== 'tile') this.diags.error(op.operands[0].span, `pto.bind_tile needs an on-chip buffer, got ${printType(source)}`);
    if (source && declared[0] && printType(source) !== printType(declared[0])) this.diags.error(op.resultTypes[0].span, `pto.bind_tile's result type ${printType(declared[0])} differs from its buffer's ${printType(source)}`);
    for (let i = 1; i < op.operands.length; i++) {
      if (operandTypes[i] && !isIntegerLike(operandTypes[i])) this.diags.error(op.operands[i].span, 'the valid rows and columns must be index or integer values');
    }
    this.expectResults(op, 1);
    this.defineResults(op, declared);
  }

  /** `%i = affine.apply affine_map<(d0)[s0] -> (...)>(%d)[%s]`: index arithmetic. */
  private verifyAffineApply(op: OpNode, operandTypes: (Type | undefined)[]): void {
    const mapAttr = attrOf(op, 'map')!;
    const map = parseAffineMap(mapAttr.kind === 'dialect' ? mapAttr.text : '');
    if (typeof map === 'string') this.diags.error(mapAttr.span, map);
    else {
      if (map.results.length !== 1) this.diags.error(mapAttr.span, `affine.apply needs a map with one result, this one has ${map.results.length}`);
      const [dims, symbols] = [op.segments.dims.length, op.segments.symbols.length];
      if (dims !== map.dims || symbols !== map.symbols) this.diags.error(op.span, `the map takes ${map.dims} dimension(s) and ${map.symbols} symbol(s), but ${dims} and ${symbols} are given`);
    }
    for (let i = 0; i < op.operands.length; i++) {
      const t = operandTypes[i];
      if (t && !(t.kind === 'scalar' && t.elem === 'index')) this.diags.error(op.operands[i].span, `affine.apply operands must be index values, got ${printType(t)}`);
    }
    this.expectResults(op, 1);
    this.defineResults(op, [{ kind: 'scalar', elem: 'index' }]);
  }

  private checkIndexOperands(op: OpNode, segments: string[], operandTypes: (Type | undefined)[]): void {
    for (const seg of segments) {
      for (const i of op.segments[seg] ?? []) {
        const t = operandTypes[i];
        if (t && !isIntegerLike(t)) this.diags.error(op.operands[i].span, `${seg} must be index or integer values, got ${printType(t)}`);
      }
    }
  }

  // ---- PTO instructions ------------------------------------------------------------------------

  private verifyInstruction(op: OpNode, spec: Instruction, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): void {
    const bound = op.form === 'dps' ? this.bindDps(op, spec, operandTypes, declared) : this.bindSsa(op, spec, operandTypes, declared);
    if (!bound) {
      this.defineResults(op, declared);
      return;
    }
    this.program.instructions.set(op, bound);
    this.checkInstruction(op, spec, bound);
    this.defineResults(op, op.form === 'dps' ? declared : [...bound.operands.values()].filter((b) => b.result).map((b) => b.type));
  }

  private usage(spec: Instruction, level: 1 | 2): string {
    if (level === 2) {
      const ins = spec.ins.map((o) => `%${o.name}${o.optional ? '?' : ''}`).join(', ');
      return `${spec.opName} ins(${ins} : ...) outs(${spec.outs.map((o) => '%' + o.name).join(', ')} : ...)`;
    }
    const results = spec.outs.filter((o) => o.kind === 'tile');
    const args = [...spec.ins.filter((o) => o.l1 !== false), ...spec.outs.filter((o) => o.kind !== 'tile')];
    const argText = (o: Instruction['operands'][number]) => `%${o.name}${o.optional || o.l1 === 'optional' ? '?' : ''}`;
    return `${results.map((o) => '%' + o.name).join(', ')}${results.length ? ' = ' : ''}${spec.opName} ${args.map(argText).join(', ')} : ...`;
  }

  private bindList(op: OpNode, specs: Instruction['operands'], operands: Operand[], types: (Type | undefined)[], where: string, spec: Instruction, level: 1 | 2): Map<string, BoundOperand> | undefined {
    const isOptional = (s: Instruction['operands'][number]) => s.optional === true || (level === 1 && s.l1 === 'optional');
    const legacyOmitted = level === 2 ? specs.filter((s) => s.legacyOptional && !isOptional(s)) : [];
    let required = specs.filter((s) => !isOptional(s)).length;
    if (legacyOmitted.length > 0 && operands.length === required - legacyOmitted.length) {
      const names = legacyOmitted.map((s) => '%' + s.name).join(', ');
      this.diags.warning(op.nameSpan, `${spec.opName} without ${names} is the old form; PTOAS now requires '${this.usage(spec, level)}'`);
      required -= legacyOmitted.length;
      specs = specs.filter((s) => !legacyOmitted.includes(s));
    }
    if (operands.length < required || operands.length > specs.length) {
      const span = operands.length > 0 ? { start: operands[0].span.start, end: operands.at(-1)!.span.end } : op.nameSpan;
      const count = required === specs.length ? `${specs.length}` : `${required} to ${specs.length}`;
      this.diags.error(span, `${spec.opName} takes ${count} ${where} operand(s), got ${operands.length}; expected '${this.usage(spec, level)}'`);
      return undefined;
    }
    const bound = new Map<string, BoundOperand>();
    operands.forEach((o, i) => {
      const t = types[i];
      if (t) bound.set(specs[i].name, { spec: specs[i], type: t, use: o });
    });
    return bound.size === operands.length ? bound : undefined;
  }

  /** The specs to bind sources to, in the order written: a leading scalar swaps the two sources (scalarMayLead). */
  private sourceOrder(spec: Instruction, specs: Instruction['operands'], types: (Type | undefined)[]): Instruction['operands'] {
    if (!spec.scalarMayLead || specs.length < 2 || types[0]?.kind === 'tile' || types[1]?.kind !== 'tile') return specs;
    return [specs[1], specs[0], ...specs.slice(2)];
  }

  private bindDps(op: OpNode, spec: Instruction, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): BoundInstruction | undefined {
    if (this.resultCount(op) > 0 && op.resultTypes.length === 0) {
      this.diags.error(op.results[0].span, `${spec.opName} in destination-passing form (ins/outs) has no results`);
    }
    const insTypes = (op.segments.ins ?? []).map((i) => operandTypes[i]);
    const ins = this.bindList(op, this.sourceOrder(spec, spec.ins, insTypes), segment(op, 'ins'), insTypes, 'ins', spec, 2);
    // `%v = op ins(...) outs : T`: a scalar destination is the op's result (pto.tgetval).
    const scalarOut = spec.outs.length === 1 && spec.outs[0].kind === 'scalar' ? spec.outs[0] : undefined;
    if (scalarOut && (op.segments.outs ?? []).length === 0) {
      if (!ins || !declared[0] || !this.expectResults(op, 1)) return undefined;
      return { spec, operands: new Map([[scalarOut.name, { spec: scalarOut, type: declared[0], result: op.results[0] }], ...ins]) };
    }
    const outs = this.bindList(op, spec.outs, segment(op, 'outs'), (op.segments.outs ?? []).map((i) => operandTypes[i]), 'outs', spec, 2);
    if (!ins || !outs) return undefined;
    return { spec, operands: new Map([...outs, ...ins]) };
  }

  private bindSsa(op: OpNode, spec: Instruction, operandTypes: (Type | undefined)[], declared: (Type | undefined)[]): BoundInstruction | undefined {
    const resultSpecs = spec.outs.filter((o) => o.kind === 'tile');
    const argSpecs = [...spec.ins.filter((o) => o.l1 !== false), ...spec.outs.filter((o) => o.kind !== 'tile')];
    const args = this.bindList(op, this.sourceOrder(spec, argSpecs, operandTypes), op.operands, operandTypes, 'input', spec, 1);
    if (!args) return undefined;
    if (this.resultCount(op) !== resultSpecs.length) {
      this.diags.error(op.results[0]?.span ?? op.nameSpan, `${spec.opName} produces ${resultSpecs.length} result(s), got ${this.resultCount(op)}; expected '${this.usage(spec, 1)}'`);
      return undefined;
    }
    if (declared.length !== resultSpecs.length) {
      const where = op.resultTypes[0]?.span ?? op.span;
      this.diags.error(where, `${spec.opName} needs a signature with ${resultSpecs.length} result type(s): '${this.usage(spec, 1)} -> RESULT_TYPE'`);
      return undefined;
    }
    const operands = new Map<string, BoundOperand>();
    resultSpecs.forEach((s, i) => {
      const t = declared[i];
      if (t) operands.set(s.name, { spec: s, type: t, result: op.results[i] });
    });
    if (operands.size !== resultSpecs.length) return undefined;
    for (const [k, v] of args) operands.set(k, v);
    return { spec, operands };
  }

  private checkInstruction(op: OpNode, spec: Instruction, bound: BoundInstruction): void {
    const name = `${spec.opName}`;
    const spanOf = (b: BoundOperand): Span => b.use?.type?.span ?? b.use?.span ?? op.resultTypes[0]?.span ?? op.span;
    const allowedByTarget = spec.dtypes[this.target];
    if (!allowedByTarget) {
      this.diags.error(op.nameSpan, `${name} is not available on ${this.target}`);
      return;
    }
    const tiles = new Map<string, TileType>();
    for (const [operandName, b] of bound.operands) {
      const { spec: os, type } = b;
      if (os.kind === 'tile') {
        if (type.kind !== 'tile') {
          this.diags.error(spanOf(b), `${name}: ${operandName} must be a tile, got ${printType(type)}`);
          continue;
        }
        tiles.set(operandName, type);
        if (op.form === 'dps' && type.level !== 'buf') this.diags.error(spanOf(b), `${name}: in ins/outs form, ${operandName} must be a !pto.tile_buf (a !pto.tile is a Level 1 SSA value)`);
        if (op.form === 'ssa' && b.result && type.level !== 'value') this.diags.warning(spanOf(b), `${name}: a Level 1 result is a !pto.tile value; !pto.tile_buf is a Level 2 buffer`);
      } else if (os.kind === 'view' && type.kind !== 'partition_view') {
        this.diags.error(spanOf(b), `${name}: ${operandName} must be a !pto.partition_tensor_view, got ${printType(type)}`);
      }
    }
    const direction = this.direction(tiles);
    for (const [operandName, tile] of tiles) {
      const b = bound.operands.get(operandName)!;
      const locs = spec.tileLocs[operandName];
      if (locs && !locs.includes(tile.loc)) this.diags.error(spanOf(b), `${name}: ${operandName} must be a ${locs.join('/')} tile, not loc=${tile.loc}`);
      const rule = spec.layouts[operandName];
      const problem = rule ? layoutProblem(rule, tile) : null;
      if (problem) this.diags.error(spanOf(b), `${name}: ${operandName} ${problem}`);
      const allowed = allowedByTarget[operandName];
      if (allowed && allowed.length > 0 && !allowed.includes(tile.dtype)) {
        this.diags.error(spanOf(b), `${name}: ${operandName} dtype ${elemTypeName(tile.dtype)} is not supported on ${this.target} (allowed: ${inElementOrder(allowed).map(elemTypeName).join(', ')})`);
      }
    }
    for (const rel of spec.dtypeRelations ?? []) {
      if (rel.when && rel.when !== direction) continue;
      const present = rel.operands.filter((n) => bound.operands.has(n));
      const elems = present.map((n) => elemOf(bound.operands.get(n)!.type));
      if (elems.some((e) => e === undefined)) continue;
      const first = elems[0]!;
      for (let i = 1; i < present.length; i++) {
        const e = elems[i]!;
        const ok = rel.kind === 'same' ? e === first : elemSize(e) === elemSize(first);
        if (!ok) {
          const what = rel.kind === 'same' ? 'the same element type' : 'element types of the same size';
          this.diags.error(spanOf(bound.operands.get(present[i])!), `${name}: ${present[0]} (${elemTypeName(first)}) and ${present[i]} (${elemTypeName(e)}) must have ${what}`);
        }
      }
    }
    const dims = (n: string): Dims | undefined => {
      const t = tiles.get(n);
      return t ? dimsOfType(t) : undefined;
    };
    for (const rule of spec.valid ?? []) {
      if ('when' in rule && rule.when && rule.when !== direction) continue;
      if (rule.kind === 'view-matches-valid') {
        const view = bound.operands.get(rule.view)?.type;
        const tile = tiles.get(rule.tile);
        if (view?.kind !== 'partition_view' || !tile) continue;
        const sizeRelated = (spec.dtypeRelations ?? []).some((r) => r.operands.includes(rule.view) && r.operands.includes(rule.tile));
        if (sizeRelated && elemSize(view.elem) !== elemSize(tile.dtype)) continue; // reported by the dtype relation
        const outcome = tile.memref ? viewFitsFlatBuffer(view.shape, tile.rows * tile.cols) : viewMatchesValid(view.shape, tile.vRow, tile.vCol);
        if (outcome.status === 'violated') this.diags.error(op.nameSpan, `${name}: ${outcome.message}`);
        continue;
      }
      const outcome = checkDimRule(rule, dims);
      if (outcome.status === 'violated') this.diags.error(op.nameSpan, `${name}: ${outcome.message}`);
    }
    if (spec.semantics === 'ascendc') {
      this.checkAscendc(op, spec, bound, tiles);
      return;
    }
    let attributesOk = true;
    for (const attr of spec.attributes ?? []) {
      const a = attrOf(op, attr.name);
      const reading = readAttribute(attr, a);
      if ('problem' in reading) {
        this.diags.error(a!.span, `${name}: ${reading.problem}`);
        attributesOk = false;
      } else if (attr.required && reading.value === undefined) {
        this.diags.error(op.nameSpan, `${name} needs the attribute '${attr.name}'`);
        attributesOk = false;
      }
      if (a?.kind === 'bool' && a.value && attr.requiresOperand && !bound.operands.has(attr.requiresOperand)) {
        this.diags.error(a.span, `${name}: '${attr.name} = true' needs the ${attr.requiresOperand} operand`);
      }
    }
    const known = new Set((spec.attributes ?? []).map((a) => a.name));
    for (const a of op.attrs) if (!known.has(a.key)) this.diags.error(a.span, `${name} has no attribute '${a.key}'`);
    // Rules the tables cannot express (type pairs of tcvt, index ranges, ...): verify/checks.
    const check = INSTRUCTION_CHECKS[spec.opName];
    if (check && attributesOk) {
      check({
        op,
        spec,
        bound,
        tiles,
        target: this.target,
        attributes: attributeValues(op, spec),
        error: (span, message) => this.diags.error(span, `${name}: ${message}`),
        constant: (operand) => {
          const name = bound.operands.get(operand)?.use?.value?.name;
          return name === undefined ? undefined : this.integerConstants.get(name);
        },
        spanOf: (operand) => {
          const b = bound.operands.get(operand);
          return b ? spanOf(b) : op.nameSpan;
        },
      });
    }
  }

  /**
   * AscendC/TIK ops: attributes -> the model's parameters, the model's rules for their values, and a
   * dry run on zeroed tiles that finds any access outside a tile (addresses do not depend on data).
   */
  private checkAscendc(op: OpNode, spec: Instruction, bound: BoundInstruction, tiles: Map<string, TileType>): void {
    const src = tiles.get('src');
    const dst = tiles.get('dst');
    if (!src || !dst) return;
    const { params, problems } = paramsFromAttributes(op, spec, src.dtype, DEFAULT_PRODUCT);
    for (const p of problems) this.diags.error(p.span, p.message);
    if (!params) return;
    const bytes = (t: TileType) => new Uint8Array(t.rows * t.cols * elemSize(t.dtype));
    const sameValue = (a: string, b: string) => bound.operands.get(a)?.use?.value?.name === bound.operands.get(b)?.use?.value?.name;
    const srcBytes = bytes(src);
    const work = tiles.get('work');
    const buffers = {
      src: srcBytes,
      dst: sameValue('dst', 'src') ? srcBytes : bytes(dst),
      work: work ? (sameValue('work', 'src') ? srcBytes : bytes(work)) : undefined,
    };
    const where = (param: string): Span => {
      const operand = param === 'dtype' ? 'src' : param === 'workElems' ? 'work' : param;
      if (operand === 'src' || operand === 'dst' || operand === 'work') {
        const b = bound.operands.get(operand);
        return b?.use?.type?.span ?? b?.use?.span ?? op.nameSpan;
      }
      return attrOf(op, attributeOf(param))?.span ?? op.nameSpan;
    };
    const valueProblems = ascendcProblems(spec, params, buffers);
    for (const p of valueProblems) this.diags.error(where(p.param), `${spec.opName}: ${p.message}`);
    if (valueProblems.length > 0) return;
    try {
      runAscendc(spec, params, buffers);
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      this.diags.error(op.nameSpan, `${spec.opName}: ${e.message}`);
    }
  }

  /** `vec->vec`, `mat->left`, ...: the direction of a two-tile move. */
  private direction(tiles: Map<string, TileType>): string | undefined {
    const src = tiles.get('src');
    const dst = tiles.get('dst');
    return src && dst ? `${src.loc}->${dst.loc}` : undefined;
  }
}

const ELEMENT_ORDER: ElemType[] = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f16', 'bf16', 'f32'];
/** A dtype list as messages show it: in one fixed order, whatever order the table wrote it in. */
const inElementOrder = (list: ElemType[]): ElemType[] => [...list].sort((a, b) => ELEMENT_ORDER.indexOf(a) - ELEMENT_ORDER.indexOf(b));

function hasUnclosedRegion(ops: OpNode[]): boolean {
  return ops.some((op) => op.regions.some((r) => r.unclosed || r.blocks.some((b) => hasUnclosedRegion(b.ops))));
}

function isFloatScalar(t: Type): boolean {
  return t.kind === 'scalar' && (t.elem === 'f16' || t.elem === 'bf16' || t.elem === 'f32' || t.elem === 'f64');
}

function elemOf(t: Type): ElemType | undefined {
  switch (t.kind) {
    case 'tile':
      return t.dtype;
    case 'partition_view':
    case 'tensor_view':
    case 'ptr':
    case 'scalar':
      return t.elem;
    default:
      return undefined;
  }
}

function isScalarOf(t: Type | undefined, elems: ElemType[]): boolean {
  return t === undefined || (t.kind === 'scalar' && elems.includes(t.elem));
}

function isIntegerLike(t: Type | undefined): boolean {
  return t === undefined || (t.kind === 'scalar' && ['index', 'i1', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64'].includes(t.elem));
}

