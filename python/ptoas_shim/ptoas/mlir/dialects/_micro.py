"""The micro-op level of the `pto` dialect (VPTO and VMI): its types, and its ops printed by their ODS
assemblyFormat (the facts in _micro_facts.py, made by `extract_facts.py --micro`).

ptodsl's templates build these ops through the same generated-builder conventions as the tile ops (see _ods.py);
what the shim adds here is the types MLIR's casts see (`pto.VRegType(t).element_type`) and a printer that follows
an op's declarative assembly format, so pto-as reads the output in the op's own form.
"""
import re

from .. import ir as _ir
from ..ir import ShimError, Type, typed
from .._printer import attr_dict_body

# ---- types ---------------------------------------------------------------------------------------------------


def _split_top(text):
    parts, depth, cur = [], 0, ""
    for c in text:
        depth += c in "<([{"
        depth -= c in ">)]}"
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    return parts + ([cur.strip()] if cur.strip() else [])


class _PtoType(Type):
    """A `!pto.<mnemonic><...>` type: `Cls(t)` casts (ValueError when t is another type), `Cls.isinstance(t)`."""

    PATTERN = None

    def __init__(self, text):
        text = str(text)
        m = re.match(self.PATTERN, text)
        if not m:
            raise ValueError("not a %s: %s" % (type(self).__name__, text))
        super().__init__(text)
        self._parse(m)

    def _parse(self, m):
        pass

    @classmethod
    def isinstance(cls, t):
        return isinstance(t, Type) and bool(re.match(cls.PATTERN, str(t)))


class VRegType(_PtoType):
    PATTERN = r"^!pto\.vreg<(\d+)x(.+)>$"

    def _parse(self, m):
        self.element_count = int(m.group(1))
        self.element_type = typed(m.group(2))

    @staticmethod
    def get(element_count, element_type, context=None):
        return VRegType("!pto.vreg<%dx%s>" % (element_count, element_type))


class MaskType(_PtoType):
    PATTERN = r"^!pto\.mask<(\w+)>$"

    def _parse(self, m):
        self.granularity = m.group(1)

    @staticmethod
    def get(granularity, context=None):
        return MaskType("!pto.mask<%s>" % granularity)


class AlignType(_PtoType):
    PATTERN = r"^!pto\.align$"

    @staticmethod
    def get(context=None):
        return AlignType("!pto.align")


class VMIVRegType(_PtoType):
    PATTERN = r"^!pto\.vmi\.vreg<(\d+)x([^,>]+(?:<[^>]*>)?)(?:,\s*(.*))?>$"

    def _parse(self, m):
        self.element_count = int(m.group(1))
        self.element_type = typed(m.group(2))
        if m.group(3):
            raise ShimError("VMIVRegType with a layout (%s)" % m.group(3))

    @staticmethod
    def get(element_count, element_type, layout=None, context=None):
        if layout is not None:
            raise ShimError("VMIVRegType.get with a layout")
        return VMIVRegType("!pto.vmi.vreg<%dx%s>" % (element_count, element_type))


class VMIMaskType(_PtoType):
    PATTERN = r"^!pto\.vmi\.mask<(\d+)x(\w+)(?:,\s*(.*))?>$"

    def _parse(self, m):
        self.element_count = int(m.group(1))
        self.granularity = m.group(2)
        if m.group(3):
            raise ShimError("VMIMaskType with a layout (%s)" % m.group(3))

    @staticmethod
    def get(element_count, granularity="pred", layout=None, context=None):
        if layout is not None:
            raise ShimError("VMIMaskType.get with a layout")
        return VMIMaskType("!pto.vmi.mask<%dx%s>" % (element_count, granularity))


def _scalar_pto_type(name, mnemonic, width):
    pattern = r"^!pto\.%s$" % mnemonic

    def get(context=None):
        t = cls("!pto." + mnemonic)
        return t

    cls = type(name, (_PtoType,), {"PATTERN": pattern, "get": staticmethod(get), "width": width})
    return cls


HiF8Type = _scalar_pto_type("HiF8Type", "hif8", 8)
F8E8M0Type = _scalar_pto_type("F8E8M0Type", "f8E8M0", 8)
HiF8x2Type = _scalar_pto_type("HiF8x2Type", "hif8x2", 16)
F4E1M2x2Type = _scalar_pto_type("F4E1M2x2Type", "f4E1M2x2", 8)
F4E2M1x2Type = _scalar_pto_type("F4E2M1x2Type", "f4E2M1x2", 8)
BF16x2Type = _scalar_pto_type("BF16x2Type", "bf16x2", 32)

TYPES = [VRegType, MaskType, AlignType, VMIVRegType, VMIMaskType, HiF8Type, F8E8M0Type, HiF8x2Type, F4E1M2x2Type]
TYPES += [F4E2M1x2Type, BF16x2Type]
_ir.TYPE_PARSERS.extend((cls.PATTERN, cls) for cls in TYPES)

# ---- printing by assemblyFormat ------------------------------------------------------------------------------

_TOKEN = re.compile(r"`([^`]*)`|(\$\w+)|(type|functional-type|custom|qualified)\(|(attr-dict-with-keyword|attr-dict)|(\()|(\)\??)|(\^)|(,)|(:)|(\S)")


def _tokens(fmt):
    out = []
    for m in _TOKEN.finditer(fmt):
        lit, var, fn, ad, lp, rp, caret, comma, colon, other = m.groups()
        if lit is not None:
            out.append(("lit", lit))
        elif var:
            out.append(("var", var[1:]))
        elif fn:
            out.append(("fn", fn))
        elif ad:
            out.append(("attrdict", ad))
        elif lp:
            out.append(("(", None))
        elif rp:
            out.append((")?" if rp == ")?" else ")", None))
        elif caret:
            out.append(("^", None))
        elif comma or colon or other:
            out.append(("raw", comma or colon or other))
    return out


def _parse_format(tokens, i=0, stop=None):
    """A list of elements: ("lit", s), ("var", name), ("type", [names]), ("functional", a, b), ("attrdict",),
    ("group", elements, anchor)."""
    elems = []
    while i < len(tokens):
        kind, val = tokens[i]
        if kind in (")", ")?"):
            return elems, i
        if kind == "lit":
            elems.append(("lit", val))
        elif kind == "var":
            if i + 1 < len(tokens) and tokens[i + 1][0] == "^":
                elems.append(("var", val, True))
                i += 1
            else:
                elems.append(("var", val, False))
        elif kind == "attrdict":
            elems.append(("attrdict", val))
        elif kind == "fn":
            args, j = [], i + 1
            depth = 1
            while depth:
                k, v = tokens[j]
                if k == "(" or k == "fn":
                    depth += 1
                elif k in (")", ")?"):
                    depth -= 1
                    if not depth:
                        break
                elif k == "var":
                    args.append(v)
                elif k == "raw" and v not in (",",):
                    args.append(v)
                j += 1
            anchored = j + 1 < len(tokens) and tokens[j + 1][0] == "^"
            if val in ("type", "qualified"):
                elems.append(("type", args, anchored))
            elif val == "functional-type":
                elems.append(("functional", args, anchored))
            else:
                elems.append(("custom", args, anchored))
            i = j + (1 if anchored else 0)
        elif kind == "(":
            inner, j = _parse_format(tokens, i + 1)
            if j >= len(tokens) or tokens[j][0] != ")?":
                elems.append(("unsupported", "a group that is not optional"))
            elems.append(("group", inner))
            i = j
        elif kind == "raw":
            elems.append(("unsupported", "the token %r" % val))
        i += 1
    return elems, i


_FORMAT_CACHE = {}


def parsed_format(fmt):
    if fmt not in _FORMAT_CACHE:
        _FORMAT_CACHE[fmt] = _parse_format(_tokens(fmt))[0]
    return _FORMAT_CACHE[fmt]


class _Piece:
    """Text pieces joined with MLIR's spacing: no space before `,`, `)`, `]`, `>`, and none after `(`, `[`, `<`."""

    def __init__(self):
        self.parts = []

    def add(self, text, tight_before=False):
        if not text:
            return
        if self.parts and not tight_before and text[0] not in ",)]>" and self.parts[-1][-1] not in "([<":
            self.parts.append(" ")
        self.parts.append(text)

    def text(self):
        return "".join(self.parts)


def print_by_format(view, p):
    """Print `view`'s op by its assembly format; ShimError for a directive the shim does not know."""
    facts = view.FACTS
    op = view.operation
    fmt = parsed_format(facts["format"])
    operand_names = [n for n, k in facts["arguments"] if k not in ("attr", "optional_attr")]
    result_names = [r[0] for r in facts["results"]]
    given = view._given
    # Results: a positional result type given as None (an optional result) is absent.
    present_results = [n for n, k, *_ in facts["results"] if not (k == "optional" and view._result_given.get(n) is None)]
    result_of = {}
    it = iter(op.results)
    for n, k, *_ in facts["results"]:
        if n in present_results:
            result_of[n] = [next(it)] if k != "variadic" else list(it)
        else:
            result_of[n] = []

    def values_of(name):
        if name in result_of:
            return result_of[name]
        if name in operand_names:
            v = given.get(name)
            if v is None:
                return []
            return [view.operand(name)] if not isinstance(v, (list, tuple)) else [_ir._as_value(x, name) for x in v]
        return None

    used_attrs = set()

    def present(elements):
        for e in elements:
            if e[0] == "var" and e[2]:
                vals = values_of(e[1])
                return bool(vals) if vals is not None else e[1] in op.attributes
            if e[0] in ("type", "functional", "custom") and e[2]:
                return any(values_of(n) for n in e[1])
        for e in elements:
            if e[0] == "var":
                vals = values_of(e[1])
                return bool(vals) if vals is not None else e[1] in op.attributes
        return True

    out = _Piece()
    regions = []

    def emit(elements):
        for e in elements:
            kind = e[0]
            if kind == "lit":
                out.add(e[1])
            elif kind == "var":
                name = e[1]
                vals = values_of(name)
                if vals is not None:
                    out.add(p.names_of(vals))
                elif name in op.attributes:
                    used_attrs.add(name)
                    out.add(str(op.attributes[name]))
                elif facts["regions"] and name not in dict(facts["arguments"]):
                    regions.append(name)
                else:
                    raise ShimError("%s: printing %s (not given)" % (facts["mnemonic"], name))
            elif kind == "type":
                types = []
                for n in e[1]:
                    vals = values_of(n)
                    if vals is None:
                        raise ShimError("%s: type(%s)" % (facts["mnemonic"], n))
                    types.extend(str(v.type) for v in vals)
                out.add(", ".join(types))
            elif kind == "functional":
                a, b = (values_of(n) or [] for n in e[1][:2])
                out.add(str(_ir.FunctionType([v.type for v in a], [v.type for v in b])))
            elif kind == "attrdict":
                rest = {k: v for k, v in op.attributes.items() if k not in used_attrs}
                if rest:
                    out.add(("attributes " if e[1] == "attr-dict-with-keyword" else "") + "{" + attr_dict_body(rest) + "}")
            elif kind == "group":
                if present(e[1]):
                    emit(e[1])
            else:
                raise ShimError("%s: the assembly format's %s is not in the shim" % (facts["mnemonic"], kind if kind != "unsupported" else e[1]))

    # Attributes named in the format print there, not in attr-dict, whether or not they are given.
    def collect(elements):
        for e in elements:
            if e[0] == "var" and values_of(e[1]) is None:
                used_attrs.add(e[1])
            elif e[0] == "group":
                collect(e[1])

    collect(fmt)
    emit(fmt)
    names = p.define_results(op)
    head = (", ".join(names) + " = ") if names else ""
    text = out.text()
    if regions:
        if text.strip():
            raise ShimError("%s: a region printed after other parts of the format" % facts["mnemonic"])
        if len(op.regions) != 1 or len(op.regions[0].blocks) != 1 or op.regions[0].blocks[0].arguments:
            raise ShimError("%s: a region other than one block without arguments" % facts["mnemonic"])
        p.line("%s%s %s {" % (head, facts["mnemonic"], text.strip()) if text.strip() else "%s%s {" % (head, facts["mnemonic"]))
        p.block_body(op.regions[0].blocks[0])
        p.line("}")
        return
    p.line("%s%s %s" % (head, facts["mnemonic"], text) if text else head + facts["mnemonic"])


# ---- ops whose PTOAS printer is hand-written C++ (hasCustomAssemblyFormat): their printed forms, by class name ----


def _operands_types_form(p, op, extra="", skip=()):
    """`%a, %b[, extra] {attrs} : A, B -> R` (VcvtOp::print, VtrcOp::print)."""
    rest = {k: v for k, v in op.attributes.items() if k not in skip}
    attrs = " {%s}" % attr_dict_body(rest) if rest else ""
    names = p.define_results(op)
    head = (", ".join(names) + " = ") if names else ""
    types = ", ".join(str(v.type) for v in op.operands)
    results = ", ".join(str(r.type) for r in op.results)
    p.line("%s%s %s%s%s : %s -> %s" % (head, op.name, p.names_of(op.operands), extra, attrs, types, results))


def _print_vcvt(view, p):
    _operands_types_form(p, view.operation)


def _print_vtrc(view, p):
    op = view.operation
    mode = op.attributes.get("round_mode")
    if mode is None:
        raise ShimError("pto.vtrc without a round_mode")
    _operands_types_form(p, op, ", %s" % mode, skip=("round_mode",))


def _print_mem_bar(view, p):
    """`pto.mem_bar "VST_VLD"`: the barrier kind as a string (the legacy form PTOAS prints and reads)."""
    op = view.operation
    kind = op.attributes.get("kind")
    m = re.match(r"^#pto\.membar<(\w+)>$", str(kind)) or re.match(r'^"(\w+)"$', str(kind))
    if not m or len(op.attributes) != 1:
        raise ShimError("pto.mem_bar with %s" % dict(op.attributes))
    p.line('pto.mem_bar "%s"' % m.group(1))


def _print_mte(view, p):
    """`pto.mte_gm_ub %src, %dst, %l2, %len nburst(%n, %s, %d) loop(...)* pad(...)? : types` and `pto.mte_ub_gm %src,
    %dst, %len nburst(...) l2_cache_ctl(%l2)? loop(...)* : types` (MteGmUbOp::print, MteUbGmOp::print)."""
    op = view.operation
    g = view.operand
    gm_to_ub = op.name == "pto.mte_gm_ub"
    loops = [[view._given.get(n) or [] for n in ("loop_counts", "loop_src_strides", "loop_dst_strides")]]
    counts, srcs, dsts = loops[0]
    if not (len(counts) == len(srcs) == len(dsts)):
        raise ShimError("%s: loop groups of unequal lengths" % op.name)
    if op.attributes:
        raise ShimError("%s with attributes %s" % (op.name, dict(op.attributes)))
    n = p.names_of
    parts = [n([g("source"), g("destination")] + ([g("l2_cache_ctl")] if gm_to_ub else []) + [g("len_burst")])]
    types = [g("source").type, g("destination").type] + ([g("l2_cache_ctl").type] if gm_to_ub else []) + [g("len_burst").type]
    parts.append("nburst(%s)" % n([g("n_burst"), g("nburst_src_stride"), g("nburst_dst_stride")]))
    types += [g("n_burst").type, g("nburst_src_stride").type, g("nburst_dst_stride").type]
    if not gm_to_ub and g("l2_cache_ctl") is not None:
        parts.append("l2_cache_ctl(%s)" % n([g("l2_cache_ctl")]))
        types.append(g("l2_cache_ctl").type)
    type_text = ", ".join(str(t) for t in types)
    for c, s_, d in zip(counts, srcs, dsts):
        vals = [_ir._as_value(x, op.name) for x in (c, s_, d)]
        parts.append("loop(%s)" % n(vals))
        type_text += ", loop " + ", ".join(str(v.type) for v in vals)
    if gm_to_ub and g("pad_value") is not None:
        pads = [g("pad_value")] + [v for v in (g("left_padding_count"), g("right_padding_count")) if v is not None]
        parts.append("pad(%s)" % n(pads))
        type_text += ", pad " + ", ".join(str(v.type) for v in pads)
    p.line("%s %s : %s" % (op.name, " ".join(parts), type_text))


OWN_FORMS = {
    "VcvtOp": _print_vcvt,
    "VtrcOp": _print_vtrc,
    "MemBarOp": _print_mem_bar,
    "MteGmUbOp": _print_mte,
    "MteUbGmOp": _print_mte,
}
