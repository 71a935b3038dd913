"""A PTODSL case of PTOAS's VPTO golden suite, run with the VM instead of CANN's simulator (src/board/vpto.ts).

A PTODSL case is a Python script: `@pto.jit(...)` kernels and `CASES`, each made by test/dsl-st/common.py's
golden_output_case (inputs, a golden, the output's place among the arguments, a tolerance). Upstream, ptodsl
compiles each kernel and sim_dsl.sh runs it. Here only the kernels whose jit names their MLIR (`source=...`,
the explicit mode with the module written out) are taken: that text is the kernel, read as written; a kernel
ptodsl would trace from its Python body is reported as not taken.

  python3 dsl_case.py prepare SCRIPT WORK   writes WORK/manifest.json and, per case, WORK/<n>/kernel.pto and
                                            WORK/<n>/arg<i>.bin (the inputs, then the zeroed output, as raw bytes)
  python3 dsl_case.py check SCRIPT WORK N   checks WORK/<N>/out<i>.bin (the arguments after the run) against case N's golden with the case's own
                                            check (numpy's assert_allclose at its tolerance); exit 1 when it fails

The script's `from ptodsl import pto` gets a stand-in that records each jit's arguments; the rest of the script
(numpy inputs and goldens, common.py) runs as upstream runs it. Each run makes the inputs afresh: the cases seed
their generators, so prepare and check see the same data.
"""
import importlib.util
import json
import os
import sys
import types

import numpy as np


class _Kernel:
    def __init__(self, fn, options):
        self.fn = fn
        self.options = options
        self.name = options.get("name", fn.__name__)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("a PTODSL kernel is not called on the host here")


def _stand_in_ptodsl():
    """`ptodsl.pto` as far as a script's top level uses it: jit records, types are placeholders."""
    pto = types.ModuleType("ptodsl.pto")

    def jit(*args, **options):
        if args and callable(args[0]) and not options:
            return _Kernel(args[0], {})
        return lambda fn: _Kernel(fn, options)

    def placeholder(*_args, **_kwargs):
        return None

    pto.jit = jit
    pto.__getattr__ = lambda name: placeholder  # pto.ptr(...), pto.f32, pto.Pipe.ALL, ...
    package = types.ModuleType("ptodsl")
    package.pto = pto
    package.__path__ = []
    sys.modules["ptodsl"] = package
    sys.modules["ptodsl.pto"] = pto


def _load(script):
    _stand_in_ptodsl()
    spec = importlib.util.spec_from_file_location("ptodsl_case", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cases = getattr(module, "CASES", None)
    if not isinstance(cases, list):
        raise ValueError("%s has no CASES list" % os.path.basename(script))
    return cases


class _Device:
    """What a case's check reads an output as (a torch tensor: .cpu().numpy())."""

    def __init__(self, array):
        self.array = array

    def cpu(self):
        return self

    def numpy(self):
        return self.array


def prepare(script, work):
    manifest = []
    try:
        cases = _load(script)
    except Exception as e:  # noqa: BLE001 (a script that needs more of ptodsl than the stand-in has)
        reason = "the script does not run with the stand-in for ptodsl (%s: %s): its kernels are traced by ptodsl, which this flow does not run"
        manifest.append({"name": os.path.basename(script), "notTaken": reason % (type(e).__name__, e)})
        cases = []
    for n, case in enumerate(cases):
        kernel = case["kernel"]
        entry = {"name": case["name"], "kernel": kernel.name}
        source = kernel.options.get("source")
        if not isinstance(source, str):
            entry["notTaken"] = "its kernel is traced by ptodsl from its Python body (no source= MLIR), which this flow does not run"
            manifest.append(entry)
            continue
        made = case["make_case"]()
        if len(made) != 2:
            entry["notTaken"] = "it passes launch arguments beyond its arrays, which this flow does not bind yet"
            manifest.append(entry)
            continue
        arrays, _golden = made
        folder = os.path.join(work, str(n))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "kernel.pto"), "w") as f:
            f.write(source)
        entry["args"] = []
        for i, array in enumerate(arrays):
            # Raw bytes, as the launch hands the device its arrays (an f8 input is a uint8 array on the host).
            path = os.path.join(folder, "arg%d.bin" % i)
            np.ascontiguousarray(array).tofile(path)
            entry["args"].append(path)
        manifest.append(entry)
    with open(os.path.join(work, "manifest.json"), "w") as f:
        json.dump(manifest, f)


def check(script, work, n):
    case = _load(script)[n]
    arrays, golden = case["make_case"]()
    folder = os.path.join(work, str(n))
    read = lambda i, a: np.fromfile(os.path.join(folder, "out%d.bin" % i), dtype=a.dtype).reshape(a.shape)  # noqa: E731
    outputs = [_Device(read(i, a)) for i, a in enumerate(arrays)]
    try:
        case["check"](outputs, golden)
    except AssertionError as e:
        lines = [line.strip() for line in str(e).splitlines() if line.strip()]
        print(next((line for line in lines if line.startswith("Mismatched elements")), lines[-1] if lines else "mismatch"), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 5 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        raise SystemExit(__doc__)
