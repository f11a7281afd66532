"""The order of battle graph on Davout's III Corps at Auerstedt, 14 October 1806, read by hand
from shared/data/oob/republique5/scenarios/jena-auerstadt-1806/III-Corps.oob, facing the head
of Brunswick's army from Brunswick.oob in the same folder.

The file lists regiments under each division general; here each regiment is one tactical unit
(Torden over Europa 1.3 would group them into brigades). Figures follow Torden over Europa 1.1
(≈ 100 men per infantry figure, 80 per cavalry figure) with ≈ 600 men per Republique base.
"""

from __future__ import annotations

import pytest

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.units import Arm, Commander, Echelon, Subtype, Unit

FR, PR = "french", "prussian"


def cmd(cid: str, name: str, echelon: Echelon, side: str = FR) -> Commander:
    return Commander(cid, name, side, "France" if side == FR else "Prussia", echelon.value)


def inf(uid: str, name: str, bases: int, quality: str = "regular", light: bool = False, side: str = FR) -> Unit:
    return Unit(
        uid,
        name,
        side,
        "France" if side == FR else "Prussia",
        Arm.INFANTRY,
        Subtype.LIGHT_INFANTRY if light else Subtype.LINE_INFANTRY,
        quality,
        figures=6 * bases,
        bases=bases,
        men=600 * bases,
    )


def bty(uid: str, name: str, side: str = FR, horse: bool = False) -> Unit:
    return Unit(
        uid,
        name,
        side,
        "France" if side == FR else "Prussia",
        Arm.ARTILLERY,
        Subtype.HORSE_ARTILLERY if horse else Subtype.FOOT_ARTILLERY,
        figures=1,
        guns=8,
    )


COMMANDERS = {
    c.id: c
    for c in [
        cmd("davout", "Davout (III Corps)", Echelon.CORPS),
        cmd("viallanes", "Viallanes (Cavalry Bde)", Echelon.BRIGADE),
        cmd("hannicque", "Hannicque (Corps Artillery)", Echelon.BRIGADE),
        cmd("morand", "Morand (1eme Division)", Echelon.DIVISION),
        cmd("friant", "Friant (2eme Division)", Echelon.DIVISION),
        cmd("gudin", "Gudin (3eme Division)", Echelon.DIVISION),
        cmd("brunswick", "Brunswick (Northern Army)", Echelon.C_IN_C, PR),
        cmd("blucher", "Blücher (Advanced Guard Division)", Echelon.DIVISION, PR),
    ]
}

UNITS = {
    u.id: u
    for u in [
        Unit(
            "chasseurs",
            "1eme 2eme Chasseur Cheval",
            FR,
            "France",
            Arm.CAVALRY,
            Subtype.LIGHT_CAVALRY,
            "veteran",
            figures=15,
            bases=3,
            men=1200,
        ),
        bty("corps_bty", "Corps Bty"),
        inf("13e_leg", "13eme Legere", 3, "veteran", light=True),
        inf("17e", "17eme Ligne", 4, "veteran"),
        inf("30e", "30eme Ligne", 4, "veteran"),
        inf("51e", "51eme Ligne", 4),
        inf("61e", "61eme Ligne", 4),
        bty("1_div_bty", "1eme Div Bty"),
        inf("33e", "33eme Ligne", 4, "veteran"),
        inf("48e", "48eme Ligne", 3, "veteran"),
        inf("108e", "108eme Ligne", 3),
        inf("111e", "111eme Ligne", 4),
        bty("2_div_bty", "2eme Div Bty"),
        inf("12e", "12eme Ligne", 3, "veteran"),
        inf("21e", "21eme Ligne", 4, "veteran"),
        inf("25e", "25eme Ligne", 4, "veteran"),
        inf("85e", "85eme Ligne", 4),
        bty("3_div_bty", "3eme Div Bty"),
        inf("oswald", "Brigade von Oswald", 4, "veteran", side=PR),
        bty("pr_horse_bty", "Horse Bty", PR, horse=True),
    ]
}

EDGES = [
    ("davout", "viallanes"),
    ("viallanes", "chasseurs"),
    ("davout", "hannicque"),
    ("hannicque", "corps_bty"),
    ("davout", "morand"),
    *[("morand", u) for u in ("13e_leg", "17e", "30e", "51e", "61e", "1_div_bty")],
    ("davout", "friant"),
    *[("friant", u) for u in ("33e", "48e", "108e", "111e", "2_div_bty")],
    ("davout", "gudin"),
    *[("gudin", u) for u in ("12e", "21e", "25e", "85e", "3_div_bty")],
    ("brunswick", "blucher"),
    ("blucher", "oswald"),
    ("blucher", "pr_horse_bty"),
]


@pytest.fixture
def oob() -> OrderOfBattle:
    return OrderOfBattle(EDGES)


def codes(problems) -> list[str]:
    return sorted(p.code for p in problems)


# -- queries ------------------------------------------------------------------------------------
def test_the_real_iii_corps_validates(oob):
    assert oob.validate(COMMANDERS, UNITS) == []
    assert sorted(oob.roots()) == ["brunswick", "davout"]


def test_chain_of_command_runs_up_to_the_corps(oob):
    assert oob.chain_of_command("13e_leg") == ["morand", "davout"]
    assert oob.chain_of_command("chasseurs") == ["viallanes", "davout"]
    assert oob.chain_of_command("davout") == []
    assert oob.chain_of_command("nobody") == []


def test_subordinates_in_file_order(oob):
    assert oob.subordinates("davout") == ["viallanes", "hannicque", "morand", "friant", "gudin"]
    assert oob.subordinates("friant") == ["33e", "48e", "108e", "111e", "2_div_bty"]
    assert oob.subordinates("85e") == [] and oob.subordinates("nobody") == []
    everyone = oob.all_subordinates("davout")
    assert len(everyone) == 5 + 18  # five subordinate generals, eighteen units
    assert set(everyone) == {n for n in COMMANDERS if COMMANDERS[n].side == FR and n != "davout"} | {
        u for u in UNITS if UNITS[u].side == FR
    }


def test_commander_of_a_unit_and_echelon_depth(oob):
    assert oob.commander_of("108e") == "friant"
    assert oob.commander_of("davout") is None
    depths = dict(oob.walk("davout"))
    assert depths["davout"] == 0 and depths["gudin"] == 1 and depths["25e"] == 2
    assert [n for n, _ in oob.walk("davout")][:3] == ["davout", "viallanes", "chasseurs"]
    assert sum(UNITS[u].men for u in oob.all_subordinates("gudin")) == 600 * 15


def test_add_replaces_the_previous_superior(oob):
    oob.add("gudin", "13e_leg")  # Morand's light regiment attached to Gudin
    assert oob.commander_of("13e_leg") == "gudin" and "13e_leg" not in oob.subordinates("morand")
    assert oob.validate(COMMANDERS, UNITS) == []


def test_copy_is_independent_and_equality_ignores_order(oob):
    c = oob.copy()
    c.add("friant", "61e")
    assert c != oob and oob.commander_of("61e") == "morand"
    assert OrderOfBattle(list(reversed(EDGES))) == oob


# -- validation failures, each naming the ids ---------------------------------------------------
def test_two_roots_on_one_side_are_named():
    bad = OrderOfBattle(EDGES)
    commanders = dict(COMMANDERS, lannes=cmd("lannes", "Lannes (V Corps)", Echelon.CORPS))
    bad.add_node("lannes")
    [p] = bad.validate(commanders, UNITS)
    assert p.code == "roots" and set(p.ids) == {"davout", "lannes"}
    assert "french" in p.message and "davout" in p.message and "lannes" in p.message


def test_a_side_with_no_root_is_reported():
    bad = OrderOfBattle(EDGES)
    bad.graph.add_edge("gudin", "davout")  # Davout under his own division general: a cycle
    problems = bad.validate(COMMANDERS, UNITS)
    assert "cycle" in codes(problems) and "roots" in codes(problems)
    cycle = next(p for p in problems if p.code == "cycle")
    assert set(cycle.ids) == {"davout", "gudin"}
    assert "davout" in cycle.message and "gudin" in cycle.message
    roots = next(p for p in problems if p.code == "roots")
    assert "no root commander" in roots.message and "french" in roots.message


def test_unit_without_commander_is_named():
    bad = OrderOfBattle(EDGES)
    bad.remove("viallanes")  # the chasseurs lose their brigadier
    commanders = {k: v for k, v in COMMANDERS.items() if k != "viallanes"}
    [p] = bad.validate(commanders, UNITS)
    assert p.code == "unit-no-commander" and p.ids == ("chasseurs",) and "chasseurs" in p.message


def test_unit_under_two_commanders_is_named():
    bad = OrderOfBattle(EDGES)
    bad.graph.add_edge("friant", "17e")  # 17eme Ligne under Morand and Friant at once
    [p] = bad.validate(COMMANDERS, UNITS)
    assert p.code == "many-superiors" and set(p.ids) == {"17e", "morand", "friant"}


def test_a_unit_may_not_command():
    bad = OrderOfBattle(EDGES)
    bad.add("30e", "51e")
    [p] = bad.validate(COMMANDERS, UNITS)
    assert p.code == "unit-commands" and p.ids == ("30e", "51e")


@pytest.mark.parametrize(
    "superior, subordinate, ids",
    [
        ("morand", "friant", ("morand", "friant")),  # division under division
        ("viallanes", "gudin", ("viallanes", "gudin")),
    ],  # division under a brigadier
)
def test_echelons_must_descend(superior, subordinate, ids):
    bad = OrderOfBattle(EDGES)
    bad.add(superior, subordinate)
    [p] = bad.validate(COMMANDERS, UNITS)
    assert p.code == "echelon-order" and p.ids == ids
    assert subordinate in p.message and superior in p.message


def test_unknown_echelon_is_named():
    commanders = dict(COMMANDERS, gudin=Commander("gudin", "Gudin", FR, "France", "wing"))
    [p] = OrderOfBattle(EDGES).validate(commanders, UNITS)
    assert p.code == "echelon" and p.ids == ("gudin",) and "'wing'" in p.message


def test_no_edge_across_sides():
    bad = OrderOfBattle(EDGES)
    bad.add("davout", "oswald")  # a Prussian brigade under Davout
    [p] = bad.validate(COMMANDERS, UNITS)
    assert p.code == "cross-side" and p.ids == ("davout", "oswald")
    assert "french" in p.message and "prussian" in p.message


def test_unknown_ids_are_named():
    bad = OrderOfBattle(EDGES + [("morand", "ghost_regiment")])
    [p] = bad.validate(COMMANDERS, UNITS)
    assert p.code == "unknown-id" and p.ids == ("ghost_regiment",)


def test_every_problem_at_once():
    bad = OrderOfBattle(EDGES)
    bad.add("davout", "oswald")
    bad.graph.add_edge("friant", "17e")
    bad.add("morand", "friant")
    assert codes(bad.validate(COMMANDERS, UNITS)) == ["cross-side", "echelon-order", "many-superiors"]
