"""Regenerates ptoas/mlir/dialects/_pto_facts.py from PTOAS's ODS files.

Reads only facts from include/PTO/IR/PTOOps.td and PTOAttrs.td: each op's class name, mnemonic, operand, attribute
and result names in declaration order with their kind (required / optional / variadic), and each enum's cases with
the attribute mnemonic that prints it. Usage: python3 extract_facts.py /path/to/PTOAS > ptoas/mlir/dialects/_pto_facts.py

`--micro` reads the micro-op files instead (VPTOOps.td, VPTOUbOps.td, VMIOps.td: the ops ptodsl's templates build)
with the same facts plus each op's assemblyFormat, which the shim prints by:
python3 extract_facts.py --micro /path/to/PTOAS > ptoas/mlir/dialects/_micro_facts.py
"""
import os
import pprint
import re
import sys

OP_CLASSES = ("PTO_TOp", "PTO_DpsOp", "PTO_Op", "PTO_SectionOp")


def balanced(text, start):
    """The text between the bracket at `start` and its partner (exclusive)."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    opener = text[start]
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if text.startswith("[{", i):
            end = text.index("}]", i)
            i = end + 2
            continue
        if c == opener:
            depth += 1
        elif c == pairs[opener]:
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
        i += 1
    raise ValueError("unbalanced")


def split_top(text):
    parts, depth, cur = [], 0, ""
    for c in text:
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def classify(constraint):
    head = constraint.split("<")[0].strip()
    if head in ("OptionalAttr", "DefaultValuedAttr", "DefaultValuedOptionalAttr", "UnitAttr", "OptionalProp", "DefaultValuedProp"):
        return "optional_attr"
    if head.endswith("Attr") or head.endswith("Prop") or head.startswith("ConfinedAttr"):
        return "attr"
    if head == "Optional":
        return "optional"
    if head == "Variadic":
        return "variadic"
    return "single"


def named_list(body, with_constraint=False):
    out = []
    for part in split_top(body):
        m = re.match(r"(.*):\$(\w+)$", part.strip(), re.S)
        if m:
            constraint = m.group(1).strip()
            entry = (m.group(2), classify(constraint))
            out.append(entry + (constraint,) if with_constraint else entry)
    return out


def infers_results(traits):
    """None: the builder takes the result types; else the operand whose type the result takes ("" if unknown)."""
    same = re.search(r"AllTypesMatch<\[([^\]]*)\]>", traits)
    if same:
        names = [n.strip().strip('"') for n in same.group(1).split(",")]
        if "result" in names:
            return next(n for n in names if n != "result")
    if "SameOperandsAndResultType" in traits:
        return "*first"
    if "InferTypeOpInterface" in traits:
        return ""
    return None


def ops(td):
    text = strip_comments(td)
    found = {}
    for m in re.finditer(r"^def (\w+)\s*:\s*(\w+)<\"([\w.]+)\"", text, re.M):
        name, base, mnemonic = m.groups()
        if base not in OP_CLASSES:
            continue
        brace = text.find("{", m.end())
        semi = text.find(";", m.end())
        body = balanced(text, brace) if brace != -1 and (semi == -1 or brace < semi) else ""
        header = text[m.start() : brace if body else semi]
        args = re.search(r"let arguments\s*=\s*\(ins", body)
        results = re.search(r"let results\s*=\s*\(outs", body)
        traits = header + body
        arg_body = balanced(body, args.start() + body[args.start():].index("(")).strip()[3:] if args else ""
        found[name] = {
            "mnemonic": "pto." + mnemonic,
            "constraints": {n: c for n, _, c in named_list(arg_body, True) if classify(c) in ("attr", "optional_attr")},
            "arguments": named_list(balanced(body, args.start() + body[args.start():].index("(")).strip()[3:]) if args else [],
            "results": named_list(balanced(body, results.start() + body[results.start():].index("(")).strip()[4:], True) if results else [],
            "operand_segments": "AttrSizedOperandSegments" in traits,
            "regions": len(re.findall(r":\$\w+", balanced(body, body.index("(", body.index("let regions"))))) if "let regions" in body else (1 if base == "PTO_SectionOp" else 0),
            "dps": "PTO_DpsInitOpInterface" in traits or base == "PTO_DpsOp",
            "infers_results": infers_results(traits),
        }
    return found


def enums(td):
    text = strip_comments(td)
    case_defs = {m.group(1): m.group(2) for m in re.finditer(r"^def (\w+)\s*:\s*(I32EnumAttrCase<[^>]*>)", text, re.M)}
    def parse_case(s):
        m = re.match(r'I32EnumAttrCase<"(\w+)",\s*(\d+)(?:,\s*"([^"]*)")?', s)
        return (m.group(1), int(m.group(2)), m.group(3) if m.group(3) is not None else m.group(1))
    enum_defs = {}
    for m in re.finditer(r"^def (\w+)\s*:\s*(?:PTO_I32Enum|I32EnumAttr)<\s*\"(\w+)\"", text, re.M):
        lst = text.index("[", m.end())
        cases = [parse_case(case_defs.get(c, c)) for c in split_top(balanced(text, lst))]
        enum_defs[m.group(1)] = (m.group(2), cases)
    attrs = {}
    for m in re.finditer(r"^def (\w+)\s*:\s*EnumAttr<\s*PTO_Dialect,\s*(\w+),\s*\"(\w+)\"", text, re.M):
        enum_name, cases = enum_defs[m.group(2)]
        attrs[enum_name + "Attr"] = {"enum": enum_name, "cases": cases, "mnemonic": m.group(3), "style": "bare"}
    for m in re.finditer(r"^def (\w+)\s*:\s*PTO_Attr<\"(\w+)\",\s*\"(\w+)\"", text, re.M):
        brace = text.find("{", m.end())
        body = balanced(text, brace)
        p = re.search(r"EnumParameter<(\w+)>", body)
        if not p or p.group(1) not in enum_defs:
            continue
        enum_name, cases = enum_defs[p.group(1)]
        attrs[m.group(2) + "Attr"] = {"enum": enum_name, "cases": cases, "mnemonic": m.group(3), "style": "dotted"}
    return attrs


def _class_defs(text):
    """`class Name<params> : Parent<args> { body }` -> (parent, parent args text, body) for every op class template."""
    found = {}
    for m in re.finditer(r"^class (\w+)\s*<", text, re.M):
        params_end = m.end() - 1 + len(balanced(text, m.end() - 1)) + 2
        colon = text.find(":", params_end)
        pm = re.match(r"\s*(\w+)\s*<", text[colon + 1 :])
        if not pm:
            continue
        lt = colon + 1 + pm.end() - 1
        parent_args = balanced(text, lt)
        after = lt + len(parent_args) + 2
        brace = text.find("{", after)
        semi = text.find(";", after)
        body = balanced(text, brace) if brace != -1 and (semi == -1 or brace < semi) else ""
        found[m.group(1)] = (pm.group(1), parent_args, body)
    return found


def _let(body, name):
    m = re.search(r"let %s\s*=\s*" % name, body)
    if not m:
        return None
    i = m.end()
    if body.startswith("[{", i):
        return body[i + 2 : body.index("}]", i)]
    if body[i] == '"':
        return body[i + 1 : body.index('"', i + 1)]
    return body[i : body.index(";", i)]


def _list_of(body, kind):
    m = re.search(r"let %s\s*=\s*\(%s" % ({"ins": "arguments", "outs": "results"}[kind], kind), body)
    if not m:
        return None
    return balanced(body, body.index("(", m.start())).strip()[len(kind):]


def micro_ops(texts):
    """The micro ops: a def's own `let`s, else its class templates' (VMI_Op prefixes its mnemonic with `vmi.`)."""
    text = strip_comments("\n".join(texts))
    classes = _class_defs(text)
    found = {}
    for m in re.finditer(r"^def (\w+)\s*:\s*(\w+)<\s*\"([\w.]+)\"", text, re.M):
        name, base, mnemonic = m.groups()
        if base not in classes and base not in ("PTO_Op",):
            continue
        brace = text.find("{", m.end())
        semi = text.find(";", m.end())
        body = balanced(text, brace) if brace != -1 and (semi == -1 or brace < semi) else ""
        header = text[m.start() : brace if body else semi]
        chain, cls = [body], base
        prefix = ""
        while cls in classes:
            if cls == "VMI_Op":
                prefix = "vmi."
            parent, _, cbody = classes[cls]
            chain.append(cbody)
            header += cbody
            cls = parent

        def first(get):
            return next((v for v in (get(b) for b in chain) if v is not None), None)

        args = first(lambda b: _list_of(b, "ins")) or ""
        results = first(lambda b: _list_of(b, "outs")) or ""
        regions = first(lambda b: _let(b, "regions"))
        found[name] = {
            "mnemonic": "pto." + prefix + mnemonic,
            "constraints": {n: c for n, _, c in named_list(args, True) if classify(c) in ("attr", "optional_attr")},
            "arguments": named_list(args),
            "results": named_list(results, True),
            "operand_segments": "AttrSizedOperandSegments" in header,
            "regions": len(re.findall(r":\$\w+", regions)) if regions else 0,
            "dps": False,
            "infers_results": None,
            "format": " ".join(first(lambda b: _let(b, "assemblyFormat")).split()) if first(lambda b: _let(b, "assemblyFormat")) else None,
        }
    return found


def main(root):
    if root == "--micro":
        root = sys.argv[2]
        ir = os.path.join(root, "include", "PTO", "IR")
        texts = []
        for name in ("VPTOOps.td", "VPTOUbOps.td", "VMIOps.td"):
            with open(os.path.join(ir, name)) as f:
                texts.append(f.read())
        print('"""Generated by extract_facts.py --micro from PTOAS\'s ODS files (facts only: names, order, kinds,')
        print('assembly formats). Do not edit."""')
        print("# fmt: off")
        print("MICRO_OPS = " + pprint.pformat(micro_ops(texts), width=120, sort_dicts=True))
        return
    ir = os.path.join(root, "include", "PTO", "IR")
    with open(os.path.join(ir, "PTOOps.td")) as f:
        op_facts = ops(f.read())
    with open(os.path.join(ir, "PTOAttrs.td")) as f:
        attr_facts = enums(f.read())
    print('"""Generated by extract_facts.py from PTOAS\'s ODS files (facts only: names, order, kinds). Do not edit."""')
    print("# fmt: off")
    print("OPS = " + pprint.pformat(op_facts, width=120, sort_dicts=True))
    print("ENUM_ATTRS = " + pprint.pformat(attr_facts, width=120, sort_dicts=True))


if __name__ == "__main__":
    main(sys.argv[1])
