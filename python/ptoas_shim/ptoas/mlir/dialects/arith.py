"""The `arith` dialect: constants, integer/float arithmetic, comparisons, casts and select."""
from ..ir import Attribute, BoolAttr, FloatAttr, FloatType, IndexType, IntegerAttr, IntegerType, OpView, ShimError, Type
from ..ir import _as_value, float_literal
from .._printer import attr_dict


class ConstantOp(OpView):
    OPERATION_NAME = "arith.constant"

    def __init__(self, result, value, *, loc=None, ip=None):
        if not isinstance(result, Type):
            raise ShimError("arith.ConstantOp: the first argument must be the result type")
        self._create([], [result], {}, loc=loc, ip=ip)
        self.literal = _literal(result, value)
        self._value = value

    @property
    def value(self):
        return self._value

    @property
    def literal_value(self):
        return self._value.value if isinstance(self._value, Attribute) else self._value

    def print_custom(self, p):
        (result,) = p.define_results(self.operation)
        t = self.results[0].type
        if str(t) == "i1":
            p.line("%s = arith.constant %s" % (result, self.literal))
        else:
            p.line("%s = arith.constant %s : %s" % (result, self.literal, t))


def _literal(result_type, value):
    if isinstance(value, (IntegerAttr, FloatAttr)):
        if str(value.type) != str(result_type):
            raise ShimError("arith.ConstantOp: a %s attribute for a %s constant" % (value.type, result_type))
        value = value.value
    elif isinstance(value, BoolAttr):
        value = value.value
    elif isinstance(value, Attribute):
        raise ShimError("arith.ConstantOp with the attribute %s" % value)
    if isinstance(result_type, FloatType):
        return float_literal(float(value), result_type)
    if isinstance(result_type, (IntegerType, IndexType)):
        if isinstance(value, float) and not value.is_integer():
            raise ShimError("arith.ConstantOp: %r is not an integer" % value)
        if str(result_type) == "i1":
            return "true" if value else "false"
        return str(int(value))
    raise ShimError("arith.ConstantOp of type %s" % result_type)


def constant(result, value, *, loc=None, ip=None):
    return ConstantOp(result, value, loc=loc, ip=ip).result


class _Binary(OpView):
    """`%r = arith.op %a, %b : T` (the result has the operands' type)."""

    def __init__(self, lhs, rhs, *, loc=None, ip=None, **attrs):
        if attrs:
            raise ShimError("%s: attributes %s" % (type(self).__name__, ", ".join(attrs)))
        a, b = _as_value(lhs, self.OPERATION_NAME), _as_value(rhs, self.OPERATION_NAME)
        self._create([a, b], [a.type], {}, loc=loc, ip=ip)

    def print_custom(self, p):
        (result,) = p.define_results(self.operation)
        p.line("%s = %s %s%s : %s" % (result, self.OPERATION_NAME, p.names_of(self.operands), attr_dict(self.attributes), self.results[0].type))


class _Cast(OpView):
    """`%r = arith.op %a : A to B`."""

    def __init__(self, out, in_, *, loc=None, ip=None):
        self._create([_as_value(in_, self.OPERATION_NAME)], [out], {}, loc=loc, ip=ip)

    def print_custom(self, p):
        (result,) = p.define_results(self.operation)
        p.line("%s = %s %s : %s to %s" % (result, self.OPERATION_NAME, p.name(self.operands[0]), self.operands[0].type, self.results[0].type))


_BINARY = {
    "AddIOp": "addi", "SubIOp": "subi", "MulIOp": "muli", "DivSIOp": "divsi", "DivUIOp": "divui",
    "CeilDivSIOp": "ceildivsi", "CeilDivUIOp": "ceildivui", "FloorDivSIOp": "floordivsi", "RemSIOp": "remsi",
    "RemUIOp": "remui", "AndIOp": "andi", "OrIOp": "ori", "XOrIOp": "xori", "ShLIOp": "shli", "ShRSIOp": "shrsi",
    "ShRUIOp": "shrui", "MaxSIOp": "maxsi", "MinSIOp": "minsi", "MaxUIOp": "maxui", "MinUIOp": "minui",
    "AddFOp": "addf", "SubFOp": "subf", "MulFOp": "mulf", "DivFOp": "divf", "RemFOp": "remf",
    "MaximumFOp": "maximumf", "MinimumFOp": "minimumf", "MaxNumFOp": "maxnumf", "MinNumFOp": "minnumf",
}  # fmt: skip
_CAST = {
    "IndexCastOp": "index_cast", "IndexCastUIOp": "index_castui", "ExtSIOp": "extsi", "ExtUIOp": "extui",
    "TruncIOp": "trunci", "SIToFPOp": "sitofp", "UIToFPOp": "uitofp", "FPToSIOp": "fptosi", "FPToUIOp": "fptoui",
    "ExtFOp": "extf", "TruncFOp": "truncf", "BitcastOp": "bitcast",
}  # fmt: skip

for _name, _mn in _BINARY.items():
    globals()[_name] = type(_name, (_Binary,), {"OPERATION_NAME": "arith." + _mn})
for _name, _mn in _CAST.items():
    globals()[_name] = type(_name, (_Cast,), {"OPERATION_NAME": "arith." + _mn})


class _Predicates:
    def __init__(self, names):
        for i, n in enumerate(names):
            setattr(self, n, _Predicate(n, i))


class _Predicate:
    def __init__(self, name, value):
        self.name, self.value = name, value

    def __int__(self):
        return self.value


CmpIPredicate = _Predicates(["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"])
CmpFPredicate = _Predicates(
    ["AlwaysFalse", "OEQ", "OGT", "OGE", "OLT", "OLE", "ONE", "ORD", "UEQ", "UGT", "UGE", "ULT", "ULE", "UNE", "UNO", "AlwaysTrue"]
)
_CMPF_TEXT = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]


class CmpIOp(OpView):
    OPERATION_NAME = "arith.cmpi"
    NAMES = [p for p in ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]]

    def __init__(self, predicate, lhs, rhs, *, loc=None, ip=None):
        a, b = _as_value(lhs, self.OPERATION_NAME), _as_value(rhs, self.OPERATION_NAME)
        self.predicate = self._text(predicate)
        self._create([a, b], [IntegerType.get_signless(1)], {}, loc=loc, ip=ip)

    def _text(self, predicate):
        if isinstance(predicate, _Predicate):
            predicate = predicate.value
        if isinstance(predicate, IntegerAttr):
            predicate = predicate.value
        if isinstance(predicate, int) and 0 <= predicate < len(self.NAMES):
            return self.NAMES[predicate]
        if isinstance(predicate, str) and predicate in self.NAMES:
            return predicate
        raise ShimError("%s: unknown predicate %r" % (self.OPERATION_NAME, predicate))

    def print_custom(self, p):
        (result,) = p.define_results(self.operation)
        p.line("%s = %s %s, %s : %s" % (result, self.OPERATION_NAME, self.predicate, p.names_of(self.operands), self.operands[0].type))


class CmpFOp(CmpIOp):
    OPERATION_NAME = "arith.cmpf"
    NAMES = _CMPF_TEXT


class SelectOp(OpView):
    OPERATION_NAME = "arith.select"

    def __init__(self, condition, true_value, false_value, *, loc=None, ip=None):
        c, a, b = (_as_value(v, self.OPERATION_NAME) for v in (condition, true_value, false_value))
        self._create([c, a, b], [a.type], {}, loc=loc, ip=ip)

    def print_custom(self, p):
        (result,) = p.define_results(self.operation)
        p.line("%s = arith.select %s : %s" % (result, p.names_of(self.operands), self.results[0].type))
