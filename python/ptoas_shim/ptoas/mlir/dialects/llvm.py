"""The `llvm` dialect: nothing of it is built yet; using any name raises ShimError naming it (so a template that
needs it is reported as such, never printed wrong)."""
from ..ir import ShimError


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise ShimError("llvm.%s is not in the shim yet" % name)


def register_dialect(context=None, load=True):
    pass
