"""The bundled Leipzig 1813 battle: forces against the shared data, the table's geography, the
recorded opening (ruleset actions, at least 8 turns) and the byte-identical rebuild
(build_leipzig.py, then record_leipzig.py). The file is loaded once per module.
"""

from __future__ import annotations

import csv
import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.model.units import Arm
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.session import GameSession
from battlestudio.validate import check_battle

SCEN = Path(__file__).resolve().parents[2] / "scenarios"
FILE = SCEN / "leipzig-1813.battle.json"
DATA = Path("/work/shared/data/oob")


def _script(name: str):
    sys.path.insert(0, str(SCEN))
    spec = importlib.util.spec_from_file_location(name, SCEN / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def battle() -> Battle:
    return store.load(FILE)


def _oob_bases(files: list[str], skip_from: str = "") -> int:
    """Bases on the unit lines of republique5 files, straight from the text (a block starting
    at a command line named ``skip_from`` is left out, up to the next line at its indent)."""
    total = 0
    for f in files:
        skipping = None
        for line in (DATA / "republique5/scenarios/leipzig-1813" / f"{f}.oob").read_text().splitlines():
            indent = len(line) - len(line.lstrip())
            if skipping is not None and line.strip() and indent <= skipping:
                skipping = None
            if skip_from and line.strip().startswith(skip_from):
                skipping = indent
                continue
            m = re.search(r" - (\d+) bases?\b", line)
            if m and skipping is None:
                total += int(m.group(1))
    return total


def test_forces_are_the_sources_for_the_formations_on_this_front(battle):
    sc = battle.scenario
    build = _script("build_leipzig")
    allied = [u for u in sc.units.values() if u.side == "allied" and u.arm is not Arm.ARTILLERY]
    # every base of every included Allied file is on the table (Bubna's division of the advance guard left out)
    assert sum(u.bases for u in allied) == _oob_bases(build.ALLIED_FILES, "2nd Light Division")
    # French: every row of the included corps with men (or, failing men, battalions at 600 men a base)
    keep = {
        "Imperial Guard",
        "II Corps",
        "V Corps",
        "VIII Corps (Polish)",
        "IX Corps",
        "XI Corps",
        "IV Corps",
        "Lindenau-Leipzig sector (Leipzig garrison)",
        "IV Cavalry Corps (Polish)",
    }
    men = 0
    with open(DATA / "leipzig-1813-french-from-pages.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        if r["corps"] in keep and r["arm"] in ("inf", "cav"):
            men += int(r["men"]) if r["men"] else 600 * int(r["battalions"] or 0)
        if r["corps"] in ("I Cavalry Corps", "II Cavalry Corps", "V Cavalry Corps") and not r["division"]:
            men += int(r["men"])  # known only as a head count on the corps row
    french = sum(u.men for u in sc.units.values() if u.side == "french")
    assert french == men == 120_677
    # within a few per cent of the historical order of magnitude: the Army of Bohemia's infantry and cavalry
    allied_men = sum(u.men for u in allied)
    assert 0.9 * 234_000 <= allied_men <= 1.1 * 234_000
    assert {sc.commanders[c].name for c in sc.oob.subordinates(build.NAPOLEON)} >= {
        "Victor",
        "Lauriston",
        "Poniatowski",
        "Augereau",
        "Macdonald",
        "Bertrand",
    }
    assert sc.commanders[build.BARCLAY].echelon == "c_in_c"
    assert sc.commanders[build.NAPOLEON].command_ability == 2


def test_the_table_has_the_rivers_villages_and_heights_where_the_maps_put_them(battle):
    sc = battle.scenario
    names = {z.name for z in sc.towns.values()}
    assert {
        "Wachau",
        "Markkleeberg",
        "Liebertwolkwitz",
        "Güldengossa",
        "Connewitz",
        "Probstheida",
        "Lindenau",
        "Dölitz",
    } <= names
    assert {t.name for t in sc.terrain.values() if t.kind.value == "river"} == {"Pleisse", "Weisse Elster", "Parthe"}
    town = {z.name: z.polygon.centroid for z in sc.towns.values()}
    # west to east along the French line: Markkleeberg, Wachau, Liebertwolkwitz, about 2.8 and 2.6 km apart
    assert town["Markkleeberg"].x < town["Wachau"].x < town["Liebertwolkwitz"].x
    assert 80 < town["Wachau"].x - town["Markkleeberg"].x < 105
    # Probstheida north of Wachau, Güldengossa south of it; Lindenau west of the Elster, Connewitz east of the Pleisse
    assert town["Güldengossa"].y < town["Wachau"].y < town["Probstheida"].y
    elster, pleisse = sc.terrain["elster"].geometry, sc.terrain["pleisse"].geometry
    from shapely.geometry import LineString

    def x_at(river, y: float) -> float:
        return river.intersection(LineString([(0, y), (sc.info.table_width, y)])).centroid.x

    assert town["Lindenau"].x < x_at(elster, town["Lindenau"].y)
    assert town["Connewitz"].x > x_at(pleisse, town["Connewitz"].y)
    # the French stand north of the Allies east of the Pleisse
    fr = [u.position[1] for u in sc.units.values() if u.side == "french" and u.position[0] > 200]
    al = [u.position[1] for u in sc.units.values() if u.side == "allied" and 200 < u.position[0] < 480]
    assert fr and al and min(fr) > 0 and sorted(fr)[len(fr) // 2] > sorted(al)[len(al) // 2]
    assert len(sc.reinforcements) == 5 and sc.info.first_turn == "08:00" and sc.info.date == "1813-10-16"


def test_the_recorded_opening_uses_the_rulesets_actions_for_at_least_8_turns(battle):
    log = GameLog.from_battle(battle)
    turns = log.turns()
    assert turns == list(range(1, len(turns) + 1)) and len(turns) >= 8
    kinds = Counter(e.kind for e in battle.events)
    for kind in (
        "command_roll",
        "order_written",
        "order_delivered",
        "moved",
        "fired",
        "casualties",
        "melee",
        "morale_test",
    ):
        assert kinds[kind] > 0, kind
    fired = [e for e in battle.events if e.kind == "fired"]
    assert all("6.1" in e.explanation for e in fired)  # the ruleset's fire action, not a bare event
    melees = [e for e in battle.events if e.kind == "melee"]
    assert any("umpire's entry" in e.explanation for e in melees)
    lost = Counter(battle.scenario.units[e.unit].side for e in battle.events if e.kind == "casualties")
    assert lost["french"] > 0 and lost["allied"] > 0


def test_the_battle_opens_in_every_ruleset_with_a_switch_report(battle):
    from dataclasses import replace

    from battlestudio.rules.switch import switch_report

    sc = battle.scenario
    for rid in ("gda", "regimental", "belle-alliance"):
        report = switch_report(sc, rid)
        assert not report.lossless and report.lines(), rid
        assert any("toe." in p for p in report.parameters), rid
        other = Battle(sc.copy(), [])
        other.scenario.info = replace(sc.info, ruleset=rid)
        assert [p for p in check_battle(other) if p.severity == "error"] == [], rid
        session = GameSession(other, seed=1)  # the game opens and plays in that ruleset
        session.start()
        assert session.key.turn == 1 and session.ruleset.id == rid
