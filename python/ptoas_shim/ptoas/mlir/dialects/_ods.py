"""Op classes made from ODS facts (_pto_facts.py), with MLIR's Python builder conventions.

A class's constructor takes, positionally: the result types (unless the op infers them), then the required operands
(a list for a variadic one) and required attributes in declaration order; optional operands and attributes are
keyword-only (default None); `loc` and `ip` are keywords. This is how MLIR's generated bindings behave.
"""
import re

from ..ir import ArrayAttr, Attribute, BoolAttr, DenseI64ArrayAttr, FlatSymbolRefAttr, IndexType, IntegerAttr, IntegerType
from ..ir import OpView, ShimError, StringAttr, Type, Value, attribute_of

# Result constraints whose type the builder knows (MLIR's bindings then do not take the result type).
BUILDABLE_RESULTS = {
    "Index": lambda: IndexType(),
    "I1": lambda: IntegerType(1),
    "I32": lambda: IntegerType(32),
    "I64": lambda: IntegerType(64),
    "AsyncSessionType": lambda: Type("!pto.async_session"),
    "AsyncEventType": lambda: Type("!pto.async_event"),
    "PrefetchAsyncContextType": lambda: Type("!pto.prefetch_async_context"),
    "PipeType": lambda: Type("!pto.pipe"),
}

# Attribute classes by their ODS constraint name (filled by the dialect module: `PTO_CmpModeAttr` -> CmpModeAttr).
ENUM_ATTR_CLASSES = {}


def _inner_constraint(constraint):
    m = re.match(r"(?:OptionalAttr|DefaultValuedAttr|DefaultValuedOptionalAttr|ConfinedAttr)<\s*([\w:]+)", constraint)
    return m.group(1) if m else constraint


def attribute_for(value, constraint, what):
    """A Python value given for an attribute, converted by the attribute's ODS constraint."""
    if isinstance(value, Attribute):
        return value
    inner = _inner_constraint(constraint)
    width = re.match(r"I(\d+)Attr$", inner)
    if width and isinstance(value, int) and not isinstance(value, bool):
        return IntegerAttr(IntegerType(int(width.group(1))), value)
    if inner == "BoolAttr" and isinstance(value, bool):
        return BoolAttr(value)
    if inner == "StrAttr" and isinstance(value, str):
        return StringAttr(value)
    if inner == "FlatSymbolRefAttr" and isinstance(value, str):
        return FlatSymbolRefAttr(value)
    if inner == "DenseI64ArrayAttr" and isinstance(value, (list, tuple)):
        return DenseI64ArrayAttr.get(value)
    if inner == "I64ArrayAttr" and isinstance(value, (list, tuple)):
        return ArrayAttr([IntegerAttr(IntegerType(64), v) for v in value])
    if inner in ENUM_ATTR_CLASSES:
        return ENUM_ATTR_CLASSES[inner].get(value)
    if inner in ("PTO_PipeLikeAttr",) and "PTO_PipeAttr" in ENUM_ATTR_CLASSES:
        return ENUM_ATTR_CLASSES["PTO_PipeAttr"].get(value)
    if inner.startswith("PTO_"):
        raise ShimError("%s: cannot make a %s of %r" % (what, inner, value))
    return attribute_of(value, what)


def _fail(cls_name, message):
    raise ShimError("%s: %s" % (cls_name, message))


def _value_of(x, what):
    if isinstance(x, Value):
        return x
    op = getattr(x, "operation", None)
    if op is not None and len(op.results) == 1:
        return op.results[0]
    raise ShimError("%s: expected a value, got %r" % (what, x))


class FactOp(OpView):
    """An op built from its facts: `FACTS` = {mnemonic, arguments, results, operand_segments, regions, ...}."""

    FACTS = None

    def __init__(self, *args, loc=None, ip=None, **kwargs):
        facts = self.FACTS
        cls_name = type(self).__name__
        positional = list(args)
        infers = facts["infers_results"]
        buildable = facts["results"] and all(r[2] in BUILDABLE_RESULTS for r in facts["results"])
        result_specs = facts["results"] if infers is None and not buildable else []
        params = [(r[0], r[1]) for r in result_specs] + [(n, k) for n, k in facts["arguments"] if k in ("single", "variadic", "attr")]
        keyword_only = {n for n, k in facts["arguments"] if k in ("optional", "optional_attr")}
        if len(positional) > len(params):
            _fail(cls_name, "takes %d positional argument(s) (%s), got %d" % (len(params), ", ".join(n for n, _ in params), len(positional)))
        given = {}
        for (n, _), v in zip(params, positional):
            given[n] = v
        for n, v in kwargs.items():
            if n in given:
                _fail(cls_name, "got %s twice" % n)
            if n not in keyword_only and n not in dict(params):
                _fail(cls_name, "has no argument %r (it takes %s)" % (n, ", ".join([p for p, _ in params] + sorted(keyword_only))))
            given[n] = v
        for n, k in params:
            if n not in given:
                _fail(cls_name, "missing argument %s" % n)

        result_types = []
        for n, k, *_ in result_specs:
            t = given[n]
            if k == "variadic":
                result_types.extend(t)
            elif t is not None:
                result_types.append(t)
            elif k != "optional":
                _fail(cls_name, "result %s needs a type" % n)

        operands, sizes, attributes = [], [], {}
        for n, k in facts["arguments"]:
            v = given.get(n)
            if k in ("attr", "optional_attr"):
                if v is not None:
                    attributes[n] = attribute_for(v, facts["constraints"].get(n, ""), "%s.%s" % (cls_name, n))
            elif k == "variadic":
                vals = [_value_of(x, "%s.%s" % (cls_name, n)) for x in (v or [])]
                operands.extend(vals)
                sizes.append(len(vals))
            elif v is None:
                if k == "single":
                    _fail(cls_name, "operand %s is required" % n)
                sizes.append(0)
            else:
                operands.append(_value_of(v, "%s.%s" % (cls_name, n)))
                sizes.append(1)
        self._operand_names = [
            (n, k) for n, k in facts["arguments"] if k not in ("attr", "optional_attr") and (k == "variadic" or given.get(n) is not None)
        ]
        self._given = given
        # An optional result whose type was given as None does not exist (MLIR's builders take None for it).
        self._result_given = {r[0]: given.get(r[0]) for r in result_specs}

        if buildable and infers is None:
            result_types = [BUILDABLE_RESULTS[r[2]]() for r in facts["results"]]
        elif infers is not None:
            if infers == "":
                _fail(cls_name, "infers its result type in a way the shim does not know")
            source = operands[0] if infers == "*first" else _value_of(given[infers], cls_name)
            result_types = [source.type for _ in facts["results"]]
        self._create(
            operands,
            result_types,
            attributes,
            regions=facts["regions"],
            loc=loc,
            ip=ip,
            segment_sizes=sizes if facts["operand_segments"] else None,
        )

    def __getattr__(self, name):
        # Named accessors, as MLIR's bindings give: `op.dst` (a result), `op.src` (an operand).
        facts = type(self).FACTS
        names = [r[0] for r in facts["results"]]
        if name in names and "_operation" in self.__dict__:
            return self.results[names.index(name)] if len(self.results) == len(names) else None
        if name in dict(facts["arguments"]) and "_given" in self.__dict__:
            kind = dict(facts["arguments"])[name]
            return self.attributes.get(name) if kind in ("attr", "optional_attr") else self.operand(name)
        raise AttributeError("%s has no attribute %r" % (type(self).__name__, name))

    def operand(self, name):
        """The value given for operand `name` (None if it was left out)."""
        v = self._given.get(name)
        return None if v is None else _value_of(v, name)


def make_op_class(name, facts, base=FactOp, extra=None):
    body = {"FACTS": facts, "OPERATION_NAME": facts["mnemonic"]}
    body.update(extra or {})
    return type(name, (base,), body)
