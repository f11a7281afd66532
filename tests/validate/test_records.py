"""Records as data (the small Jena 1806 battle of tests/store/conftest.py): ids, references,
reinforcement windows and entry points, unit strengths, the recorded game."""

from __future__ import annotations

from dataclasses import replace

from battlestudio.model import Order, Reinforcement, Unit
from battlestudio.replay.events import event_from_dict
from battlestudio.validate import Problem, check_battle, find_problems
from tests.store.conftest import jena_battle


def test_broken_references_name_the_field_and_the_missing_id():
    b = jena_battle()
    s = b.scenario
    s.orders["o-1"] = Order("o-1", "c-9", "murat", "A")
    assert check_battle(b) == [
        Problem("error", "order.unknown_issuer", "orders['o-1'].issuer: commander 'c-9' does not exist", ("o-1",)),
        Problem(
            "error", "order.unknown_recipient", "orders['o-1'].recipient: no commander or unit 'murat' exists", ("o-1",)
        ),
    ]


def test_reinforcement_probability_and_record_stored_under_another_id():
    b = jena_battle()
    r = b.scenario.reinforcements["r-soult"]
    b.scenario.reinforcements["r-soult"] = replace(r, probability=1.5)
    b.scenario.reinforcements["r-copy"] = Reinforcement("r-other", "french", "soult", 4, 8, (240.0, 40.0))
    assert check_battle(b) == [
        Problem(
            "error",
            "id.mismatch",
            "reinforcements['r-copy'].id: 'r-other', but the record is stored under 'r-copy'",
            ("r-copy",),
        ),
        Problem(
            "error",
            "reinforcement.probability",
            "reinforcements['r-soult'].probability: 1.5 is not between 0 and 1",
            ("r-soult",),
        ),
    ]


def test_reinforcement_arriving_after_the_last_turn_never_comes():
    b = jena_battle()  # 40 turns; Soult may arrive in turns 4–8
    r = b.scenario.reinforcements["r-soult"]
    b.scenario.reinforcements["r-soult"] = replace(r, earliest_turn=38, latest_turn=45)
    assert check_battle(b) == []  # a window running past the end: he may not come, as history allows
    b.scenario.reinforcements["r-soult"] = replace(r, earliest_turn=41, latest_turn=45)
    assert check_battle(b) == [
        Problem(
            "warning",
            "reinforcement.after_last_turn",
            "reinforcements['r-soult'].earliest_turn: 41, after the last turn (40); it never arrives",
            ("r-soult",),
        )
    ]


def test_reinforcement_entering_away_from_a_table_edge():
    b = jena_battle()  # Soult enters on the east edge, (240, 40) on a 240 × 180 cm table
    r = b.scenario.reinforcements["r-soult"]
    b.scenario.reinforcements["r-soult"] = replace(r, entry_point=(239.5, 40.0))  # within 1 cm: on the edge
    assert check_battle(b) == []
    b.scenario.reinforcements["r-soult"] = replace(r, entry_point=(200.0, 90.0))  # in the middle of the table
    assert check_battle(b) == [
        Problem(
            "warning",
            "reinforcement.entry_not_on_edge",
            "reinforcements['r-soult'].entry_point: (200, 90) cm is 40 cm from the nearest table edge",
            ("r-soult",),
        )
    ]
    b.scenario.reinforcements["r-soult"] = replace(r, entry_point=(250.0, 40.0))
    assert [p.check for p in check_battle(b)] == ["reinforcement.entry_off_table"]


def test_units_with_bases_but_no_figures_and_units_with_no_strength():
    b = jena_battle()
    s = b.scenario
    s.units["saxon-hussars"] = replace(s.units["saxon-hussars"], figures=0, bases=3)  # 480 men on 3 bases
    s.units["vedel"] = replace(s.units["vedel"], figures=0, men=0)
    got = check_battle(b)
    assert (
        Problem(
            "error",
            "unit.bases_without_figures",
            "units['saxon-hussars'].figures: 0, but the unit has 3 bases (Saxon hussars)",
            ("saxon-hussars",),
        )
        in got
    )
    assert (
        Problem(
            "error",
            "unit.no_strength",
            "units['vedel'].men: 0, with 0 figures and no guns (Vedel's brigade): no strength given",
            ("vedel",),
        )
        in got
    )
    assert [p.check for p in got] == ["unit.bases_without_figures", "unit.no_strength"]
    s.units["suchet-foot"] = replace(s.units["suchet-foot"], figures=0, men=0)  # 8 guns: something to put down
    assert [p.check for p in check_battle(b)] == ["unit.bases_without_figures", "unit.no_strength"]


def test_empty_and_duplicate_ids():
    b = jena_battle()
    s = b.scenario
    s.units["lannes"] = Unit(
        "lannes", "A unit named like a marshal", "french", figures=4, men=400, position=(20.0, 60.0)
    )
    s.objectives[" "] = replace(s.objectives["vierzehnheiligen"], id=" ")
    got = check_battle(b)
    assert (
        Problem("error", "id.duplicate", "commanders['lannes']: id 'lannes' is also used in units", ("lannes",)) in got
    )
    assert Problem("error", "id.empty", "objectives[' ']: the id is empty", (" ",)) in got


def test_a_recorded_game_that_cannot_be_replayed_is_an_error_and_can_be_skipped():
    b = jena_battle()
    bad = event_from_dict(
        {"kind": "moved", "turn": 1, "side": "french", "phase": "movement", "id": "murat", "path": [[10.0, 10.0]]}
    )  # Murat is not in this battle
    b.events.append(bad)
    got = check_battle(b)
    assert [(p.severity, p.check) for p in got] == [("error", "game.replay")]
    assert got[0].message.startswith("events: ") and "murat" in got[0].message
    assert find_problems(b.scenario) == []  # the dock's check: the play layer reports the game


def test_a_formation_only_another_arm_can_take_is_an_error_naming_the_field():
    from battlestudio.model.units import Arm, Formation

    b = jena_battle()
    s = b.scenario
    inf = next(u for u in s.units.values() if u.arm is Arm.INFANTRY)
    gun = next(u for u in s.units.values() if u.arm is Arm.ARTILLERY)
    s.units[inf.id] = replace(inf, formation=Formation.LIMBERED)
    s.units[gun.id] = replace(gun, formation=Formation.SQUARE)
    found = {p.subjects[0]: p for p in check_battle(b) if p.check == "unit.formation_arm"}
    assert set(found) == {inf.id, gun.id}
    assert found[inf.id].message.startswith(f"units[{inf.id!r}].formation: 'limbered' — infantry cannot be limbered")
    assert "only infantry can" in found[gun.id].message
    s.units[inf.id] = replace(inf, formation=Formation.SQUARE)
    s.units[gun.id] = replace(gun, formation=Formation.UNLIMBERED)
    assert not [p for p in check_battle(b) if p.check == "unit.formation_arm"]
