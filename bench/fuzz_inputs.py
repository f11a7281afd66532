"""Long fuzz run of the command line over every input format (issue 27).

Each input is a fresh mutation of a real file (``tests/fuzz_corpus.py``) made and read in a
forked child, which runs the CLI in-process (``battlestudio.cli.main``) the way a user would:

- ``.battle.json`` and ``.battle``: ``check``, ``info``, ``convert`` (to the other format),
  ``orders``, ``log`` and ``replay --at end --png``;
- ``.oob``, CSV, XLSX, fogofwar tables (and ORBAT Mapper with ``--formats``): ``import-oob``,
  then ``check`` and ``info`` on the file it wrote.

Per input it records each command's exit code and message, the child's wall and CPU time and
its peak RSS (``wait4``). Counted per format: internal errors, unclear messages (by rule, see
``unclear``), runs over ``SLOW_S`` of CPU (hangs; a child is killed at ``KILL_FACTOR`` x that,
wall), runs whose peak RSS passes ``10 x input size + 200 MB``. Findings are copied to ``--keep`` with their messages.
The parent imports everything and renders one map before forking, so a child pays neither.

Run: ``PYTHONPATH=src QT_QPA_PLATFORM=offscreen python bench/fuzz_inputs.py --inputs 10000``
(stopping earlier if ``--seconds`` pass; ``--workers`` children at a time, default 2).
Exit 1 if anything was found.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import random
import re
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import fuzz_corpus as fc  # noqa: E402

SLOW_S = 10.0
"""A run using more CPU time than this is a hang (wall time is reported too: on a shared
machine it measures the other processes as well)."""
KILL_FACTOR = 12
"""A child is killed after ``KILL_FACTOR`` x ``SLOW_S`` of wall time: a safety net for a run
that blocks without using CPU (at 3x, a loaded machine's stalls were counted as hangs)."""
MEM_BASE = 200 << 20
MEM_PER_BYTE = 10
"""The memory bound of one input: ``MEM_PER_BYTE`` x its size + ``MEM_BASE`` (peak RSS)."""
AS_LIMIT = 4 << 30
"""Address-space limit of a child (a safety net; the bound above is what is counted)."""
INFO_KEYS = ("inputs", "read", "refused", f"wall over {SLOW_S:.0f} s (cpu under)")
SIX = ("json", "battle", "oob", "csv", "fogofwar", "xlsx")

# -- what counts as an unclear message ---------------------------------------------------------
PYTHON_WORDS = re.compile(
    r"invalid literal for|codec can't|object has no attribute|not supported between|argument must be"
    r"|Exceeds the limit|Traceback|KeyError|IndexError|TypeError|AttributeError|NoneType|unhashable type"
    r"|positional argument|index out of range|object is not (?:subscriptable|iterable|callable)"
    r"|could not convert string|too many values to unpack|division by zero|math domain error"
    r"|maximum recursion|OverflowError|RecursionError|MemoryError|GEOSException|BadZipFile"
)
"""Python's words rather than the user's."""
PLACE = re.compile(
    r"^(?:game log event \d+: |event '\w+' \(turn |row \d+|line \d+|rows? \d|table \w+|event seq=|meta key=|"
    r"zip member |column |sheet |"
    r"key '|\$[.\[]|[a-z_]+(?:\[\d+\]|\.[^\s:]+)*: |info\.|scenario_info|[a-z_]+ id=|oob_|source seq=|"
    r"--\w)"
)
"""How a message's place begins (after ``FILE: ``): a row or line, a table, a JSON or document
path, a zip member, a column, an option."""
WHOLE_FILE = re.compile(
    r"^(?:file is empty|no such file|is a directory|not a regular file|cannot read|not an SQLite database"
    r"|not UTF-8 text|not a text file|not JSON|not a BattleStudio file|a BattleStudio file without"
    r"|written by a newer BattleStudio|bad schema version|damaged BattleStudio file|damaged or unreadable"
    r"|not opened: the file's schema|not a readable XLSX workbook|refused: the workbook's XML"
    r"|the workbook (?:holds|has no|unpacks)|[\d,]+ bytes is more than|--format \w+, but|no game is recorded"
    r"|no force|the tables hold|nested too deeply|no sheet|ruleset '.*' \(.*\) has no orders report"
    r"|not a \.battle|unknown file type|already exists|no \S+ is (?:in|at)|a battle file of [\d,]+ bytes"
    r"|must be an object|not an ORBAT Mapper|the file is empty|cannot save|cannot append|not saved"
    r"|[\d,]+ of the [\d,]+ recorded events|no events in turn|more than [\d,]+ (?:rows|lines|levels)"
    r"|no ruleset '.*' is installed|nothing imported)"
)
"""Messages about the file as a whole: no place inside it to name."""


CONVERSION = "conversion to Torden over Europa scale: note: "


def unclear(message: str, names: list[str]) -> str | None:
    """The rule ``message`` breaks, or None: it must name one of ``names`` (the input, the
    folder, or the file written), then a place in it (or be about the whole file), in the
    user's words: not Python's, no bare ``$`` JSON root, no empty ``()``, no table named twice."""
    text = message.removeprefix("battlestudio: ").strip()
    if text.startswith(CONVERSION):  # notes on the scale conversion name the unit, not a file place
        return None
    if PYTHON_WORDS.search(text):
        return "python words"
    if re.search(r": \$: |^\$: ", text):
        return "bare $ path"
    if "()" in text:
        return "empty ()"
    if "missing fogofwar table" in text:
        return "table named twice"
    named = [n for n in sorted(names, key=len, reverse=True) if text.startswith(n + ": ") or text.startswith(n + ":")]
    if not named:
        return "no file named"
    rest = text[len(named[0]) :].lstrip(":").lstrip()
    rest = rest.removeprefix("error file: ")  # check's layout: FILE: error CHECK: PLACE: what
    if re.match(r"^\d+: (?:warning|note): ", rest):  # an import warning: FILE:LINE: warning
        return None
    if not (PLACE.match(rest) or WHOLE_FILE.match(rest)):
        return "no place"
    return None


# -- the child ---------------------------------------------------------------------------------
def commands(fmt: str, path: Path, out: Path) -> list[list[str]]:
    """The command lines run on one input."""
    f = str(path)
    if fmt in ("json", "battle"):
        other = out / ("c.battle" if fmt == "json" else "c.battle.json")
        png = out / "r.png"
        return [
            ["check", f],
            ["info", f],
            ["convert", f, str(other)],
            ["orders", f],
            ["log", f],
            ["replay", f, "--at", "end", "--png", str(png), "--width", "400"],
        ]
    written = out / "i.battle"
    extra = {"csv": ["--map", str(fc.LEVELS_MAP)], "xlsx": ["--map", str(fc.LEVELS_MAP)]}
    extra["fogofwar"] = ["--scenario-id", "18"]
    name = {"orbat": "orbat-mapper"}.get(fmt, fmt)
    return [
        ["import-oob", f, "--format", name, *extra.get(fmt, []), "--out", str(written), "--force"],
        ["check", str(written)],
        ["info", str(written)],
    ]


def run_one(fmt: str, seed: int, slot: Path, seeds: dict[str, list[Path]]) -> dict[str, Any]:
    """Make input ``seed`` of ``fmt`` in ``slot`` and run its commands in this process."""
    from battlestudio import cli

    rng = random.Random(seed)
    src = rng.choice(seeds[fmt])
    path = fc.mutate(fmt, src, slot / "in", rng)
    out = slot / "out"
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for argv in commands(fmt, path, out):
        if argv[0] in ("check", "info") and argv[1] == str(out / "i.battle") and not (out / "i.battle").exists():
            continue  # nothing was imported
        so, se = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(so), contextlib.redirect_stderr(se):
            try:
                code = cli.main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
            except BaseException as exc:  # noqa: BLE001 - main should have caught it
                code, se = 99, io.StringIO(f"escaped main: {type(exc).__name__}: {exc}")
        err = se.getvalue()
        lines = [ln for ln in err.splitlines() if ln.startswith("battlestudio: ")]
        if argv[0] == "check":  # a file that cannot be read: on stdout, in check's layout
            lines += [ln for ln in so.getvalue().splitlines() if ": error file: " in ln]
        if argv[0] == "import-oob":  # the import's own warnings, FILE:LINE: warning ...
            lines += [ln for ln in err.splitlines() if not ln.startswith("battlestudio: ")][:50]
        results.append({"argv": argv[0], "code": code, "lines": [ln[:400] for ln in lines]})
    return {"path": str(path), "results": results}


def _child(fmt: str, seed: int, slot: Path, seeds: dict[str, list[Path]], w: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))
    signal.alarm(int(SLOW_S * KILL_FACTOR))
    try:
        res = run_one(fmt, seed, slot, seeds)
    except BaseException as exc:  # noqa: BLE001 - the mutation itself failed
        res = {"path": "", "results": [], "harness": f"{type(exc).__name__}: {exc}"}
    data = json.dumps(res).encode("utf-8", "replace")
    view = memoryview(data)
    while view:
        n = os.write(w, view[:65536])
        view = view[n:]
    os._exit(0)


# -- the parent --------------------------------------------------------------------------------
def size_of(path: Path) -> int:
    """Bytes of the input (a folder: all its files)."""
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size if path.exists() else 0


def warm_up(work: Path) -> dict[str, list[Path]]:
    """Import everything, render one map (the Qt application exists before the forks) and make
    the seed files; return each format's seeds."""
    from battlestudio import cli, store
    from battlestudio.replay.battle import Battle
    from battlestudio.rules import load_event_types

    load_event_types()
    base = fc.seeds(work / "seeds")
    jena = store.load(fc.ROOT / "scenarios" / "jena-1806.battle.json")
    game = Battle(jena.scenario, list(jena.events[:300]), ruleset_record=jena.ruleset_record)  # a short game
    store.save(game, work / "seeds" / "game.battle.json")
    store.save(game, work / "seeds" / "game.battle")
    seeds = {k: [v] for k, v in base.items()}
    seeds["json"].append(work / "seeds" / "game.battle.json")
    seeds["battle"].append(work / "seeds" / "game.battle")
    with contextlib.redirect_stdout(io.StringIO()):
        cli.main(["replay", str(seeds["json"][1]), "--at", "end", "--png", str(work / "warm.png"), "--width", "400"])
    quiet_threads()
    return seeds


def quiet_threads(limit_s: float = 90.0) -> None:
    """Wait until this process has one thread: Qt's pooled threads (left by the render, ended
    after 30 s idle) may hold a lock when a child is forked, and the child then waits on it
    forever (the first run's three "hangs" at 0.09 s of CPU)."""
    end = time.monotonic() + limit_s
    while len(os.listdir("/proc/self/task")) > 1 and time.monotonic() < end:
        time.sleep(0.5)
    left = len(os.listdir("/proc/self/task"))
    if left > 1:
        print(f"  warning: {left} threads still run at the first fork", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--inputs", type=int, default=0, help="how many inputs (0: as many as --seconds allow)")
    ap.add_argument("--seconds", type=float, default=150)
    ap.add_argument("--formats", default=",".join(SIX))
    ap.add_argument("--seed", type=int, default=None, help="default: a fresh one, printed")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--keep", type=Path, default=None, help="folder for the inputs of findings")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    fmts = args.formats.split(",")
    work = Path(tempfile.mkdtemp(prefix="fuzz-"))
    keep = args.keep or work / "findings"
    keep.mkdir(parents=True, exist_ok=True)
    seeds = warm_up(work)
    rng = random.Random(seed)
    counts: dict[str, collections.Counter[str]] = {f: collections.Counter() for f in fmts}
    rules: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    slowest = {f: 0.0 for f in fmts}
    peak = {f: 0 for f in fmts}
    worst_ratio = {f: 0.0 for f in fmts}
    cpu_total = {f: 0.0 for f in fmts}
    running: dict[int, tuple[str, int, Path, int, float, bytearray]] = {}
    free = [work / f"slot{i}" for i in range(args.workers)]
    started = time.monotonic()
    n = 0

    def more() -> bool:  # until --inputs are made or --seconds have passed, whichever is first
        return (not args.inputs or n < args.inputs) and time.monotonic() - started < args.seconds

    def finding(kind: str, fmt: str, s: int, slot: Path, text: str) -> None:
        counts[fmt][kind] += 1
        examples.setdefault(f"{fmt} {kind}", text)
        dest = keep / f"{fmt}-{s}"
        if not dest.exists() and sum(1 for _ in keep.iterdir()) < 200:
            with contextlib.suppress(OSError):
                shutil.copytree(slot / "in", dest)
                (dest / "finding.txt").write_text(f"{kind}\n{text}\n", encoding="utf-8")

    stop = []

    def on_term(_sig: int, _frame: Any) -> None:  # finish the running children, then report
        stop.append(True)

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    reported = 0
    while running or (more() and not stop):
        done = sum(c["inputs"] for c in counts.values())
        if done - reported >= 500:
            reported = done
            print(f"  ... {done} inputs in {time.monotonic() - started:.0f} s", flush=True)
        while free and more() and not stop:
            fmt = fmts[n % len(fmts)]
            s = rng.getrandbits(48)
            n += 1
            slot = free.pop()
            shutil.rmtree(slot, ignore_errors=True)
            slot.mkdir(parents=True)
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.close(r)
                _child(fmt, s, slot, seeds, w)
            os.close(w)
            running[pid] = (fmt, s, slot, r, time.monotonic(), bytearray())
        fds = {v[3]: pid for pid, v in running.items()}
        try:
            ready, _, _ = select.select(list(fds), [], [], 1.0)
        except InterruptedError:
            continue
        for fd in ready:
            chunk = os.read(fd, 65536)
            pid = fds[fd]
            if chunk:
                running[pid][5].extend(chunk)
                continue
            fmt, s, slot, r, t0, buf = running.pop(pid)
            os.close(r)
            _, status, usage = os.wait4(pid, 0)
            wall = time.monotonic() - t0
            cpu = usage.ru_utime + usage.ru_stime
            free.append(slot)
            rss = usage.ru_maxrss * 1024
            slowest[fmt] = max(slowest[fmt], wall)
            peak[fmt] = max(peak[fmt], rss)
            counts[fmt]["inputs"] += 1
            try:
                res = json.loads(buf.decode("utf-8", "replace"))
            except ValueError:
                res = None
            in_path = Path(res["path"]) if res and res.get("path") else slot / "in"
            size = size_of(in_path)
            bound = MEM_PER_BYTE * size + MEM_BASE
            worst_ratio[fmt] = max(worst_ratio[fmt], rss / bound)
            if os.WIFSIGNALED(status):
                sig = os.WTERMSIG(status)
                finding("killed (hang)" if sig == signal.SIGALRM else f"killed (signal {sig})", fmt, s, slot, "")
                continue
            if res is None or "harness" in res:
                counts[fmt]["harness error"] += 1
                examples.setdefault(f"{fmt} harness error", (res or {}).get("harness", "no result"))
                continue
            cpu_total[fmt] += cpu
            if cpu > SLOW_S:
                finding(f"over {SLOW_S:.0f} s", fmt, s, slot, f"wall {wall:.1f} s, cpu {cpu:.1f} s")
            elif wall > SLOW_S:
                counts[fmt][f"wall over {SLOW_S:.0f} s (cpu under)"] += 1
            if rss > bound:
                finding("over memory bound", fmt, s, slot, f"peak {rss >> 20} MB, bound {bound >> 20} MB")
            names = [str(in_path), str(in_path.parent / "out" / "i.battle")]
            names += [str(slot / "out" / x) for x in ("c.battle", "c.battle.json", "r.png", "i.battle")]
            if fmt == "fogofwar":
                names += [str(p) for p in in_path.glob("*.csv")]
            first_ok = True
            for cmd in res["results"]:
                key = cmd["argv"]
                counts[fmt][f"{key} exit {cmd['code']}"] += 1
                if cmd["code"] not in (0, 1):
                    finding("bad exit code", fmt, s, slot, f"{key}: {cmd['code']}: {cmd['lines'][:1]}")
                for line in cmd["lines"]:
                    if "internal error" in line or "escaped main" in line:
                        finding("internal error", fmt, s, slot, f"{key}: {line}")
                        continue
                    rule = unclear(line, names)
                    if rule is not None:
                        rules[rule] += 1
                        with open(keep / "messages.txt", "a", encoding="utf-8") as log:
                            log.write(f"{fmt} {s} {key} [{rule}]: {line}\n")
                        finding("unclear message", fmt, s, slot, f"{key} [{rule}]: {line}")
                if key == "import-oob" and cmd["code"] != 0:
                    first_ok = False
            counts[fmt]["refused" if not first_ok or res["results"][0]["code"] else "read"] += 1

    took = time.monotonic() - started
    total = sum(c["inputs"] for c in counts.values())
    print(f"{total} mutated inputs in {took:.0f} s with {args.workers} workers (seed {seed}; findings: {keep})")
    for f in fmts:
        c = counts[f]
        bad = {k: v for k, v in c.items() if not (k.endswith(("exit 0", "exit 1")) or k in INFO_KEYS)}
        exits = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k.endswith(("exit 0", "exit 1")))
        print(
            f"  {f:9s} {c['inputs']} inputs: first command ok {c['read']}, refused {c['refused']}; "
            f"findings {dict(bad) or 'none'}; slowest {slowest[f]:.2f} s wall, "
            f"{cpu_total[f] / max(1, c['inputs']):.2f} s cpu an input; peak RSS {peak[f] >> 20} MB; "
            f"worst peak/bound {worst_ratio[f]:.2f}"
        )
        print(f"            exits: {exits}")
    if rules:
        print("  unclear messages by rule: " + ", ".join(f"{k} {v}" for k, v in rules.most_common()))
    for k, v in examples.items():
        print(f"  e.g. {k}: {v[:300]}")
    found = sum(
        v for c in counts.values() for k, v in c.items() if not (k.endswith(("exit 0", "exit 1")) or k in INFO_KEYS)
    )
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
