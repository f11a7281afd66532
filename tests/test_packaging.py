"""Packaging files: the Linux .desktop entry, AppStream metainfo and MIME types (validated with
desktop-file-validate, appstreamcli and update-mime-database when their Debian packages are
installed, and always checked for agreement with the app), the icons in every size, the
PyInstaller spec's inputs, the frozen-bundle branch of ``ui.resources`` and the bundle checker.

Debian packages for the external validators: desktop-file-utils, appstream, shared-mime-info.
"""

from __future__ import annotations

import configparser
import importlib
import importlib.util
import shutil
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from battlestudio import __version__

ROOT = Path(__file__).resolve().parents[1]
LINUX = ROOT / "packaging" / "linux"
APP_ID = "io.github.battlestudio.BattleStudio"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
MIME_XML = LINUX / f"{APP_ID}.xml"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _load(name: str):
    """A script of packaging/ as a module (``packaging`` is not a package, and PyPI has one)."""
    spec = importlib.util.spec_from_file_location(f"_bs_packaging_{name}", ROOT / "packaging" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


render_icons = _load("render_icons")
check_bundle = _load("check_bundle")


def _desktop_entry() -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def _mime_types() -> dict[str, list[str]]:
    root = ET.parse(MIME_XML).getroot()
    return {
        t.get("type"): [g.get("pattern") for g in t.findall(f"{MIME_NS}glob")]
        for t in root.findall(f"{MIME_NS}mime-type")
    }


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


# -- .desktop ------------------------------------------------------------------------------


def test_desktop_entry_launches_the_console_script_with_the_app_icon_and_mime_types():
    entry = _desktop_entry()
    assert entry["Type"] == "Application" and entry["Name"] == "BattleStudio"
    assert entry["Exec"] == "battlestudio %f"  # one file, as `battlestudio [FILE]` takes
    assert entry["TryExec"] in PROJECT["scripts"]
    assert entry["Icon"] == APP_ID
    assert entry["Terminal"] == "false"
    assert entry["MimeType"].endswith(";")
    assert sorted(entry["MimeType"].rstrip(";").split(";")) == sorted(_mime_types())
    assert "Game" in entry["Categories"].split(";")


def test_desktop_file_validate_accepts_the_entry():
    tool = shutil.which("desktop-file-validate")
    if tool is None:  # Debian package desktop-file-utils not installed: the structural checks stand
        test_desktop_entry_launches_the_console_script_with_the_app_icon_and_mime_types()
        return
    result = _run(tool, str(DESKTOP))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in (result.stdout + result.stderr).lower()


def test_app_sets_the_same_desktop_id():
    text = (ROOT / "src" / "battlestudio" / "ui" / "app.py").read_text(encoding="utf-8")
    assert f'DESKTOP_ID = "{APP_ID}"' in text


# -- AppStream ---------------------------------------------------------------------------


def test_metainfo_agrees_with_the_project_and_desktop_entry():
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.findtext("project_license") == PROJECT["license"]
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.find("launchable").text == DESKTOP.name
    releases = [r.get("version") for r in root.find("releases")]
    assert releases[0] == __version__  # newest first
    provides = root.find("provides")
    assert [b.text for b in provides.findall("binary")] == list(PROJECT["scripts"])
    assert sorted(m.text for m in provides.findall("mediatype")) == sorted(_mime_types())


def test_appstreamcli_validates_the_metainfo():
    tool = shutil.which("appstreamcli")
    if tool is None:  # Debian package appstream not installed: the agreement checks stand
        test_metainfo_agrees_with_the_project_and_desktop_entry()
        return
    result = _run(tool, "validate", "--no-net", str(METAINFO))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Validation was successful" in result.stdout


# -- MIME types ------------------------------------------------------------------------------


def test_mime_types_cover_both_document_suffixes():
    from battlestudio.ui.resources import SCENARIO_SUFFIXES

    globs = {g for patterns in _mime_types().values() for g in patterns}
    assert globs == {"*" + s for s in SCENARIO_SUFFIXES}
    root = ET.parse(MIME_XML).getroot()
    parents = {t.get("type"): t.find(f"{MIME_NS}sub-class-of").get("type") for t in root}
    assert parents == {
        "application/x-battlestudio-battle": "application/vnd.sqlite3",
        "application/x-battlestudio-battle+json": "application/json",
    }


def test_update_mime_database_maps_the_globs(tmp_path):
    tool = shutil.which("update-mime-database")
    if tool is None:  # Debian package shared-mime-info not installed: the XML checks stand
        test_mime_types_cover_both_document_suffixes()
        return
    (tmp_path / "packages").mkdir()
    shutil.copy(MIME_XML, tmp_path / "packages" / MIME_XML.name)
    result = _run(tool, str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    globs = {}
    for line in (tmp_path / "globs2").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            weight, mime, pattern = line.split(":")[:3]
            globs[pattern] = (int(weight), mime)
    assert globs["*.battle"][1] == "application/x-battlestudio-battle"
    assert globs["*.battle.json"] == (60, "application/x-battlestudio-battle+json")
    subclasses = (tmp_path / "subclasses").read_text(encoding="utf-8").split("\n")
    assert "application/x-battlestudio-battle application/vnd.sqlite3" in subclasses


# -- icons -------------------------------------------------------------------------------------


def _png_dims(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_svg_source_and_every_png_size():
    svg = ET.parse(ROOT / "resources" / "icons" / "battlestudio.svg").getroot()
    assert svg.get("viewBox") == "0 0 512 512"
    assert {16, 32, 48, 64, 128, 256, 512} <= set(render_icons.PNG_SIZES)
    for size in render_icons.PNG_SIZES:
        png = render_icons.png_path(size)
        assert _png_dims(png.read_bytes()) == (size, size), png


def test_ico_holds_the_committed_pngs():
    data = render_icons.ICO.read_bytes()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind, count) == (0, 1, len(render_icons.ICO_SIZES))
    for i, size in enumerate(sorted(render_icons.ICO_SIZES)):
        w, h, _, _, planes, bits, length, offset = struct.unpack("<BBBBHHII", data[6 + 16 * i : 22 + 16 * i])
        assert (w or 256, h or 256, planes, bits) == (size, size, 1, 32)
        assert data[offset : offset + length] == render_icons.png_path(size).read_bytes()


def test_icns_holds_each_size_as_png():
    data = render_icons.ICNS.read_bytes()
    assert data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data)
    found, pos = {}, 8
    while pos < len(data):
        kind, length = data[pos : pos + 4].decode("ascii"), struct.unpack(">I", data[pos + 4 : pos + 8])[0]
        found[kind] = _png_dims(data[pos + 8 : pos + length])
        pos += length
    assert found == {t: (s, s) for t, s in render_icons.ICNS_TYPES}


def test_ico_and_icns_writers_round_trip_sizes():
    pngs = {s: render_icons.png_path(s).read_bytes() for s in (16, 256)}
    ico = render_icons.ico_bytes(pngs)
    assert struct.unpack("<BB", ico[6:8]) == (16, 16) and struct.unpack("<BB", ico[22:24]) == (0, 0)
    icns = render_icons.icns_bytes([("icp4", pngs[16])])
    assert icns[8:12] == b"icp4" and struct.unpack(">I", icns[12:16])[0] == 8 + len(pngs[16])


# -- PyInstaller spec and the frozen bundle -----------------------------------------------


def test_spec_inputs_exist():
    spec = (ROOT / "packaging" / "battlestudio.spec").read_text(encoding="utf-8")
    assert '"battlestudio/resources"' in spec and '"battlestudio/scenarios"' in spec
    assert 'copy_metadata("battlestudio")' in spec and 'collect_submodules("battlestudio")' in spec
    for rel in (
        "packaging/battlestudio_entry.py",
        "packaging/windows/battlestudio.ico",
        "packaging/macos/battlestudio.icns",
        "scenarios/SOURCES.md",
    ):
        assert (ROOT / rel).is_file(), rel
    assert sorted((ROOT / "scenarios").glob("*.battle.json"))
    entry = (ROOT / "packaging" / "battlestudio_entry.py").read_text(encoding="utf-8")
    assert "from battlestudio.cli import main" in entry


def test_build_script_is_valid_bash():
    result = _run("bash", "-n", str(ROOT / "packaging" / "build.sh"))
    assert result.returncode == 0, result.stderr


@pytest.fixture
def frozen_bundle(tmp_path, monkeypatch):
    """``ui.resources`` reloaded as inside a PyInstaller bundle unpacked at ``tmp_path``."""
    from battlestudio.ui import resources

    base = tmp_path / "battlestudio"
    (base / "resources" / "icons").mkdir(parents=True)
    (base / "resources" / "icons" / "battlestudio.svg").write_bytes(
        (ROOT / "resources" / "icons" / "battlestudio.svg").read_bytes()
    )
    (base / "scenarios").mkdir()
    for name in ("elchingen-1805.battle.json", "jena-1806.battle.json"):
        (base / "scenarios" / name).write_bytes((ROOT / "scenarios" / name).read_bytes())
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    importlib.reload(resources)
    yield resources, base
    monkeypatch.undo()
    importlib.reload(resources)


def test_resources_are_found_inside_a_frozen_bundle(frozen_bundle):
    resources, base = frozen_bundle
    assert resources.resources_dir() == base / "resources"
    assert resources.scenarios_dir() == base / "scenarios"
    assert resources.default_scenario() == base / "scenarios" / "elchingen-1805.battle.json"
    assert resources.resource("icons", "battlestudio.svg") == base / "resources" / "icons" / "battlestudio.svg"


def test_resources_outside_a_bundle_are_the_checkouts():
    from battlestudio.ui import resources

    assert not getattr(sys, "frozen", False)
    assert resources.scenarios_dir() in (ROOT / "scenarios", Path(resources.__file__).parents[1] / "scenarios")


# -- the bundle checker ------------------------------------------------------------------------


def test_check_bundle_reads_the_source_version_and_png_sizes():
    assert check_bundle.source_version() == __version__
    assert check_bundle.png_size(render_icons.png_path(48)) == (48, 48)
    with pytest.raises(ValueError, match="not a PNG"):
        check_bundle.png_size(ROOT / "resources" / "icons" / "battlestudio.svg")


def test_check_bundle_fails_clearly_without_a_bundle(tmp_path, capsys):
    assert check_bundle.main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "no bundled executable" in out and "packaging/build.sh" in out
    assert "0 passed, 1 failed" in out


# -- Linux per-user install ------------------------------------------------------------------


def _install(tmp_path: Path, dist: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = dict(os.environ, PREFIX=str(tmp_path / "prefix"), DIST=str(dist), HOME=str(tmp_path / "home"))
    return subprocess.run(["bash", str(LINUX / "install.sh")], capture_output=True, text=True, env=env, timeout=120)


def test_install_puts_bundle_entry_icons_and_mime_types_under_the_prefix(tmp_path):
    dist = tmp_path / "BattleStudio"
    (dist / "_internal").mkdir(parents=True)
    (dist / "battlestudio").write_text("#!/bin/sh\necho BattleStudio 0.1.0\n")
    (dist / "battlestudio").chmod(0o755)
    result = _install(tmp_path, dist)
    assert result.returncode == 0, result.stdout + result.stderr
    prefix = tmp_path / "prefix"
    share = prefix / "share"
    link = prefix / "bin" / "battlestudio"
    assert link.is_symlink() and link.resolve() == prefix / "lib" / "battlestudio" / "battlestudio"
    assert subprocess.run([str(link)], capture_output=True, text=True).stdout.strip() == "BattleStudio 0.1.0"
    desktop = (share / "applications" / DESKTOP.name).read_text(encoding="utf-8")
    assert f"Exec={link} %f" in desktop.splitlines() and f"TryExec={link}" in desktop.splitlines()
    for size in render_icons.PNG_SIZES:
        icon = share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        assert icon.read_bytes() == render_icons.png_path(size).read_bytes()
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    manifest = (prefix / "lib" / "battlestudio" / "install-manifest.txt").read_text().split()
    assert len(manifest) == 4 + len(render_icons.PNG_SIZES) + 1 and all(Path(p).exists() for p in manifest)
    if shutil.which("update-mime-database"):
        assert "application/x-battlestudio-battle:*.battle" in (share / "mime" / "globs2").read_text()
    if shutil.which("desktop-file-validate"):
        check = _run("desktop-file-validate", str(share / "applications" / DESKTOP.name))
        assert check.returncode == 0, check.stdout + check.stderr


def test_install_without_a_bundle_says_how_to_build_it(tmp_path):
    result = _install(tmp_path, tmp_path / "nothing")
    assert result.returncode == 2
    assert "nothing/battlestudio not found" in result.stderr and "packaging/build.sh" in result.stderr
    assert not (tmp_path / "prefix" / "bin").exists()
