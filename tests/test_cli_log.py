"""``battlestudio log``: the bundled Jena game as readable text, one line per event, rolls with
their explanation; ``--turn`` filters; bad input gives one line and exit code 1 or 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from battlestudio import store
from battlestudio.cli import main
from battlestudio.replay.battle import Battle
from battlestudio.session.text import parse_at

REPO = Path(__file__).resolve().parents[1]
JENA = REPO / "scenarios" / "jena-1806.battle.json"


def test_log_lists_every_turn_with_orders_rolls_and_moves(capsys):
    assert main(["log", str(JENA)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(store.load(JENA).events)
    turns = {int(line[1:3]) for line in lines}
    assert turns >= set(range(1, 25))
    assert lines[0].startswith("T1  06:00 french    orders")
    rolls = [line for line in lines if "| roll for " in line]
    assert rolls and all("d10 = " in line and ("passes" in line or "fails" in line) for line in rolls)
    assert any("order o-1-1 written: Napoleon → Lannes: A" in line for line in lines)
    assert any("| Lannes moves " in line and " cm to (" in line for line in lines)
    assert any("| melee: " in line for line in lines) and any(
        "note: [Fog on the Landgrafenberg]" in line for line in lines
    )


def test_log_of_one_turn(capsys):
    assert main(["log", str(JENA), "--turn", "12"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.startswith("T12 08:45 ") for line in lines)
    assert any("| phase begins: Movement" in line for line in lines)


def test_log_refuses_bad_input(capsys, tmp_path):
    assert main(["log", str(JENA), "--turn", "99"]) == 1
    assert "no events in turn 99; the game log runs to turn 40" in capsys.readouterr().err
    assert main(["log", str(JENA), "--turn", "0"]) == 2
    empty = tmp_path / "no-game.battle.json"
    store.save(Battle(store.load(JENA).scenario, []), empty)
    assert main(["log", str(empty)]) == 1
    assert "no game is recorded" in capsys.readouterr().err
    assert main(["log", str(tmp_path / "missing.battle")]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_log_as_a_subprocess():
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    out = subprocess.run(
        [sys.executable, "-m", "battlestudio", "log", str(JENA), "--turn", "1"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
    )
    assert out.returncode == 0, out.stderr
    assert "roll for o-1-1: Command control, Napoleon → Lannes, zone 1" in out.stdout


def test_parse_at():
    assert parse_at("12") == (12, None, None, "end")
    assert parse_at("12:prussian:fire") == (12, "prussian", "fire", "end")
    assert parse_at("12:prussian:fire:start") == (12, "prussian", "fire", "start")
    assert parse_at("12:start") == (12, None, None, "start")
    assert parse_at("12:2:fire:3") == (12, "2", "fire", 3)
    for bad in ("", "x", "0", "1:", "1:a:b:c", "1:a:b:0", "1:a:b:c:d", "1:a:b:start:end"):
        try:
            parse_at(bad)
        except ValueError as exc:
            assert "--at" in str(exc)
        else:
            raise AssertionError(bad)


def test_at_help_says_what_start_and_end_mean(capsys):
    for command in ("replay", "export-map"):
        try:
            main([command, "--help"])
        except SystemExit:
            pass
        text = " ".join(capsys.readouterr().out.split())
        assert "TURN[:SIDE[:PHASE]][:start|:end]" in text
        assert "with :start where it has begun" in text and "TURN:SIDE:PHASE:N after its Nth event" in text
