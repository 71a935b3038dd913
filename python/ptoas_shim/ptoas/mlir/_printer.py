"""Prints a built module as MLIR text: each op in its own (custom) form when its class gives one, else generic.

Values are named like MLIR's printer names them without name hints: results %0, %1, ... and block arguments
%arg0, %arg1, ..., numbered afresh in each function.
"""
import re


class Printer:
    def __init__(self):
        self.lines = []
        self.names = {}
        self.results = 0
        self.args = 0
        self.depth = 0

    # ---- names ----------------------------------------------------------------------------------------------
    def name(self, value):
        key = id(value)
        if key not in self.names:
            raise NotImplementedError("a value is used before it is defined, or outside its scope: %r" % value)
        return self.names[key]

    def define_results(self, op):
        names = []
        for r in op.results:
            self.names[id(r)] = "%%%d" % self.results
            names.append(self.names[id(r)])
            self.results += 1
        return names

    def define_args(self, block):
        for a in block.arguments:
            self.names[id(a)] = "%%arg%d" % self.args
            self.args += 1
        return [self.names[id(a)] for a in block.arguments]

    def restart_numbering(self):
        self.results = 0
        self.args = 0

    def names_of(self, values):
        return ", ".join(self.name(v) for v in values)

    # ---- output ---------------------------------------------------------------------------------------------
    def line(self, text):
        self.lines.append("  " * self.depth + text)

    def block_body(self, block):
        """The ops of a block, one level deeper."""
        self.depth += 1
        for op in block.operations:
            self.op(op)
        self.depth -= 1

    def op(self, op):
        custom = getattr(op.view, "print_custom", None) if op.view is not None else None
        if custom is not None:
            custom(self)
        else:
            self.generic(op)

    def generic(self, op):
        if any(r.blocks for r in op.regions):
            raise NotImplementedError("%s: printing an op with regions in the generic form" % op.name)
        props = dict(op.attributes)
        sizes = getattr(op, "segment_sizes", None)
        if sizes is not None:
            props["operandSegmentSizes"] = "array<i32: %s>" % ", ".join(str(n) for n in sizes)
        results = self.define_results(op)
        head = (", ".join(results) + " = ") if results else ""
        attrs = " <{%s}>" % attr_dict_body(props) if props else ""
        ins = ", ".join(str(v.type) for v in op.operands)
        outs = ", ".join(str(r.type) for r in op.results)
        outs = outs if len(op.results) == 1 else "(" + outs + ")"
        self.line('%s"%s"(%s)%s : (%s) -> %s' % (head, op.name, self.names_of(op.operands), attrs, ins, outs))


def _attr_name(name):
    """A bare identifier as is; any other name (`pto.device-spec`) quoted, as MLIR prints it."""
    return name if re.match(r"^[A-Za-z_][\w.$]*$", name) else '"%s"' % name


def attr_dict_body(attrs):
    """`a = v, b` (a unit attribute prints as its name alone)."""
    return ", ".join(_attr_name(k) if str(v) == "unit" else "%s = %s" % (_attr_name(k), v) for k, v in attrs.items())


def attr_dict(attrs):
    return " {%s}" % attr_dict_body(attrs) if attrs else ""


def print_module(operation):
    p = Printer()
    if operation.name != "builtin.module":
        raise NotImplementedError("printing a lone %s (print the module)" % operation.name)
    p.line("module%s {" % (" attributes" + attr_dict(operation.attributes) if operation.attributes else ""))
    p.block_body(operation.regions[0].blocks[0])
    p.line("}")
    return "\n".join(p.lines)
