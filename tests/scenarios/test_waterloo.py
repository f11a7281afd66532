"""The bundled Waterloo 1815: built from the shared Waterloo table through the table importer,
its armies' men and guns the table's own totals, the field's geography at 1 cm = 30 m, the
Prussians arriving in their windows, and the battle opening in every ruleset."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest
from shapely.geometry import Point

from battlestudio import store
from battlestudio.cli import main
from battlestudio.model.units import Arm
from battlestudio.rules.switch import switch_report
from battlestudio.store.importers.tabular import import_table
from battlestudio.validate import check_battle

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "scenarios"
FILE = SCEN / "waterloo-1815.battle.json"
CSV = Path("/work/shared/data/oob/waterloo-1815-from-pages.csv")
ARMIES = {"Armée du Nord": "french-armee-du-nord", "Anglo-allied army": "allied-anglo-allied-army"}
BLUCHER = "allied-army-of-the-lower-rhine"


@pytest.fixture(scope="module")
def saved():
    return store.load(FILE).scenario


def _rows() -> list[dict[str, str]]:
    with open(CSV, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _army_rows() -> dict[str, dict[str, str]]:
    return {r["army"]: r for r in _rows() if not r["corps"]}


def _under(sc, root: str) -> list:
    """The units of ``root``'s formation (Wellington's army without Blücher's, which is under him)."""
    skip = {BLUCHER, *sc.oob.all_subordinates(BLUCHER)} if root == "allied-anglo-allied-army" else set()
    return [sc.units[n] for n in sc.oob.all_subordinates(root) if n in sc.units and n not in skip]


def _unrepresented(sc, root: str) -> int:
    ids = [root, *(n for n in sc.oob.all_subordinates(root) if n not in sc.oob.all_subordinates(BLUCHER))]
    return sum(
        n for c in ids if c in sc.commanders for n in sc.commanders[c].attributes.get("unrepresented_guns", {}).values()
    )


def test_each_army_has_the_tables_stated_men_and_guns(saved):
    rows = _army_rows()
    men = {a: sum(u.men for u in _under(saved, cid)) for a, cid in ARMIES.items()}
    assert men == {a: int(rows[a]["men"]) for a in ARMIES} == {"Armée du Nord": 73_000, "Anglo-allied army": 67_655}
    guns = {a: sum(u.guns for u in _under(saved, cid)) + _unrepresented(saved, cid) for a, cid in ARMIES.items()}
    assert guns == {a: int(rows[a]["guns"]) for a in ARMIES} == {"Armée du Nord": 252, "Anglo-allied army": 156}
    # the Prussians: 50,000 engaged (the table's army row); IV Corps keeps its brigades' 34,052 and
    # 88 guns, the army's other guns at IV Corps' rate (the table states no Prussian gun total)
    prussians = _under(saved, BLUCHER)
    assert sum(u.men for u in prussians) == int(rows["Army of the Lower Rhine"]["men"]) == 50_000
    iv = _under(saved, "allied-iv-corps")
    assert sum(u.men for u in iv) == 6560 + 7138 + 7143 + 6423 + 5586 + 1202 and sum(u.guns for u in iv) == 88
    assert sum(u.guns for u in prussians) == 88 + round((50_000 - 34_052) * 88 / 34_052)


def test_battlestudio_info_per_side_is_within_a_few_per_cent_of_the_sources(capsys):
    assert main(["info", str(FILE), "--json"]) == 0
    sides = json.loads(capsys.readouterr().out)["sides"]
    assert sides["french"]["men"] == 73_000 and sides["allied"]["men"] == 67_655 + 50_000
    # 7 French horse guns are left off the table by the one-third rule (Jacquinot's and Piré's
    # single batteries), kept as unrepresented_guns: 245 of 252 on the table (2.8 % fewer)
    assert sides["french"]["guns"] == 245 and abs(245 - 252) / 252 < 0.03
    assert sides["allied"]["guns"] == 156 + 129


def test_stated_unit_figures_are_kept_and_every_share_says_so(saved):
    """Units whose row states men keep them exactly; the rest carry a share and say where from."""
    stated = {int(r["men"]) for r in _rows() if r["men"] and r["arm"] in ("inf", "cav", "art")}
    for u in saved.units.values():
        assert u.men > 0 or u.guns > 0, u.id
        if u.arm is Arm.ARTILLERY:
            continue
        if "strength_estimated" in u.attributes:
            assert u.attributes["strength_estimated"].startswith("men: "), u.id
        else:
            assert u.men in stated, u.id
    by_name = {u.name: u for u in saved.units.values()}
    assert by_name["1st Guards Brigade"].men == 2080 and by_name["2nd (Union) Brigade"].men == 1332
    assert by_name["2nd Guards Brigade"].men == 4995 - 2080  # Cooke's stated division less Maitland
    assert by_name["Nassau contingent"].men == 2880 and by_name["Brunswick Corps"].men == 5962
    note = " ".join(saved.info.parameters["scenario.note.shared_strengths"])
    assert "IV Corps: the rows below state 34,052 men, more than its 32,000; theirs are kept" in note


def test_the_mapping_imports_the_same_order_of_battle_on_the_command_line(tmp_path):
    out = tmp_path / "waterloo.battle.json"
    mapping = SCEN / "waterloo-1815.toml"
    assert main(["import-oob", str(CSV), "--format", "csv", "--map", str(mapping), "--out", str(out)]) == 0
    cli = store.load(out).scenario
    direct = import_table(CSV, mapping).scenario
    assert sorted(c.name for c in cli.commanders.values()) == sorted(c.name for c in direct.commanders.values())
    troops = sorted(u.name for u in direct.units.values() if u.arm is not Arm.ARTILLERY)
    assert sorted(u.name for u in cli.units.values() if u.arm is not Arm.ARTILLERY) == troops and len(troops) == 75
    assert set(cli.sides) == {"french", "allied"}  # Wellington's and Blücher's armies one side


def _km(sc, a: str, b: str) -> float:
    pa, pb = sc.towns[a].polygon.centroid, sc.towns[b].polygon.centroid
    return math.dist((pa.x, pa.y), (pb.x, pb.y)) * sc.info.ground_scale / 1000.0


def test_the_field_at_thirty_metres_to_the_centimetre(saved):
    sc = saved
    assert (sc.info.table_width, sc.info.table_height, sc.info.ground_scale) == (300.0, 200.0, 30.0)
    town = {k: v.polygon.centroid for k, v in sc.towns.items()}
    lhs, hg = town["la-haye-sainte"], town["hougoumont"]
    lba, msj = town["la-belle-alliance"], town["mont-saint-jean-farm"]
    # Hougoumont west and a little south of La Haye Sainte; La Belle Alliance south on the road; Papelotte east
    assert hg.x < lhs.x and hg.y < lhs.y and 1.1 < _km(sc, "hougoumont", "la-haye-sainte") < 1.35
    assert 1.2 < _km(sc, "la-haye-sainte", "la-belle-alliance") < 1.5 and abs(lba.x - lhs.x) < 5
    assert 1.7 < _km(sc, "la-haye-sainte", "papelotte") < 2.1 and town["papelotte"].x > lhs.x
    assert 2.0 < _km(sc, "la-belle-alliance", "plancenoit") < 2.5 and town["plancenoit"].y < lba.y
    assert msj.y > lhs.y and 1.0 < _km(sc, "la-haye-sainte", "mont-saint-jean-farm") < 1.2
    # the Charleroi road runs through La Haye Sainte and La Belle Alliance; the Ohain road along the ridge
    road = sc.terrain["road-charleroi"].geometry
    assert road.distance(lhs) < 1 and road.distance(lba) < 1 and road.distance(msj) < 1
    ridge, ohain = sc.terrain["ridge-mont-saint-jean"].geometry, sc.terrain["road-ohain"].geometry
    assert ohain.intersection(ridge).length > 100
    # the Bois de Paris lies between Plancenoit and the Lasne, which runs near the east edge
    bois = sc.terrain["bois-de-paris"].geometry.centroid
    lasne = sc.terrain["lasne-brook"].geometry
    assert town["plancenoit"].x < bois.x < lasne.interpolate(0.5, normalized=True).x
    smohain = sc.terrain["smohain-stream"].geometry
    assert smohain.distance(town["smohain"]) < 4 and smohain.distance(town["papelotte"]) < 5
    assert {
        "Hougoumont",
        "La Haye Sainte",
        "Papelotte",
        "La Haie",
        "Smohain",
        "Frichermont",
        "Plancenoit",
        "La Belle Alliance",
        "Mont-Saint-Jean farm",
        "Mont-Saint-Jean",
    } <= {t.name for t in sc.towns.values()}


def test_the_armies_stand_where_they_stood_at_half_past_eleven(saved):
    sc = saved
    zones = sc.deployment_zones
    waiting = {n for r in sc.reinforcements.values() for n in sc.oob.all_subordinates(r.formation)}
    for u in sc.units.values():
        zone = zones["dz-prussian"] if u.id in waiting else zones["dz-french" if u.side == "french" else "dz-allied"]
        assert zone.polygon.contains(u.footprint()), u.id
    lhs_y = sc.towns["la-haye-sainte"].polygon.centroid.y
    assert all(u.position[1] < lhs_y for u in sc.units.values() if u.side == "french")
    # Reille west of the Charleroi road, d'Erlon east of it; Byng in Hougoumont; Saxe-Weimar at Papelotte
    road_x = (
        sc.terrain["road-charleroi"]
        .geometry.interpolate(sc.terrain["road-charleroi"].geometry.project(Point(120, 92)))
        .x
    )
    assert all(u.position[0] < road_x for u in _under(sc, "french-ii-corps") if u.arm is Arm.INFANTRY)
    assert all(u.position[0] > road_x for u in _under(sc, "french-i-corps") if u.arm is Arm.INFANTRY)
    hg = sc.towns["hougoumont"].polygon
    byng = sc.units["allied-2nd-guards-brigade"].footprint()
    assert hg.contains(byng.centroid)  # Byng's brigade holds Hougoumont
    assert sc.units["allied-2nd-brigade-nassau"].footprint().intersects(sc.towns["papelotte"].polygon)
    assert sc.info.first_turn == "11:30" and sc.info.turns == 40


def test_the_prussians_arrive_in_their_windows(saved):
    sc = saved
    r = {x.formation: x for x in sc.reinforcements.values()}
    assert set(r) == {"allied-iv-corps", "allied-ii-corps-2", "allied-i-corps-2"}

    def clock(turn: int) -> str:
        m = 11 * 60 + 30 + (turn - 1) * 15
        return f"{m // 60:02d}:{m % 60:02d}"

    assert (clock(r["allied-iv-corps"].earliest_turn), clock(r["allied-iv-corps"].latest_turn)) == ("16:00", "16:45")
    assert clock(r["allied-ii-corps-2"].earliest_turn) == "17:30"
    assert (clock(r["allied-i-corps-2"].earliest_turn), clock(r["allied-i-corps-2"].latest_turn)) == ("18:15", "18:45")
    w, h = sc.info.table_width, sc.info.table_height
    for x in r.values():
        ex, ey = x.entry_point
        assert ex in (0.0, w) or ey in (0.0, h), x.id  # on a table edge
        assert 0 < x.probability <= 1 and x.side == "allied"
    # Bülow and Pirch by the Lasne road from the east, Zieten by the Ohain road from the north
    assert r["allied-iv-corps"].entry_point[0] == w and r["allied-i-corps-2"].entry_point[1] == h
    assert sc.terrain["road-ohain"].geometry.distance(Point(r["allied-i-corps-2"].entry_point)) < 1
    assert sc.terrain["road-plancenoit"].geometry.distance(Point(r["allied-iv-corps"].entry_point)) < 1
    assert sc.oob.superior(BLUCHER) == "allied-anglo-allied-army" and sc.commanders[BLUCHER].echelon == "army"


def test_each_prussian_corps_arrives_in_command(saved):
    """On the table (arrived), every Prussian brigade is within its corps general's 30 cm."""
    from battlestudio.replay.state import GameState
    from battlestudio.rules.toe.command import check_command
    from battlestudio.rules.toe.common import params_for

    sc = saved.copy()
    sc.reinforcements = {}
    report = check_command(GameState.from_scenario(sc), params_for(dict(sc.info.parameters)))
    prussian = set(sc.oob.all_subordinates(BLUCHER))
    checked = [f for f in report.findings if f.subject in prussian]
    assert checked and all(f.within for f in checked)


def test_objectives_with_victory_points(saved):
    obj = {o.name.split(" (")[0]: o for o in saved.objectives.values()}
    assert {k: v.value for k, v in obj.items() if k in ("La Haye Sainte", "Hougoumont", "Plancenoit")} == {
        "La Haye Sainte": 3,
        "Hougoumont": 2,
        "Plancenoit": 2,
    }
    assert obj["Mont-Saint-Jean farm"].side == "french" and obj["La Belle Alliance"].side == "allied"


def test_torden_over_europa_parameters_each_with_its_reason(saved):
    p = saved.info.parameters
    assert p["toe.command_thresholds"] == [4, 6, 8] and "Table 1" in p["toe.unknown"]
    for cid, oas in (("french-armee-du-nord", 3), ("allied-anglo-allied-army", 2), (BLUCHER, 2)):
        assert saved.commanders[cid].order_capacity == oas == p[f"toe.placeholder.order_capacity.{cid}"]
    assert "Napoleon 3" in p["toe.note.order_capacity"]
    corps = [c for c in saved.commanders.values() if c.echelon == "corps"]
    assert {c.id for c in corps if c.command_distance == 60.0} == {
        "allied-i-corps",
        "allied-ii-corps",
        "allied-reserve",
        "allied-cavalry",
    }
    assert all(c.command_distance is None for c in corps if c.side == "french" or c.nation == "Prussia")
    assert "60 cm" in p["toe.note.allied_corps_command_distance"]
    assert check_battle(store.load(FILE)) == []


@pytest.mark.parametrize("ruleset", ["gda", "regimental", "belle-alliance"])
def test_opens_in_the_other_rulesets_with_the_switch_report(saved, ruleset):
    rep = switch_report(saved, ruleset)
    assert not rep.lossless and rep.lines()
    assert BLUCHER in rep.echelons.get("army", ())  # no army echelon outside Torden over Europa
    assert any(k.startswith("toe.") for k in rep.parameters)  # the ToE placeholders stay behind
    assert rep.needs  # and each names what it needs from the scenario


def test_sources_and_readme_name_the_battle():
    text = (SCEN / "SOURCES.md").read_text(encoding="utf-8")
    assert "waterloo-1815.battle.json" in text and "share_stated_strengths" in text
    assert "waterloo-1815.battle.json" in (ROOT / "README.md").read_text(encoding="utf-8")
