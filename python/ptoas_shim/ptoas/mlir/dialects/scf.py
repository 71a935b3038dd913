"""The `scf` dialect: scf.for, scf.if, scf.yield."""
from ..ir import IndexType, OpView, ShimError, _as_value


class ForOp(OpView):
    OPERATION_NAME = "scf.for"

    def __init__(self, lower_bound, upper_bound, step, iter_args=None, *, loc=None, ip=None):
        bounds = [_as_value(v, "scf.ForOp") for v in (lower_bound, upper_bound, step)]
        inits = [_as_value(v, "scf.ForOp iter_args") for v in (iter_args or [])]
        self._create(bounds + inits, [v.type for v in inits], {}, regions=1, loc=loc, ip=ip)
        self.regions[0].blocks.append(bounds[0].type, *[v.type for v in inits])

    @property
    def body(self):
        return self.regions[0].blocks[0]

    @property
    def induction_variable(self):
        return self.body.arguments[0]

    @property
    def inner_iter_args(self):
        return self.body.arguments[1:]

    @property
    def initArgs(self):
        return self.operands[3:]

    def print_custom(self, p):
        results = p.define_results(self.operation)
        head = ", ".join(results) + " = " if results else ""
        lb, ub, step = self.operands[:3]
        args = p.define_args(self.body)
        text = "%sscf.for %s = %s to %s step %s" % (head, args[0], p.name(lb), p.name(ub), p.name(step))
        if self.results:
            pairs = ", ".join("%s = %s" % (a, p.name(v)) for a, v in zip(args[1:], self.operands[3:]))
            text += " iter_args(%s) -> (%s)" % (pairs, ", ".join(str(r.type) for r in self.results))
        if str(lb.type) != "index":
            text += " : %s" % lb.type
        p.line(text + " {")
        p.block_body(self.body)
        p.line("}")


class IfOp(OpView):
    OPERATION_NAME = "scf.if"

    def __init__(self, cond, results_=None, *, hasElse=False, loc=None, ip=None):
        self._create([_as_value(cond, "scf.IfOp")], list(results_ or []), {}, regions=2, loc=loc, ip=ip)
        self.regions[0].blocks.append()
        if hasElse:
            self.regions[1].blocks.append()

    @property
    def then_block(self):
        return self.regions[0].blocks[0]

    @property
    def else_block(self):
        if not self.regions[1].blocks:
            raise ShimError("scf.IfOp has no else block (create it with hasElse=True)")
        return self.regions[1].blocks[0]

    def print_custom(self, p):
        results = p.define_results(self.operation)
        head = ", ".join(results) + " = " if results else ""
        types = " -> (%s)" % ", ".join(str(r.type) for r in self.results) if self.results else ""
        p.line("%sscf.if %s%s {" % (head, p.name(self.operands[0]), types))
        p.block_body(self.then_block)
        if self.regions[1].blocks:
            p.line("} else {")
            p.block_body(self.else_block)
        p.line("}")


class YieldOp(OpView):
    OPERATION_NAME = "scf.yield"

    def __init__(self, results_=(), *, loc=None, ip=None):
        self._create([_as_value(v, "scf.YieldOp") for v in results_], [], {}, loc=loc, ip=ip)

    def print_custom(self, p):
        if self.operands:
            p.line("scf.yield %s : %s" % (p.names_of(self.operands), ", ".join(str(v.type) for v in self.operands)))
        else:
            p.line("scf.yield")
