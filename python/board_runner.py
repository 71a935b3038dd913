"""A warm Python for pto-vm validate: runs scripts one after another, each in a fork of this process.

Starting python3 and importing numpy costs a few hundred milliseconds, and the board flow runs two or three scripts
per case. This process imports numpy (and ml_dtypes when it is installed) once; each script then runs in a forked
child, so it starts with the interpreter as a fresh one would have it plus those modules, and whatever it changes
(modules it imports, globals, the working folder, the environment) ends with the child.

Protocol, one JSON object per line:
  first, from this process: {"ready": true, "numpy": true, "version": "3.11.7"} (numpy false when it is missing)
  in: {"script": PATH (as python3 would be given it, relative to cwd or absolute), "args": [...], "cwd": DIR, "env": {...}, "timeout": SECONDS}
  out: {"status": INT or null, "signal": INT or null, "stdout": TEXT, "stderr": TEXT, "timedOut": BOOL}
"""
import json
import os
import signal
import sys
import tempfile
import threading

try:
    import numpy  # noqa: F401  (imported for the children)

    HAS_NUMPY = True
except ImportError:
    HAS_NUMPY = False
try:
    import ml_dtypes  # noqa: F401
except ImportError:
    pass


def run_child(request, out_path, err_path):
    """In the forked child: become the script's process, run it, and exit with its status."""
    status = 0
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(os.open(out_path, os.O_WRONLY), 1)
        os.dup2(os.open(err_path, os.O_WRONLY), 2)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        script = os.path.abspath(request["script"])
        # As `python3 script` starts: the script's folder first, then PYTHONPATH's entries.
        extra = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
        sys.path[:] = [os.path.dirname(script)] + extra + [p for p in sys.path[1:] if p not in extra]
        sys.argv = [request["script"]] + list(request.get("args", []))
        import runpy

        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code
        if code is None:
            status = 0
        elif isinstance(code, int):
            status = code
        else:
            print(code, file=sys.stderr)
            status = 1
    except BaseException:  # noqa: BLE001  (the script's own error, reported as python3 reports it)
        import traceback

        traceback.print_exc()
        status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status & 0xFF)


def serve():
    out = sys.stdout
    out.write(json.dumps({"ready": True, "numpy": HAS_NUMPY, "version": sys.version.split()[0]}) + "\n")
    out.flush()
    scratch = tempfile.mkdtemp(prefix="pto-vm-python-")
    out_path = os.path.join(scratch, "stdout")
    err_path = os.path.join(scratch, "stderr")
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            request = json.loads(line)
            for p in (out_path, err_path):
                open(p, "w").close()
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                run_child(request, out_path, err_path)
            timed_out = []

            def kill(child=pid):
                timed_out.append(True)
                try:
                    os.kill(child, signal.SIGKILL)
                except ProcessLookupError:
                    pass

            timer = threading.Timer(request.get("timeout", 600), kill)
            timer.start()
            _, wait_status = os.waitpid(pid, 0)
            timer.cancel()
            with open(out_path, encoding="utf-8", errors="replace") as f:
                stdout = f.read()
            with open(err_path, encoding="utf-8", errors="replace") as f:
                stderr = f.read()
            reply = {
                "status": os.WEXITSTATUS(wait_status) if os.WIFEXITED(wait_status) else None,
                "signal": os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else None,
                "stdout": stdout,
                "stderr": stderr,
                "timedOut": bool(timed_out),
            }
            out.write(json.dumps(reply) + "\n")
            out.flush()
    finally:
        for p in (out_path, err_path):
            if os.path.exists(p):
                os.remove(p)
        os.rmdir(scratch)


if __name__ == "__main__":
    serve()
