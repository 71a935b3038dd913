"""Op classes made from ODS facts (_pto_facts.py), with MLIR's Python builder conventions.

A class's constructor takes, positionally: the result types (unless the op infers them), then the required operands
(a list for a variadic one) and required attributes in declaration order; optional operands and attributes are
keyword-only (default None); `loc` and `ip` are keywords. This is how MLIR's generated bindings behave.
"""
from ..ir import OpView, ShimError, Value, attribute_of


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
        result_specs = facts["results"] if infers is None else []
        params = [(n, k) for n, k in result_specs] + [(n, k) for n, k in facts["arguments"] if k in ("single", "variadic", "attr")]
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
        for n, k in result_specs:
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
                    attributes[n] = attribute_of(v, "%s.%s" % (cls_name, n))
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

        if infers is not None:
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
        for region in self.regions:
            if facts["regions"]:
                region.blocks.append()

    def operand(self, name):
        """The value given for operand `name` (None if it was left out)."""
        v = self._given.get(name)
        return None if v is None else _value_of(v, name)


def make_op_class(name, facts, base=FactOp, extra=None):
    body = {"FACTS": facts, "OPERATION_NAME": facts["mnemonic"]}
    body.update(extra or {})
    return type(name, (base,), body)
