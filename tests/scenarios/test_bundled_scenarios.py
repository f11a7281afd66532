"""The bundled historical scenarios: built from the real data, valid, on the table, and saved.

Each ``scenarios/*.battle.json`` is the artefact of the ``build_*.py`` script beside it; these
tests rebuild it from the source data and check it against the data and against the file.
"""

from __future__ import annotations

import csv
import importlib.util
import sys
from pathlib import Path

import pytest
from shapely.geometry import Point

from battlestudio import store
from battlestudio.validate import check_battle
from battlestudio.model.units import Arm

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "scenarios"
FOW = Path("/work/shared/data/oob/fogofwar")
FILES = sorted(SCEN.glob("*.battle.json"))


def _builder(name: str):
    sys.path.insert(0, str(SCEN))
    spec = importlib.util.spec_from_file_location(name, SCEN / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fow_totals(force_ids: set[str]) -> dict[str, int]:
    """bayonets+sabres and guns per nation of the given forces, straight from force_unit.csv."""
    nation = {}
    with open(FOW / "force.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            nation[r["id"]] = r["nation"]
    out: dict[str, int] = {}
    with open(FOW / "force_unit.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["force_id"] in force_ids:
                n = nation[r["force_id"]]
                out[f"{n}.men"] = out.get(f"{n}.men", 0) + int(r["bayonets"]) + int(r["sabres"])
                out[f"{n}.guns"] = out.get(f"{n}.guns", 0) + int(r["guns"])
    return out


def _table_checks(sc) -> None:
    assert sc.validate_oob() == []
    table = sc.table()
    for u in sc.units.values():
        assert table.contains(u.footprint()), u.id
    for c in sc.commanders.values():
        assert table.contains(Point(c.position)), c.id
    for t in sc.terrain.values():
        if t.kind.value == "river":
            water = t.geometry.buffer(t.width / 2)
            assert not any(water.intersects(u.footprint()) for u in sc.units.values())
    for z in sc.deployment_zones.values():
        assert table.contains(z.polygon)


def _unrepresented(sc, side: str) -> int:
    return sum(
        n for c in sc.commanders.values() if c.side == side for n in c.attributes.get("unrepresented_guns", {}).values()
    )


@pytest.fixture(scope="module")
def elchingen():
    return _builder("build_elchingen").build()


def test_elchingen_is_neys_vi_corps_against_riesch(elchingen):
    sc = elchingen
    _table_checks(sc)
    src = _fow_totals({"101", "102"})
    men = {s: sum(u.men for u in sc.units.values() if u.side == s) for s in sc.sides}
    assert (
        men == {"french": src["France.men"], "austrian": src["Austria.men"]} == {"french": 14_020, "austrian": 24_600}
    )
    guns = {s: sum(u.guns for u in sc.units.values() if u.side == s) + _unrepresented(sc, s) for s in sc.sides}
    assert guns == {"french": src["France.guns"], "austrian": src["Austria.guns"]}
    roots = [c for c in sc.oob.roots() if c in sc.commanders]
    assert sorted(sc.commanders[r].name for r in roots) == ["FML Riesch", "Marshal Michel Ney"]
    ney = next(sc.commanders[r] for r in roots if sc.commanders[r].side == "french")
    assert (ney.command_ability, ney.order_capacity) == (1, 2)  # Highly Efficient; OAS placeholder
    assert sc.info.parameters[f"toe.placeholder.order_capacity.{ney.id}"] == 2
    assert "Table 1" in sc.info.parameters["toe.unknown"]
    assert {u.arm for u in sc.units.values() if u.side == "french"} == {Arm.INFANTRY, Arm.CAVALRY, Arm.ARTILLERY}
    assert len(sc.units) == 22 and len(sc.commanders) == 8
    # the French start south of the Danube, the Austrians north of it
    river = sc.terrain["danube"].geometry
    for u in sc.units.values():
        y_river = river.interpolate(river.project(Point(u.position))).y
        assert (u.position[1] < y_river) == (u.side == "french"), u.id
    assert {"ober-elchingen", "elchingen-abbey", "unter-elchingen"} <= set(sc.towns)
    assert {o.name for o in sc.objectives.values()} >= {"Elchingen Abbey", "Ober-Elchingen"}
    licences = " ".join(s.licence for s in sc.sources)
    assert "MIT" in licences and "CC BY-SA" in licences
    assert sc.info.ruleset == "toe" and sc.info.date == "1805-10-14"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_bundled_file_loads_and_is_valid(path):
    sc = store.load(path).scenario
    _table_checks(sc)
    assert check_battle(store.load(path)) == []  # what `battlestudio check` and the Problems dock find
    assert sc.info.ruleset == "toe"
    assert sc.sources and all(s.title for s in sc.sources)
    assert any("placeholder" in k for k in sc.info.parameters)


def test_sources_file_names_licences():
    text = (SCEN / "SOURCES.md").read_text(encoding="utf-8")
    for needle in (
        "MIT License",
        "Copyright (c) 2016 SteveOC",
        "BSD 2-Clause",
        "Copyright (c) 2019, SteveOC",
        "elchingen-1805.battle.json",
        "jena-1806.battle.json",
    ):
        assert needle in text


@pytest.fixture(scope="module")
def jena():
    return _builder("build_jena").build()


def test_jena_forces_match_the_fogofwar_data(jena):
    sc = jena
    _table_checks(sc)
    src = _fow_totals({"1", "4", "5", "6", "7", "8", "10", "11", "92"})
    men = {s: sum(u.men for u in sc.units.values() if u.side == s) for s in sc.sides}
    assert men == {"french": src["France.men"], "prussian": src["Prussia.men"]}
    guns = {s: sum(u.guns for u in sc.units.values() if u.side == s) + _unrepresented(sc, s) for s in sc.sides}
    assert guns == {"french": src["France.guns"], "prussian": src["Prussia.guns"]}
    napoleon = sc.commanders["french-imperial-guard"]
    assert (napoleon.name, napoleon.echelon, napoleon.command_ability) == ("Napoleon", "c_in_c", 2)
    hohenlohe = sc.commanders["prussian-south-hohenlohe"]
    assert (hohenlohe.echelon, hohenlohe.command_ability) == ("c_in_c", -1)  # "Doddering Fool"
    corps = {sc.commanders[c].name for c in sc.oob.subordinates(napoleon.id) if sc.commanders[c].echelon == "corps"}
    assert corps == {"Lannes", "Soult", "Ney", "Augereau", "Murat"}
    assert "Ernst von Ruchel" in {
        sc.commanders[c].name for c in sc.oob.subordinates(hohenlohe.id) if c in sc.commanders
    }
    names = {c.name for c in sc.commanders.values()}
    assert "Kalkreuth" not in names and "General Bernadotte" not in names and "Davout" not in names
    assert {c.side for c in sc.commanders.values()} == {"french", "prussian"}
    assert set(VILLAGES_JENA) <= {z.name for z in sc.towns.values()}
    assert {"landgrafenberg", "dornberg", "saale", "muehlbach"} <= set(sc.terrain)


VILLAGES_JENA = [
    "Jena",
    "Closewitz",
    "Cospeda",
    "Lützeroda",
    "Vierzehnheiligen",
    "Isserstedt",
    "Krippendorf",
    "Kapellendorf",
]


def test_jena_arrivals_follow_republique5(jena):
    from battlestudio.store.importers.republique5_scenario import read_scenario

    plan = read_scenario("/work/shared/data/oob/republique5/scenarios/jena-auerstadt-1806/Jena.scenario")
    by_formation = {r.formation: r for r in jena.reinforcements.values()}
    vi = by_formation["french-vi-corps"]
    assert (vi.earliest_turn, vi.latest_turn, vi.probability) == (5, 13, 0.7)  # (1-3 hrs) 70%
    ruchel = by_formation["prussian-reserve-ruchel"]
    assert (ruchel.earliest_turn, ruchel.latest_turn, ruchel.probability) == (25, 49, 0.4)  # (6-12 hrs) 40%
    late = [a for a in plan.arrivals if not a.contact and a.command not in ("Kalkreuth", "I-Corps")]
    # the Guard arrives as its two divisions
    assert len(jena.reinforcements) == len(late) + 1
    table = jena.table().exterior
    for r in jena.reinforcements.values():
        assert table.distance(Point(r.entry_point)) < 1e-9, r.id
        assert r.formation in jena.commanders
    on_table_at_start = {"french-v-corps", "prussian-1st-div", "prussian-adv-guard-div"}
    assert not on_table_at_start & set(by_formation)
    # units on the table at the start stand in their historical places: V Corps on the Landgrafenberg
    plateau = jena.terrain["landgrafenberg"].geometry
    v_units = [n for n in jena.oob.all_subordinates("french-v-corps") if n in jena.units]
    assert v_units and all(plateau.contains(jena.units[u].footprint()) for u in v_units)
    assert jena.info.first_turn == "06:00"


def test_jena_prussian_line_between_lutzeroda_and_closewitz(jena):
    towns = jena.towns
    west = towns["lutzeroda"].polygon.centroid.x
    east = towns["closewitz"].polygon.bounds[2]
    adv = [jena.units[u] for u in jena.oob.all_subordinates("prussian-adv-guard-div") if u in jena.units]
    assert adv and all(west <= u.position[0] <= east for u in adv)
    assert all(u.facing == 270.0 for u in adv)  # facing the Landgrafenberg to the south
    plateau = jena.terrain["landgrafenberg"].geometry
    assert all(u.position[1] > plateau.bounds[3] for u in adv)


def test_elchingen_austrians_hold_the_heights(elchingen):
    heights = elchingen.terrain["elchingen-heights"].geometry
    loudon = [elchingen.units[u] for u in elchingen.oob.subordinates("austrian-1st-div")]
    on_heights = [u for u in loudon if heights.contains(u.footprint())]
    assert len(on_heights) >= len(loudon) - 1  # all but the bridge guard, which stands down by the river


def _out_of_command_at_start(sc) -> list[str]:
    """Who the Torden over Europa engine finds out of command before the first turn (units
    waiting off the table as reinforcements are not checked), as 'subject <- superior d cm'."""
    from battlestudio.replay.state import GameState
    from battlestudio.rules.toe.command import check_command
    from battlestudio.rules.toe.common import params_for

    report = check_command(GameState.from_scenario(sc), params_for(dict(sc.info.parameters)))
    assert report.refusals == ()
    return [f"{f.subject} <- {f.superior} {f.distance:.2f} cm" for f in report.findings if not f.within]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_bundled_scenarios_start_with_everyone_in_command(path):
    sc = store.load(path).scenario
    noted = sc.info.parameters.get("scenario.out_of_command_at_start", [])
    assert _out_of_command_at_start(sc) == noted == []


@pytest.mark.parametrize(
    "name,brigade",
    [("elchingen-1805.battle.json", "austrian-centre-bde"), ("jena-1806.battle.json", "prussian-von-schimonsky")],
)
def test_a_brigade_moved_away_from_its_general_is_found(name, brigade):
    # the check above measures real distances: 5 cm further from the division general puts
    # a brigade that stands within 15 cm of him now out of command
    import math
    from dataclasses import replace

    from shapely.geometry import Point as SPoint

    sc = store.load(SCEN / name).scenario
    u = sc.units[brigade]
    general = sc.commanders[sc.oob.superior(brigade)].position
    d = u.footprint().distance(SPoint(general))
    assert d <= 15.0
    c = u.footprint().centroid
    n = math.dist((c.x, c.y), general)
    step = 15.0 - d + 5.0
    moved = (u.position[0] + step * (c.x - general[0]) / n, u.position[1] + step * (c.y - general[1]) / n)
    sc.units[brigade] = replace(u, position=moved)
    assert any(line.startswith(f"{brigade} <- ") for line in _out_of_command_at_start(sc))


def test_jena_names_the_editors_copied_rows_properly():
    """force_unit rows 97 and 108 ('…_Copy') are distinct regiments, named without the suffix."""
    sc = store.load(SCEN / "jena-1806.battle.json").scenario
    assert not [u.name for u in sc.units.values() if "_Copy" in u.name]
    assert not [c.name for c in sc.commanders.values() if "_Copy" in c.name]
    by_source = {u.attributes.get("source_id"): u for u in sc.units.values()}
    assert by_source["force_unit:108"].name == "9e Hussar"
    assert by_source["force_unit:97"].name == "Corsican Legere"
    assert "force_unit 108" in sc.info.parameters["scenario.note.copied_rows"]
    assert "`9e Hussar_Copy`" in (SCEN / "SOURCES.md").read_text(encoding="utf-8")
