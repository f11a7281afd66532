"""Bad input found by a tester from a clean clone: every one ends in one line naming file,
field and value, with the exit code the cli module promises (1 bad input, 2 bad usage), and
no existing file is damaged."""

from __future__ import annotations

import json
from pathlib import Path

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
@pytest.mark.parametrize(
    "command",
    [["check"], ["info"], ["orders"], ["export-map", "--out", "x.png"], ["report", "--out", "x.html"], ["log"]],
)
def test_negative_figures_are_named_by_every_command(tmp_path, capsys, command):
    bad = _doc_file(tmp_path, lambda d: d["units"][0].__setitem__("figures", -3))
    argv = [command[0], str(bad), *[str(tmp_path / a) if a.startswith("x.") else a for a in command[1:]]]
    assert main(argv) == 1
    out = capsys.readouterr()
    text = (out.out + out.err).strip()
    if command == ["check"]:  # check's layout: FILE: error CHECK: FIELD: what, on stdout
        assert text == f"{bad}: error file: units[0].figures: must be between 0 and 10000, got -3", text
    else:
        assert text.endswith(f"{bad}: units[0].figures: must be between 0 and 10000, got -3"), text
    assert "Traceback" not in text and len(text.splitlines()) == 1


def test_check_unknown_ruleset_is_a_problem_not_a_load_failure(tmp_path, capsys):
    bad = _doc_file(tmp_path, lambda d: d["info"].__setitem__("ruleset", "kriegsspiel-1824"))
    assert store.load(bad).scenario.info.ruleset == "kriegsspiel-1824"  # third-party files still open
    assert main(["check", str(bad)]) == 0  # a warning: the file still opens and plays with the ruleset installed
    out = capsys.readouterr().out
    assert out.startswith(f"{bad}: warning ruleset.unknown: info.ruleset: 'kriegsspiel-1824' is not installed (known: ")
    assert len(out.splitlines()) == 1


def test_check_unknown_unit_state_is_a_warning(tmp_path, capsys):
    bad = _doc_file(tmp_path, lambda d: d["units"][0].__setitem__("state", "napping"))
    assert main(["check", str(bad)]) == 0
    out = capsys.readouterr().out
    assert "warning unit.unknown_state: units['" in out
    assert "'].state: 'napping' is not a unit state of ruleset 'toe'" in out


def test_check_unknown_quality_is_a_warning_where_the_ruleset_grades_units(tmp_path, capsys):
    def edit(d):
        d["info"]["ruleset"] = "gda"
        d["events"] = []  # a Torden over Europa log means nothing under General d'Armée
        for u in d["units"]:
            u["quality"] = "line"
            u["state"] = ""
        d["units"][0]["quality"] = "legendary"

    bad = _doc_file(tmp_path, edit)
    main(["check", str(bad)])
    out = capsys.readouterr().out
    quality = [line for line in out.splitlines() if "quality" in line]
    assert len(quality) == 1, out
    assert " warning unit.unknown_quality: units['" in quality[0]
    assert ".quality: 'legendary' is not a quality of ruleset 'gda' (known: " in quality[0]


# -- 2. check replays the game log ------------------------------------------------------------
def test_check_reports_the_first_bad_event(tmp_path, capsys):
    ghost = {
        "kind": "moved",
        "turn": 1,
        "side": "french",
        "phase": "movement",
        "id": "ghost",
        "path": [[10.0, 10.0], [10.0, 20.0]],
        "facing": 90.0,
    }

    def edit(d):
        d["events"].append(ghost)

    bad = _doc_file(tmp_path, edit)
    assert len(store.load(bad).events) == 7  # the file loads: only the replay finds the ghost
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "game log event 7" in out and "ghost" in out, out
    assert out.startswith(f"{bad}: error game.replay: events: ") and len(out.splitlines()) == 1
    # log says the same
    assert main(["log", str(bad)]) == 1
    assert "game log event 7" in capsys.readouterr().err
    # and orders, naming the file first (it said "battlestudio: event 'moved' ..." before)
    assert main(["orders", str(bad)]) == 1
    assert capsys.readouterr().err.startswith(
        f"battlestudio: {bad}: event 'moved' (turn 1, side french, phase movement)"
    )


def test_an_id_given_as_a_list_in_an_event_is_refused_on_load(tmp_path, capsys):
    def edit(d):
        d["events"][5]["text"] = [[["x"]]]  # the Annotation's text: a str field

    bad = _doc_file(tmp_path, edit)
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{bad}: error file: events[5]: event ") and "field text: expected a text, got a list" in out


# -- 3. --width limits, before any painting ---------------------------------------------------
@pytest.mark.parametrize(
    "argv,least",
    [
        (["replay", "--at", "1", "--png", "OUT.png"], 200),
        (["export-map", "--out", "OUT.png"], 400),
        (["report", "--out", "OUT.html"], 400),
    ],
)
@pytest.mark.parametrize("width", ["-5", "100000", "99999999999"])
def test_widths_outside_the_limits_are_usage_errors(jena_file, tmp_path, capsys, argv, least, width):
    out = tmp_path / argv[-1]
    full = [argv[0], str(jena_file), *[str(out) if a == argv[-1] else a for a in argv[1:]], "--width", width]
    assert main(full) == 2
    assert _one_error_line(capsys) == f"battlestudio: --width must be {least} to 10000 pixels, got {width}"
    assert not out.exists()


# -- 5. output folders: the target is named, checked before the work -------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["convert", "IN", "OUT.battle"],
        ["convert", "IN", "OUT.battle.json"],
        ["export-map", "IN", "--out", "OUT.png"],
        ["report", "IN", "--out", "OUT.pdf"],
        ["replay", "IN", "--at", "1", "--png", "OUT.png"],
    ],
)
def test_missing_output_folder_names_the_target(jena_file, tmp_path, capsys, argv):
    folder = tmp_path / "nonexistent" / "dir"
    names = {"IN": str(jena_file)}
    full = [names.get(a, str(folder / a) if a.startswith("OUT") else a) for a in argv]
    target = next(a for a in full if a.startswith(str(folder)))
    assert main(full) == 1
    assert _one_error_line(capsys) == f"battlestudio: {target}: the folder {folder} does not exist"


def test_import_oob_checks_the_output_folder_before_importing(tmp_path, capsys, monkeypatch):
    import battlestudio.store.importers as importers

    def never(*_a, **_k):  # the import must not even start
        raise AssertionError("import ran before the output folder was checked")

    monkeypatch.setattr(importers, "import_oob", never)
    csv = tmp_path / "oob.csv"
    csv.write_text("id,name\n", encoding="utf-8")
    out = tmp_path / "gone" / "x.battle"
    assert main(["import-oob", str(csv), "--format", "csv", "--out", str(out)]) == 1
    assert _one_error_line(capsys) == f"battlestudio: {out}: the folder {out.parent} does not exist"


# -- 6. consistency ---------------------------------------------------------------------------
def test_orders_turn_beyond_the_log_is_refused_like_log(jena_file, capsys):
    assert main(["orders", str(jena_file), "--turn", "999"]) == 1
    assert _one_error_line(capsys) == f"battlestudio: {jena_file}: --turn 999: the game log runs to turn 1"
    assert main(["log", str(jena_file), "--turn", "999"]) == 1
    assert "the game log runs to turn 1" in _one_error_line(capsys)


def test_report_turns_error_names_the_option(jena_file, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", str(jena_file), "--out", str(out), "--turns", "-1"]) == 2
    assert "--turns '-1'" in _one_error_line(capsys)


@pytest.mark.parametrize("command", [["replay", "--png", "OUT.png"], ["export-map", "--out", "OUT.png"]])
def test_at_syntax_is_one_parser(jena_file, tmp_path, capsys, command):
    argv = [command[0], str(jena_file), *[str(tmp_path / a) if a.startswith("OUT") else a for a in command[1:]]]
    assert main([*argv, "--at", "soon"]) == 2
    assert _one_error_line(capsys) == (
        "battlestudio: --at 'soon': the turn 'soon' is not a whole number; or start, end, 0 (the deployment)"
    )
    assert main([*argv, "--at", "1:"]) == 2
    assert "expected TURN[:SIDE[:PHASE]]" in _one_error_line(capsys)


def test_unreadable_input_is_1_and_bad_usage_is_2(tmp_path, jena_file, capsys):
    odd = tmp_path / "notes.txt"
    odd.write_text("hello", encoding="utf-8")
    for argv in (["check", str(odd)], ["info", str(odd)], ["convert", str(odd), str(tmp_path / "o.battle")]):
        assert main(argv) == 1, argv
        assert "unknown file type" in capsys.readouterr().err
    assert main(["convert", str(jena_file), str(tmp_path / "o.xlsx")]) == 2
    assert "o.xlsx: unknown file type" in capsys.readouterr().err


def test_convert_says_what_it_wrote(jena_file, tmp_path, capsys):
    out = tmp_path / "j.battle.json"
    assert main(["convert", str(jena_file), str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"


def test_output_into_a_closed_pipe_is_quiet():
    """``battlestudio log FILE | head -c 1`` (the bundled Jena log is far more than a pipe's
    64 KiB, so the writer meets the closed pipe): no "Broken pipe" message, exit 0."""
    import subprocess
    import sys
    from pathlib import Path

    jena = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"
    proc = subprocess.run(
        f"{sys.executable} -m battlestudio log {jena} | head -c 1; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
    )
    assert len(proc.stdout) == 1
    assert proc.stderr == "" and proc.returncode == 0


def test_check_refuses_a_battle_file_with_deleted_events(tmp_path, capsys):
    import sqlite3

    p = tmp_path / "gap.battle"
    store.save(jena_battle(), p)
    con = sqlite3.connect(p)
    con.execute("DELETE FROM event WHERE seq BETWEEN 1 AND 2")
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()
    assert main(["check", str(p)]) != 0
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert out.startswith(f"{p}: error file: event seq=1 to 2: missing: the events must be numbered 0 to n - 1")
    assert out.rstrip().endswith("a game with deleted events cannot be replayed")


def test_a_point_of_an_event_given_nested_lists_is_refused_on_load(tmp_path, capsys):
    def edit(d):
        order = next(e for e in d["events"] if e["kind"] == "order_written")
        order["objective"] = [[[1.0, 2.0]], [3.0]]  # replaying it raised TypeError: an internal error

    bad = _doc_file(tmp_path, edit)
    for command in ("check", "log", "orders"):
        assert main([command, str(bad)]) == 1
        out = capsys.readouterr()
        text = out.out + out.err
        assert "field objective: expected a point [x, y] in cm" in text and "internal error" not in text, text


def test_the_long_fuzz_runs_internal_error_input_is_refused_clearly(capsys):
    bad = Path(__file__).resolve().parent / "data" / "fuzz" / "nested-objective.battle.json"
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{bad}: error file: events[3]: event 'order_written': field objective: expected a point")
