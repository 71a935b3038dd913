"""The `func` dialect: func.func, func.return, func.call."""
from ..ir import FunctionType, OpView, ShimError, StringAttr, TypeAttr, FlatSymbolRefAttr, _as_value
from .._printer import attr_dict

__all__ = ["FuncOp", "ReturnOp", "CallOp", "FunctionType"]


class FuncOp(OpView):
    OPERATION_NAME = "func.func"

    def __init__(self, name, type, *, visibility=None, body_builder=None, loc=None, ip=None):
        if not isinstance(type, FunctionType):
            raise ShimError("func.FuncOp: the type must be a FunctionType")
        attrs = {"sym_name": StringAttr(name), "function_type": TypeAttr(type)}
        if visibility is not None:
            attrs["sym_visibility"] = StringAttr(visibility)
        self._create([], [], attrs, regions=1, loc=loc, ip=ip)
        self.name_text, self.type = name, type
        if body_builder is not None:
            raise ShimError("func.FuncOp(body_builder=...)")

    @classmethod
    def from_py_func(cls, *inputs, results=None, name=None):
        """Decorator: a function whose body the decorated Python function builds from the entry block's
        arguments; the values it returns are the function's results."""
        from ..ir import InsertionPoint

        def decorator(py_func):
            fn_name = name or py_func.__name__
            declared = None if results is None else list(results)
            op = cls(fn_name, FunctionType(list(inputs), declared or []))
            entry = op.add_entry_block()
            with InsertionPoint(entry):
                returned = py_func(*entry.arguments)
                values = [] if returned is None else list(returned) if isinstance(returned, (list, tuple)) else [returned]
                values = [_as_value(v, "from_py_func") for v in values]
                if declared is None and values:
                    op.type = FunctionType(list(inputs), [v.type for v in values])
                    op.attributes["function_type"] = TypeAttr(op.type)
                ReturnOp(values)
            py_func.func_op = op
            return py_func

        return decorator

    @property
    def body(self):
        return self.regions[0]

    @property
    def name(self):
        """The `sym_name` attribute (a StringAttr; `.value` is the text), as MLIR's bindings give it."""
        return self.attributes["sym_name"]

    @property
    def entry_block(self):
        if not self.body.blocks:
            raise IndexError("func.FuncOp has no entry block yet (call add_entry_block)")
        return self.body.blocks[0]

    @property
    def arguments(self):
        return self.entry_block.arguments

    @property
    def is_external(self):
        return not self.body.blocks

    def add_entry_block(self, arg_locs=None):
        if self.body.blocks:
            raise ShimError("func.FuncOp.add_entry_block: the function already has a body")
        return self.body.blocks.append(*self.type.inputs)

    def print_custom(self, p):
        p.restart_numbering()
        extra = {k: v for k, v in self.attributes.items() if k not in ("sym_name", "function_type", "sym_visibility")}
        visibility = self.attributes.get("sym_visibility")
        head = "func.func %s@%s" % (visibility.value + " " if visibility else "", self.attributes["sym_name"].value)
        results = self.type.results
        ret = "" if not results else " -> " + (str(results[0]) if len(results) == 1 else "(" + ", ".join(map(str, results)) + ")")
        attrs = " attributes" + attr_dict(extra) if extra else ""
        if not self.body.blocks:
            p.line("%s(%s)%s%s" % (head, ", ".join(map(str, self.type.inputs)), ret, attrs))
            return
        if len(self.body.blocks) > 1:
            raise ShimError("func.FuncOp with more than one block")
        block = self.entry_block
        args = p.define_args(block)
        params = ", ".join("%s: %s" % (n, a.type) for n, a in zip(args, block.arguments))
        p.line("%s(%s)%s%s {" % (head, params, ret, attrs))
        p.block_body(block)
        p.line("}")


class ReturnOp(OpView):
    OPERATION_NAME = "func.return"

    def __init__(self, operands=(), *, loc=None, ip=None):
        self._create([_as_value(v, "func.ReturnOp") for v in operands], [], {}, loc=loc, ip=ip)

    def print_custom(self, p):
        if self.operands:
            p.line("return %s : %s" % (p.names_of(self.operands), ", ".join(str(v.type) for v in self.operands)))
        else:
            p.line("return")


class CallOp(OpView):
    OPERATION_NAME = "func.call"

    def __init__(self, result_or_callee, callee_or_operands, operands=None, *, loc=None, ip=None):
        if isinstance(result_or_callee, FuncOp):
            callee, args, results = result_or_callee.name_text, callee_or_operands, result_or_callee.type.results
        else:
            results, callee, args = result_or_callee, callee_or_operands, operands
            if isinstance(callee, FlatSymbolRefAttr):
                callee = callee.value
            elif not isinstance(callee, str):
                raise ShimError("func.CallOp: the callee must be a name, a FlatSymbolRefAttr or a FuncOp")
        self._create([_as_value(v, "func.CallOp") for v in args or []], list(results), {}, loc=loc, ip=ip)
        self.callee = callee

    def print_custom(self, p):
        results = p.define_results(self.operation)
        head = ", ".join(results) + " = " if results else ""
        fn = FunctionType([v.type for v in self.operands], [r.type for r in self.results])
        p.line("%scall @%s(%s)%s : %s" % (head, self.callee, p.names_of(self.operands), attr_dict(self.attributes), fn))
