"""The bundled Auerstedt 1806 battle: rebuilt byte for byte from the shared data, forces equal to
the fogofwar rows, the geography in its real arrangement, the historical arrivals, and the
battle opening in the other rulesets with the switch report saying what does not carry over.

(`test_rebuild.py` rebuilds it byte for byte; `test_bundled_scenarios.py` and
`tests/ui/test_problems_agree.py` run their checks over every bundled file, this one included:
valid, everyone in command at the start, check = Problems dock.)
"""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from shapely.geometry import Point

from battlestudio import store
from battlestudio.cli import main
from battlestudio.replay.battle import Battle
from battlestudio.rules.switch import switch_report
from battlestudio.validate import check_battle

ROOT = Path(__file__).resolve().parents[2]
SCEN = ROOT / "scenarios"
FILE = SCEN / "auerstedt-1806.battle.json"
FOW = Path("/work/shared/data/oob/fogofwar")


def _builder():
    sys.path.insert(0, str(SCEN))
    spec = importlib.util.spec_from_file_location("build_auerstedt", SCEN / "build_auerstedt.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def saved():
    return store.load(FILE).scenario


def _fow_rows(force_ids: set[str]) -> list[dict[str, str]]:
    with open(FOW / "force_unit.csv", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r["force_id"] in force_ids]


def test_info_per_side_is_the_fogofwar_totals(saved, capsys):
    """`battlestudio info --json`: men and guns per side are the rows of forces 3 and 12+13."""
    french = _fow_rows({"3"})
    prussian = _fow_rows({"12", "13"})

    def total(rows, *cols):
        return sum(int(r[c]) for r in rows for c in cols)

    assert (total(french, "bayonets", "sabres"), total(french, "guns")) == (22_900, 32)
    assert (total(prussian, "bayonets", "sabres"), total(prussian, "guns")) == (52_500, 98)
    capsys.readouterr()
    assert main(["info", str(FILE), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    sides = info["sides"]
    assert (sides["french"]["men"], sides["french"]["guns"]) == (22_900, 32)
    assert (sides["prussian"]["men"], sides["prussian"]["guns"]) == (52_500, 98)


def test_check_finds_no_errors(capsys):
    capsys.readouterr()
    code = main(["check", str(FILE)])
    out = capsys.readouterr().out
    assert code == 0 and " error " not in out
    assert check_battle(store.load(FILE)) == []


def test_the_commanders_are_the_historical_ones(saved):
    sc = saved
    davout = sc.commanders["french-iii-corps"]
    assert (davout.name, davout.echelon, davout.command_ability, davout.order_capacity) == ("Davout", "corps", 2, 2)
    divisions = {sc.commanders[c].name for c in sc.oob.subordinates(davout.id) if c in sc.commanders}
    assert divisions == {"Morand", "Friant", "Gudin", "Viallanes"}
    brunswick = sc.commanders["prussian-brunswick-north"]
    assert (brunswick.name, brunswick.echelon, brunswick.command_ability) == ("Duke of Brunswick", "c_in_c", -1)
    under = {sc.commanders[c].name for c in sc.oob.subordinates(brunswick.id) if c in sc.commanders}
    assert under == {"Pr Wiliam of Orange", "Wartensleben", "von Schmettau", "Blucher", "Kalkreuth"}
    assert [c.name for c in sc.commanders.values()].count("Blucher") == 1  # the data's duplicate removed
    oswald = next(u for u in sc.units.values() if u.name == "Lt Bde Oswald")
    assert sc.oob.superior(oswald.id) == "prussian-cav-bde-blucher"
    names = {c.name for c in sc.commanders.values()}
    assert "General Bernadotte" not in names and "Napoleon" not in names
    assert "I-Corps" in sc.info.parameters["scenario.left_out"]
    assert sc.info.parameters["toe.scenario.acting_army_chief"] == {"french": "french-iii-corps"}
    # each division general's KE from his own fogofwar row (force_unit.rating via lookup_cmd_rating)
    ke = {c.name: c.command_ability for c in sc.commanders.values() if c.echelon in ("division", "brigade")}
    assert ke["von Arnim"] == -1 and ke["Gudin"] == 0 and set(ke.values()) == {0, -1}
    assert "von Arnim 'Doddering Fool' -1" in sc.info.parameters["toe.note.command_ability_subordinates"]


def test_villages_stand_in_their_real_arrangement(saved):
    """Relative positions from the map: Kösen east by the Saale, Eckartsberga west, Spielberg
    north-east and Taugwitz north-west of Hassenhausen, Poppel west, Rehehausen south-west,
    Auerstedt south-west beyond Gernstedt, Sulza on the Ilm; at 1 cm = 30 m."""
    c = {t.name: t.polygon.centroid for t in saved.towns.values()}
    h = c["Hassenhausen"]
    km = lambda a, b: a.distance(b) * 0.03  # noqa: E731
    assert c["Kösen"].x > h.x and 5.0 < km(c["Kösen"], h) < 6.5
    assert c["Eckartsberga"].x < min(p.x for n, p in c.items() if n != "Eckartsberga")
    assert c["Spielberg"].x > h.x and c["Spielberg"].y > h.y
    assert c["Taugwitz"].x < h.x and c["Taugwitz"].y > h.y
    assert c["Poppel"].x < c["Taugwitz"].x and abs(c["Poppel"].y - h.y) < 30
    assert c["Rehehausen"].y < h.y and c["Rehehausen"].x < h.x
    assert c["Auerstedt"].y < c["Gernstedt"].y < h.y and c["Auerstedt"].x < c["Rehehausen"].x
    assert 4.5 < km(c["Auerstedt"], h) < 7.5
    saale, ilm = saved.terrain["saale"].geometry, saved.terrain["ilm"].geometry
    assert saale.distance(c["Kösen"]) < 5 and ilm.distance(c["Sulza"]) < 5
    assert saale.distance(Point(ilm.coords[-1])) < 1  # the Ilm runs into the Saale
    highway = saved.terrain["road-highway"].geometry
    towns = {t.name: t.polygon for t in saved.towns.values()}
    for name in ("Kösen", "Hassenhausen", "Poppel", "Eckartsberga"):
        assert highway.intersects(towns[name]), name
    assert saved.terrain["koesen-bridge"].geometry.intersects(saale)
    assert {"lissbach", "emse", "eckartsberga-heights", "auerstedt-heights", "koesen-slopes"} <= set(saved.terrain)


def test_the_table_is_georeferenced_on_hassenhausen(saved):
    """The georeference puts Hassenhausen's town zone where the build script says the village is
    (approximate lon/lat), and the table spans 13.5 km west to east."""
    from battlestudio.model.georef import to_lonlat

    mod = _builder()
    h = saved.towns["hassenhausen"].polygon.centroid
    (lon, lat), (lon_e, _) = to_lonlat(
        saved.info.georef, saved.info.ground_scale, [(h.x, h.y), (saved.info.table_width, 0.0)]
    ).tolist()[:2]
    assert abs(lon - mod.HASSENHAUSEN_LONLAT[0]) < 0.0015 and abs(lat - mod.HASSENHAUSEN_LONLAT[1]) < 0.001
    assert 13.3 < (lon_e - saved.info.georef.lon) * 111.32 * 0.6277 < 13.7


def test_the_opening_at_seven(saved):
    """Gudin at Hassenhausen facing west, the chasseurs out towards Poppel; Schmettau and
    Blücher west of the Lissbach facing east; every waiting formation at its table edge."""
    sc = saved
    waiting = {
        u
        for r in sc.reinforcements.values()
        for u in ([r.formation] if r.formation in sc.units else sc.oob.all_subordinates(r.formation))
    }
    gudin = [sc.units[u] for u in sc.oob.subordinates("french-3eme-division")]
    hassenhausen = sc.towns["hassenhausen"].polygon
    assert all(u.facing == 180.0 and u.footprint().distance(hassenhausen) < 15 for u in gudin)
    assert any(hassenhausen.contains(u.footprint()) for u in gudin)
    lissbach = sc.terrain["lissbach"].geometry
    for u in sc.units.values():
        if u.id in waiting:
            continue
        y_stream_x = min(lissbach.coords, key=lambda p: abs(p[1] - u.position[1]))[0]
        assert (u.position[0] > y_stream_x) == (u.side == "french"), u.id
    prussians = [u for u in sc.units.values() if u.side == "prussian" and u.id not in waiting]
    assert prussians and all(u.facing == 0.0 for u in prussians)
    assert {sc.oob.superior(u.id) for u in prussians} >= {"prussian-3rd-division", "prussian-cav-bde-blucher"}
    assert sc.info.first_turn == "07:00" and sc.info.turns == 38


def test_arrivals_follow_the_accounts(saved):
    r = {x.formation: x for x in saved.reinforcements.values()}
    windows = {f: (x.earliest_turn, x.latest_turn, x.probability) for f, x in r.items()}
    assert windows["french-2eme-division"] == (5, 7, 1.0)  # Friant 08:00-08:30
    assert windows["french-1eme-division"] == (11, 13, 1.0)  # Morand 09:30-10:00
    assert windows["prussian-2nd-div"] == (7, 9, 1.0)  # Wartensleben 08:30-09:00
    assert windows["prussian-1st-div"] == (13, 15, 1.0)  # Orange 10:00-10:30
    assert windows["prussian-reserve-kalkreuth"] == (17, 23, 0.8)  # Kalckreuth late, 80% (Jena.scenario)
    assert "line 13" in r["prussian-1st-div"].note and "(3-5 hrs)" in r["prussian-1st-div"].note
    table = saved.table().exterior
    for x in r.values():
        assert table.distance(Point(x.entry_point)) < 1e-9, x.id
        assert x.entry_point[0] == (450.0 if x.side == "french" else 0.0)  # Kösen road / Auerstedt road
    on_table = {"french-3eme-division", "prussian-3rd-division", "prussian-cav-bde-blucher"}
    assert not on_table & set(r)


def test_objectives_and_zones(saved):
    o = {x.id: x for x in saved.objectives.values()}
    assert o["obj-hassenhausen"].value == 3 and o["obj-hassenhausen"].side == ""
    kpass = o["obj-koesen-pass"]
    assert kpass.side == "prussian" and kpass.value == 3
    assert kpass.geometry.intersects(saved.terrain["road-highway"].geometry)
    assert kpass.geometry.intersects(saved.terrain["koesen-bridge"].geometry)
    assert sum(x.value for x in o.values()) == 12
    z = {k: v.polygon for k, v in saved.deployment_zones.items()}
    assert z["dz-french"].contains(saved.towns["hassenhausen"].polygon)
    assert z["dz-prussian"].contains(saved.towns["gernstedt"].polygon)
    assert not z["dz-french"].intersects(z["dz-prussian"])
    # Friant on the right (north of the highway, towards Spielberg), Morand on the left, inside the
    # French zone; Kalckreuth's reserve on the heights by Auerstedt
    h = saved.towns["hassenhausen"].polygon.centroid
    assert z["dz-friant"].centroid.y > h.y > z["dz-morand"].centroid.y
    assert z["dz-french"].buffer(0.01).contains(z["dz-friant"]) and z["dz-french"].buffer(0.01).contains(z["dz-morand"])
    assert z["dz-kalkreuth"].equals(saved.terrain["auerstedt-heights"].geometry)
    formations = {v.formation for v in saved.deployment_zones.values()}
    assert formations == {"", "french-2eme-division", "french-1eme-division", "prussian-reserve-kalkreuth"}


@pytest.mark.parametrize("ruleset", ["gda", "regimental", "belle-alliance"])
def test_it_opens_in_the_other_rulesets_and_says_what_does_not_carry_over(saved, ruleset):
    report = switch_report(saved, ruleset)
    assert not report.lossless
    assert any(k.startswith("toe.") for k in report.parameters)  # the Torden over Europa values stay behind
    assert report.lines()
    switched = replace(saved.info, ruleset=ruleset)
    sc = saved.copy()
    sc.info = switched
    problems = check_battle(Battle(sc))
    assert not [p for p in problems if p.severity == "error"], problems


def test_sources_md_has_an_auerstedt_section():
    text = (SCEN / "SOURCES.md").read_text(encoding="utf-8")
    assert "auerstedt-1806.battle.json" in text
    section = text[text.index("## Auerstedt 1806") :]
    for needle in ("force 3", "forces 12 and 13", "brigade", "regiment", "22,900", "52,500", "approximate"):
        assert needle in section, needle
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "scenarios/auerstedt-1806.battle.json" in readme


def test_a_game_opens_orders_go_out_and_the_reinforcements_come_on(saved):
    """Recorded through the session: Davout (acting army chief) orders his corps to hold, Brunswick
    sends Schmettau against Hassenhausen, and every formation due by 10:15 enters where it waits;
    only Kalckreuth's reserve is still off the table."""
    from battlestudio.rules import OrderRequest
    from battlestudio.session import GameSession

    s = GameSession(Battle(saved, []), seed=1806)
    s.start()
    assert s.clock() == "07:00"
    hold = s.issue_order(OrderRequest("french-iii-corps", "french-iii-corps", "H"))
    assert hold.status in ("delivered", "failed") and "Davout" in hold.explanation
    refused = s.issue_order(OrderRequest("french-iii-corps", "french-3eme-division", "H"))
    assert refused.status == "refused" and "no orders of their own" in refused.explanation
    arrived: set[str] = set()
    while s.key[0] < 14:
        turn, side, phase = tuple(s.key)
        if phase == "orders":
            if (turn, side) == (1, "prussian"):
                attack = OrderRequest(
                    "prussian-brunswick-north", "prussian-3rd-division", "A", objective=(200.0, 168.0)
                )
                assert s.issue_order(attack).status in ("delivered", "failed")
            for rid, r in saved.reinforcements.items():
                if r.side == side and rid not in arrived and r.earliest_turn <= turn:
                    s.arrive(rid)
                    arrived.add(rid)
        s.next_phase()
    assert s.clock() == "10:15"
    kalkreuth = {"prussian-reserve-kalkreuth"} | set(saved.oob.all_subordinates("prussian-reserve-kalkreuth"))
    assert set(s.state.off_table) == kalkreuth
    assert arrived == set(saved.reinforcements) - {"arrive-prussian-reserve-kalkreuth"}


def test_the_import_oob_command_reads_the_same_rows(saved, tmp_path, capsys):
    """`battlestudio import-oob --format fogofwar` on the whole Jena-Auerstedt scenario gives every
    fogofwar row of this battle the same name, men, guns and figures (gun models, regrouped per
    army, are the only units without a row of their own)."""
    out = tmp_path / "jena-auerstedt.battle.json"
    assert main(["import-oob", str(FOW), "--format", "fogofwar", "--scenario-id", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    cli = {u.attributes["source_id"]: u for u in store.load(out).scenario.units.values() if "source_id" in u.attributes}
    rows = [u for u in saved.units.values() if "source_id" in u.attributes]
    assert len(rows) == 37 and len(saved.units) - len(rows) == 7  # 2 French and 5 Prussian gun models
    for u in rows:
        c = cli[u.attributes["source_id"]]
        assert (c.name, c.men, c.guns, c.figures, c.arm) == (u.name, u.men, u.guns, u.figures, u.arm), u.id
