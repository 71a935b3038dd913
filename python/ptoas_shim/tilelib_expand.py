"""Instantiates PTOAS's A5 tile-op templates (lib/TileOps/a5/*.py, written with ptodsl) under the shim, in batch.

What PTOAS's ExpandTileOp asks its in-process TileLib service for, this asks ptodsl directly: the legal candidates
of a tile op for its operands' specs, in PTOAS's order (priority, then name), and the selected one traced into a
module of one `func.func` taking the op's operands. Run with the shim, ptodsl and TileOps on the path:

    PYTHONPATH=python/ptoas_shim:$PTO_UPSTREAM_DIR/ptodsl:$PTO_UPSTREAM_DIR/lib python3 tilelib_expand.py < req.json

Input: {"requests": [{"op": "pto.tadd", "target": "a5", "operands": [spec, ...], "context": {}, "candidate": null}]}
where each spec is what ExpandTileOp's buildOperandSpecsJson writes ({"kind": "tile", "dtype": "f32", "shape":
[8, 64], "valid_shape": [8, 64], "memory_space": "vec", "config": {...}}, or a scalar). Output, one JSON document:
{"results": [{"name", "candidates", "text", "unsupplied"} or {"error", "missing", "where"}]}, `unsupplied` the context
attributes the template read but was not given, with the defaults it used, one per request, in order.
"""
import json
import sys
import traceback


def _missing_piece(exc):
    """What the failure says is missing, and the innermost frame of ptodsl or the templates that hit it."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    for f in reversed(frames):
        if "/ptodsl/" in f.filename or "/TileOps/" in f.filename:
            where = "%s:%d (%s)" % (f.filename.split("/ptodsl/")[-1].split("/lib/")[-1], f.lineno, f.name)
            break
    kind = type(exc).__name__
    shim = kind in ("ShimError", "AttributeError", "ImportError", "NotImplementedError")
    return {"error": "%s: %s" % (kind, exc), "missing": shim, "where": where}


class _ContextRecorder(dict):
    """The op's context attributes, noting each one the template reads (`pto.get_op_attr`) that was not given, with
    the default the template then uses: the caller decides whether PTOAS would have given it."""

    def __init__(self, attrs):
        super().__init__(attrs)
        self.unsupplied = {}

    def get(self, key, default=None):
        if key not in self:
            self.unsupplied.setdefault(key, default)
        return super().get(key, default)

    def __bool__(self):  # get_op_attr skips an empty dict; every read must be seen
        return True


def expand(request):
    from ptodsl._context import make_context
    from ptodsl.tilelib._render_runtime import _TemplateTrace
    from ptodsl.tilelib._selection import _select_descriptor_and_specs, metadata_request

    target = request.get("target", "a5")
    context_attrs = request.get("context") or {}
    meta = metadata_request(target, request["op"], request["operands"], context_attrs)
    names = [c["name"] for c in meta["candidates"]]
    descriptor, specs = _select_descriptor_and_specs(target, request["op"], request["operands"], context_attrs, request.get("candidate"))
    trace = _TemplateTrace(descriptor, specs, context_attrs=context_attrs)
    trace.context_attrs = _ContextRecorder(context_attrs)
    module = trace.build_module_in_context(make_context())
    unsupplied = {k: v if isinstance(v, (str, int, float, bool)) or v is None else repr(v) for k, v in trace.context_attrs.unsupplied.items()}
    return {"name": descriptor.name, "candidates": names, "text": str(module), "unsupplied": unsupplied}


def main():
    requests = json.load(sys.stdin)["requests"]
    results = []
    for request in requests:
        try:
            results.append(expand(request))
        except Exception as exc:  # noqa: BLE001 - each request reports its own failure
            results.append(_missing_piece(exc))
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
