"""The ``battlestudio`` command line: check, info, convert, open, --version/--help, and the
promise that bad input never shows a traceback (issue 2 item 6)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest
from shapely.geometry import box

from battlestudio import __version__, store
from battlestudio.cli import COMMANDS, main
from battlestudio.store.codec import SCHEMA_VERSION
from battlestudio.model import Commander, DeploymentZone, Order, Reinforcement, TownZone, Unit
from tests.store.conftest import jena_battle

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def jena_file(tmp_path):
    path = tmp_path / "jena.battle"
    store.save(jena_battle(), path)
    return path


def test_version_and_help(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"battlestudio {__version__}"
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for c in COMMANDS:
        assert c.name in out
    assert main(["check", "--help"]) == 0
    assert "file" in capsys.readouterr().out


def test_info_text(jena_file, capsys):
    assert main(["info", str(jena_file)]) == 0
    out = capsys.readouterr().out
    assert "Jena 1806 (1806-10-14, Jena), ruleset toe" in out
    assert "side french (Grande Armée): 3 commanders, 4 units, 8360 men, 8 guns; artillery 1, infantry 3" in out
    assert "commanders 5: c_in_c 2, corps 3" in out
    assert "terrain features 6:" in out and "town zones 2" in out
    assert "turns 40; game log: 6 events up to turn 1" in out


def test_info_json(jena_file, capsys):
    assert main(["info", str(jena_file), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    expected = {
        "commanders": 5,
        "units": 6,
        "men": 10440,
        "guns": 8,
        "terrain_features": 6,
        "town_zones": 2,
        "turns": 40,
        "events": 6,
    }
    for key, value in expected.items():
        assert type(info[key]) is int and info[key] == value, key
    assert info["sides"]["prussian"] == {
        "name": "Prussian army",
        "commanders": 2,
        "units": 2,
        "men": 2080,
        "guns": 0,
        "horses": 480,
        "units_per_arm": {"cavalry": 1, "infantry": 1},
    }
    assert info["arms"]["artillery"] == {"units": 1, "men": 160, "guns": 8, "horses": 0}
    assert sum(a["units"] for a in info["arms"].values()) == info["units"]
    assert sum(s["men"] for s in info["sides"].values()) == info["men"]


def test_check_clean_file(jena_file, capsys):
    assert main(["check", str(jena_file)]) == 0
    out = capsys.readouterr()
    assert out.out == ""  # stdout holds problems only, for scripts
    assert out.err.strip() == f"{jena_file}: no problems ({len(jena_battle().events)} events replayed)"


def test_check_reports_every_problem_with_file_what_where(tmp_path, capsys):
    b = jena_battle()
    s = b.scenario
    s.orders["o-ghost"] = Order("o-ghost", "murat", "lannes", "A")
    s.reinforcements["r-ghost"] = Reinforcement("r-ghost", "french", "bernadotte", 10, 6, (120.0, 500.0))
    s.deployment_zones["dz-ghost"] = DeploymentZone(
        "dz-ghost", "french", "Bernadotte's", box(0, 0, 10, 10), formation="bernadotte"
    )
    s.units["vedel"] = replace(s.units["vedel"], position=(250.0, 60.0))
    s.units["lannes"] = Unit("lannes", "A unit named like a marshal", "french", position=(10.0, 10.0))
    s.units[""] = Unit("", "Nameless", "french", position=(10.0, 10.0))
    s.commanders["murat"] = Commander("murat", "Murat", "bavarian", echelon="corps", position=(5.0, 5.0))
    s.towns["lutzeroda"] = TownZone("lutzeroda", "Lützeroda", box(125, 115, 140, 130))
    path = tmp_path / "broken.battle.json"
    store.save(b, path)
    assert main(["check", str(path)]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    f = str(path)
    expected = [
        f"{f}: error id.empty: units['']: the id is empty",
        f"{f}: error id.duplicate: commanders['lannes']: id 'lannes' is also used in units",
        f"{f}: error commander.unknown_side: commanders['murat'].side: side 'bavarian' does not exist",
        f"{f}: error reinforcement.unknown_formation: reinforcements['r-ghost'].formation: no commander or unit "
        "'bernadotte' exists",
        f"{f}: error reinforcement.window: reinforcements['r-ghost'].earliest_turn: turns 10–6 is empty or starts "
        "before turn 1",
        f"{f}: error reinforcement.entry_off_table: reinforcements['r-ghost'].entry_point: (120, 500) cm is off the "
        "240 × 180 cm table",
        f"{f}: error deployment_zone.unknown_formation: deployment_zones['dz-ghost'].formation: commander "
        "'bernadotte' does not exist",
        f"{f}: error unit.off_table: units['vedel'].position: (250, 60) cm puts Vedel's brigade's footprint "
        "(x 242.0–258.0, y 55.5–60.0 cm) off the 240 × 180 cm table",
        f"{f}: error town.overlap: towns['closewitz'].polygon: overlaps town zone 'lutzeroda' by 156.2 cm²",
        f"{f}: warning commander.idle: oob['murat']: Murat commands nobody",
    ]
    for line in expected:
        assert line in lines, (line, lines)
    assert f"{f}: error oob.unit_no_commander: oob: unit '' has no commander" in lines
    assert all(line.startswith(f"{f}: error ") or line.startswith(f"{f}: warning ") for line in lines)
    kinds = [line.split()[1] for line in lines]
    assert kinds == sorted(kinds)  # errors first
    assert err == f"{f}: {kinds.count('error')} error(s), {kinds.count('warning')} warning(s)\n"


def test_check_warnings_alone_exit_0_and_are_printed(tmp_path, capsys):
    b = jena_battle()
    r = b.scenario.reinforcements["r-soult"]
    b.scenario.reinforcements["r-soult"] = replace(r, earliest_turn=41, latest_turn=45)  # after the last turn
    path = tmp_path / "late.battle.json"
    store.save(b, path)
    assert main(["check", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == (
        f"{path}: warning reinforcement.after_last_turn: reinforcements['r-soult'].earliest_turn: 41, "
        "after the last turn (40); it never arrives\n"
    )
    assert err == f"{path}: 0 error(s), 1 warning(s)\n"


def test_check_broken_file_is_one_line(tmp_path, capsys):
    path = tmp_path / "bad.battle.json"
    doc = json.loads(store.json_format.dumps(jena_battle()))
    doc["units"][3]["facing"] = "north"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out == f'{path}: error file: units[3].facing: expected a number, got "north"\n'


def test_convert_json_battle_json_is_identical(tmp_path, capsys):
    sources = sorted((REPO / "scenarios").glob("*.battle.json"))
    store.save(jena_battle(), tmp_path / "jena.battle.json")
    for src in [tmp_path / "jena.battle.json", *sources]:
        assert main(["convert", str(src), str(tmp_path / "x.battle")]) == 0
        assert main(["convert", str(tmp_path / "x.battle"), str(tmp_path / "y.battle.json")]) == 0
        assert (tmp_path / "y.battle.json").read_bytes() == src.read_bytes(), src
    assert capsys.readouterr().err == ""


def test_convert_errors(tmp_path, jena_file, capsys):
    assert main(["convert", str(jena_file), str(tmp_path / "out.xlsx")]) == 2
    assert "out.xlsx: unknown file type" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "missing.battle"), str(tmp_path / "o.battle.json")]) == 1
    assert capsys.readouterr().err == f"battlestudio: {tmp_path / 'missing.battle'}: no such file\n"
    assert main(["convert", str(jena_file), str(tmp_path / "no-such-dir" / "o.battle.json")]) == 1
    err = capsys.readouterr().err
    out = tmp_path / "no-such-dir" / "o.battle.json"  # the target is named, not the temp file
    assert err == f"battlestudio: {out}: the folder {out.parent} does not exist\n"
    assert not (tmp_path / "o.battle.json").exists()


def test_open_calls_the_ui_lazily(monkeypatch, jena_file):
    calls = []
    fake = types.ModuleType("battlestudio.ui.app")
    fake.run = lambda path: calls.append(path) or 0
    monkeypatch.setitem(sys.modules, "battlestudio.ui.app", fake)
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    import battlestudio.ui as ui_pkg

    monkeypatch.setattr(ui_pkg, "app", fake, raising=False)
    assert main([str(jena_file)]) == 0
    assert main([]) == 0
    assert main(["open", str(jena_file)]) == 0
    assert calls == [str(jena_file), None, str(jena_file)]


def test_open_without_the_ui_module_says_so(monkeypatch, jena_file, capsys):
    monkeypatch.setitem(sys.modules, "battlestudio.ui.app", None)  # import fails
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    import battlestudio.ui as ui_pkg

    monkeypatch.delattr(ui_pkg, "app", raising=False)
    assert main([str(jena_file)]) == 1
    assert capsys.readouterr().err.startswith("battlestudio: the BattleStudio window cannot start: ")


def test_unknown_command_and_missing_file_for_open(tmp_path, capsys):
    assert main(["frobnicate"]) == 2
    assert "unknown command or file 'frobnicate'" in capsys.readouterr().err
    assert main([str(tmp_path / "nothing.battle")]) == 1
    assert "nothing.battle: no such file" in capsys.readouterr().err


def _bad_inputs(tmp: Path) -> list[list[str]]:
    (tmp / "empty.battle").write_bytes(b"")
    (tmp / "noise.battle").write_bytes(os.urandom(3000))
    (tmp / "noise.battle.json").write_bytes(b"\xff\xfe" + os.urandom(300))
    (tmp / "trunc.battle.json").write_text(
        '{"format": "battlestudio", "schema_version": 1, "units": [', encoding="utf-8"
    )
    (tmp / "dir.battle").mkdir()
    con = sqlite3.connect(tmp / "foreign.battle")
    con.execute("CREATE TABLE scenario (id INTEGER)")
    con.commit()
    con.close()
    store.save(jena_battle(), tmp / "ok.battle")
    con = sqlite3.connect(tmp / "newer.battle")
    con.close()
    Path(tmp / "newer.battle").write_bytes(Path(tmp / "ok.battle").read_bytes())
    con = sqlite3.connect(tmp / "newer.battle")
    con.execute(f"UPDATE meta SET value = '{SCHEMA_VERSION + 1}' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    files = [
        "empty.battle",
        "noise.battle",
        "noise.battle.json",
        "trunc.battle.json",
        "dir.battle",
        "foreign.battle",
        "newer.battle",
        "missing.battle.json",
    ]
    runs = [[cmd, str(tmp / f)] for f in files for cmd in ("check", "info")]
    runs += [["convert", str(tmp / f), str(tmp / "out.battle.json")] for f in files]
    runs += [
        ["convert", str(tmp / "ok.battle"), str(tmp / "nodir" / "x.battle")],
        ["convert", str(tmp / "ok.battle")],
        ["info", "--jsn", str(tmp / "ok.battle")],
        ["check"],
        ["--bogus"],
        ["frob"],
    ]
    return runs


def test_bad_input_gives_one_line_and_an_exit_code(tmp_path, capsys, monkeypatch):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    for argv in _bad_inputs(tmp_path):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code in (1, 2), (argv, code, err)
        said = (out + err).strip().splitlines()
        assert said and len(said) <= 2, (argv, said)  # a message (plus the usage line for usage errors)
        assert "Traceback" not in out + err
    assert not (tmp_path / "out.battle.json").exists()


def test_no_traceback_reaches_the_user_of_the_real_command(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), str(REPO)])  # this tree, not an installed one
    runs = _bad_inputs(tmp_path)
    sample = [
        runs[2],
        runs[11],
        runs[-8],
        runs[-2],
        [str(tmp_path / "ok.battle")],
    ]  # noise, foreign, newer, usage, no display
    for argv in sample:
        done = subprocess.run(
            [sys.executable, "-m", "battlestudio", *argv], capture_output=True, text=True, env=env, timeout=120
        )
        assert done.returncode in (1, 2), (argv, done.returncode, done.stderr)
        assert "Traceback" not in done.stderr + done.stdout, (argv, done.stderr)
        lines = (done.stdout + done.stderr).strip().splitlines()
        assert len(lines) in (1, 2), (argv, done.stderr)  # one line saying what is wrong (usage: two)
        # it names the file given, or the command's usage, or (the window) the missing display
        files = [a for a in argv if a.startswith(str(tmp_path))]
        named = any(f in "\n".join(lines) for f in files)
        assert named or lines[0].startswith("usage:") or "no display to open the window on" in lines[0], (argv, lines)
