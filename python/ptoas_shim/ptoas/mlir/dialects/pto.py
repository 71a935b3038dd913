"""The `pto` dialect: its types, enum attributes and op classes (made from _pto_facts.py)."""
from .. import ir as _ir
from ..ir import Attribute, IntegerAttr, IntegerType, ShimError, Type, _shape_text
from .._printer import attr_dict
from . import _micro, _micro_facts, _pto_facts
from ._micro import *  # noqa: F401,F403 - the micro-op types (VRegType, MaskType, ...)
from ._ods import ENUM_ATTR_CLASSES, FactOp, make_op_class


def register_dialect(context=None, load=True):
    pass


# ---- types ---------------------------------------------------------------------------------------------------


class PtrType(_micro._PtoType):
    """`!pto.ptr<f32, ub>`; `PtrType(t)` casts."""

    PATTERN = r"^!pto\.ptr<([^,>]+)(?:,\s*(\w+))?>$"

    def _parse(self, m):
        self.element_type = _ir.typed(m.group(1))
        self.memory_space = AddressSpaceAttr.get(m.group(2)) if m.group(2) else None  # noqa: F821 - an enum attr

    @staticmethod
    def get(element_type, memory_space=None, context=None):
        if isinstance(memory_space, _ir.Context):
            memory_space = None
        space = ""
        if memory_space is not None:
            case = getattr(memory_space, "case", None)
            if case is None:
                raise ShimError("PtrType.get: memory_space must be an AddressSpaceAttr")
            space = ", " + case.text
        return PtrType("!pto.ptr<%s%s>" % (element_type, space))


def _dims(shape_or_rank):
    return [-1] * shape_or_rank if isinstance(shape_or_rank, int) else [(-1 if d is None else d) for d in shape_or_rank]


def _parse_shape(text):
    parts = text.split("x")
    return [-1 if d == "?" else int(d) for d in parts[:-1]], _ir.typed(parts[-1])


class TensorViewType(_micro._PtoType):
    PATTERN = r"^!pto\.tensor_view<(.*)>$"

    def _parse(self, m):
        self.shape, self.element_type = _parse_shape(m.group(1))

    @staticmethod
    def get(shape_or_rank, element_type, context=None):
        return TensorViewType("!pto.tensor_view<%sx%s>" % (_shape_text(_dims(shape_or_rank)), element_type))


class PartitionTensorViewType(_micro._PtoType):
    PATTERN = r"^!pto\.partition_tensor_view<(.*)>$"

    def _parse(self, m):
        self.shape, self.element_type = _parse_shape(m.group(1))

    @staticmethod
    def get(shape_or_rank, element_type, context=None):
        return PartitionTensorViewType("!pto.partition_tensor_view<%sx%s>" % (_shape_text(_dims(shape_or_rank)), element_type))


class TileConfig:
    """Fractal sizes in bytes (the `fractal=` of a tile_buf type)."""

    alignedSize = 32
    fixedRowSize = 16
    fixedColSize = 16
    fixedMxRowSize = 16
    fixedMxColSize = 2
    fractalABSize = 512
    fractalCSize = 1024
    fractalMxSize = 32


# ---- enums and their attributes ------------------------------------------------------------------------------


class EnumCase:
    def __init__(self, enum, symbol, value, text):
        self.enum, self.symbol, self.value, self.text = enum, symbol, value, text
        self.name = symbol

    def __int__(self):
        return self.value

    # Like MLIR's Python enums (IntEnum): a case equals and hashes as its integer value.
    def __eq__(self, other):
        if isinstance(other, EnumCase):
            return (self.enum, self.value) == (other.enum, other.value)
        return isinstance(other, int) and not isinstance(other, bool) and other == self.value

    def __hash__(self):
        return hash(self.value)

    def __index__(self):
        return self.value

    def __repr__(self):
        return "%s.%s" % (self.enum, self.symbol)


class EnumAttr(Attribute):
    ENUM = None  # the enum class
    MNEMONIC = None
    DOTTED = True

    def __init__(self, case):
        self.case = case
        self.value = case
        text = "#pto.%s<%s>" % (self.MNEMONIC, case.text) if self.DOTTED else "#pto<%s %s>" % (self.MNEMONIC, case.text)
        super().__init__(text)

    @classmethod
    def get(cls, value, context=None):
        if isinstance(value, _ir.Context):  # PTOAS also takes (context, value)
            value, context = context, value
        return cls(cls.ENUM.case_of(value, cls.__name__))


class _EnumMeta(type):
    """`isinstance(AddressSpace.VEC, AddressSpace)` holds, as for MLIR's Python enums."""

    def __instancecheck__(cls, x):
        return isinstance(x, EnumCase) and x.enum == cls.__name__


class EnumClass(metaclass=_EnumMeta):
    CASES = ()

    @classmethod
    def case_of(cls, value, what):
        if isinstance(value, EnumCase) and value.enum == cls.__name__:
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            for c in cls.CASES:
                if c.value == value:
                    return c
        if isinstance(value, str):
            for c in cls.CASES:
                if value in (c.symbol, c.text):
                    return c
        raise ShimError("%s.get: %r is not a case of %s" % (what, value, cls.__name__))


def _install_enums():
    made = {}
    for attr_name, facts in _pto_facts.ENUM_ATTRS.items():
        enum_name = facts["enum"]
        if enum_name not in made:
            enum_cls = _EnumMeta(enum_name, (EnumClass,), {})
            enum_cls.CASES = tuple(EnumCase(enum_name, s, v, t) for s, v, t in facts["cases"])
            for c in enum_cls.CASES:
                setattr(enum_cls, c.symbol, c)
            made[enum_name] = enum_cls
            globals()[enum_name] = enum_cls
        attrs = {"ENUM": made[enum_name], "MNEMONIC": facts["mnemonic"], "DOTTED": facts["style"] == "dotted"}
        globals()[attr_name] = type(attr_name, (EnumAttr,), attrs)
        ENUM_ATTR_CLASSES["PTO_" + attr_name] = globals()[attr_name]


_install_enums()
# PTOAS's module also exports the sync op types and event ids as names of their own.
for _case in SyncOpType.CASES + EVENT.CASES:  # noqa: F821 - made by _install_enums
    globals()[_case.symbol] = _case


class TileBufConfigAttr(Attribute):
    def __init__(self, blayout, slayout, s_fractal_size, pad, compact_mode=None):
        self.blayout, self.slayout, self.s_fractal_size, self.pad = blayout, slayout, int(s_fractal_size), pad
        if compact_mode is not None and int(getattr(compact_mode, "case", compact_mode)) != 0:
            raise ShimError("TileBufConfigAttr.get: a compact_mode other than Null")
        super().__init__("#pto.tile_buf_config<%s, %s, %d, %s>" % (blayout, slayout, self.s_fractal_size, pad))

    @staticmethod
    def get(blayout, slayout, s_fractal_size, pad, context=None, compact_mode=None):
        for a, cls in ((blayout, "BLayoutAttr"), (slayout, "SLayoutAttr"), (pad, "PadValueAttr")):
            if type(a).__name__ != cls:
                raise ShimError("TileBufConfigAttr.get: expected a %s, got %r" % (cls, a))
        return TileBufConfigAttr(blayout, slayout, s_fractal_size, pad, compact_mode)

    @staticmethod
    def get_default(context=None):
        return TileBufConfigAttr(
            BLayoutAttr.get(BLayout.RowMajor), SLayoutAttr.get(SLayout.NoneBox), TileConfig.fractalABSize, PadValueAttr.get(PadValue.Null)
        )


class TileBufType(_micro._PtoType):
    """`!pto.tile_buf<loc=vec, dtype=f32, rows=.., cols=.., v_row=.., v_col=.., blayout=.., slayout=.., fractal=..,
    pad=..>`; `TileBufType(t)` casts and reads the fields back."""

    PATTERN = r"^!pto\.tile_buf<(.*)>$"

    def _parse(self, m):
        fields = dict(part.split("=", 1) for part in _micro._split_top(m.group(1)))
        self.fields = fields
        self.element_type = _ir.typed(fields["dtype"])
        self.shape = [int(fields["rows"]), int(fields["cols"])]
        self.valid_shape = [-1 if fields.get(k, "?") == "?" else int(fields[k]) for k in ("v_row", "v_col")]
        self.memory_space = AddressSpaceAttr.get(fields["loc"])  # noqa: F821 - an enum attr
        self.config = TileBufConfigAttr(
            BLayoutAttr.get(fields.get("blayout", "row_major")),  # noqa: F821
            SLayoutAttr.get(fields.get("slayout", "none_box")),  # noqa: F821
            int(fields.get("fractal", 512)),
            PadValueAttr.get(int(fields.get("pad", 0))),  # noqa: F821
        )

    @staticmethod
    def get(shape, element_type, memory_space, valid_shape=None, config=None, context=None):
        shape = list(shape)
        valid = list(shape) if valid_shape is None else [(-1 if d is None else d) for d in valid_shape]
        if len(shape) != 2 or len(valid) != 2:
            raise ShimError("TileBufType.get: a tile_buf of rank %d (the shim prints rank 2)" % len(shape))
        config = config or TileBufConfigAttr.get_default()
        if not isinstance(config, TileBufConfigAttr):
            raise ShimError("TileBufType.get: config must be a TileBufConfigAttr")
        loc = getattr(memory_space, "case", None)
        if loc is None or loc.enum != "AddressSpace":
            raise ShimError("TileBufType.get: memory_space must be an AddressSpaceAttr")
        v = ["?" if d < 0 else str(d) for d in valid]
        text = "!pto.tile_buf<loc=%s, dtype=%s, rows=%d, cols=%d, v_row=%s, v_col=%s, blayout=%s, slayout=%s, fractal=%d, pad=%d>" % (
            loc.text,
            element_type,
            shape[0],
            shape[1],
            v[0],
            v[1],
            config.blayout.case.text,
            config.slayout.case.text,
            config.s_fractal_size,
            config.pad.case.value,
        )
        t = TileBufType(text)
        t.config = config
        return t


_ir.TYPE_PARSERS.extend((cls.PATTERN, cls) for cls in (PtrType, TensorViewType, PartitionTensorViewType, TileBufType))


# ---- ops -----------------------------------------------------------------------------------------------------


def _dps_print(self, p):
    """`pto.op ins(a, b {attrs} : A, B) outs(d : D)`, the operands declared before `dst` in ins. Only when every
    operand given is a required one: PTOAS's own forms place optional operands variously (a tmp in ins or in outs,
    a keyword), so an op given one prints in the generic form, where the declaration order binds it."""
    kinds = dict(self.FACTS["arguments"])
    names = [n for n, _ in self._operand_names]
    if self.results or names[-1] != "dst" or any(kinds[n] != "single" for n in names):
        p.generic(self.operation)
        return
    ins, dst = self.operands[:-1], self.operands[-1]
    attrs = attr_dict(self.attributes)
    ins_text = "ins(%s%s : %s)" % (p.names_of(ins), attrs, ", ".join(str(v.type) for v in ins))
    p.line("%s %s outs(%s : %s)" % (self.OPERATION_NAME, ins_text, p.name(dst), dst.type))


def _dps_printable(facts):
    """The DPS form fits an op with no regions or variadic operands whose last required operand is `dst`."""
    operands = [(n, k) for n, k in facts["arguments"] if k not in ("attr", "optional_attr")]
    required = [n for n, k in operands if k == "single"]
    if not facts["dps"] or facts["regions"] or any(k == "variadic" for _, k in operands):
        return False
    return bool(required) and required[-1] == "dst"


def dps_form_operands():
    """For each op the shim may print in the DPS form: its required operands in declaration order (dst last)."""
    return {
        cls.OPERATION_NAME: [n for n, k in cls.FACTS["arguments"] if k == "single"]
        for cls in (globals()[name] for name in _pto_facts.OPS)
        if issubclass(cls, DpsOp)
    }


class DpsOp(FactOp):
    def print_custom(self, p):
        _dps_print(self, p)


class MakeTensorViewOp(FactOp):
    def print_custom(self, p):
        (result,) = p.define_results(self.operation)
        ptr = self.operand("ptr")
        shape = [self.operands[1 + i] for i in range(self.operation.segment_sizes[1])]
        strides = self.operands[1 + len(shape) :]
        p.line(
            "%s = pto.make_tensor_view %s, shape = [%s], strides = [%s]%s : %s"
            % (result, p.name(ptr), p.names_of(shape), p.names_of(strides), attr_dict(self.attributes), self.results[0].type)
        )


class PartitionViewOp(FactOp):
    def print_custom(self, p):
        (result,) = p.define_results(self.operation)
        n = self.operation.segment_sizes[1]
        offsets, sizes = self.operands[1 : 1 + n], self.operands[1 + n :]
        p.line(
            "%s = pto.partition_view %s, offsets = [%s], sizes = [%s]%s : %s -> %s"
            % (
                result,
                p.name(self.operands[0]),
                p.names_of(offsets),
                p.names_of(sizes),
                attr_dict(self.attributes),
                self.operands[0].type,
                self.results[0].type,
            )
        )


class AllocTileOp(FactOp):
    def print_custom(self, p):
        (result,) = p.define_results(self.operation)
        parts = ["%s = %s" % (n, p.name(self.operand(n))) for n in ("addr", "valid_row", "valid_col") if self.operand(n) is not None]
        p.line("%s = pto.alloc_tile%s%s : %s" % (result, "".join(" " + x for x in parts), attr_dict(self.attributes), self.results[0].type))


class AddPtrOp(FactOp):
    def print_custom(self, p):
        (result,) = p.define_results(self.operation)
        ptr, offset = self.operands
        p.line("%s = pto.addptr %s, %s%s : %s -> %s" % (result, p.name(ptr), p.name(offset), attr_dict(self.attributes), ptr.type, self.results[0].type))


_CUSTOM = {
    "MakeTensorViewOp": MakeTensorViewOp,
    "PartitionViewOp": PartitionViewOp,
    "AllocTileOp": AllocTileOp,
    "AddPtrOp": AddPtrOp,
}


def _install_ops():
    for name, facts in _pto_facts.OPS.items():
        base = _CUSTOM.get(name) or (DpsOp if _dps_printable(facts) else FactOp)
        globals()[name] = make_op_class(name, facts, base)


_install_ops()


class TScatterOp(globals()["TScatterOp"]):
    """Also takes PTOAS's older positional form `TScatterOp(src, a, b)`: (dst, mask pattern) when b is a mask
    pattern, else (dst, indexes) when only a has src's type, else (indexes, dst)."""

    def __init__(self, src, *args, loc=None, ip=None, **kwargs):
        if len(args) > 2:
            raise ShimError("TScatterOp: too many positional arguments")
        if len(args) == 2:
            if kwargs.keys() & {"dst", "indexes", "maskPattern"}:
                raise ShimError("TScatterOp: two positional arguments with dst/indexes/maskPattern keywords")
            a, b = args
            src_type = _ir._as_value(src, "TScatterOp").type
            same = [_type_of(x) == src_type for x in (a, b)]
            if isinstance(b, (EnumCase, globals()["MaskPatternAttr"])):
                kwargs.update(dst=a, maskPattern=b if isinstance(b, Attribute) else globals()["MaskPatternAttr"].get(b))
            elif same[0] and not same[1]:
                kwargs.update(dst=a, indexes=b)
            else:
                kwargs.update(indexes=a, dst=b)
            args = ()
        super().__init__(src, *args, loc=loc, ip=ip, **kwargs)


def _type_of(x):
    try:
        return _ir._as_value(x, "TScatterOp").type
    except ShimError:
        return None


class SectionOp(FactOp):
    """`pto.section.cube { ... }`: an op whose one region is its body."""

    @property
    def body(self):
        return self.regions[0]

    def print_custom(self, p):
        blocks = self.body.blocks
        if len(blocks) > 1 or (blocks and blocks[0].arguments):
            raise ShimError("%s: a body of more than one block, or with arguments" % self.OPERATION_NAME)
        p.line("%s%s {" % (self.OPERATION_NAME, attr_dict(self.attributes)))
        if blocks:
            p.block_body(blocks[0])
        p.line("}")


def _install_region_ops():
    for name, facts in _pto_facts.OPS.items():
        if facts["regions"] == 1 and not facts["arguments"] and not facts["results"]:
            globals()[name] = make_op_class(name, facts, SectionOp)


_install_region_ops()


def _install_micro_ops():
    """The VPTO/VMI ops (class name without its `PTO_` prefix, as MLIR's bindings name it), printed by format."""
    for def_name, facts in _micro_facts.MICRO_OPS.items():
        name = def_name.split("_", 1)[1] if "_" in def_name else def_name
        printer = _micro.OWN_FORMS.get(name) or (_micro.print_by_format if facts["format"] else None)
        extra = {"print_custom": printer} if printer else {}
        cls = globals()[name] = make_op_class(name, facts, FactOp, extra)
        names = [n for n, _ in facts["arguments"]]
        if printer and not facts["results"] and all(k == "single" for _, k in facts["arguments"]):
            _ir.VIEW_BY_NAME[facts["mnemonic"]] = lambda op, cls=cls, names=names: _view_of(cls, names, op)


def _view_of(cls, names, op):
    """The view of an op of `cls` made by Operation.create with its operands in the facts' order (none left out)."""
    if len(op.operands) != len(names):
        return None
    view = cls.__new__(cls)
    view.__dict__.update(_operation=op, _given=dict(zip(names, op.operands)), _operand_names=[(n, "single") for n in names], _result_given={})
    return view


_install_micro_ops()


# ---- op functions: MLIR's bindings give each op a function named after it (`pto.tadd(...)`, `pto.barrier(...)`)
# that builds the op and returns its result (one), its results (several) or the op (none).


def _op_function(cls):
    def build(*args, **kwargs):
        op = cls(*args, **kwargs)
        results = op.results
        return op if not results else results[0] if len(results) == 1 else results

    build.__name__ = cls.OPERATION_NAME[len("pto.") :].replace(".", "_")
    return build


for _name in _pto_facts.OPS:
    _fn = _op_function(globals()[_name])
    globals().setdefault(_fn.__name__, _fn)


# ---- PTOAS's sync helpers: they take enum cases, names or ints where the ops take attributes ---------------------


def _enum_attr(attr_cls, value):
    if isinstance(value, attr_cls):
        return value
    if isinstance(value, str):
        value = value.upper()
    return attr_cls.get(value)


def _i32(value, what):
    if isinstance(value, IntegerAttr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return IntegerAttr(IntegerType(32), value)
    raise ShimError("%s must be an int or IntegerAttr, got %r" % (what, value))


def _is_value(x):
    return isinstance(x, _ir.Value) or (hasattr(x, "operation") and not isinstance(x, Attribute))


def barrier(op, *, loc=None, ip=None):
    if isinstance(op, (SyncOpTypeAttr, str)) or (isinstance(op, EnumCase) and op.enum == "SyncOpType"):  # noqa: F821
        return BarrierSyncOp(_enum_attr(SyncOpTypeAttr, op), loc=loc, ip=ip)  # noqa: F821
    return BarrierOp(_enum_attr(PipeAttr, op), loc=loc, ip=ip)  # noqa: F821


def _flag(static_cls, dynamic_name, src_pipe, dst_pipe, event_id, loc, ip):
    src, dst = _enum_attr(PipeAttr, src_pipe), _enum_attr(PipeAttr, dst_pipe)  # noqa: F821
    if _is_value(event_id):
        return globals()[dynamic_name](src, dst, event_id, loc=loc, ip=ip)
    if isinstance(event_id, int) and not isinstance(event_id, EnumCase):
        if not 0 <= event_id <= 7:
            raise ShimError("event id out of range [0,7]: %d" % event_id)
        event_id = "EVENT_ID%d" % event_id
    return static_cls(src, dst, _enum_attr(EventAttr, event_id), loc=loc, ip=ip)  # noqa: F821


def set_flag(src_pipe, dst_pipe, event_id, *, loc=None, ip=None):
    return _flag(SetFlagOp, "SetFlagDynOp", src_pipe, dst_pipe, event_id, loc, ip)  # noqa: F821


def wait_flag(src_pipe, dst_pipe, event_id, *, loc=None, ip=None):
    return _flag(WaitFlagOp, "WaitFlagDynOp", src_pipe, dst_pipe, event_id, loc, ip)  # noqa: F821


def record_event(src_op, dst_op, event_id, *, loc=None, ip=None):
    a, b = _enum_attr(SyncOpTypeAttr, src_op), _enum_attr(SyncOpTypeAttr, dst_op)  # noqa: F821
    return RecordEventOp(a, b, _enum_attr(EventAttr, event_id), loc=loc, ip=ip)  # noqa: F821


def wait_event(src_op, dst_op, event_id, *, loc=None, ip=None):
    a, b = _enum_attr(SyncOpTypeAttr, src_op), _enum_attr(SyncOpTypeAttr, dst_op)  # noqa: F821
    return WaitEventOp(a, b, _enum_attr(EventAttr, event_id), loc=loc, ip=ip)  # noqa: F821


def _sync(cls, pipe, event_id, ffts_mode, loc, ip):
    mode = None if ffts_mode == 2 else _i32(ffts_mode, "ffts_mode")
    if _is_value(event_id):
        return cls(_enum_attr(PipeAttr, pipe), ffts_mode=mode, event_id_dyn=event_id, loc=loc, ip=ip)  # noqa: F821
    return cls(_enum_attr(PipeAttr, pipe), event_id=_i32(event_id, "event_id"), ffts_mode=mode, loc=loc, ip=ip)  # noqa: F821


def sync_set(pipe, event_id, ffts_mode=2, *, loc=None, ip=None):
    return _sync(SyncSetOp, pipe, event_id, ffts_mode, loc, ip)  # noqa: F821


def sync_wait(pipe, event_id, ffts_mode=2, *, loc=None, ip=None):
    return _sync(SyncWaitOp, pipe, event_id, ffts_mode, loc, ip)  # noqa: F821


def _buffer_op(cls, op_type, buf_id, mode, loc, ip):
    if isinstance(op_type, PipeAttr) or (isinstance(op_type, EnumCase) and op_type.enum == "PIPE"):  # noqa: F821
        raise ShimError("%s expects a SyncOpType, not a PIPE" % cls.__name__)
    return cls(_enum_attr(SyncOpTypeAttr, op_type), _i32(buf_id, "buf_id"), mode=_i32(mode, "mode"), loc=loc, ip=ip)  # noqa: F821


def get_buf(op_type, buf_id, mode=0, *, loc=None, ip=None):
    return _buffer_op(GetBufOp, op_type, buf_id, mode, loc, ip)  # noqa: F821


def rls_buf(op_type, buf_id, mode=0, *, loc=None, ip=None):
    return _buffer_op(RlsBufOp, op_type, buf_id, mode, loc, ip)  # noqa: F821


def _block_sync(cls, pipe, event_id, loc, ip):
    if _is_value(event_id):
        return cls(_enum_attr(PipeAttr, pipe), event_id_dyn=event_id, loc=loc, ip=ip)  # noqa: F821
    return cls(_enum_attr(PipeAttr, pipe), event_id=_i32(event_id, "event_id"), loc=loc, ip=ip)  # noqa: F821


def set_cross_block(pipe, event_id, *, loc=None, ip=None):
    return _block_sync(SetCrossBlockOp, pipe, event_id, loc, ip)  # noqa: F821


def wait_cross_block(pipe, event_id, *, loc=None, ip=None):
    return _block_sync(WaitCrossBlockOp, pipe, event_id, loc, ip)  # noqa: F821


def set_intra_block(pipe, event_id, *, loc=None, ip=None):
    return _block_sync(SetIntraBlockOp, pipe, event_id, loc, ip)  # noqa: F821


def wait_intra_block(pipe, event_id, *, loc=None, ip=None):
    return _block_sync(WaitIntraBlockOp, pipe, event_id, loc, ip)  # noqa: F821


# ---- the sync ops in their own forms (our assembler reads no generic form for them) ----------------------------


def _short(attr):
    """An enum attribute as an op's own form writes it: `<PIPE_V>` for `#pto.pipe<PIPE_V>`."""
    return "<%s>" % attr.case.text


def _print_flag(self, p):
    a = self.attributes
    p.line("%s[%s, %s, %s]" % (self.OPERATION_NAME, _short(a["src_pipe"]), _short(a["dst_pipe"]), _short(a["event_id"])))


def _print_flag_dyn(self, p):
    a = self.attributes
    p.line("%s [%s, %s, %s]" % (self.OPERATION_NAME, a["src_pipe"], a["dst_pipe"], p.name(self.operands[0])))


def _print_bracketed(self, p):
    values = ", ".join(str(self.attributes[n]) for n, k in self.FACTS["arguments"] if k == "attr")
    p.line("%s [%s]" % (self.OPERATION_NAME, values))


def _print_one_attr(self, p):
    (name,) = [n for n, k in self.FACTS["arguments"] if k == "attr"]
    p.line("%s %s" % (self.OPERATION_NAME, self.attributes[name]))


def _print_barrier_sync(self, p):
    p.line("%s [%s]" % (self.OPERATION_NAME, _short(self.attributes["op_type"])))


def _print_pipe_event(self, p):
    """`pto.sync.set <PIPE_V>, 3 {ffts_mode = 1 : i32}`; a dynamic event id prints in the generic form."""
    if self.operands:
        p.generic(self.operation)
        return
    a = dict(self.attributes)
    pipe, event = a.pop("pipe"), a.pop("event_id")
    p.line("%s %s, %d%s" % (self.OPERATION_NAME, _short(pipe), event.value, attr_dict(a)))


def _print_set_ffts(self, p):
    (ffts,) = self.operands
    p.line("%s %s : %s" % (self.OPERATION_NAME, p.name(ffts), ffts.type))


_OWN_FORMS = {
    "SetFlagOp": _print_flag,
    "WaitFlagOp": _print_flag,
    "SetFlagDynOp": _print_flag_dyn,
    "WaitFlagDynOp": _print_flag_dyn,
    "BarrierOp": _print_one_attr,
    "FenceBarrierAllOp": _print_one_attr,
    "BarrierSyncOp": _print_barrier_sync,
    "RecordEventOp": _print_bracketed,
    "WaitEventOp": _print_bracketed,
    "SyncSetOp": _print_pipe_event,
    "SyncWaitOp": _print_pipe_event,
    "SetCrossBlockOp": _print_pipe_event,
    "WaitCrossBlockOp": _print_pipe_event,
    "SetIntraBlockOp": _print_pipe_event,
    "WaitIntraBlockOp": _print_pipe_event,
    "SetFFTsOp": _print_set_ffts,
}

for _name, _print in _OWN_FORMS.items():
    if _name in _pto_facts.OPS:
        globals()[_name].print_custom = _print
