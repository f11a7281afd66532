"""A recorded game of every installed ruleset opens in a fresh interpreter: through
``store.load`` and through ``battlestudio info``, ``log``, ``convert`` and ``check``, saved as
``.battle`` and as ``.battle.json``. Each game holds the ruleset's own event types where it has
any (General d'Armée's ADC task in force, the Regimental rules' casualty markers): they are
registered by the ruleset registry before the file is decoded, not by whoever happened to
import the ruleset first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.model.scenario import Scenario
from battlestudio.replay.battle import Battle
from battlestudio.rules import OrderRequest, SeededDice, available_rulesets
from battlestudio.rules.regimental import parameters as regimental_parameters
from battlestudio.rules.regimental.morale import add_markers, marker_event
from battlestudio.session import GameSession

from tests.test_session_rulesets import scenario_from_case

SRC = Path(__file__).resolve().parents[1] / "src"
JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"


def on_table(s: Scenario) -> Scenario:
    """``s`` moved 20 cm clear of the table's corner, on a table 20 cm larger than its troops
    (the rule-case worlds stand anywhere), so ``battlestudio check`` finds nothing wrong."""
    points = [u.position for u in s.units.values()] + [c.position for c in s.commanders.values()]
    dx = 30.0 - min(x for x, _ in points)
    dy = 30.0 - min(y for _, y in points)
    s.units = {k: replace(u, position=(u.position[0] + dx, u.position[1] + dy)) for k, u in s.units.items()}
    s.commanders = {k: replace(c, position=(c.position[0] + dx, c.position[1] + dy)) for k, c in s.commanders.items()}
    width = max(x for x, _ in points) + dx + 30.0
    height = max(y for _, y in points) + dy + 30.0
    s.info = replace(s.info, table_width=max(width, s.info.table_width), table_height=max(height, s.info.table_height))
    return s


def toe_game() -> Battle:
    """The bundled Jena 1806 game: Torden over Europa, 3752 recorded events."""
    return store.load(JENA)


def gda_game() -> Battle:
    scen = on_table(scenario_from_case("gda", "gda_cases", "command-roll-3-obeys-2-hesitant"))
    s = GameSession(Battle(scen, []), dice=SeededDice(1809))
    s.advance_to("adc", "allies")
    s.issue_order(OrderRequest("dullitz", "ab1", "infantry_assault"))
    s.advance_to("command", "allies")
    s.command_check("ab1")  # the brigade obeys: its Infantry Assault! comes into force
    return recorded(s)


def regimental_game() -> Battle:
    scen = on_table(scenario_from_case("regimental", "regimental_cases", "orders-test-table"))
    scen.units = {k: replace(u, state="normal") for k, u in scen.units.items()}  # the case world's "O" is ToE's
    s = GameSession(Battle(scen, []), dice=SeededDice(1812))
    s.advance_to("initiative", "france")
    s.initiative()
    s.advance_to("activation", "russia")
    s.issue_order(OrderRequest("hq", "div", "activate", parameters={"actions": ["move", "fire"]}))
    unit = next(iter(sorted(s.state.units)))
    s.record(marker_event(s.state, add_markers(s.state.units[unit], 3, regimental_parameters(scen.info.parameters))))
    return recorded(s)


def belle_alliance_game() -> Battle:
    scen = on_table(scenario_from_case("belle-alliance", "belle_alliance_cases", "attack-orders-and-command"))
    scen.orders.clear()
    s = GameSession(Battle(scen, []), dice=SeededDice(1815))
    s.advance_to("orders", "allies")
    s.issue_order(OrderRequest("ac", "d", "attack", parameters={"target": "a"}))
    s.next_phase()
    return recorded(s)


def recorded(s: GameSession) -> Battle:
    return Battle(s.battle.scenario, list(s.battle.events))


GAMES = {"toe": toe_game, "gda": gda_game, "regimental": regimental_game, "belle-alliance": belle_alliance_game}
OWN_KINDS = {"gda": "gda_task_in_force", "regimental": "regimental_markers"}


def test_every_installed_ruleset_has_a_game_here():
    assert set(GAMES) == set(available_rulesets())
    for rid, kind in OWN_KINDS.items():  # the kinds named are the rulesets' own
        assert kind in {cls.kind for cls in available_rulesets()[rid].event_types()}


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, list[Path]]:
    folder = tmp_path_factory.mktemp("rulesets")
    out = {}
    for rid, make in GAMES.items():
        battle = make()
        kinds = {e.kind for e in battle.events}
        assert OWN_KINDS.get(rid, "order_written") in kinds, (rid, kinds)
        out[rid] = []
        for suffix in (".battle", ".battle.json"):
            path = folder / f"{rid}{suffix}"
            store.save(battle, path)
            out[rid].append(path)
    return out


def fresh(*args: str) -> subprocess.CompletedProcess[str]:
    """``python *args`` in a new interpreter on this tree's sources."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), env_path()]) if env_path() else str(SRC),
        "QT_QPA_PLATFORM": "offscreen",
    }
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=120)


def env_path() -> str:
    return os.environ.get("PYTHONPATH", "")


LOAD = """
import json, sys
from battlestudio import store
from battlestudio.replay.game import GameLog
out = {}
for path in sys.argv[1:]:
    for lazy in (False, True):
        b = store.load(path, lazy_events=lazy)
        GameLog.from_battle(b)  # every event builds and replays
        out[f"{path} {lazy}"] = [b.scenario.info.ruleset, sorted({e.kind for e in b.events}), len(b.events)]
print(json.dumps(out))
"""


def test_store_load_reads_every_rulesets_game_in_a_fresh_interpreter(files):
    for rid, paths in files.items():
        run = fresh("-c", LOAD, *map(str, paths))
        assert run.returncode == 0, run.stderr
        read = json.loads(run.stdout)
        saved = store.load(paths[0])
        for path in paths:
            for lazy in ("False", "True"):
                ruleset, kinds, n = read[f"{path} {lazy}"]
                assert ruleset == rid and n == len(saved.events)
                assert kinds == sorted({e.kind for e in saved.events})
                assert OWN_KINDS.get(rid, "order_written") in kinds


def test_the_cli_reads_every_rulesets_game_in_a_fresh_interpreter(files, tmp_path):
    jobs = []
    for rid, paths in files.items():
        for path in paths:
            out = tmp_path / f"{path.name}.converted{'.battle' if path.suffix == '.json' else '.battle.json'}"
            jobs += [
                (rid, path, ("info", str(path))),
                (rid, path, ("log", str(path))),
                (rid, path, ("check", str(path))),
                (rid, path, ("convert", str(path), str(out))),
            ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda job: fresh("-m", "battlestudio", *job[2]), jobs))
    for (rid, path, args), run in zip(jobs, runs, strict=True):
        assert run.returncode == 0, (args, run.stdout, run.stderr)
        assert "unknown event kind" not in run.stdout + run.stderr
        if args[0] == "log":
            kind = OWN_KINDS.get(rid)  # the ruleset's own event, read in words ("gda task in force")
            assert kind is None or kind.replace("_", " ") in run.stdout, (args, run.stdout)
        if args[0] == "info":
            assert f"ruleset {rid}" in run.stdout, run.stdout
        if args[0] == "convert":
            converted = store.load(args[2])
            assert [e.to_dict() for e in converted.events] == [e.to_dict() for e in store.load(path).events]
