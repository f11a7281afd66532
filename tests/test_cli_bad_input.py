"""Bad input found by a tester from a clean clone: every one ends in one line naming file,
field and value, with the exit code the cli module promises (1 bad input, 2 bad usage), and
no existing file is damaged."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from battlestudio import store
from battlestudio.cli import main
from battlestudio.store.json_format import dumps
from tests.store.conftest import jena_battle


@pytest.fixture
def jena_file(tmp_path):
    path = tmp_path / "jena.battle"
    store.save(jena_battle(), path)
    return path


def _doc_file(tmp_path, edit, name="bad.battle.json"):
    doc = json.loads(dumps(jena_battle()))
    edit(doc)
    p = tmp_path / name
    p.write_text(json.dumps(doc), encoding="utf-8")
    return p


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    return err[0]


# -- 1. values that load but crash other commands -------------------------------------------
@pytest.mark.parametrize("command", [["check"], ["info"], ["orders"], ["export-map", "--out", "x.png"],
                                     ["report", "--out", "x.html"], ["log"]])
def test_negative_figures_are_named_by_every_command(tmp_path, capsys, command):
    bad = _doc_file(tmp_path, lambda d: d["units"][0].__setitem__("figures", -3))
    argv = [command[0], str(bad), *[str(tmp_path / a) if a.startswith("x.") else a for a in command[1:]]]
    assert main(argv) == 1
    out = capsys.readouterr()
    text = (out.out + out.err).strip()
    if command == ["check"]:  # check's own layout: FILE: WHAT: WHERE, on stdout
        assert text == f"{bad}: must be >= 0, got -3: units[0].figures", text
    else:
        assert text.endswith(f"{bad}: units[0].figures: must be >= 0, got -3"), text
    assert "Traceback" not in text and len(text.splitlines()) == 1


def test_check_unknown_ruleset_is_a_problem_not_a_load_failure(tmp_path, capsys):
    bad = _doc_file(tmp_path, lambda d: d["info"].__setitem__("ruleset", "kriegsspiel-1824"))
    assert store.load(bad).scenario.info.ruleset == "kriegsspiel-1824"  # third-party files still open
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: ruleset 'kriegsspiel-1824' is not installed (known: " in out
    assert ": info.ruleset" in out


def test_check_unknown_unit_state_is_a_warning(tmp_path, capsys):
    bad = _doc_file(tmp_path, lambda d: d["units"][0].__setitem__("state", "napping"))
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "state 'napping' is not a unit state of ruleset 'toe'" in out
    assert "units['" in out and "'].state" in out


# -- 2. check replays the game log ------------------------------------------------------------
def test_check_reports_the_first_bad_event(tmp_path, capsys):
    ghost = {"kind": "moved", "turn": 1, "side": "french", "phase": "movement",
             "id": "ghost", "path": [[10.0, 10.0], [10.0, 20.0]], "facing": 90.0}

    def edit(d):
        d["events"].append(ghost)

    bad = _doc_file(tmp_path, edit)
    assert len(store.load(bad).events) == 7  # the file loads: only the replay finds the ghost
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "game log event 7" in out and "ghost" in out, out
    assert out.strip().endswith(": events")
    # log says the same
    assert main(["log", str(bad)]) == 1
    assert "game log event 7" in capsys.readouterr().err
