#!/usr/bin/env python3
"""Set up BattleStudio in ./.venv and run it or its tests: needs nothing but Python 3.11+.

    python3 dev.py run [FILE]        install (if needed) and open FILE, default the bundled Jena 1806
    python3 dev.py test [ARGS]       install with the test extras (if needed) and run pytest ARGS
    python3 dev.py test-pure [ARGS]  run the Qt-free tests in ./.venv-noqt, a venv without PySide6
    python3 dev.py lint              ruff check, ruff format --check and mypy, from ./.venv

The virtual environments are refreshed whenever pyproject.toml changes. On Linux the Debian
libraries Qt needs are checked; when missing they are installed with apt-get if we are root,
otherwise the exact command to install them is printed.

``test-pure`` proves the layers below ``ui`` need no Qt: ``.venv-noqt`` holds the project's
dependencies and test extras as pyproject.toml lists them, less PySide6 and pytest-qt (and the
linters), and runs every test but ``QT_TESTS``; a test there that imports Qt fails to import.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
SCENARIOS = ("jena-1806.battle.json", "elchingen-1805.battle.json")

NOQT_VENV = ROOT / ".venv-noqt"
NOQT_PY = NOQT_VENV / ("Scripts" if os.name == "nt" else "bin") / ("python.exe" if os.name == "nt" else "python")
QT_TESTS = ("tests/ui", "tests/test_packaging.py")
"""The tests that need Qt (the window, the packaged app); every other test runs in test-pure."""
QT_REQUIREMENTS = ("pyside6", "pytest-qt")
"""Requirements (by name prefix) left out of .venv-noqt."""
LINTERS = ("ruff", "mypy")
"""Test extras test-pure does not need (``lint`` runs them from .venv)."""

# Debian packages whose shared libraries Qt's offscreen and xcb platform plugins load.
QT_DEBIAN_LIBS = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libdbus-1.so.3": "libdbus-1-3",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libglib-2.0.so.0": "libglib2.0-0",
}


def say(msg: str) -> None:
    print(f"[dev.py] {msg}", flush=True)


def ensure_qt_libraries() -> None:
    """Install (as root) or name the Debian libraries Qt needs, on Linux only."""
    if not sys.platform.startswith("linux") or not shutil.which("ldconfig") and not Path("/sbin/ldconfig").exists():
        return
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    try:
        known = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=False).stdout
    except OSError:
        return
    missing = sorted({pkg for lib, pkg in QT_DEBIAN_LIBS.items() if lib not in known})
    if not missing:
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        say(f"installing the libraries Qt needs: {' '.join(missing)}")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True, env=env)
    else:
        say("Qt needs these system libraries; install them with:")
        say(f"  sudo apt-get install {' '.join(missing)}")


def ensure_venv(extras: str) -> None:
    """Create .venv and install the project (editable) with ``extras`` when pyproject changed.
    An install with the test extras also serves the plain one (it holds every dependency)."""
    fresh = not PY.exists()
    if fresh:
        say(f"creating {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    pyproject = (ROOT / "pyproject.toml").read_bytes()

    def installed(name: str) -> bool:
        stamp = VENV / f".installed-{name or 'base'}"
        return stamp.exists() and stamp.read_text() == hashlib.sha256(pyproject + name.encode()).hexdigest()

    if installed(extras) or (not extras and installed("test")):
        return
    digest = hashlib.sha256(pyproject + extras.encode()).hexdigest()
    stamp = VENV / f".installed-{extras or 'base'}"
    target = f"{ROOT}[{extras}]" if extras else str(ROOT)
    why = "first time takes a minute" if fresh else "pyproject.toml changed or extras added"
    say(f"installing BattleStudio{f' with [{extras}]' if extras else ''} into {VENV} ({why})")
    subprocess.run([str(PY), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([str(PY), "-m", "pip", "install", "-q", "-e", target], check=True)
    stamp.write_text(digest)


def requirement_name(req: str) -> str:
    """The normalised project name of a requirement string: ``"PySide6-Essentials>=6.6"`` ->
    ``"pyside6-essentials"``."""
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    if m is None:
        raise ValueError(f"pyproject.toml: cannot read the requirement {req!r}")
    return re.sub(r"[-_.]+", "-", m.group(1)).lower()


def noqt_requirements() -> list[str]:
    """The dependencies and test extras of pyproject.toml, less Qt and the linters."""
    import tomllib  # Python 3.11+, checked in main

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    return [
        r for r in reqs if not requirement_name(r).startswith(QT_REQUIREMENTS) and requirement_name(r) not in LINTERS
    ]


def ensure_noqt_venv() -> None:
    """Create .venv-noqt and install ``noqt_requirements()`` and the project (editable, without
    its dependencies) when pyproject.toml changed."""
    if not NOQT_PY.exists():
        say(f"creating {NOQT_VENV}")
        venv.EnvBuilder(with_pip=True).create(NOQT_VENV)
    stamp = NOQT_VENV / ".installed-noqt"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + b"noqt").hexdigest()
    if not (stamp.exists() and stamp.read_text() == digest):
        reqs = noqt_requirements()
        say(f"installing BattleStudio without Qt into {NOQT_VENV}: {', '.join(map(requirement_name, reqs))}")
        subprocess.run([str(NOQT_PY), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
        subprocess.run([str(NOQT_PY), "-m", "pip", "install", "-q", *reqs], check=True)
        subprocess.run([str(NOQT_PY), "-m", "pip", "install", "-q", "--no-deps", "-e", str(ROOT)], check=True)
        stamp.write_text(digest)
    # a dependency pulling Qt in would make the run prove nothing
    probe = "import importlib.util as u, sys; sys.exit(u.find_spec('PySide6') is not None)"
    if subprocess.run([str(NOQT_PY), "-c", probe], check=False).returncode != 0:
        raise SystemExit(f"[dev.py] PySide6 is installed in {NOQT_VENV}: some dependency pulls it in")


def default_scenario() -> str | None:
    for name in SCENARIOS:
        path = ROOT / "scenarios" / name
        if path.exists():
            return str(path)
    return None


def cmd_run(args: list[str]) -> int:
    ensure_qt_libraries()
    ensure_venv("")
    env = dict(os.environ)
    if sys.platform.startswith("linux") and not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        if not env.get("QT_QPA_PLATFORM"):
            say(
                "no display found (DISPLAY/WAYLAND_DISPLAY unset): starting offscreen, so no window "
                "will be visible (Ctrl+C stops it). Run under a desktop session or xvfb-run to see it."
            )
            env["QT_QPA_PLATFORM"] = "offscreen"
    files = args or ([default_scenario()] if default_scenario() else [])
    return subprocess.call([str(PY), "-m", "battlestudio", *files], env=env)


def cmd_test(args: list[str]) -> int:
    ensure_qt_libraries()
    ensure_venv("test")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.call([str(PY), "-m", "pytest", *args], env=env, cwd=ROOT)


def cmd_test_pure(args: list[str]) -> int:
    ensure_noqt_venv()
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)
    ignore = [f"--ignore={path}" for path in QT_TESTS]
    return subprocess.call([str(NOQT_PY), "-m", "pytest", *ignore, *args], env=env, cwd=ROOT)


def cmd_lint(args: list[str]) -> int:
    """ruff check, ruff format --check and mypy (pyproject.toml configures all three); each runs
    even when one before it failed, and the exit status is 1 if any did."""
    ensure_venv("test")
    failed = []
    for name, cmd in (
        ("ruff check", [str(BIN / "ruff"), "check", "--output-format", "concise", *(args or ["."])]),
        ("ruff format --check", [str(BIN / "ruff"), "format", "--check", *(args or ["."])]),
        ("mypy", [str(BIN / "mypy")]),
    ):
        say(f"{name}")
        if subprocess.call(cmd, cwd=ROOT) != 0:
            failed.append(name)
    if failed:
        say(f"lint failed: {', '.join(failed)}")
        return 1
    say("lint passed")
    return 0


COMMANDS = {"run": cmd_run, "test": cmd_test, "test-pure": cmd_test_pure, "lint": cmd_lint}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip())
        return 2
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs under any python3, before a venv exists
        say(f"BattleStudio needs Python 3.11 or newer; this is {sys.version.split()[0]}")
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
