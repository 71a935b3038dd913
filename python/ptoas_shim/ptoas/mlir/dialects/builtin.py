"""The `builtin` dialect: the module op and the builtin types under their usual names."""
from ..ir import *  # noqa: F401,F403 - `builtin.F32Type` etc. are the ir types
from ..ir import ModuleOp, OpView


class UnrealizedConversionCastOp(OpView):
    """`builtin.unrealized_conversion_cast`: ptodsl casts between signless and signed integer views with it."""

    OPERATION_NAME = "builtin.unrealized_conversion_cast"

    def __init__(self, outputs, inputs, loc=None, ip=None):
        self._create(list(inputs), list(outputs), {}, loc=loc, ip=ip)
