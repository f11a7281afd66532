"""The ruleset fingerprint stored with a recorded game: a game started in a session keeps the rule
numbers in force; a battle file keeps them both ways; reopened after a club changes a number in
``resources/rulesets/toe.toml``, the change is named (old → new) by ``battlestudio info`` and in the
Replay dock (tests/ui/test_replay_goto.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.cli import main
from battlestudio.replay.battle import Battle
from battlestudio.rules import params
from battlestudio.rules.fingerprint import fingerprint, ruleset_changes
from battlestudio.session import GameSession

REPO = Path(__file__).resolve().parents[1]
JENA = REPO / "scenarios" / "jena-1806.battle.json"


def changed_rules(tmp_path: Path, monkeypatch, old: str, new: str) -> None:
    """Read the rulesets from a copy of resources/rulesets with ``old`` replaced by ``new`` in toe.toml."""
    rules = tmp_path / "rulesets"
    shutil.copytree(REPO / "resources" / "rulesets", rules)
    toe = rules / "toe.toml"
    text = toe.read_text(encoding="utf-8")
    assert text.count(old) == 1
    toe.write_text(text.replace(old, new), encoding="utf-8")
    monkeypatch.setattr(params, "_resource_dir", lambda: rules)
    params.load_ruleset_file.cache_clear()


@pytest.fixture(autouse=True)
def _fresh_rules():
    params.load_ruleset_file.cache_clear()
    yield
    params.load_ruleset_file.cache_clear()


def test_starting_a_game_keeps_the_rule_numbers_in_force():
    battle = Battle(store.load(JENA).scenario, [])
    GameSession(battle, seed=1).start()
    record = battle.ruleset_record
    assert record == fingerprint("toe", battle.scenario.info.parameters)
    assert record["ruleset"] == "toe" and record["values"]["engage_distance_cm"] == 20
    assert record["scenario"] == json.loads(json.dumps(dict(battle.scenario.info.parameters)))


@pytest.mark.parametrize("suffix", [".battle.json", ".battle"])
def test_a_changed_value_is_named_on_reopening(tmp_path, monkeypatch, capsys, suffix):
    battle = store.load(JENA)
    battle.ruleset_record = fingerprint("toe", battle.scenario.info.parameters)
    path = tmp_path / f"game{suffix}"
    store.save(battle, path)
    again = store.load(path)
    assert again.ruleset_record == battle.ruleset_record
    assert ruleset_changes(again.ruleset_record, "toe", again.scenario.info.parameters) == []
    assert main(["info", str(path)]) == 0
    assert f"rule numbers as recorded (fingerprint {battle.ruleset_record['hash'][:12]})" in capsys.readouterr().out

    old = "[rules.engage_distance_cm]\nvalue = 20\n"
    changed_rules(tmp_path, monkeypatch, old, old.replace("20", "25"))
    reopened = store.load(path)
    info = reopened.scenario.info
    assert ruleset_changes(reopened.ruleset_record, "toe", info.parameters) == ["engage_distance_cm: 20 → 25"]
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "the rule numbers changed since the game was recorded (recorded → now):\n  engage_distance_cm: 20 → 25" in out
    )
    assert main(["info", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset_changes"] == ["engage_distance_cm: 20 → 25"]


def test_a_changed_scenario_parameter_is_named_too():
    battle = store.load(JENA)
    record = fingerprint("toe", battle.scenario.info.parameters)
    now = {**battle.scenario.info.parameters, "toe.command_thresholds": [5, 6, 8]}
    old = battle.scenario.info.parameters.get("toe.command_thresholds")
    lines = ruleset_changes(record, "toe", now)
    assert lines == [f"scenario toe.command_thresholds: {json.dumps(old, separators=(', ', ': '))} → [5, 6, 8]"]
