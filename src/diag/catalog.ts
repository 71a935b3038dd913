/**
 * Every diagnostic the tools print has a stable code from this catalog, printed as `file:line:col: error[E0301]:
 * message` (the spelling of rustc, whose error index this catalog follows). A code names a kind of problem, the
 * rule that was broken; the message, written where the problem is found, says what exactly is wrong with this
 * program. Codes never change meaning and are never reused: a new kind of problem gets a new code in its range.
 *
 *   01xx syntax          02xx types            03xx module, functions, SSA values
 *   04xx structural ops  05xx table instructions  06xx AscendC ops
 *   07xx synchronization 08xx VM run time      09xx transforms (level conversion, lowering)
 *
 * `docs/diagnostics.md` is generated from here (`npm run docs:diagnostics`); a test runs every example through
 * the tool it names and checks that the code is reported.
 */

export type DiagnosticSeverity = 'error' | 'warning';

/** A program that gets the diagnostic, and the tool run that reports it. */
export interface DiagnosticExample {
  tool: 'pto-as' | 'pto-vm';
  /** Arguments after the file (`pto-vm run FILE ...` is implied for pto-vm). */
  args?: string[];
  program: string;
}

export interface DiagnosticKind {
  code: string;
  severity: DiagnosticSeverity;
  /** What the code means, in one sentence. */
  summary: string;
  /** A program that gets it; or why the catalog shows none (no program can, or it needs input data). */
  example: DiagnosticExample | { noExample: string };
}

const TILE = (loc: string, dtype: string, rows: number, cols: number, extra = '') =>
  `!pto.tile_buf<loc=${loc}, dtype=${dtype}, rows=${rows}, cols=${cols}, v_row=${rows}, v_col=${cols}, blayout=row_major, slayout=none_box, fractal=512, pad=0${extra}>`;
const V16 = TILE('vec', 'f32', 16, 16);
const V64 = TILE('vec', 'f32', 64, 64);
const ROW16 = TILE('vec', 'f32', 1, 16);
/** 16 valid columns of i8 in rows of 32 (a row must be whole 32-byte blocks). */
const I8 = TILE('vec', 'i8', 16, 32).replace('v_col=32', 'v_col=16');

/** `func.func @k(PARAMS) { BODY return }` */
const fn = (body: string, params = '') => `func.func @k(${params}) {\n${body}\n  return\n}\n`;
/** A kernel of a5 with a persistent SIMT fragment %f of two f32 (func attributes, then the body). */
const FRAGMENT = (attrs: string, body: string) =>
  `module attributes {pto.target_arch = "a5"} {\nfunc.func @k()${attrs} {\n  %n = arith.constant 2 : i32\n  %f = llvm.alloca %n x f32 {pto.persistent} : (i32) -> !llvm.ptr\n${body}\n  return\n}\n}\n`;

export const DIAGNOSTICS = {
  // ---- 01xx syntax --------------------------------------------------------------------------------
  syntaxError: {
    code: 'E0101',
    severity: 'error',
    summary: 'The text of a statement does not parse; the message says what was found and what could come there.',
    example: { tool: 'pto-as', program: fn('  %x = arith.constant : index') },
  },
  unbalancedRegion: {
    code: 'E0102',
    severity: 'error',
    summary: "A region's `{` has no matching `}` before the end of the file, or a `}` closes no region.",
    example: { tool: 'pto-as', program: 'func.func @k() {\n  return\n' },
  },
  labelOutsideRegion: {
    code: 'E0103',
    severity: 'error',
    summary: 'A block label (`^bb0:`) stands outside any region body.',
    example: { tool: 'pto-as', program: '^bb0:\n' + fn('') },
  },
  listMismatch: {
    code: 'E0104',
    severity: 'error',
    summary: 'A list and the list of its types disagree (values and types, iter_args and result types), or a keyed operand is given twice.',
    example: { tool: 'pto-as', program: 'func.func @k(%a: index) -> (index, index) {\n  return %a, %a : index\n}\n' },
  },
  oldSpelling: {
    code: 'W0105',
    severity: 'warning',
    summary: 'An old spelling that earlier PTOAS printed: accepted, and the warning names the current one.',
    example: {
      tool: 'pto-as',
      program: fn(
        '  %c0 = arith.constant 0 : index\n  %c16 = arith.constant 16 : index\n  %c1 = arith.constant 1 : index\n' +
          '  %v = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n' +
          '  %s = pto.subview %v, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>',
        '%p: !pto.ptr<f32>',
      ),
    },
  },

  sourceLimit: {
    code: 'E0106',
    severity: 'error',
    summary:
      "The text goes past one of the assembler's limits (docs/cli.md, Limits): brackets or regions nested deeper than any compiler writes them, a result group of more values than any op has, a statement longer than any compiler writes.",
    example: { tool: 'pto-as', program: fn('  %x:100000 = arith.constant 0 : index') },
  },
  diagnosticExpectation: {
    code: 'E0107',
    severity: 'error',
    summary:
      '`pto-as --verify-diagnostics`: an `// expected-error {{...}}` (or warning, note) comment names a diagnostic the file does not get, or the file gets a diagnostic no comment expects.',
    example: {
      tool: 'pto-as',
      args: ['--verify-diagnostics'],
      program: fn('  // expected-error@+1 {{use of undefined value}}\n  %c0 = arith.constant 0 : index'),
    },
  },
  notText: {
    code: 'E0108',
    severity: 'error',
    summary:
      'The input is not UTF-8 text: a NUL byte, or bytes that do not decode as UTF-8 (which read as U+FFFD, the replacement character). One error; nothing of the file is read, or echoed.',
    example: { tool: 'pto-as', program: 'func.func @k() {\n  return \uFFFD\n}\n' },
  },
  emptyInput: {
    code: 'W0109',
    severity: 'warning',
    summary: 'The input holds no module or function (it is empty, or only blanks, comments and type aliases).',
    example: { tool: 'pto-as', program: '// nothing here yet\n' },
  },

  // ---- 02xx types ---------------------------------------------------------------------------------
  invalidType: {
    code: 'E0201',
    severity: 'error',
    summary: 'A type does not parse or names something that does not exist (an unknown location, key or element type).',
    example: { tool: 'pto-as', program: fn(`  %t = pto.alloc_tile : ${TILE('gm', 'f32', 16, 16)}`) },
  },
  invalidTileType: {
    code: 'E0202',
    severity: 'error',
    summary: 'A tile type parses but breaks a rule of the tile model on the target (row bytes, valid shape, layout, capacity).',
    example: { tool: 'pto-as', program: fn(`  %t = pto.alloc_tile : ${TILE('vec', 'f32', 16, 10)}`) },
  },
  typeMismatch: {
    code: 'E0203',
    severity: 'error',
    summary: "A use of a value writes a type other than the value's.",
    example: { tool: 'pto-as', program: fn('  pto.print ins("%d", %a : i32)', '%a: index') },
  },

  // ---- 03xx module, functions, SSA values ---------------------------------------------------------
  unknownOp: {
    code: 'E0301',
    severity: 'error',
    summary: 'An op the toolchain does not know, or one of the dialect it does not implement yet (the message says which).',
    example: { tool: 'pto-as', program: fn('  pto.tfrobnicate') },
  },
  undefinedValue: {
    code: 'E0302',
    severity: 'error',
    summary: 'A use of an SSA value that is not defined, or not visible where it is used.',
    example: { tool: 'pto-as', program: 'func.func @k() -> index {\n  return %x : index\n}\n' },
  },
  redefinition: {
    code: 'E0303',
    severity: 'error',
    summary: 'An SSA value or a function is defined twice.',
    example: { tool: 'pto-as', program: fn('  %x = arith.constant 0 : index\n  %x = arith.constant 1 : index') },
  },
  misplacedOp: {
    code: 'E0304',
    severity: 'error',
    summary: 'An op where it is not allowed: outside a function, or a terminator outside the op it ends.',
    example: { tool: 'pto-as', program: '%c = arith.constant 0 : index\n' + fn('') },
  },
  missingReturn: {
    code: 'E0305',
    severity: 'error',
    summary: "A function body does not end with 'return'.",
    example: { tool: 'pto-as', program: 'func.func @k() {\n  %c = arith.constant 0 : index\n}\n' },
  },
  resultCount: {
    code: 'E0306',
    severity: 'error',
    summary: 'An op names more or fewer results than it produces.',
    example: { tool: 'pto-as', program: fn('  %a, %b = arith.constant 0 : index') },
  },
  unknownTarget: {
    code: 'W0307',
    severity: 'warning',
    summary:
      'The module names a target other than a2, a3, a2a3 and a5 (`pto.target_arch`): ignored, as PTOAS ignores it, and the target comes from --target (default a2a3).',
    example: { tool: 'pto-as', program: 'module attributes {pto.target_arch = "a9"} {\n' + fn('') + '}\n' },
  },
  unknownBackend: {
    code: 'E0308',
    severity: 'error',
    summary: "The module's `pto.backend` names a back end other than PTOAS's two, `emitc` and `vpto`.",
    example: { tool: 'pto-as', program: 'module attributes {pto.backend = "llvm"} {\n' + fn('') + '}\n' },
  },
  mixedBackendContainer: {
    code: 'E0310',
    severity: 'error',
    summary:
      "An outer module of two or more child modules, with no back end named (PTOAS's driver then builds one compile unit per child, a fat object), holds something other than its child modules.",
    example: { tool: 'pto-as', program: 'module {\n  module {\n' + fn('') + '  }\n  module {\n  }\n' + fn('').replace('@k', '@stray') + '}\n' },
  },
  notInVptoBackend: {
    code: 'E0309',
    severity: 'error',
    summary:
      "An op PTOAS's VPTO back end refuses (the async SDMA session ops, which need the EmitC back end; the high-level fence and CMO ops, which VPTO's LLVM lowering does not take) in a module that back end compiles (`--pto-backend=vpto`, else `pto.backend`).",
    example: {
      tool: 'pto-as',
      program: 'module attributes {pto.backend = "vpto", pto.target_arch = "a5"} {\n' + fn('  pto.fence.barrier_all #pto.fence_scope<gm>') + '}\n',
    },
  },

  // ---- 04xx structural ops ------------------------------------------------------------------------
  functionOp: {
    code: 'E0401',
    severity: 'error',
    summary: 'A call or return disagrees with the function (callee missing, argument or result types).',
    example: { tool: 'pto-as', program: 'func.func @k() {\n  func.call @missing() : () -> ()\n  return\n}\n' },
  },
  scfOp: {
    code: 'E0402',
    severity: 'error',
    summary: "An scf op breaks a rule of its own: bounds, condition, iter_args, or its regions' terminators.",
    example: { tool: 'pto-as', program: fn('  %f = arith.constant 1.0 : f32\n  scf.if %f {\n  }') },
  },
  arithOp: {
    code: 'E0403',
    severity: 'error',
    summary: 'A scalar arith op has operands or a result of the wrong kind, an unknown predicate, or a constant that does not fit.',
    example: { tool: 'pto-as', program: fn('  %c = arith.constant 300 : i8') },
  },
  viewOp: {
    code: 'E0404',
    severity: 'error',
    summary: 'A tensor view or partition breaks a rule: its source, its rank, its element type, its shape against its sizes.',
    example: {
      tool: 'pto-as',
      program: fn(
        '  %c1 = arith.constant 1 : index\n  %v = pto.make_tensor_view %p, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xf16>',
        '%p: !pto.ptr<f32>',
      ),
    },
  },
  tileOp: {
    code: 'E0405',
    severity: 'error',
    summary: 'A tile allocation or view (alloc_tile, subset, treshape, bitcast) breaks a rule: its valid-shape operands, its window, its placement.',
    example: { tool: 'pto-as', program: fn(`  %t = pto.alloc_tile valid_row = %n : ${V16}`, '%n: index') },
  },
  pointerOp: {
    code: 'E0406',
    severity: 'error',
    summary: 'A pointer op (addptr, load_scalar, store_scalar) has an operand of the wrong kind or element type.',
    example: { tool: 'pto-as', program: fn('  %c0 = arith.constant 0 : index\n  %x = pto.load_scalar %p[%c0] : !pto.ptr<f32> -> f16', '%p: !pto.ptr<f32>') },
  },
  memrefOp: {
    code: 'E0407',
    severity: 'error',
    summary: 'An op of the memref form (memref.alloc, memref.dealloc, pointer_cast, memref.subview, bind_tile, affine.apply) breaks a rule.',
    example: { tool: 'pto-as', program: fn('  %c0 = arith.constant 0 : index\n  %x = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%c0)') },
  },
  llvmOp: {
    code: 'E0438',
    severity: 'error',
    summary:
      "An op of MLIR's LLVM dialect (`llvm.alloca`, `llvm.getelementptr`, `llvm.load`, `llvm.store`, as PTOAS's SIMT kernels write them) that is not in its form, or whose types do not agree.",
    example: { tool: 'pto-as', program: fn('  %c1 = arith.constant 1 : i32\n  %p = llvm.alloca %c1 x f32 : (i32) -> i32') },
  },
  runtimeOp: {
    code: 'E0408',
    severity: 'error',
    summary: 'A runtime op (core queries, sections, print, trap) is used with operands or results it does not take.',
    example: { tool: 'pto-as', program: fn(`  %t = pto.alloc_tile : ${V16}\n  pto.print ins("%f", %t : ${V16})`) },
  },
  indexOperand: {
    code: 'E0409',
    severity: 'error',
    summary: 'Operands that must be indices or integers (shapes, strides, offsets, sizes) are not.',
    example: {
      tool: 'pto-as',
      program: fn(
        '  %f = arith.constant 1.0 : f32\n  %c1 = arith.constant 1 : index\n  %v = pto.make_tensor_view %p, shape = [%f], strides = [%c1] : !pto.tensor_view<?xf32>',
        '%p: !pto.ptr<f32>',
      ),
    },
  },
  unknownAttribute: {
    code: 'W0411',
    severity: 'warning',
    summary:
      "An op's attribute dictionary names an attribute the op does not define. MLIR keeps such attributes (PTOAS accepts them), so it is no error, but it has no effect: often a misspelt name.",
    example: {
      tool: 'pto-as',
      program: fn(`  %a = pto.alloc_tile : ${V16}\n  %d = pto.alloc_tile : ${V16}\n  pto.tadd ins(%a, %a : ${V16}, ${V16}) outs(%d : ${V16}) {speed = 3}`),
    },
  },
  pipeOp: {
    code: 'E0420',
    severity: 'error',
    summary:
      "A cube-vector pipe op breaks a rule of its pipe: the kind of core its code is for, the initialization its `id` names (direction, slots, consumer buffers), its split, or its entry against the pipe's slot.",
    example: {
      tool: 'pto-as',
      program: fn('  pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024} (c2v_consumer_buf = %b : i32)', '%b: i32'),
    },
  },
  fixpipeContract: {
    code: 'E0421',
    severity: 'error',
    summary:
      "A fixpipe pipe (`acc_push_epilogue`) breaks its contract: an epilogue value PTOAS does not publish, the two ends' epilogues or slot sizes disagree, a push's acc element type or a pop's tile does not fit the quant mode, or a push has no quantization state (`set_quant_*`) before it.",
    example: {
      tool: 'pto-as',
      program:
        'func.func @k(%b: i32) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n' +
        '  pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, nosplit = true,\n' +
        '    acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = no_convert, relu = no_relu>} (c2v_consumer_buf = %b : i32)\n' +
        '  return\n}\n',
    },
  },
  structProvenance: {
    code: 'E0426',
    severity: 'error',
    summary:
      "A `!pto.struct` (a pointer to stack storage) leaves the scope that declares it or comes from anything but `pto.declare_struct` in the same function: a function argument or result, a value a terminator hands out, an op's derived result.",
    example: {
      tool: 'pto-as',
      program:
        'func.func private @make() -> !pto.struct<f32, i8> {\n  %s = pto.declare_struct -> !pto.struct<f32, i8>\n  return %s : !pto.struct<f32, i8>\n}\n',
    },
  },
  entryFunction: {
    code: 'E0427',
    severity: 'error',
    summary: 'A function marked `pto.entry` (a kernel entry of the generated code) returns values, or is a declaration.',
    example: { tool: 'pto-as', program: 'func.func @k(%x: i32) -> i32 attributes {pto.entry} {\n  return %x : i32\n}\n' },
  },
  recursiveCallRejected: {
    code: 'E0428',
    severity: 'error',
    summary: "A function calls itself, directly or through others: PTOAS's C++ emission (the `emitc` back end, its default) does not support recursive calls.",
    example: { tool: 'pto-as', program: 'func.func @k() {\n  func.call @k() : () -> ()\n  return\n}\n' },
  },
  intToPtrUse: {
    code: 'E0429',
    severity: 'error',
    summary: 'The pointer `pto.inttoptr` makes from an address is used other than as the pointer of a `pto.load_scalar` or `pto.store_scalar`.',
    example: {
      tool: 'pto-as',
      program: fn(
        '  %c0 = arith.constant 0 : index\n  %p = pto.inttoptr %a : i64 -> !pto.ptr<f32>\n  %q = pto.addptr %p, %c0 : !pto.ptr<f32> -> !pto.ptr<f32>',
        '%a: i64',
      ),
    },
  },
  genericForm: {
    code: 'E0422',
    severity: 'error',
    summary:
      "An op written in MLIR's generic form (`\"pto.x\"(%a, %b) <{...}> : (A, B) -> ()`) whose operands do not fit its declared operands: the signature's types or `operandSegmentSizes` do not match them, or the op's own form cannot say what the generic one does.",
    example: {
      tool: 'pto-as',
      program: fn(`  %a = pto.alloc_tile : ${V16}\n  "pto.tadd"(%a, %a) : (${V16}, ${V16}) -> ()`),
    },
  },
  branchOp: {
    code: 'E0430',
    severity: 'error',
    summary: 'A branch (cf.br, cf.cond_br) names a block its region does not have, or hands the block arguments of another count or type.',
    example: { tool: 'pto-as', program: 'func.func @k(%x: i32) {\n  cf.br ^next(%x : i32)\n^next(%y: index):\n  return\n}\n' },
  },
  buildLevel: {
    code: 'E0431',
    severity: 'error',
    summary:
      "The build level asked for (`--level`, PTOAS's `--pto-level`) does not allow this: tiles and reserved buffers placed by address (`addr = %a`, `pto.tassign`, `base`) only at level3, and there every allocation is placed and every scratch tile PTOAS would otherwise allocate is written.",
    example: {
      tool: 'pto-as',
      args: ['--level', 'level2'],
      program: fn(`  %a = arith.constant 0 : i64\n  %t = pto.alloc_tile addr = %a : ${V16}`),
    },
  },
  sectionKind: {
    code: 'E0432',
    severity: 'error',
    summary:
      'A function without a `pto.kernel_kind` has a run of top-level ops whose kind of core PTOAS cannot infer (its pto-normalize-uncovered-tile-sections pass): an op either core could run (a flag whose pipe both have, PIPE_S or PIPE_MTE2), vector and cube work in one top-level op, or a top-level op holding an explicit section beside other work. Wrap it in `pto.section.cube` or `pto.section.vector`, or give the function its kind.',
    example: { tool: 'pto-as', program: fn('  pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n  pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]') },
  },
  tileOpHelper: {
    code: 'E0436',
    severity: 'error',
    summary:
      'A tile-op helper (`pto.tileop.helper`: compute code kernels call, placed in a section by PTOAS) contains what only a kernel may: synchronization between pipes, tile allocation or tile-granular instructions, or a call.',
    example: { tool: 'pto-as', program: 'func.func private @h() attributes {pto.tileop.helper} {\n  pto.barrier <PIPE_V>\n  return\n}\n' },
  },
  memoryOverflow: {
    code: 'E0437',
    severity: 'error',
    summary:
      "The tiles of a function live at one point need more of an on-chip buffer than PTOAS's memory planning (levels 1 and 2) has: it reuses a dead tile's space, never a live one's. The notes name the tiles live there.",
    example: {
      tool: 'pto-as',
      program: fn(
        `  %a = pto.alloc_tile : ${TILE('vec', 'f32', 128, 256)}\n  %b = pto.alloc_tile : ${TILE('vec', 'f32', 128, 256)}\n` +
          `  pto.tadd ins(%a, %a : ${TILE('vec', 'f32', 128, 256)}, ${TILE('vec', 'f32', 128, 256)}) outs(%b : ${TILE('vec', 'f32', 128, 256)})`,
      ),
    },
  },
  microFormat: {
    code: 'E0450',
    severity: 'error',
    summary:
      'A micro-level (VPTO) op is not written in its assembly format (spec/micro/): an operand, attribute, keyword group or type where its format has another, or too many or too few.',
    example: { tool: 'pto-as', program: fn('  %m = pto.pset_b32 %a : !pto.mask<b32>', '%a: i32') },
  },
  microOperand: {
    code: 'E0451',
    severity: 'error',
    summary:
      "An operand or result of a micro-level (VPTO) op of the wrong kind or element type: a vector register, mask, pointer or scalar where the op takes another, registers that must agree and do not, or a mask whose granularity is not its vector's element width.",
    example: {
      tool: 'pto-as',
      program: fn(
        '  pto.vecscope {\n    %m = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>\n    %v = pto.vadd %a, %a, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b16> -> !pto.vreg<64xf32>\n  }',
        '%a: !pto.vreg<64xf32>',
      ),
    },
  },
  // ---- 047x the limits of PTOAS's VMI -> VPTO lowering (pto-as --passes vmi-to-vpto), data movement ----------
  vmiLowerCompaction: {
    code: 'E0470',
    severity: 'error',
    summary:
      'vmi-to-vpto: compress, compress_store, active_prefix_index and expand_load (runtime mask) lower to one squeeze of a single physical register, so their layouts must be contiguous and take one register whose lanes are all logical ones.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: fn(
        '  %o = pto.vmi.compress %s, %m : !pto.vmi.vreg<128xf32, #pto.vmi.layout<contiguous>>, !pto.vmi.mask<128xb32, #pto.vmi.layout<contiguous>> -> !pto.vmi.vreg<128xf32, #pto.vmi.layout<contiguous>>',
        '%s: !pto.vmi.vreg<128xf32, #pto.vmi.layout<contiguous>>, %m: !pto.vmi.mask<128xb32, #pto.vmi.layout<contiguous>>',
      ),
    },
  },
  vmiLowerMemory: {
    code: 'E0471',
    severity: 'error',
    summary:
      'vmi-to-vpto: a store, masked store, gather or scatter whose layouts the lowering has no VPTO sequence for: gather and scatter take contiguous whole registers, a partly used split (deinterleaved = 2) value must have as many registers in each half.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: fn(
        '  pto.vmi.store %v, %p[%o] : !pto.vmi.vreg<129xf32, #pto.vmi.layout<deinterleaved = 2>>, !pto.ptr<f32, ub>',
        '%v: !pto.vmi.vreg<129xf32, #pto.vmi.layout<deinterleaved = 2>>, %p: !pto.ptr<f32, ub>, %o: index',
      ),
    },
  },
  vmiLowerLayoutChange: {
    code: 'E0472',
    severity: 'error',
    summary:
      "vmi-to-vpto: a change of layout or of element width (ensure_layout, ensure_mask_layout, bitcast) with no row in the lowering's tables, or a channel_split / channel_merge that is not 2 or 4 channels over whole registers.",
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: fn(
        '  %d = pto.vmi.ensure_layout %v : !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 4>> -> !pto.vmi.vreg<128xf32, #pto.vmi.layout<contiguous>>',
        '%v: !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 4>>',
      ),
    },
  },
  vmiLowerGroupMemory: {
    code: 'E0473',
    severity: 'error',
    summary:
      'vmi-to-vpto: a group load or store (group_store, group_slot_load, group_broadcast_load) whose stride or result layout the lowering cannot express: slots = 8 needs a constant unit stride, one 32-byte group per block needs a block stride that fits 16 bits.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: fn(
        '  %r = pto.vmi.group_slot_load %p[%o], %s {num_groups = 8} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<8xf32, #pto.vmi.layout<num_groups = 8, slots = 8>>',
        '%p: !pto.ptr<f32, ub>, %o: index, %s: index',
      ),
    },
  },
  vmiLowerGroupLayout: {
    code: 'E0474',
    severity: 'error',
    summary:
      "vmi-to-vpto: a group reduction whose source, mask and result layouts are no row of the lowering's table (the result must be num_groups with slots = 1 or 8), or a widening of group slots whose lane stride is not the widening factor.",
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: fn(
        '  %r = pto.vmi.group_reduce_addf %s, %m {num_groups = 8, reassoc} : !pto.vmi.vreg<64xf32, #pto.vmi.layout<contiguous>>, !pto.vmi.mask<64xb32, #pto.vmi.layout<contiguous>> -> !pto.vmi.vreg<8xf32, #pto.vmi.layout<num_groups = 8>>',
        '%s: !pto.vmi.vreg<64xf32, #pto.vmi.layout<contiguous>>, %m: !pto.vmi.mask<64xb32, #pto.vmi.layout<contiguous>>',
      ),
    },
  },
  // ---- 047x the limits of PTOAS's VMI -> VPTO lowering (pto-as --passes vmi-to-vpto), compute and types -------
  vmiToVptoInput: {
    code: 'E0475',
    severity: 'error',
    summary:
      'vmi-to-vpto: a VMI type the lowering cannot convert: one without a layout (or a pred mask) when layout assignment has not run, one written in an attribute, or one an unrealized_conversion_cast carries.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: 'module {\n  func.func private @f(!pto.vmi.vreg<128xf32>) -> !pto.vmi.vreg<128xf32>\n}\n',
    },
  },
  vmiToVptoReduce: {
    code: 'E0476',
    severity: 'error',
    summary:
      'vmi-to-vpto: a full reduction (reduce_*, or vcadd / vcmax / vcmin with a laid-out result) lowers to one VPTO reduction per register, so its source, mask and result must be contiguous and the source must fill whole registers.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: fn(
        '  %r = pto.vmi.reduce_addi %s, %m : !pto.vmi.vreg<32xi32, #pto.vmi.layout<contiguous>>, !pto.vmi.mask<32xb32, #pto.vmi.layout<contiguous>> -> !pto.vmi.vreg<1xi32, #pto.vmi.layout<contiguous>>',
        '%s: !pto.vmi.vreg<32xi32, #pto.vmi.layout<contiguous>>, %m: !pto.vmi.mask<32xb32, #pto.vmi.layout<contiguous>>',
      ),
    },
  },
  vmiToVptoElement: {
    code: 'E0477',
    severity: 'error',
    summary:
      'vmi-to-vpto: an element type the lowering (or the legacy op a unified one becomes) has no VPTO instruction for: a gather of other than 32-bit (or ui16) elements, fma of other than f16/bf16/f32, an integer sum of other than 32 bits, an integer narrowing whose vcvt pair does not exist.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: fn(
        '  %r = pto.vmi.trunci %w {saturate = "SAT"} : !pto.vmi.vreg<256xi32, #pto.vmi.layout<deinterleaved = 4>> -> !pto.vmi.vreg<256xi8, #pto.vmi.layout<contiguous>>',
        '%w: !pto.vmi.vreg<256xi32, #pto.vmi.layout<deinterleaved = 4>>',
      ),
    },
  },
  vmiToVptoLayout: {
    code: 'E0478',
    severity: 'error',
    summary:
      'vmi-to-vpto: layouts a compute op has no lowering for: a cast (truncf, trunci, extf, extsi, extui) whose source and result layouts are no legal cast relation, vmull outside contiguous / deinterleaved = 2 or 4, vselr outside one contiguous register, a shuffle that is neither forwarding, a lane-0 splat nor a vselr per register.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: fn(
        '  %r = pto.vmi.truncf %x {saturate = "SAT"} : !pto.vmi.vreg<256xf32, #pto.vmi.layout<deinterleaved = 4>> -> !pto.vmi.vreg<256xf16, #pto.vmi.layout<contiguous>>',
        '%x: !pto.vmi.vreg<256xf32, #pto.vmi.layout<deinterleaved = 4>>',
      ),
    },
  },
  vmiToVptoConstant: {
    code: 'E0479',
    severity: 'error',
    summary: 'vmi-to-vpto: a pto.vmi.constant whose elements are not all equal; the lowering materializes splats only.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-to-vpto'],
      program: fn('  %c = "pto.vmi.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> !pto.vmi.vreg<2xf32, #pto.vmi.layout<contiguous>>'),
    },
  },
  syncInVecScope: {
    code: 'E0452',
    severity: 'error',
    summary:
      'A synchronization op (set_flag, wait_flag, barrier, the buffer, event, fence, cache and SIMT synchronization) inside `pto.vecscope` or `pto.strict_vecscope`: synchronization delimits vector scopes (VPTO.cpp); `pto.mem_bar` may stand inside.',
    example: { tool: 'pto-as', program: fn('  pto.vecscope {\n    pto.barrier #pto.pipe<PIPE_V>\n  }') },
  },
  simtFragmentDefinition: {
    code: 'E0480',
    severity: 'error',
    summary:
      "A persistent SIMT fragment (`llvm.alloca ... {pto.persistent}`) that ptoas's vpto pipeline cannot keep in registers (pto-analyze-simt-persistent-fragment): outside a kernel entry, of an element type or count it does not take, with no single init section that comes before every other section using it, or needing more than the kernel's 123 keep/resume slots.",
    example: {
      tool: 'pto-as',
      args: ['--passes', 'pto-analyze-simt-persistent-fragment'],
      program: FRAGMENT('', '  pto.section.simt<<<32, 1, 1>>> {\n    %z = arith.constant 0.0 : f32\n    llvm.store %z, %f : f32, !llvm.ptr\n  }'),
    },
  },
  simtFragmentAccess: {
    code: 'E0481',
    severity: 'error',
    summary:
      'A use of a persistent SIMT fragment pointer that its register slots cannot serve (pto-analyze-simt-persistent-fragment): an access outside `pto.section.simt` or in a region nested in its body, an element index not known at compile time, or the pointer used as a value (stored, cast to an integer).',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'pto-analyze-simt-persistent-fragment'],
      program: FRAGMENT(' attributes {pto.entry}', '  %z = arith.constant 0.0 : f32\n  llvm.store %z, %f : f32, !llvm.ptr'),
    },
  },
  simtFragmentOffset: {
    code: 'E0482',
    severity: 'error',
    summary:
      "A load or store of a persistent SIMT fragment that does not cover whole elements of it (pto-analyze-simt-persistent-fragment): a byte offset that is not an element's start, past the fragment's end, a vector of other than 2 or 4 lanes, or an element type other than the fragment's.",
    example: {
      tool: 'pto-as',
      args: ['--passes', 'pto-analyze-simt-persistent-fragment'],
      program: FRAGMENT(
        ' attributes {pto.entry}',
        '  pto.section.simt<<<32, 1, 1>>> {\n    %c3 = arith.constant 3 : i64\n    %e = llvm.getelementptr %f[%c3] : (!llvm.ptr, i64) -> !llvm.ptr, f32\n    %z = arith.constant 0.0 : f32\n    llvm.store %z, %e : f32, !llvm.ptr\n  }',
      ),
    },
  },
  simtFragmentResidency: {
    code: 'E0483',
    severity: 'error',
    summary:
      "A persistent SIMT fragment element read without a value its slot carries (pto-analyze-simt-persistent-fragment): loaded in the init section before it is stored, or accessed later but never stored by the init section; or a later section that would carry the slots with launch dimensions other than the init section's.",
    example: {
      tool: 'pto-as',
      args: ['--passes', 'pto-analyze-simt-persistent-fragment'],
      program: FRAGMENT(
        ' attributes {pto.entry}',
        '  pto.section.simt<<<32, 1, 1>>> {\n    %v = llvm.load %f : !llvm.ptr -> f32\n    llvm.store %v, %f : f32, !llvm.ptr\n  }',
      ),
    },
  },
  vecscopeEscape: {
    code: 'E0484',
    severity: 'error',
    summary:
      'A vector register, mask or align made outside any `pto.vecscope` by an op that reads memory (a `vlds`) and used past a boundary of the scope ptoas infers around it (a barrier, a call, a sync or DMA op, an explicit scope, a terminator): pto-infer-vpto-vecscope can repeat a pure producer where it is used, not a load.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'pto-infer-vpto-vecscope'],
      program: fn(
        '  %c0 = arith.constant 0 : index\n  %v = pto.vlds %p[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n  pto.barrier #pto.pipe<PIPE_ALL>\n  %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>\n  pto.vsts %v, %p[%c0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>',
        '%p: !pto.ptr<f32, ub>',
      ),
    },
  },
  vmiProducerBoundary: {
    code: 'E0460',
    severity: 'error',
    summary:
      'IR that the VMI producer boundary does not take (pto-validate-vmi-ir): a VMI type with a layout or a mask of b8/b16/b32 granularity (before layout assignment VMI values are logical), a layout helper, an op other than pto.vmi and func/scf/cf ops holding a VMI value, or a VMI type hidden in an attribute.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'pto-validate-vmi-ir'],
      program: fn('', '%a: !pto.vmi.vreg<64xf32, #pto.vmi.layout<contiguous>>'),
    },
  },
  vmiLayoutAssigned: {
    code: 'E0461',
    severity: 'error',
    summary:
      'IR that is not layout-assigned VMI (pto-validate-vmi-layout-ir): a VMI value without a layout, a mask of `pred` granularity, a pack/unpack helper (those belong to VMI -> VPTO), an op other than pto.vmi and func/scf/cf ops holding a VMI value, or a VMI type hidden in an attribute.',
    example: { tool: 'pto-as', args: ['--passes', 'pto-validate-vmi-layout-ir'], program: fn('', '%a: !pto.vmi.vreg<64xf32>') },
  },
  vmiLayoutUnsupported: {
    code: 'E0462',
    severity: 'error',
    summary:
      "A layout-assigned VMI op whose layouts have no rule in the VMI -> VPTO lowering (pto-validate-vmi-layout-ir): a layout helper converting between layouts it cannot, or a store, grouped load/store, grouped reduction or broadcast, float cast or bitcast whose layouts match no row of the lowering's layout tables.",
    example: {
      tool: 'pto-as',
      args: ['--passes', 'pto-validate-vmi-layout-ir'],
      program: fn(
        '  %r = pto.vmi.ensure_layout %a : !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 4>> -> !pto.vmi.vreg<128xf32, #pto.vmi.layout<contiguous>>',
        '%a: !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 4>>',
      ),
    },
  },
  vmiLayoutContract: {
    code: 'E0465',
    severity: 'error',
    summary:
      "VMI that PTOAS's layout assignment (vmi-layout-assignment, vmi-mask-granularity-assignment) has no layout plan for: a function declared without a body with VMI values in its signature, a channel split or merge of other than 2 or 4 channels, a grouped load of 16- or 32-element f32 groups whose row stride is neither the group size nor a constant multiple of 8, a grouped reduction of a group size without a layout stored by a grouped store.",
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-layout-assignment'],
      program:
        'func.func @k(%a: !pto.vmi.vreg<64xf32>, %b: !pto.vmi.vreg<64xf32>, %c: !pto.vmi.vreg<64xf32>) {\n  %m = "pto.vmi.channel_merge"(%a, %b, %c) : (!pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>) -> !pto.vmi.vreg<192xf32>\n  return\n}\n',
    },
  },
  vmiLayoutConflict: {
    code: 'E0466',
    severity: 'error',
    summary:
      'Values that VMI layout assignment joins into one (the results of an scf.if with what its branches yield, the values the returns of a function give) need different layouts or mask granularities: masks compared at 16 and at 32 bits, results of widening conversions of different factors.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-mask-granularity-assignment'],
      program:
        'func.func @k(%c: i1, %a: !pto.vmi.vreg<128xf16>, %b: !pto.vmi.vreg<128xf32>) {\n  %m = scf.if %c -> !pto.vmi.mask<128xpred> {\n    %s = pto.vmi.pset "PAT_ALL" : !pto.vmi.mask<128xpred>\n    %x = pto.vmi.vcmp %a, %a, %s {cmp = "olt"} : !pto.vmi.vreg<128xf16>, !pto.vmi.vreg<128xf16>, !pto.vmi.mask<128xpred> -> !pto.vmi.mask<128xpred>\n    scf.yield %x : !pto.vmi.mask<128xpred>\n  } else {\n    %s = pto.vmi.pset "PAT_ALL" : !pto.vmi.mask<128xpred>\n    %y = pto.vmi.vcmp %b, %b, %s {cmp = "olt"} : !pto.vmi.vreg<128xf32>, !pto.vmi.vreg<128xf32>, !pto.vmi.mask<128xpred> -> !pto.vmi.mask<128xpred>\n    scf.yield %y : !pto.vmi.mask<128xpred>\n  }\n  return\n}\n',
    },
  },
  vmiHiddenType: {
    code: 'E0467',
    severity: 'error',
    summary:
      'An attribute (other than a function signature) holds a VMI type: VMI layout assignment rewrites the types of values and signatures only, and its result is checked to hide none elsewhere.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-layout-assignment'],
      program: 'module attributes {pto.hidden = !pto.vmi.vreg<128xf32>} {\n}\n',
    },
  },
  vmiLayoutLowering: {
    code: 'E0468',
    severity: 'error',
    summary:
      'A layout that VMI layout assignment picks which the VMI -> VPTO lowering that follows (vmi-layout-assignment then vmi-to-vpto) cannot lower: a value loaded in 8-element blocks that a conversion needs in another layout or whose reduction needs a mask from outside in blocks, a function argument a reduction needs deinterleaved where no conversion exists, a slot load of one slot per group with an unaligned stride, a vselr over more than one register.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-layout-assignment,vmi-to-vpto'],
      program:
        'func.func @k(%s: !pto.vmi.vreg<128xf32>, %i: !pto.vmi.vreg<128xi32>) {\n  %r = pto.vmi.vselr %s, %i : !pto.vmi.vreg<128xf32>, !pto.vmi.vreg<128xi32> -> !pto.vmi.vreg<128xf32>\n  return\n}\n',
    },
  },
  vmiNoLowering: {
    code: 'E0469',
    severity: 'error',
    summary:
      'A VMI op the VMI -> VPTO lowering has no lowering for, whatever its layout (vmi-layout-assignment then vmi-to-vpto): a vector-scalar op with pmode = "merge", an integer pto.vmi.vmula.',
    example: {
      tool: 'pto-as',
      args: ['--passes', 'vmi-layout-assignment,vmi-to-vpto'],
      program:
        'func.func @k(%s: !pto.vmi.vreg<64xf32>, %x: f32, %m: !pto.vmi.mask<64xpred>) {\n  %r = pto.vmi.vmuls %s, %x, %m {pmode = "merge"} : !pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>\n  return\n}\n',
    },
  },
  // ---- 0485-0489 module and pass rules of ptoas's VPTO back end ----------------------------------------------
  vptoKernelKind: {
    code: 'E0485',
    severity: 'error',
    summary:
      'A child module the VPTO back end compiles (the command line or the outer module names vpto, else its own pto.backend) carries no `pto.kernel_kind` and its functions hold no code ptoas could infer one from (they are empty): PTOAS compiles each as a kernel module for one kind of core (VPTONormalizeContainer).',
    example: {
      tool: 'pto-as',
      program:
        'module attributes {pto.target_arch = "a5"} {\n  module attributes {pto.backend = "vpto"} {\n    func.func @k() {\n      return\n    }\n  }\n}\n',
    },
  },
  vptoTileLowering: {
    code: 'E0486',
    severity: 'error',
    summary:
      "A tile op ptoas's VPTO back end cannot lower (pto-lower-to-ubuf-ops on A2/A3: a tload/tstore tensor view whose innermost stride is not the constant 1; pto-expand-tile-op on A5: a textract move that no template of lib/TileOps/a5 takes, vec -> mat, mat -> scaling or acc -> vec).",
    example: {
      tool: 'pto-as',
      args: ['--passes', 'pto-expand-tile-op'],
      program:
        'module attributes {pto.target_arch = "a5"} {\n  func.func @k() {\n    %c0 = arith.constant 0 : index\n' +
        '    %s = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf16>\n' +
        '    %d = pto.alloc_tile : !pto.tile_buf<mat, 16x16xf16, blayout=row_major, slayout=col_major>\n' +
        '    pto.textract ins(%s, %c0, %c0 : !pto.tile_buf<vec, 16x16xf16>, index, index) outs(%d : !pto.tile_buf<mat, 16x16xf16, blayout=row_major, slayout=col_major>)\n' +
        '    return\n  }\n}\n',
    },
  },
  recursiveCall: {
    code: 'W0410',
    severity: 'warning',
    summary: 'A function calls itself under the `vpto` back end: allowed, and the VM stops a run after 64 nested calls.',
    example: {
      tool: 'pto-as',
      program: 'module attributes {pto.backend = "vpto"} {\nfunc.func @k() {\n  func.call @k() : () -> ()\n  return\n}\n}\n',
    },
  },

  // ---- 05xx table instructions --------------------------------------------------------------------
  instructionOperands: {
    code: 'E0501',
    severity: 'error',
    summary: 'The operands or results of an instruction do not bind to its table entry (too many, too few, in the wrong place).',
    example: { tool: 'pto-as', program: fn(`  %t = pto.alloc_tile : ${V16}\n  pto.tcolmin ins(%t : ${V16})`) },
  },
  operandKind: {
    code: 'E0502',
    severity: 'error',
    summary: 'An operand is not of the kind its table entry declares (a tile where a scalar belongs, ...).',
    example: {
      tool: 'pto-as',
      program: fn(`  %s = pto.alloc_tile : ${V16}\n  %d = pto.alloc_tile : ${V16}\n  pto.texpands ins(%s : ${V16}) outs(%d : ${V16})`),
    },
  },
  tileLocation: {
    code: 'E0503',
    severity: 'error',
    summary: 'A tile operand is in a location (vec, mat, left, acc, ...) the instruction does not take it from on this target.',
    example: {
      tool: 'pto-as',
      program: fn(
        `  %s = pto.alloc_tile : ${TILE('mat', 'f32', 16, 16)}\n  %d = pto.alloc_tile : ${ROW16}\n  pto.tcolmin ins(%s : ${TILE('mat', 'f32', 16, 16)}) outs(%d : ${ROW16})`,
      ),
    },
  },
  tileLayout: {
    code: 'E0504',
    severity: 'error',
    summary: "A tile operand's layout (row/column major, boxes) is not one the instruction takes.",
    example: {
      tool: 'pto-as',
      args: ['--target', 'a5'],
      program: fn(
        `  %s = pto.alloc_tile : ${TILE('vec', 'f32', 16, 16).replace('row_major', 'col_major')}\n  %d = pto.alloc_tile : ${ROW16}\n` +
          `  pto.tcolmin ins(%s : ${TILE('vec', 'f32', 16, 16).replace('row_major', 'col_major')}) outs(%d : ${ROW16})`,
      ),
    },
  },
  elementType: {
    code: 'E0505',
    severity: 'error',
    summary: "An operand's element type is not one the instruction supports on the target, or element types that must agree do not.",
    example: {
      tool: 'pto-as',
      program: fn(
        `  %s = pto.alloc_tile : ${V16}\n  %d = pto.alloc_tile : ${TILE('vec', 'f16', 1, 16)}\n  pto.tcolmin ins(%s : ${V16}) outs(%d : ${TILE('vec', 'f16', 1, 16)})`,
      ),
    },
  },
  validRegion: {
    code: 'E0506',
    severity: 'error',
    summary: "The operands' valid shapes break a rule of the instruction (equal rows or columns, a view that matches a tile, ...).",
    example: {
      tool: 'pto-as',
      program: fn(
        `  %s = pto.alloc_tile : ${V16}\n  %d = pto.alloc_tile : ${TILE('vec', 'f32', 1, 32)}\n  pto.tcolmin ins(%s : ${V16}) outs(%d : ${TILE('vec', 'f32', 1, 32)})`,
      ),
    },
  },
  instructionAttribute: {
    code: 'E0507',
    severity: 'error',
    summary: 'An attribute of an instruction is missing, of the wrong kind or out of range.',
    example: {
      tool: 'pto-as',
      program: fn(
        `  %a = pto.alloc_tile : ${V16}\n  %d = pto.alloc_tile : ${V16}\n  pto.texp ins(%a : ${V16}) outs(%d : ${V16}) {precisionType = #pto<exp_precision fastest>}`,
      ),
    },
  },
  instructionRule: {
    code: 'E0508',
    severity: 'error',
    summary: "A rule of the instruction's family that the tables cannot express (conversion pairs, index ranges, static windows, ...).",
    example: {
      tool: 'pto-as',
      program: fn(
        `  %s = pto.alloc_tile : ${V16}\n  %d = pto.alloc_tile : ${I8}\n  pto.tcvt ins(%s {rmode = #pto<round_mode CAST_RINT>} : ${V16}) outs(%d : ${I8})`,
      ),
    },
  },
  scratchContract: {
    code: 'E0515',
    severity: 'error',
    summary:
      "A tmp (scratch) tile breaks the instruction's contract on the target: missing where a mode needs it, given where the lowering takes none, too small, or of the wrong valid shape.",
    example: {
      tool: 'pto-as',
      program: fn(
        `  %a = pto.alloc_tile : ${V16}\n  %d = pto.alloc_tile : ${V16}\n  pto.trsqrt ins(%a : ${V16}) outs(%d : ${V16}) {precisionType = #pto<rsqrt_precision high_precision>}`,
      ),
    },
  },
  bufferTypedValue: {
    code: 'W0509',
    severity: 'warning',
    summary: 'A Level 1 (SSA) instruction result is typed as a Level 2 buffer (`!pto.tile_buf`) instead of a value (`!pto.tile`).',
    example: {
      tool: 'pto-as',
      program: fn(`  %a = pto.alloc_tile : ${V16}\n  %r = pto.tadd %a, %a : (${V16}, ${V16}) -> ${V16}`),
    },
  },

  // ---- 06xx AscendC ops ---------------------------------------------------------------------------
  ascendcParameter: {
    code: 'E0601',
    severity: 'error',
    summary: "An AscendC/TIK op's parameters break the instruction's rules (ranges, alignment, the product's tables).",
    example: {
      tool: 'pto-as',
      program: fn(
        `  %s = pto.alloc_tile : ${TILE('vec', 'f16', 8, 128)}\n  %d = pto.alloc_tile : ${TILE('vec', 'f16', 8, 16)}\n  ascendc.whole_reduce_min ins(%s : ${TILE('vec', 'f16', 8, 128)}) outs(%d : ${TILE('vec', 'f16', 8, 16)}) {mask = 129, repeat = 1}`,
      ),
    },
  },
  ascendcAccess: {
    code: 'E0602',
    severity: 'error',
    summary: 'An AscendC/TIK op would read or write outside one of its tiles with these parameters.',
    example: {
      tool: 'pto-as',
      program: fn(
        `  %s = pto.alloc_tile : ${TILE('vec', 'f16', 8, 128)}\n  %d = pto.alloc_tile : ${TILE('vec', 'f16', 8, 16)}\n  ascendc.whole_reduce_min ins(%s : ${TILE('vec', 'f16', 8, 128)}) outs(%d : ${TILE('vec', 'f16', 8, 16)}) {mask = 128, repeat = 9}`,
      ),
    },
  },
  ascendcOverlap: {
    code: 'E0603',
    severity: 'error',
    summary:
      "An AscendC op's source and destination share a tile in a way the instruction does not support: a repeat writes bytes another repeat reads, or a repeat's source and destination overlap only in part.",
    example: {
      tool: 'pto-as',
      program: fn(
        `  %s = pto.alloc_tile : ${TILE('vec', 'f16', 8, 128)}\n  ascendc.whole_reduce_min ins(%s : ${TILE('vec', 'f16', 8, 128)}) outs(%s : ${TILE('vec', 'f16', 8, 128)}) {mask = 128, repeat = 8}`,
      ),
    },
  },

  // ---- 07xx synchronization -----------------------------------------------------------------------
  syncOp: {
    code: 'E0701',
    severity: 'error',
    summary: 'A synchronization op names pipes, events or op types it cannot, or is written in the wrong form.',
    example: { tool: 'pto-as', program: fn('  pto.section.vector {\n    pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID8>]\n  }') },
  },
  syncFinding: {
    code: 'W0702',
    severity: 'warning',
    summary: 'While the program ran, one pipe touched data another pipe had touched, with no synchronization in between.',
    example: {
      tool: 'pto-vm',
      program:
        'func.func @k(%p: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n  %c0 = arith.constant 0 : index\n' +
        '  %v = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n' +
        '  %s = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>\n' +
        `  %t = pto.alloc_tile : ${V16}\n  pto.tload ins(%s : !pto.partition_tensor_view<16x16xf32>) outs(%t : ${V16})\n` +
        '  pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n' +
        `  pto.tadd ins(%t, %t : ${V16}, ${V16}) outs(%t : ${V16})\n  return\n}\n`,
    },
  },

  crossCoreRace: {
    code: 'W0703',
    severity: 'warning',
    summary:
      'While the cores of a launch ran, two of them touched the same bytes of global memory (at least one writing), and no flag, pipe or barrier ordered the two accesses.',
    example: {
      tool: 'pto-vm',
      args: ['--arg', 'p=zeros:4'],
      program:
        'func.func @k(%p: !pto.ptr<i32>) {\n  %c0 = arith.constant 0 : index\n  %one = arith.constant 1 : i32\n' +
        '  pto.section.cube {\n    pto.store_scalar %one, %p[%c0] : !pto.ptr<i32>, i32\n  }\n' +
        '  pto.section.vector {\n    %x = pto.load_scalar %p[%c0] : !pto.ptr<i32> -> i32\n  }\n  return\n}\n',
    },
  },
  fftsBase: {
    code: 'E0704',
    severity: 'error',
    summary:
      'On A2/A3 a function signals or waits for cross-core flags (pto.sync.set/wait, the intra- and cross-block ops) without a pto.set_ffts, which sets the base address of those flags (PTOAS requires one in the same function).',
    example: { tool: 'pto-as', program: fn('  pto.sync.set <PIPE_FIX>, 0') },
  },
  bufSyncPipe: {
    code: 'W0705',
    severity: 'warning',
    summary:
      'A pto.get_buf or pto.rls_buf names a pipe (`"PIPE_V", 0, 0`) where PTOAS\'s EmitC back end, its default, takes only an op type (`[#pto.pipe_event_type<TVEC>, 0, 0]`): PTOAS verifies it, and only its VPTO back end (pto.backend = "vpto") lowers it.',
    example: {
      tool: 'pto-as',
      args: ['--target', 'a5'],
      program: fn('  pto.section.vector {\n    pto.get_buf "PIPE_V", 0, 0\n    pto.rls_buf "PIPE_V", 0, 0\n  }'),
    },
  },

  // ---- 08xx VM run time ---------------------------------------------------------------------------
  trap: {
    code: 'E0801',
    severity: 'error',
    summary: 'The program stopped while running: an access out of bounds, a buffer over capacity, a failed run-time check, a step limit.',
    example: { tool: 'pto-vm', program: fn('  pto.trap') },
  },
  limit: {
    code: 'E0804',
    severity: 'error',
    summary:
      "A run would go past one of the VM's limits (docs/cli.md, Limits) before it starts the work: the global memory its arguments need, the number of cores.",
    example: {
      tool: 'pto-vm',
      program:
        'func.func @k(%x: !pto.ptr<f32>) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c32 = arith.constant 32 : index\n' +
        '  %rows = arith.constant 1000000 : index\n' +
        '  %v = pto.make_tensor_view %x, shape = [%rows, %rows], strides = [%rows, %c1] : !pto.tensor_view<?x?xf32>\n' +
        '  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c32, %c32] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<32x32xf32>\n  return\n}\n',
    },
  },
  deadlock: {
    code: 'E0803',
    severity: 'error',
    summary: 'The cores of a run wait for each other: none can go on (each core, its op and what it waits for are named).',
    example: {
      tool: 'pto-vm',
      args: ['--arg', 'ffts=zeros:1'],
      program:
        'func.func @k(%ffts: !pto.ptr<i64>) {\n  pto.set_ffts %ffts : !pto.ptr<i64>\n  pto.section.cube {\n    pto.sync.wait <PIPE_FIX>, 1\n    pto.sync.set <PIPE_FIX>, 0\n  }\n' +
        '  pto.section.vector {\n    pto.sync.wait <PIPE_V>, 0\n    pto.sync.set <PIPE_V>, 1\n  }\n  return\n}\n',
    },
  },
  partitionOutsideView: {
    code: 'W0804',
    severity: 'warning',
    summary:
      "A partition (or subview) reaches past its view's extent. The hardware does not check views, so the run goes on and reads or writes the bytes that follow in the buffer (every access is still checked against the buffer itself); it is usually a wrong offset or block index.",
    example: {
      tool: 'pto-vm',
      args: ['--arg', 'p=zeros:512'],
      program:
        'func.func @k(%p: !pto.ptr<f32>) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c8 = arith.constant 8 : index\n  %c16 = arith.constant 16 : index\n' +
        '  %v = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n' +
        '  %s = pto.partition_view %v, offsets = [%c8, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>\n' +
        `  %t = pto.alloc_tile : ${V16}\n  pto.tload ins(%s : !pto.partition_tensor_view<16x16xf32>) outs(%t : ${V16})\n  return\n}\n`,
    },
  },
  jsonValuesLeftOut: {
    code: 'W0805',
    severity: 'warning',
    summary:
      '`pto-vm run --json` lists the first `--json-values` values of a buffer (default 1048576, docs/cli.md, Limits) and leaves out the rest; `--out NAME=FILE.npy` writes them all.',
    example: { tool: 'pto-vm', args: ['--arg', 'p=zeros:8', '--json', '--json-values', '4'], program: 'func.func @k(%p: !pto.ptr<f32>) {\n  return\n}\n' },
  },
  printLeftOut: {
    code: 'W0806',
    severity: 'warning',
    summary:
      "A core printed more than its print buffer holds (16 MiB of text, docs/cli.md, Limits), as a device's print buffer fills: the print at the warning and the core's later ones are left out; the run goes on.",
    example: {
      tool: 'pto-vm',
      program: fn(
        `  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %n = arith.constant 500 : index\n  %t = pto.alloc_tile : ${V64}\n` +
          `  scf.for %i = %c0 to %n step %c1 {\n    pto.tprint ins(%t : ${V64})\n  }`,
      ),
    },
  },
  notRunnable: {
    code: 'E0802',
    severity: 'error',
    summary: 'The program verifies but uses an instruction the VM does not run yet; pto-vm says so before running anything.',
    example: { noExample: 'every instruction of the tables is implemented in the VM today; the code is kept for the next one that is not' },
  },

  // ---- 09xx transforms ----------------------------------------------------------------------------
  levelConversion: {
    code: 'E0901',
    severity: 'error',
    summary: 'The program cannot be expressed at the requested level (`--emit l1` / `--emit l2`); the message says which construct is in the way.',
    example: {
      tool: 'pto-as',
      args: ['--emit', 'l1'],
      program: fn(
        `  %a = pto.alloc_tile : ${V16}\n  pto.tadd ins(%a, %a : ${V16}, ${V16}) outs(%a : ${V16})\n  %r = pto.treshape %a : ${V16} -> ${TILE('vec', 'f32', 1, 256)}`,
      ),
    },
  },
  lowering: {
    code: 'E0902',
    severity: 'error',
    summary: 'An AscendC/TIK op cannot be lowered to tile ops (a boxed tile), or the lowered program does not verify (an internal error).',
    example: { noExample: 'the lowering rejects only tiles the AscendC ops cannot have; an internal error has no program by definition' },
  },
  loweringMismatch: {
    code: 'E0903',
    severity: 'error',
    summary: '`pto-vm run --check-lowering`: the lowered program and the direct model of the AscendC ops left different bytes.',
    example: {
      noExample: 'it needs input data: test/lower/ascendc.test.ts has one (a NaN, where --numerics cpu-sim and the direct model disagree)',
    },
  },
} as const satisfies Record<string, DiagnosticKind>;

export type DiagnosticName = keyof typeof DIAGNOSTICS;
