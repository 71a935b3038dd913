"""A pure-Python stand-in for the subset of MLIR's `ir` module that PTOAS's sample scripts use.

It builds an in-memory module of operations and prints it as MLIR text that pto-as reads. Anything outside the
subset raises an exception naming what is missing, so a script never prints a module that is silently wrong.
"""
import math
import re
import struct

from ._printer import print_module


class ShimError(NotImplementedError):
    """Raised for a part of the MLIR Python API the shim does not implement."""


class MLIRError(Exception):
    """MLIR's diagnostic exception (the shim verifies nothing, so it never raises it; scripts catch it)."""


# --------------------------------------------------------------------------------------------------------------
# Context, location, insertion point: only their `with` stacks matter to the shim.
# --------------------------------------------------------------------------------------------------------------


class Context:
    current = None
    _stack = []

    def __init__(self):
        self.allow_unregistered_dialects = True

    def __enter__(self):
        Context._stack.append(self)
        Context.current = self
        return self

    def __exit__(self, *exc):
        Context._stack.pop()
        Context.current = Context._stack[-1] if Context._stack else None
        return False

    def load_all_available_dialects(self):
        pass

    def append_dialect_registry(self, registry):
        pass


class Location:
    current = None
    _stack = []

    def __init__(self, text="loc(unknown)"):
        self.text = text

    @staticmethod
    def unknown(context=None):
        return Location()

    @staticmethod
    def name(name, childLoc=None, context=None):
        return Location()

    @staticmethod
    def file(filename, line, col, context=None):
        return Location()

    def __enter__(self):
        Location._stack.append(self)
        Location.current = self
        return self

    def __exit__(self, *exc):
        Location._stack.pop()
        Location.current = Location._stack[-1] if Location._stack else None
        return False


class InsertionPoint:
    _stack = []

    def __init__(self, block, before=None):
        self.block = block
        self.before = before

    @staticmethod
    def at_block_begin(block):
        return InsertionPoint(block, before=block.operations[0] if block.operations else None)

    @staticmethod
    def at_block_terminator(block):
        if not block.operations:
            raise ShimError("InsertionPoint.at_block_terminator: the block has no terminator")
        return InsertionPoint(block, before=block.operations[-1])

    def insert(self, operation):
        operation = _as_operation(operation)
        ops = self.block.operations
        if self.before is None:
            ops.append(operation)
        else:
            ops.insert(ops.index(self.before), operation)
        operation.parent_block = self.block

    def __enter__(self):
        InsertionPoint._stack.append(self)
        return self

    def __exit__(self, *exc):
        InsertionPoint._stack.pop()
        return False

    @classmethod
    def current(cls):
        if not cls._stack:
            raise ShimError("no insertion point: create ops inside `with InsertionPoint(block):`")
        return cls._stack[-1]


# --------------------------------------------------------------------------------------------------------------
# Types: each knows its MLIR spelling.
# --------------------------------------------------------------------------------------------------------------


class Type:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text

    def __repr__(self):
        return "Type(%s)" % self.text

    def __eq__(self, other):
        return isinstance(other, Type) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    @staticmethod
    def parse(text, context=None):
        return typed(text.strip())

    @property
    def typeid(self):
        return type(self).__name__

    def maybe_downcast(self):
        return typed(self.text)


# Parsers of dialect types (`!pto.vreg<...>`): the dialect modules add (regex, class) pairs.
TYPE_PARSERS = []


def typed(text):
    """The shim's type object of the most specific class for an MLIR type spelling (what MLIR's casts see)."""
    if text == "index":
        return IndexType()
    if _INT_RE.match(text):
        return IntegerType(Type(text))
    if text in _FLOAT_WIDTHS:
        return FloatType(text)
    if text.startswith("vector<"):
        return VectorType(text)
    if text.startswith("memref<"):
        return MemRefType(text)
    for pattern, cls in TYPE_PARSERS:
        if re.match(pattern, text):
            return cls(text)
    return Type(text)


class IndexType(Type):
    def __init__(self, cast=None):
        if cast is not None and str(cast) != "index":
            raise ValueError("not an index type: %s" % cast)
        super().__init__("index")

    @staticmethod
    def get(context=None):
        return IndexType()

    @staticmethod
    def isinstance(t):
        return str(t) == "index"


_INT_RE = re.compile(r"^(i|si|ui)(\d+)$")


class IntegerType(Type):
    """`IntegerType(width, prefix)`, or `IntegerType(t)`: MLIR's cast of a type known to be an integer."""

    def __init__(self, width, prefix="i"):
        if isinstance(width, Type):
            m = _INT_RE.match(str(width))
            if not m:
                raise ValueError("not an integer type: %s" % width)
            prefix, width = m.group(1), int(m.group(2))
        super().__init__("%s%d" % (prefix, width))
        self.width = width
        self.is_signless = prefix == "i"
        self.is_signed = prefix == "si"
        self.is_unsigned = prefix == "ui"

    @staticmethod
    def get_signless(width, context=None):
        return IntegerType(width)

    @staticmethod
    def get_signed(width, context=None):
        return IntegerType(width, "si")

    @staticmethod
    def get_unsigned(width, context=None):
        return IntegerType(width, "ui")

    @staticmethod
    def isinstance(t):
        return isinstance(t, Type) and bool(_INT_RE.match(str(t)))


_FLOAT_WIDTHS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f8E4M3FN": 8, "f8E5M2": 8}


class FloatType(Type):
    def __init__(self, text, width=None):
        text = str(text)
        if text not in _FLOAT_WIDTHS:
            raise ValueError("not a float type: %s" % text)
        super().__init__(text)
        self.width = _FLOAT_WIDTHS[text]

    @staticmethod
    def isinstance(t):
        return str(t) in _FLOAT_WIDTHS


def _float_type(name, text, width):
    def get(context=None):
        return FloatType(text, width)

    def init(self, cast=None):
        if cast is not None and str(cast) != text:
            raise ValueError("not %s: %s" % (text, cast))
        FloatType.__init__(self, text)

    return type(
        name,
        (FloatType,),
        {"get": staticmethod(get), "isinstance": staticmethod(lambda t: str(t) == text), "__init__": init},
    )


F16Type = _float_type("F16Type", "f16", 16)
BF16Type = _float_type("BF16Type", "bf16", 16)
F32Type = _float_type("F32Type", "f32", 32)
F64Type = _float_type("F64Type", "f64", 64)
Float8E4M3FNType = _float_type("Float8E4M3FNType", "f8E4M3FN", 8)
Float8E5M2Type = _float_type("Float8E5M2Type", "f8E5M2", 8)


class NoneType(Type):
    def __init__(self):
        super().__init__("none")

    @staticmethod
    def get(context=None):
        return NoneType()


def _shape_text(shape):
    return "x".join("?" if d is None or d < 0 else str(d) for d in shape)


class VectorType(Type):
    """`vector<4x8xf32>`; `VectorType(t)` casts."""

    def __init__(self, text):
        text = str(text)
        if not re.match(r"^vector<.*>$", text):
            raise ValueError("not a vector type: %s" % text)
        super().__init__(text)
        parts = text[len("vector<") : -1].split("x")
        self.shape = [int(d) for d in parts[:-1]]
        self.element_type = typed(parts[-1])

    @staticmethod
    def get(shape, element_type, context=None, **kwargs):
        if kwargs:
            raise ShimError("VectorType.get: " + ", ".join(kwargs))
        return VectorType("vector<%sx%s>" % (_shape_text(shape), element_type))

    @staticmethod
    def isinstance(t):
        return str(t).startswith("vector<")

    @property
    def rank(self):
        return len(self.shape)


class MemRefType(Type):
    """`memref<4x8xf32, space>` without a layout; `MemRefType(t)` casts."""

    def __init__(self, text):
        text = str(text)
        m = re.match(r"^memref<(.*)>$", text)
        if not m:
            raise ValueError("not a memref type: %s" % text)
        super().__init__(text)
        parts = m.group(1).split(",", 1)
        dims = parts[0].strip().split("x")
        self.shape = [-1 if d == "?" else int(d) for d in dims[:-1]]
        self.element_type = typed(dims[-1])
        self.memory_space = Attribute(parts[1].strip()) if len(parts) > 1 else None

    @staticmethod
    def get(shape, element_type, layout=None, memory_space=None, context=None):
        if layout is not None:
            raise ShimError("MemRefType.get with a layout")
        space = ", %s" % memory_space if memory_space is not None else ""
        return MemRefType("memref<%sx%s%s>" % (_shape_text(shape), element_type, space))

    @staticmethod
    def isinstance(t):
        return str(t).startswith("memref<")


class FunctionType(Type):
    def __init__(self, inputs, results):
        self.inputs = list(inputs)
        self.results = list(results)
        super().__init__(_function_type_text(self.inputs, self.results))

    @staticmethod
    def get(inputs, results, context=None):
        return FunctionType(inputs, results)


def _function_type_text(inputs, results):
    ins = "(" + ", ".join(str(t) for t in inputs) + ")"
    if len(results) == 1 and not isinstance(results[0], FunctionType):
        return ins + " -> " + str(results[0])
    return ins + " -> (" + ", ".join(str(t) for t in results) + ")"


# --------------------------------------------------------------------------------------------------------------
# Attributes: each knows its MLIR spelling.
# --------------------------------------------------------------------------------------------------------------


class Attribute:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text

    def __repr__(self):
        return "Attribute(%s)" % self.text

    @staticmethod
    def parse(text, context=None):
        return Attribute(text.strip())


class UnitAttr(Attribute):
    def __init__(self):
        super().__init__("unit")

    @staticmethod
    def get(context=None):
        return UnitAttr()


class BoolAttr(Attribute):
    def __init__(self, value):
        super().__init__("true" if value else "false")
        self.value = bool(value)

    @staticmethod
    def get(value, context=None):
        return BoolAttr(value)


class IntegerAttr(Attribute):
    def __init__(self, type_, value):
        self.type = type_
        self.value = int(value)
        text = str(self.value)
        if str(type_) == "i1":
            text = "true" if self.value else "false"
        super().__init__(text if str(type_) == "i1" else "%s : %s" % (text, type_))

    @staticmethod
    def get(type_, value):
        return IntegerAttr(type_, value)


class FloatAttr(Attribute):
    def __init__(self, type_, value):
        self.type = type_
        self.value = float(value)
        super().__init__("%s : %s" % (float_literal(self.value, type_), type_))

    @staticmethod
    def get(type_, value, loc=None):
        return FloatAttr(type_, value)

    @staticmethod
    def get_f32(value, context=None):
        return FloatAttr(F32Type.get(), value)


class StringAttr(Attribute):
    def __init__(self, value):
        self.value = value
        super().__init__('"%s"' % value.replace("\\", "\\\\").replace('"', '\\"'))

    @staticmethod
    def get(value, context=None):
        return StringAttr(value)


class TypeAttr(Attribute):
    def __init__(self, type_):
        self.value = type_
        super().__init__(str(type_))

    @staticmethod
    def get(type_, context=None):
        return TypeAttr(type_)


class FlatSymbolRefAttr(Attribute):
    def __init__(self, name):
        self.value = name
        super().__init__("@" + name)

    @staticmethod
    def get(name, context=None):
        return FlatSymbolRefAttr(name)


class ArrayAttr(Attribute):
    def __init__(self, values):
        self.values = list(values)
        super().__init__("[" + ", ".join(str(v) for v in self.values) + "]")

    @staticmethod
    def get(values, context=None):
        return ArrayAttr(values)


def _dense_array(name, element):
    def get(values, context=None):
        items = ", ".join(str(int(v)) for v in values)
        return DenseArrayAttr("array<%s%s>" % (element, ": " + items if items else ""))

    return type(name, (Attribute,), {"get": staticmethod(get)})


class DenseArrayAttr(Attribute):
    pass


DenseI32ArrayAttr = _dense_array("DenseI32ArrayAttr", "i32")
DenseI64ArrayAttr = _dense_array("DenseI64ArrayAttr", "i64")


def float_literal(value, type_=None):
    """An MLIR float literal: decimal when it round-trips, else the bit pattern in hex (inf, nan)."""
    if math.isinf(value) or math.isnan(value):
        width = getattr(type_, "width", 32)
        if width == 64:
            return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
        if width == 32:
            return "0x%08X" % struct.unpack("<I", struct.pack("<f", value))[0]
        if width == 16 and str(type_) == "f16":
            return "0x%04X" % struct.unpack("<H", struct.pack("<e", value))[0]
        raise ShimError("a non-finite %s constant" % type_)
    text = repr(float(value))
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + ("e" + exponent if exponent else "")


def attribute_of(value, what):
    """A Python value given where MLIR's builders take an attribute, converted as theirs do."""
    if isinstance(value, Attribute):
        return value
    if isinstance(value, bool):
        return BoolAttr(value)
    if isinstance(value, int):
        return IntegerAttr(IntegerType(64), value)
    if isinstance(value, float):
        return FloatAttr(F32Type.get(), value)
    if isinstance(value, str):
        return StringAttr(value)
    if isinstance(value, Type):
        return TypeAttr(value)
    raise ShimError("%s: cannot make an attribute of %r" % (what, value))


# --------------------------------------------------------------------------------------------------------------
# Values, blocks, regions, operations.
# --------------------------------------------------------------------------------------------------------------


class Value:
    def __init__(self, type_, owner):
        self.type = type_
        self.owner = owner

    def get_name(self):
        raise ShimError("Value.get_name (names are assigned when the module prints)")

    def set_type(self, type_):
        self.type = type_


class OpResult(Value):
    def __init__(self, type_, owner, index):
        super().__init__(type_, owner)
        self.result_number = index


class BlockArgument(Value):
    def __init__(self, type_, owner, index):
        super().__init__(type_, owner)
        self.arg_number = index


class Block:
    def __init__(self, arg_types=(), region=None):
        self.arguments = [BlockArgument(t, self, i) for i, t in enumerate(arg_types)]
        self.operations = []
        self.region = region

    def add_argument(self, type_, loc=None):
        arg = BlockArgument(type_, self, len(self.arguments))
        self.arguments.append(arg)
        return arg

    def append(self, operation):
        InsertionPoint(self).insert(operation)

    @staticmethod
    def create_at_start(parent, arg_types=(), arg_locs=None):
        block = Block(arg_types, parent)
        parent.blocks.insert(0, block)
        return block


class Region:
    def __init__(self, owner=None):
        self.blocks = BlockList(self)
        self.owner = owner


class BlockList(list):
    def __init__(self, region):
        super().__init__()
        self.region = region

    def append(self, *arg_types, arg_locs=None):
        block = Block(arg_types, self.region)
        super().append(block)
        return block


# Op name -> a function giving an op built by Operation.create its view (dialects/pto.py fills it).
VIEW_BY_NAME = {}


class Operation:
    """One operation: its name, operands, results, attributes (printed in order of setting) and regions."""

    def __init__(self, name, operands=(), result_types=(), attributes=None, regions=0, view=None):
        self.name = name
        self.operands = [_as_value(v, name) for v in operands]
        self.results = [OpResult(t, self, i) for i, t in enumerate(result_types)]
        self.attributes = dict(attributes or {})
        self.regions = [Region(self) for _ in range(regions)]
        self.view = view
        self.parent_block = None

    @property
    def parent(self):
        """The op whose region holds this one (None at the top), as MLIR's `Operation.parent`."""
        block = self.parent_block
        return block.region.owner if block is not None and block.region is not None else None

    @property
    def block(self):
        return self.parent_block

    @property
    def context(self):
        return Context.current

    def erase(self):
        if self.parent_block is not None:
            self.parent_block.operations.remove(self)
            self.parent_block = None

    def move_before(self, other):
        other = _as_operation(other)
        self.erase()
        InsertionPoint(other.parent_block, before=other).insert(self)

    @staticmethod
    def create(name, results=None, operands=None, attributes=None, successors=None, regions=0, loc=None, ip=None):
        if successors:
            raise ShimError("Operation.create with successors")
        op = Operation(name, operands or [], results or [], attributes, regions)
        # A registered op made by name (ptodsl's scalar.store builds pto.store so) prints in its own form, as MLIR
        # prints an op of a loaded dialect whatever built it.
        attach = VIEW_BY_NAME.get(name)
        if attach is not None and not results and not attributes and not regions:
            op.view = attach(op)
        (ip or InsertionPoint.current()).insert(op)
        return op

    @property
    def operation(self):
        return self

    @property
    def opview(self):
        return self.view or self

    @property
    def result(self):
        if len(self.results) != 1:
            raise ValueError("%s has %d results, not 1" % (self.name, len(self.results)))
        return self.results[0]

    def verify(self):
        return True

    def __str__(self):
        return print_module(self)


def _as_operation(x):
    return x.operation if hasattr(x, "operation") else x


def _as_value(x, what):
    if isinstance(x, Value):
        return x
    op = getattr(x, "operation", None)
    if op is not None and len(op.results) == 1:
        return op.results[0]
    raise ShimError("%s: expected a value, got %r" % (what, x))


class OpView:
    """Base of the op classes (`arith.ConstantOp`, `pto.TAddOp`, ...): a view on one Operation."""

    OPERATION_NAME = None

    def _create(self, operands, result_types, attributes, regions=0, loc=None, ip=None, segment_sizes=None):
        self._operation = Operation(self.OPERATION_NAME, operands, result_types, attributes, regions, view=self)
        self._operation.segment_sizes = segment_sizes
        (ip or InsertionPoint.current()).insert(self._operation)

    @property
    def operation(self):
        return self._operation

    @property
    def results(self):
        return self._operation.results

    @property
    def result(self):
        return self._operation.result

    @property
    def operands(self):
        return self._operation.operands

    @property
    def attributes(self):
        return self._operation.attributes

    @property
    def regions(self):
        return self._operation.regions

    @property
    def parent(self):
        return self._operation.parent

    @property
    def context(self):
        return Context.current

    def erase(self):
        self._operation.erase()

    def move_before(self, other):
        self._operation.move_before(other)

    def verify(self):
        return True

    def __str__(self):
        return str(self._operation)


class ModuleOp(OpView):
    OPERATION_NAME = "builtin.module"

    def __init__(self, loc=None, ip=None):
        self._operation = Operation("builtin.module", regions=1, view=self)
        self._operation.regions[0].blocks.append()
        if ip is not None or InsertionPoint._stack:
            (ip or InsertionPoint.current()).insert(self._operation)

    @property
    def body(self):
        return self._operation.regions[0].blocks[0]


class Module:
    def __init__(self):
        self.context = Context.current
        self._op = ModuleOp.__new__(ModuleOp)
        self._op._operation = Operation("builtin.module", regions=1, view=self._op)
        self._op._operation.regions[0].blocks.append()

    @staticmethod
    def create(loc=None):
        return Module()

    @staticmethod
    def parse(text, context=None):
        return ParsedModule(text)

    @property
    def body(self):
        return self._op.body

    @property
    def operation(self):
        return self._op.operation

    def __str__(self):
        return print_module(self.operation)


class ParsedModule:
    """`Module.parse(text)`: the shim has no MLIR parser, so the module is its text, printed as written; anything
    that would look inside it fails."""

    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text.strip()

    @property
    def operation(self):
        return self

    def verify(self):
        return True

    def __getattr__(self, name):
        raise ShimError("Module.parse(...).%s (the shim keeps a parsed module as text only)" % name)


class ShapedType(Type):
    """Only its dynamic-size marker is used (by ptodsl's type helpers)."""

    @staticmethod
    def get_dynamic_size():
        return -(2**63)


class StridedLayoutAttr(Attribute):
    @staticmethod
    def get(offset, strides, context=None):
        raise ShimError("StridedLayoutAttr.get")


class WalkResult:
    ADVANCE = 0
    INTERRUPT = 1
    SKIP = 2
