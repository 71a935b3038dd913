"""The `builtin` dialect: the module op and the builtin types under their usual names."""
from ..ir import *  # noqa: F401,F403 - `builtin.F32Type` etc. are the ir types
from ..ir import ModuleOp  # noqa: F401
