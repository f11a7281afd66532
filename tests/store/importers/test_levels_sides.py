"""Levels nesting with a side column: equal formation names on two sides (or under two corps)
are different commanders, and a command made for a path takes the side of its rows."""

from __future__ import annotations

from pathlib import Path

from battlestudio.store.importers import import_oob

DATA = Path(__file__).parents[2] / "data" / "import"
CSV, TOML = DATA / "two-sides-same-corps.csv", DATA / "two-sides-same-corps.toml"


def _import():
    return import_oob([CSV], "csv", mapping=TOML, convert=False)


def test_same_names_on_two_sides_are_two_commands():
    res = _import()
    sc = res.scenario
    assert len(sc.commanders) == 9  # 2 x (I Corps, II Corps, two 1st Divisions) + IV Cavalry Corps
    assert not [w for w in res.warnings if "cross-side" in w.message]
    by_person = {c.name: c for c in sc.commanders.values()}
    for brigade, division, corps in (
        ("1st Guards Brigade", "Cooke", "Prince of Orange"),
        ("Adam's Brigade", "Clinton", "Hill"),
        ("54e Ligne", "Quiot", "Drouet d'Erlon"),
        ("2e Léger", "Bachelu", "Reille"),
    ):
        (u,) = [u for u in sc.units.values() if u.name == brigade]
        div = sc.oob.superior(u.id)
        assert div == by_person[division].id, brigade
        assert sc.oob.superior(div) == by_person[corps].id, brigade
        assert u.side == sc.commanders[div].side == by_person[corps].side
    assert {c.side for c in sc.commanders.values()} == {"french", "anglo-allied"}


def test_command_made_for_a_path_takes_the_side_of_its_rows():
    res = _import()
    sc = res.scenario
    assert "side" not in sc.sides
    (cav,) = [c for c in sc.commanders.values() if c.name == "IV Cavalry Corps"]
    assert cav.side == "french" and cav.echelon == "corps"
    assert sorted(sc.units[u].name for u in sc.oob.subordinates(cav.id)) == [
        "Dubois Cuirassier Brigade",
        "Travers Cuirassier Brigade",
    ]
    assert any("no row for 'IV Cavalry Corps'" in w.message for w in res.warnings)


def test_the_summary_says_the_guns_stated_on_command_rows():
    res = _import()
    assert res.summary.guns == 0  # no unit row gives guns: the two 1st Divisions state 8 each
    assert (res.summary.stated_men, res.summary.stated_guns) == (4_000 + 4_100 + 4_000 + 4_600, 16)
    lines = res.summary.lines()
    assert "guns: 0" in lines[2]
    assert lines[3] == (
        "stated on command rows, not counted in the totals above: 16,700 men, 16 guns "
        "(kept as the commanders' stated_men/stated_guns attributes)"
    )
