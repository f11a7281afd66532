"""Long fuzz run over every input format (issue 27): mutates real files (``tests/fuzz_corpus.py``),
reads each in a forked child with a 10 s alarm and a 4 GB address-space limit, and prints per
format the outcomes (ok, clear refusal, internal error, unclear message, slow, killed), the
slowest run and the peak memory of a child.

Run: ``PYTHONPATH=src python bench/fuzz_inputs.py [--seconds 150] [--formats json,oob]``.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import resource
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import fuzz_corpus as fc  # noqa: E402

SLOW_S = 10
MEM_LIMIT = 4 << 30


def _child(fmt: str, path: Path, w: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))
    signal.alarm(SLOW_S * 2)
    exc = fc.run_reader(fmt, path)
    if exc is None:
        code, text = 0, ""
    elif fc.acceptable(exc, path):
        code, text = 1, ""
    elif isinstance(exc, MemoryError):
        code, text = 4, "MemoryError"
    else:
        from battlestudio.store.errors import BattleFileError
        from battlestudio.store.importers.common import OobImportError

        code = 3 if isinstance(exc, (BattleFileError, OobImportError)) else 2
        text = f"{type(exc).__name__}: {str(exc)[:160]}"
    os.write(w, text.encode("utf-8", "replace"))
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=150)
    ap.add_argument("--formats", default=",".join(fc.FORMATS))
    ap.add_argument("--seed", type=int, default=27)
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="fuzz-"))
    seeds = fc.seeds(work / "seeds")
    fmts = args.formats.split(",")
    from battlestudio import store  # noqa: F401 - imported once, before the forks
    from battlestudio.store.importers import import_oob  # noqa: F401
    from battlestudio.validate import check_battle  # noqa: F401

    names = {0: "ok", 1: "refused (clear)", 2: "internal error", 3: "unclear message", 4: "memory"}
    counts: dict[str, collections.Counter[str]] = {f: collections.Counter() for f in fmts}
    examples: dict[str, str] = {}
    slowest = {f: 0.0 for f in fmts}
    peak = {f: 0 for f in fmts}
    rng = random.Random(args.seed)
    end = time.monotonic() + args.seconds
    n = 0
    while time.monotonic() < end:
        fmt = fmts[n % len(fmts)]
        n += 1
        path = fc.mutate(fmt, seeds[fmt], work / "m", random.Random(rng.getrandbits(64)))
        r, w = os.pipe()
        t = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            _child(fmt, path, w)
        os.close(w)
        _, status, usage = os.wait4(pid, 0)
        dt = time.monotonic() - t
        text = os.read(r, 4096).decode("utf-8", "replace")
        os.close(r)
        slowest[fmt] = max(slowest[fmt], dt)
        peak[fmt] = max(peak[fmt], usage.ru_maxrss)
        if os.WIFSIGNALED(status):
            kind = "killed (slow)" if os.WTERMSIG(status) == signal.SIGALRM else f"killed ({os.WTERMSIG(status)})"
        else:
            kind = names.get(os.WEXITSTATUS(status), f"exit {os.WEXITSTATUS(status)}")
        counts[fmt][kind] += 1
        if dt > SLOW_S:
            counts[fmt][f"over {SLOW_S} s"] += 1
        if text and (fmt, kind) not in examples:
            examples[f"{fmt} {kind}"] = text
    total = sum(sum(c.values()) - c[f"over {SLOW_S} s"] for c in counts.values())
    print(f"{total} mutated inputs in {args.seconds:.0f} s")
    for f in fmts:
        shown = ", ".join(f"{k} {v}" for k, v in sorted(counts[f].items()))
        print(f"  {f:9s} {shown}; slowest {slowest[f]:.2f} s; peak {peak[f] / 1024:.0f} MB")
    for k, v in examples.items():
        print(f"  e.g. {k}: {v}")
    bad = sum(c["internal error"] + c["unclear message"] + c["memory"] for c in counts.values())
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
