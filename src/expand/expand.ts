/**
 * Expansion without PTOAS: an A5 tile-level module with its tile ops replaced by their template instances, as
 * PTOAS's ExpandTileOp does it (docs/lowering.md): for each tile op, the operands' specs select a template of
 * lib/TileOps/a5 (run through the shim, src/expand/tilelib.ts), the instance becomes a private function of the module
 * named after its specialization, and the op becomes a `func.call` of it with the same operands (the template takes
 * the tile buffers themselves and reads their address and valid shape with pto.tile_buf_addr / tile_valid_rows /
 * tile_valid_cols). PTOAS then inlines the call and folds those reads to constants; that changes no value, and the
 * VM runs the call as it is, so this expansion stops before it.
 *
 * An op no template can be made for is left as it is and reported with the reason: the expansion never stands for
 * a tile op it does not compute.
 */
import { OpNode, Operand, Block } from '../syntax/ast';
import { BoundInstruction, Program } from '../ir/program';
import { moduleOp } from '../ops/structure/builtin';
import { Type, printType } from '../types/type';
import { assemble } from '../verify/assemble';
import { OperandSpec, instanceName, operandSpec } from './operand-spec';
import { TemplateRequest, TemplateResult, runTemplates } from './tilelib';
import { inlineInstance } from './inline';

export interface Expanded {
  /** The tile op, its line, and the instance that replaced it. */
  op: string;
  line: number;
  template: string;
  /** Every legal candidate, in PTOAS's order; the first is the one taken. */
  candidates: string[];
  instance: string;
}

export interface NotExpanded {
  op: string;
  line: number;
  /** What is missing: a template the shim cannot run (with the frame that hit it), an operand kind, ... */
  reason: string;
  /** The shim lacks something (as opposed to PTOAS rejecting the op too). */
  shim: boolean;
}

export type Expansion = { text: string; expanded: Expanded[]; notExpanded: NotExpanded[] } | { error: string };

export interface ExpandOptions {
  /** The PTOAS tree (PTO_UPSTREAM_DIR) whose ptodsl and lib/TileOps are run. */
  upstreamDir: string;
  /** Expand only these ops (`pto.tadd`); default every tile op with tile and scalar operands. */
  only?: (op: string) => boolean;
  /** The target when the module names none (PTOAS's `--pto-arch=a5`). */
  target?: 'a5';
  /** Which legal candidate to take, by template name (`template_tadd` for the 2-D traversal); default PTOAS's first. */
  candidate?: (op: string, candidates: string[]) => string | undefined;
  /** Inline each instance at its op and fold static valid shapes (src/expand/inline.ts); default: a call. */
  inline?: boolean;
}

/**
 * The op attributes PTOAS passes to templates as context (ExpandTileOp.cpp's appendOpContextAttrs), by our attribute
 * name: the context key and the value PTOAS writes (tcvt's rmode as getTCvtRoundModeString spells it). Others written
 * on an op keep it from being expanded (not passed yet).
 */
const CONTEXT_KEYS: Record<string, { key: string; value: (v: string | boolean | number) => string }> = {
  cmpMode: { key: 'cmp_mode', value: (v) => String(v) },
  precisionType: { key: 'precisionType', value: (v) => String(v) },
  rmode: { key: 'round_mode', value: (v) => (['NONE', 'RINT', 'CAST_RINT'].includes(String(v)) ? 'RINT' : String(v)) },
  // tci's order: PTOAS always sends "true" or "false" (false when the op writes none, the template's default too).
  descending: { key: 'descending', value: (v) => (v === true || v === 'true' ? 'true' : 'false') },
  // ttri's side (0 lower, 1 upper) and trandom's rounds, as the op writes them (PTOAS sends the op's value, its
  // default when none is written: 0 and 10, the templates' defaults too).
  upperOrLower: { key: 'upper_or_lower', value: (v) => String(v) },
  rounds: { key: 'rounds', value: (v) => String(v) },
};

/**
 * Context keys PTOAS sends only when the op writes the attribute, or always with a value that is the template's own
 * default when the op writes none (precisionType "default", tcvt's round_mode "RINT" for its default CAST_RINT): then
 * the template's default is what PTOAS's run would use. A template that reads any other key it was not given
 * (lowering_kind, upper_or_lower, byte, rounds, ...: PTOAS computes them) is not expanded.
 */
const DEFAULT_WHEN_ABSENT = new Set(['cmp_mode', 'precisionType', 'round_mode', 'mask_pattern', 'axis_value', 'descending', 'upper_or_lower', 'rounds']);

interface Site {
  node: OpNode;
  context: Record<string, string>;
  fn: OpNode;
  line: number;
  operands: Operand[];
  types: Type[];
  specs: OperandSpec[];
}

function* opsOf(blocks: Block[]): Generator<OpNode> {
  for (const b of blocks)
    for (const op of b.ops) {
      yield op;
      for (const r of op.regions) yield* opsOf(r.blocks);
    }
}

/**
 * The value of `name` when an integer constant defines it in `fn` (an op of no operands with an integer `value`:
 * arith.constant), as PTOAS passes a constant scalar's value.
 */
function constantOf(fn: OpNode, name: string): number | undefined {
  for (const op of opsOf(fn.regions.flatMap((r) => r.blocks)))
    if (op.results.some((r) => r.name === name)) {
      const v = op.operands.length === 0 ? op.attrs.find((a) => a.key === 'value')?.value : undefined;
      return v && v.kind === 'int' ? Number(v.value) : undefined;
    }
  return undefined;
}

/** The op of `fn` defining `name`. */
function definingOp(fn: OpNode, name: string): OpNode | undefined {
  for (const op of opsOf(fn.regions.flatMap((r) => r.blocks))) if (op.results.some((r) => r.name === name)) return op;
  return undefined;
}

/**
 * The strides of a partition view: its source's make_tensor_view `strides` (constants, else null), as PTOAS's
 * lowered memref carries them (a partition keeps its source's strides).
 */
function viewStrides(fn: OpNode, name: string): (number | null)[] | undefined {
  const part = definingOp(fn, name);
  const source = part?.operands[0]?.value;
  const view = source ? definingOp(fn, source.name) : undefined;
  const strides = view?.segments.strides;
  if (!view || !strides) return undefined;
  return strides.map((i) => {
    const v = view.operands[i].value;
    return v ? (constantOf(fn, v.name) ?? null) : (view.operands[i].literal ?? null);
  });
}

/**
 * The op's operand uses in MLIR's operand order, which PTOAS passes to the template (tgather's is src, dst,
 * indices: the destination between the sources): the spec's `mlirOperands`, the absent optional ones left out.
 */
function mlirOrder(inst: BoundInstruction): Operand[] | undefined {
  const uses = inst.spec.mlirOperands.flatMap((name) => {
    const b = inst.operands.get(name);
    return b?.use ? [b.use] : [];
  });
  return uses.length === inst.operands.size ? uses : undefined;
}

/** The tile ops of the program with their operands in MLIR's operand order (mlirOrder). */
function sites(program: Program, lineOf: (offset: number) => number, notExpanded: NotExpanded[], only: (op: string) => boolean): Site[] {
  const found: Site[] = [];
  for (const fn of program.functions.values())
    for (const node of opsOf(fn.regions.flatMap((r) => r.blocks))) {
      const inst = program.instructions.get(node);
      if (!inst || !only(node.name)) continue;
      const line = lineOf(node.span.start);
      const bound = [...inst.operands.values()];
      const types: Type[] = [];
      const specs: OperandSpec[] = [];
      let reason: string | undefined;
      if (node.form !== 'dps') reason = 'an op not in the ins(...) outs(...) form (its operand order is not MLIR’s)';
      const context: Record<string, string> = {};
      const other = node.attrs.map((a) => a.key).filter((k) => !(k in CONTEXT_KEYS));
      if (other.length > 0 || node.positional) reason = `its attributes (${other.join(', ') || 'positional'}) are not passed to templates yet`;
      for (const a of node.attrs)
        if (a.key in CONTEXT_KEYS) {
          // The bound value, else an integer as written (`upperOrLower = 1 : i32`).
          const v = inst.attributes?.get(a.key) ?? (a.value.kind === 'int' ? String(a.value.value) : undefined);
          if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') context[CONTEXT_KEYS[a.key].key] = CONTEXT_KEYS[a.key].value(v);
          else reason = `its attribute ${a.key} has a value the shim does not pass (${String(v)})`;
        }
      const ordered = mlirOrder(inst);
      if (!ordered || ordered.length !== node.operands.length) reason ??= 'an operand the verifier did not bind';
      for (const operand of ordered ?? []) {
        if (reason) break;
        const b = bound.find((x) => x.use === operand);
        if (!b || !operand.value) {
          reason = 'an operand the verifier did not bind';
          break;
        }
        const name = operand.value.name;
        const spec = operandSpec(
          b.type,
          b.type.kind === 'scalar' ? constantOf(fn, name) : undefined,
          b.type.kind === 'partition_view' ? viewStrides(fn, name) : undefined,
        );
        if ('unsupported' in spec) reason = spec.unsupported;
        else {
          types.push(b.type);
          specs.push(spec);
        }
      }
      if (reason) notExpanded.push({ op: node.name, line, reason, shim: false });
      else found.push({ node, context, fn, line, operands: ordered!, types, specs });
    }
  return found;
}

/**
 * A template types a view parameter as `!pto.tensor_view<shape x T>` from its spec; the caller passes its partition
 * (PTOAS bridges the two with a cast and folds pto.tensor_view_addr). The instance takes the caller's type instead,
 * which pto.tensor_view_addr reads the same way.
 */
function bridgeViews(fnText: string, callerTypes: Type[]): string | undefined {
  const header = fnText.slice(0, fnText.indexOf('{'));
  const replaced = new Map<string, string>();
  for (const m of header.matchAll(/%arg(\d+): (!pto\.tensor_view<[^>]*>)/g)) {
    const caller = callerTypes[Number(m[1])];
    if (!caller || (caller.kind !== 'partition_view' && caller.kind !== 'tensor_view')) return undefined;
    const printed = printType(caller);
    if (replaced.has(m[2]) && replaced.get(m[2]) !== printed) return undefined;
    replaced.set(m[2], printed);
  }
  let out = fnText;
  for (const [from, to] of replaced) out = out.split(from).join(to);
  return out;
}

/** The function of a traced template module, renamed and made private. */
function instanceFunction(moduleText: string, template: string, instance: string): string | undefined {
  const lines = moduleText.trim().split('\n');
  if (!/^module\b.*\{$/.test(lines[0]) || lines[lines.length - 1] !== '}') return undefined;
  const body = lines.slice(1, -1).join('\n');
  const head = `func.func @${template}(`;
  if (body.split(head).length !== 2) return undefined;
  return body.replace(head, `func.func private @${instance}(`);
}

const valueText = (o: Operand): string => `${o.value!.name}${o.value!.index !== undefined ? `#${o.value!.index}` : ''}`;

/** Expands the tile ops of an A5 tile-level module (its text) into calls of their template instances. */
export function expandModule(file: string, text: string, options: ExpandOptions): Expansion {
  const asm = assemble(file, text, options.target ? { target: options.target } : {});
  if (asm.diags.hasErrors()) return { error: `${file} does not assemble: ${asm.diags.sorted()[0].message}` };
  if (asm.program.target !== 'a5') return { error: `${file} is not an A5 module (the templates are A5's)` };
  const lineOf = (offset: number): number => text.slice(0, offset).split('\n').length;
  const notExpanded: NotExpanded[] = [];
  const found = sites(asm.program, lineOf, notExpanded, options.only ?? (() => true));

  // One request per distinct specialization (PTOAS caches instances by the same key).
  const keyOf = (s: Site): string => JSON.stringify([s.node.name, s.specs, s.context]);
  const requests = new Map<string, TemplateRequest>();
  for (const s of found) if (!requests.has(keyOf(s))) requests.set(keyOf(s), { op: s.node.name, operands: s.specs, context: s.context });
  const keys = [...requests.keys()];
  const first = runTemplates([...requests.values()], options.upstreamDir);
  if ('error' in first) return first;
  // A chosen candidate other than the library's first is asked for in a second batch.
  const results = new Map<string, TemplateResult>(keys.map((k, i) => [k, first[i]]));
  const again = keys.filter((k) => {
    const r = results.get(k)!;
    const want = 'name' in r ? options.candidate?.(requests.get(k)!.op, r.candidates) : undefined;
    if (want && 'name' in r) requests.get(k)!.candidate = want;
    return want !== undefined && 'name' in r && want !== r.name;
  });
  const second = runTemplates(
    again.map((k) => requests.get(k)!),
    options.upstreamDir,
  );
  if ('error' in second) return second;
  again.forEach((k, i) => results.set(k, second[i]));

  // Context PTOAS derives from the planned tiles: tfillpad's lowering_kind (Utils.cpp
  // inferTFillPadLoweringKindAfterMemoryPlanning): "expand" when the destination's physical shape is larger than the
  // source's, "in_place" when both are the same tile (one start address), else "normal". Asked for in a third batch.
  const derived: Site[] = [];
  for (const site of found) {
    const r = results.get(keyOf(site))!;
    if (!('name' in r) || !('lowering_kind' in r.unsupplied)) continue;
    const [src, dst] = [site.types[0], site.types[site.types.length - 1]];
    const [a, b] = [site.operands[0].value, site.operands[site.operands.length - 1].value];
    if (src.kind !== 'tile' || dst.kind !== 'tile' || !a || !b) continue;
    const same = a.name === b.name && a.index === b.index;
    site.context = { ...site.context, lowering_kind: dst.rows > src.rows || dst.cols > src.cols ? 'expand' : same ? 'in_place' : 'normal' };
    derived.push(site);
  }
  const third = runTemplates(
    derived.map((x) => ({ op: x.node.name, operands: x.specs, context: x.context })),
    options.upstreamDir,
  );
  if ('error' in third) return third;
  derived.forEach((x, i) => results.set(keyOf(x), third[i]));

  const expanded: Expanded[] = [];
  const functions = new Map<string, string>();
  const edits: { start: number; end: number; text: string }[] = [];
  for (const s of found) {
    const r = results.get(keyOf(s))!;
    if ('error' in r) {
      notExpanded.push({ op: s.node.name, line: s.line, reason: `${r.error}${r.where ? ` (at ${r.where})` : ''}`, shim: r.missing });
      continue;
    }
    const unknown = Object.keys(r.unsupplied).filter((k) => !DEFAULT_WHEN_ABSENT.has(k));
    if (unknown.length > 0) {
      notExpanded.push({
        op: s.node.name,
        line: s.line,
        reason: `${r.name} reads the context attribute ${unknown.join(', ')}, which PTOAS derives and the shim does not pass yet`,
        shim: true,
      });
      continue;
    }
    const instance = instanceName(s.node.name, s.specs, r.name, s.context);
    const traced = functions.get(instance) ?? instanceFunction(r.text, r.name, instance);
    const fnText = traced === undefined ? undefined : bridgeViews(traced, s.types);
    if (fnText === undefined) {
      notExpanded.push({
        op: s.node.name,
        line: s.line,
        reason: `the traced module of ${r.name} is not one function, or its view parameters cannot take the caller’s views`,
        shim: true,
      });
      continue;
    }
    if (options.inline) {
      const lineStart = text.lastIndexOf('\n', s.node.span.start - 1) + 1;
      const indent = /^\s*/.exec(text.slice(lineStart, s.node.span.start))![0];
      const params = s.operands.map((o, i) => {
        const t = s.types[i];
        return { value: valueText(o), valid: t.kind === 'tile' ? ([t.vRow, t.vCol] as [number | null, number | null]) : undefined };
      });
      const inlined = inlineInstance(fnText, params, edits.length, indent);
      if ('error' in inlined) {
        notExpanded.push({ op: s.node.name, line: s.line, reason: `${r.name} cannot be inlined: ${inlined.error}`, shim: true });
        continue;
      }
      edits.push({ start: s.node.span.start, end: s.node.span.end, text: inlined.text });
    } else {
      functions.set(instance, fnText);
      // The library types an index scalar as i32 (PTOAS's getDtypeString): the call passes it cast.
      const lineStart = text.lastIndexOf('\n', s.node.span.start - 1) + 1;
      const indent = /^\s*/.exec(text.slice(lineStart, s.node.span.start))![0];
      const casts: string[] = [];
      const args = s.operands.map((o, i) => {
        const t = s.types[i];
        if (t.kind !== 'scalar' || t.elem !== 'index') return valueText(o);
        const name = `%__index_${edits.length}_${i}`;
        casts.push(`${name} = arith.index_cast ${valueText(o)} : index to i32\n${indent}`);
        return name;
      });
      const types = s.types.map((t) => (t.kind === 'scalar' && t.elem === 'index' ? 'i32' : printType(t)));
      const call = `${casts.join('')}func.call @${instance}(${args.join(', ')}) : (${types.join(', ')}) -> ()`;
      edits.push({ start: s.node.span.start, end: s.node.span.end, text: call });
    }
    expanded.push({ op: s.node.name, line: s.line, template: r.name, candidates: r.candidates, instance });
  }

  // The instances go at the end of the module holding the ops (before its closing brace), else of the file.
  const top = asm.module.ops.find((op) => op.name === moduleOp.name);
  const at = top ? text.lastIndexOf('}', top.span.end - 1) : text.length;
  if (functions.size > 0) edits.push({ start: at, end: at, text: `${[...functions.values()].join('\n')}\n` });
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { text: out, expanded, notExpanded };
}
