"""Check a built BattleStudio bundle by running its executable the way a user would.

    python3 packaging/check_bundle.py [DIST]     # DIST defaults to dist/BattleStudio

Standard library only, so any Python 3.11+ runs it (the build venv's, or the system's). Each
check runs the bundled executable in a scratch directory, with a scratch HOME and Qt on its
``offscreen`` platform, so neither the source checkout nor the user's settings can make it pass:

  version   ``battlestudio --version`` exits 0 and prints the version of src/battlestudio
  check     ``battlestudio check <bundled jena-1806.battle.json>`` exits 0
  info      ``battlestudio info <bundled scenario> --json`` prints JSON with its units and men
  badfile   ``battlestudio check`` on a truncated copy exits non-zero, names the file, and
            prints no Python traceback
  replay    ``battlestudio replay <bundled scenario> --at 1 --png OUT.png`` writes a PNG
  gui       ``battlestudio <bundled scenario>`` starts the editor and is still running after
            a few seconds (it is then stopped)

Prints one PASS/FAIL line per check and a closing ``N passed, N failed``; exits 1 if any failed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = "jena-1806.battle.json"
TIMEOUT = 120  # seconds for one command (the first start of a bundle unpacks nothing but is cold)
GUI_ALIVE = 6  # seconds the editor must stay up


def find_executable(dist: Path) -> Path:
    """The console executable of the bundle in ``dist`` (Linux, Windows or a macOS .app).

    Raises
    ------
    FileNotFoundError
        naming ``dist`` and the names tried.
    """
    names = ["battlestudio", "battlestudio-cli.exe", "BattleStudio.app/Contents/MacOS/battlestudio"]
    for name in names:
        p = dist / name
        if p.is_file():
            return p
    raise FileNotFoundError(f"{dist}: no bundled executable (looked for {', '.join(names)}); run packaging/build.sh")


def bundled_file(dist: Path, name: str) -> Path:
    """The copy of a bundled scenario inside the bundle (not the checkout's)."""
    for p in sorted(dist.rglob(name)):
        if p.parent.name == "scenarios":
            return p
    raise FileNotFoundError(f"{dist}: the bundle holds no scenarios/{name}")


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) of a PNG file, read from its IHDR chunk.

    Raises
    ------
    ValueError
        if ``path`` is not a PNG.
    """
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise ValueError(f"{path}: not a PNG file")
    return struct.unpack(">II", head[16:24])


def source_version() -> str:
    """``__version__`` as written in src/battlestudio/__init__.py."""
    text = (ROOT / "src" / "battlestudio" / "__init__.py").read_text(encoding="utf-8")
    m = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', text, re.M)
    if not m:
        raise ValueError("src/battlestudio/__init__.py: no __version__")
    return m.group(1)


class Checker:
    """Runs the bundle's commands in a scratch directory and records each outcome."""

    def __init__(self, exe: Path, scratch: Path) -> None:
        self.exe = exe
        self.scratch = scratch
        home = scratch / "home"
        home.mkdir()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "QT_"))}
        self.env.update(
            QT_QPA_PLATFORM="offscreen",
            HOME=str(home),
            USERPROFILE=str(home),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_DATA_HOME=str(home / ".local/share"),
            XDG_CACHE_HOME=str(home / ".cache"),
            XDG_RUNTIME_DIR=str(home / "run"),
        )
        (home / "run").mkdir(mode=0o700)
        self.results: list[tuple[str, bool, str]] = []

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.exe), *args],
            cwd=self.scratch,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )

    def record(self, name: str, ok: bool, detail: str) -> None:
        self.results.append((name, ok, detail))
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)

    def check(self, name: str, fn) -> None:
        start = time.monotonic()
        try:
            ok, detail = fn()
        except Exception as exc:  # a check that cannot even run is a failed check
            ok, detail = False, f"{type(exc).__name__}: {exc}"
        self.record(name, ok, f"{detail} ({time.monotonic() - start:.1f} s)")


def _output(p: subprocess.CompletedProcess[str]) -> str:
    text = (p.stdout + p.stderr).strip()
    return text if len(text) < 1500 else text[:1500] + " ..."


def main(argv: list[str]) -> int:
    dist = Path(argv[0]).resolve() if argv else ROOT / "dist" / "BattleStudio"
    try:
        exe = find_executable(dist)
        scenario = bundled_file(dist, SCENARIO)
    except FileNotFoundError as exc:
        print(f"FAIL bundle: {exc}")
        print("0 passed, 1 failed")
        return 1
    print(f"bundle: {exe}\nscenario: {scenario}", flush=True)
    scratch = Path(tempfile.mkdtemp(prefix="battlestudio-check-"))
    c = Checker(exe, scratch)
    version = source_version()

    def check_version():
        p = c.run("--version")
        return p.returncode == 0 and version in p.stdout, f"exit {p.returncode}: {_output(p)}"

    def check_check():
        p = c.run("check", str(scenario))
        return p.returncode == 0, f"exit {p.returncode}: {_output(p)}"

    def check_info():
        p = c.run("info", str(scenario), "--json")
        if p.returncode != 0:
            return False, f"exit {p.returncode}: {_output(p)}"
        data = json.loads(p.stdout)
        ok = isinstance(data.get("units"), int) and data["units"] > 0 and data.get("men", 0) > 0
        return ok, f"units={data.get('units')} men={data.get('men')} commanders={data.get('commanders')}"

    def check_badfile():
        bad = scratch / "truncated.battle.json"
        bad.write_bytes(scenario.read_bytes()[:5000])
        p = c.run("check", str(bad))
        out = _output(p)
        ok = p.returncode != 0 and "Traceback" not in out and "truncated.battle.json" in out
        return ok, f"exit {p.returncode}: {out}"

    def check_replay():
        out = scratch / "jena-turn1.png"
        p = c.run("replay", str(scenario), "--at", "1", "--png", str(out))
        if p.returncode != 0 or not out.exists():
            return (
                False,
                f"exit {p.returncode}, {out.name} {'written' if out.exists() else 'not written'}: {_output(p)}",
            )
        w, h = png_size(out)
        return w > 0 and h > 0, f"{out.name} {w}x{h} px, {out.stat().st_size} bytes"

    def check_gui():
        log = (scratch / "gui.log").open("w+")
        proc = subprocess.Popen(
            [str(exe), str(scenario)], cwd=scratch, env=c.env, stdout=log, stderr=log, stdin=subprocess.DEVNULL
        )
        try:
            code = proc.wait(timeout=GUI_ALIVE)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            return True, f"editor still running after {GUI_ALIVE} s, stopped"
        finally:
            log.seek(0)
            text = log.read().strip()
            log.close()
        return False, f"editor exited with {code} within {GUI_ALIVE} s: {text[:1500]}"

    for name, fn in (
        ("version", check_version),
        ("check", check_check),
        ("info", check_info),
        ("badfile", check_badfile),
        ("replay", check_replay),
        ("gui", check_gui),
    ):
        c.check(name, fn)

    shutil.rmtree(scratch, ignore_errors=True)
    failed = sum(1 for _, ok, _ in c.results if not ok)
    print(f"{len(c.results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
