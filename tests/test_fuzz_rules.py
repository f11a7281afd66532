"""The long fuzz run's rules for an unclear message (``bench/fuzz_inputs.py`` ``unclear``),
checked on the messages the fresh tester reported (issue 27) and on their present wording."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("fuzz_inputs", ROOT / "bench" / "fuzz_inputs.py")
assert _spec and _spec.loader
fuzz_inputs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz_inputs)
F = "/tmp/x/m.csv"


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        (f"battlestudio: {F}: column(s) 'army' named in m.toml are not in the header ()", "empty ()"),
        ("battlestudio: /tmp/x/force.csv: missing fogofwar table force.csv", "table named twice"),
        (f"battlestudio: {F}: $: not JSON: Expecting value at line 1 column 1", "bare $ path"),
        (f"battlestudio: {F}: row 3: invalid literal for int() with base 10: '①'", "python words"),
        (f"battlestudio: {F}: 'utf-8' codec can't decode byte 0xff in position 3", "python words"),
        ("battlestudio: internal error: KeyError: 'id'", "python words"),
        ("battlestudio: 'utf-8' codec can't encode character '\\udfff'", "python words"),
        ("battlestudio: units[0].figures: must be between 0 and 10000", "no file named"),
        (f"battlestudio: {F}: must be between 0 and 10000, got -3", "no place"),
        (f"{F}: error file: not valid JSON: Expecting ':' delimiter (line 271, column 11)", "no place"),
    ],
)
def test_the_reported_messages_are_counted_unclear(message, rule):
    assert fuzz_inputs.unclear(message, [F, "/tmp/x"]) == rule


@pytest.mark.parametrize(
    "message",
    [
        f"battlestudio: {F}: row 1: no header (the file or sheet is empty); expected the columns 'army'",
        "battlestudio: /tmp/x: table force.csv: missing; a fogofwar import reads the folder holding the tables",
        f"battlestudio: {F}: not JSON: Expecting value at line 1 column 1 (char 0)",
        f"{F}:4: warning: 2 cell(s), the header has 9: column(s) 'corps' read as empty  [French,x]",
        f"{F}: error file: line 271 column 11: not valid JSON: expecting ':' delimiter",
        f"battlestudio: {F}: units[0].figures: must be between 0 and 10000, got -3",
        f"battlestudio: {F}: table unit: damaged or changed outside BattleStudio: its rows do not match",
        f"battlestudio: {F}: zip member 'xl/worksheets/sheet1.xml': compressed 2,000 to 1",
        f"battlestudio: {F}: file is empty",
        f"battlestudio: {F}: no ruleset 'x' is installed (known: belle-alliance, gda, regimental, toe)",
        f"battlestudio: {F}: nothing imported (no command or unit row found)",
    ],
)
def test_the_present_messages_are_clear(message):
    assert fuzz_inputs.unclear(message, [F, "/tmp/x"]) is None


def test_a_replay_failure_names_the_event():
    line = "battlestudio: /tmp/x/m.csv: game log event 1: event 'phase_started': turn must be >= 1, got -1"
    assert fuzz_inputs.unclear(line, [F]) is None


def test_an_event_named_by_kind_and_place_is_a_place():
    line = f"battlestudio: {F}: event 'moved' (turn 1, side french, phase movement): no unit or commander 'ghost'"
    assert fuzz_inputs.unclear(line, [F]) is None
    assert fuzz_inputs.unclear(line.replace(f"{F}: ", ""), [F]) == "no file named"
