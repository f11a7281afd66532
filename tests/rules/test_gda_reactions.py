"""General d'Armée: the attack move (ПРОЦЕДУРА АТАКИ 3-5, ПРОВЕДЕНИЕ АТАКИ 4), the target's
reactions (ПРОЦЕДУРА АТАКИ 6, ПРОВЕДЕНИЕ АТАКИ 5 Б: wheel, square, turn about, evade, rout) with
the lost Discipline Test entered by the umpire, and the Fate test of a clean double six."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battlestudio.model.units import Arm, Formation
from battlestudio.replay.flow_events import FormationChanged, Moved, OrderStateChanged, Rotated
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.dice import SeededDice
from battlestudio.rules.gda.actions import ACTIONS
from battlestudio.rules.gda.brigades import CommandState, brigade_status
from battlestudio.rules.gda.events import DamageTaken
from battlestudio.rules.gda.geometry import unit_distance
from battlestudio.rules.gda.reactions import reaction_refusal

from gda_world import brigade, gda_params, unit, world
from test_gda_actions import SUPPORT, TARGET, ScriptedDice, elchingen, session_at

A = "french-bde-villatte"
MOVE = {"normal_move_cm.infantry": 15, "normal_move_cm.cavalry": 30}


def declared_at(y: float, tasks=("infantry_assault",), dice=None, supports=(SUPPORT,)):
    """Elchingen with the avant-garde's front at y (Villatte's front at 32), the attack declared."""
    battle = elchingen(loison_tasks=tasks, **{TARGET: {"position": (110.0, y)}})
    s = session_at("attack-declaration", battle, dice)
    out = s.act(ActionRequest("declare_attack", A, {"target": TARGET, "supports": supports}))
    assert out.status == "resolved", out.explanation
    s.advance_to("attacks", side="french")
    return s


def test_attack_move_closes_to_5_cm_with_the_support_keeping_its_place():
    """ПРОВЕДЕНИЕ АТАКИ 4: «приближается на 5см[3"]» towards the target's centre; Roguet, the
    rear support, moves with Villatte by the same vector."""
    s = declared_at(45.0)
    before = {u: s.state.units[u].position for u in (A, SUPPORT)}
    out = s.act(ActionRequest("attack_move", A))
    assert out.status == "resolved", out.explanation
    assert {e.id for e in out.outcome.events if isinstance(e, Moved)} == {A, SUPPORT}
    st = s.state
    assert unit_distance(st.units[A], st.units[TARGET]) == pytest.approx(5.0, abs=1e-6)
    da = (st.units[A].position[0] - before[A][0], st.units[A].position[1] - before[A][1])
    ds = (st.units[SUPPORT].position[0] - before[SUPPORT][0], st.units[SUPPORT].position[1] - before[SUPPORT][1])
    assert da == pytest.approx(ds) and da[1] == pytest.approx(8.0, abs=0.05)
    flag = st.flags[f"gda-attack:{A}"]
    assert flag["stage"] == "closed" and flag["start_gap"] == pytest.approx(13.0)
    assert "attack" in [a.id for a in s.actions(A) if a.legal]


def test_attack_move_short_with_the_forward_dice_stops_unformed_and_the_attack_is_abandoned():
    """ПРОЦЕДУРА АТАКИ 4-5: declared within the greatest reach (15 + 5 + 12 cm with Forward!),
    it must go in; the Forward! dice, rolled only now, give 1 + 1: 22 cm of the 23 it needs
    (28 cm less 5), so it moves 22 cm, stops Unformed and the attack is abandoned."""
    dice = ScriptedDice({f"gda-forward:{A}:t1": [(1, 1)]})
    s = declared_at(60.0, tasks=("infantry_assault", "forward"), dice=dice, supports=())
    out = s.act(ActionRequest("attack_move", A))
    assert out.status == "resolved", out.explanation
    assert "moves its full distance and stops Unformed" in out.explanation
    assert [r.raw for r in out.outcome.rolls] == [(1, 1)]
    st = s.state
    assert st.units[A].state == "unformed" and st.flags[f"gda-attack:{A}"]["stage"] == "abandoned"
    assert st.units[A].position[1] == pytest.approx(32.0 + 22.0, abs=0.05)
    (roll,) = [a for a in s.actions(A) if a.id == "attack"]
    assert "abandoned" in roll.unavailable


def test_no_reaction_but_fire_when_the_attacker_started_within_15_cm():
    """ПРОВЕДЕНИЕ АТАКИ 5 Б IV: 13 cm away — no time to react; fire is allowed."""
    s = declared_at(45.0)
    out = s.act(ActionRequest("reaction", A, {"reaction": "wheel", "facing": 250}))
    assert out.status == "refused" and "IV: the attacker started 13.0 cm away" in out.explanation
    out = s.act(ActionRequest("reaction", A, {"reaction": "fire"}))
    assert out.status == "resolved" and s.state.flags[f"gda-attack:{A}"]["reaction"] == "fire"
    (again,) = [a for a in s.actions(A) if a.id == "reaction"]
    assert "has reacted (fire)" in again.unavailable


def test_wheel_up_to_half_a_move_when_the_attacker_started_15_cm_or_more_away():
    """I: the avant-garde (34 figures in line) wheels; its outer flank may travel half its
    15 cm move."""
    s = declared_at(50.0)  # 18 cm
    t = s.state.units[TARGET]
    small = round(t.facing + 7.5 / t.rect().width * 57.2958 * 0.9)  # just inside 7.5 cm of flank travel
    big = round(t.facing + 7.5 / t.rect().width * 57.2958 * 1.2)
    out = s.act(ActionRequest("reaction", A, {"reaction": "wheel", "facing": big}))
    assert out.status == "refused" and "more than half its move (7.5 cm)" in out.explanation
    out = s.act(ActionRequest("reaction", A, {"reaction": "wheel", "facing": small}))
    assert out.status == "resolved", out.explanation
    assert s.state.units[TARGET].facing == pytest.approx(small)
    assert [e for e in s.battle.events if isinstance(e, Rotated)][-1].id == TARGET


def cavalry_on_infantry(formation=Formation.LINE, quality="line", defender_facing=270.0, y=20.0, others=()):
    hus = unit("hus", arm=Arm.CAVALRY, figures=8, formation=Formation.LINE, x=0, y=0)
    inf = unit("inf", side="austrian", quality=quality, formation=formation, x=0, y=y, facing=defender_facing)
    c1, u1, e1 = brigade("fb", [hus])
    c2, u2, e2 = brigade("ab", [inf, *others], side="austrian", y=40)
    flag = {"turn": 1, "stage": "declared", "target": "inf", "supports": [], "positions": {}}
    st = world([c1, c2], u1 + u2, e1 + e2, flags={"gda-attack:hus": flag})
    return replace(st, phase="attacks")


def react(st, reaction, discipline=None, **params):
    action = "reaction_test" if reaction in ("square", "turn_about") else "reaction"
    req = ActionRequest(action, "hus", {"reaction": reaction, **params})
    if discipline:
        req = replace(req, umpire_result={"discipline": discipline})
    return ACTIONS.resolve_action(st, req, MOVE, SeededDice(1))


@pytest.mark.parametrize("formation", [Formation.LINE, Formation.COLUMN])
def test_square_against_cavalry_after_the_discipline_test_entered_by_the_umpire(formation):
    """II: infantry in line or column attacked by cavalry that started 15 cm or more away takes
    the (lost) Discipline Test at 5 cm; passed → square; failed → it suffers the result."""
    st = cavalry_on_infantry(formation)
    spec = next(a for a in ACTIONS.actions(st, MOVE, "hus") if a.id == "reaction_test")
    assert "discipline_test" in spec.umpire_table
    out = react(st, "square", "passed")
    assert out.status == "resolved", out.explanation
    assert [(e.unit, e.formation) for e in out.events if isinstance(e, FormationChanged)] == [("inf", "square")]
    out = react(st, "square", "retreating")
    assert [(e.unit, e.state) for e in out.events if isinstance(e, OrderStateChanged)] == [("inf", "retreating")]
    assert "suffers the test's result" in out.explanation
    assert react(st, "square").status == "refused"  # no result entered: the test is the umpire's


def test_square_only_against_cavalry_and_only_from_line_or_column():
    st = cavalry_on_infantry()
    a, t, decl = st.units["hus"], st.units["inf"], st.flags["gda-attack:hus"]
    p = gda_params(**MOVE)
    assert reaction_refusal(a, t, decl, "square", p) == ""
    infantry = replace(a, arm=Arm.INFANTRY)
    assert "against cavalry only" in reaction_refusal(infantry, t, decl, "square", p)
    sq = replace(t, formation=Formation.SQUARE)
    assert "only infantry in line or column" in reaction_refusal(a, sq, decl, "square", p)


def test_turn_about_only_for_elite_or_veteran_attacked_in_the_rear():
    """III: attacked in the rear, an Elite unit passes its Discipline Test, faces the attacker
    and becomes Unformed; a Line unit may not try."""
    st = cavalry_on_infantry(quality="elite", defender_facing=90.0)  # its back to the hussars
    out = react(st, "turn_about", "passed")
    assert out.status == "resolved", out.explanation
    assert [e.facing for e in out.events if isinstance(e, Rotated)] == [270.0]
    assert [(e.unit, e.state) for e in out.events if isinstance(e, OrderStateChanged)] == [("inf", "unformed")]
    line_unit = cavalry_on_infantry(quality="line", defender_facing=90.0)
    out = react(line_unit, "turn_about", "passed")
    assert out.status == "refused" and "only Elite or Veteran" in out.explanation
    front = cavalry_on_infantry(quality="elite")
    assert "only a unit attacked in the rear" in react(front, "turn_about", "passed").explanation


def test_evade_only_for_skirmishers_cossacks_and_limbered_guns():
    """V: the Cossacks evade; the infantry may not. The evade distance is lost: without the
    umpire's entry or the scenario's evade_distance_cm nothing moves."""
    st = cavalry_on_infantry()
    assert "V: only skirmishers" in react(st, "evade", evade_cm=10).explanation
    cos = replace(st.units["inf"], arm=Arm.CAVALRY, attributes={"cossack": True})
    st = replace(st, units={**st.units, "inf": cos})
    out = react(st, "evade")
    assert out.status == "refused" and "evade_distance_cm" in out.explanation
    out = react(st, "evade", evade_cm=10)
    assert out.status == "resolved" and "evades 10 cm straight away from the attacker" in out.explanation
    (move,) = [e for e in out.events if isinstance(e, Moved)]
    assert move.id == "inf" and move.path[-1] == pytest.approx((0.0, 30.0))


def test_a_retreating_target_routs_at_once_and_its_brigade_falters():
    """ПРОЦЕДУРА АТАКИ 6 Д: «Отступающие подразделения ... немедленно Бегут»; one routing unit
    makes its brigade Faltering (ДРОГНУВШИЕ)."""
    st = cavalry_on_infantry()
    st = replace(st, units={**st.units, "inf": replace(st.units["inf"], state="retreating")})
    assert "cannot stand" in react(st, "fire").explanation
    out = react(st, "rout")
    assert out.status == "resolved"
    after = st
    for e in out.events:
        after = e.apply(after)
    assert after.units["inf"].state == "routing"
    assert brigade_status(after, "ab").state is CommandState.FALTERING


def test_fate_test_on_a_clean_double_six_is_entered_by_the_umpire():
    """Двойная «6»: the Fate table is lost; the umpire enters its result for the leading unit."""
    st = cavalry_on_infantry()
    flag = {**st.flags["gda-attack:hus"], "stage": "rolled", "fate_test": ["attacker"], "difference": 3}
    st = replace(st, flags={**st.flags, "gda-attack:hus": flag})
    spec = next(a for a in ACTIONS.actions(st, MOVE, "hus") if a.id == "fate_test")
    assert spec.legal and "fate_table" in spec.umpire_table
    req = ActionRequest("fate_test", "hus", umpire_result={"side": "attacker", "result": "unformed", "damage": 1})
    out = ACTIONS.resolve_action(st, req, MOVE, SeededDice(1))
    assert out.status == "resolved", out.explanation
    assert [(e.unit, e.points) for e in out.events if isinstance(e, DamageTaken)] == [("hus", 1)]
    assert [(e.unit, e.state) for e in out.events if isinstance(e, OrderStateChanged)] == [("hus", "unformed")]
    after = st
    for e in out.events:
        after = e.apply(after)
    spec = next(a for a in ACTIONS.actions(after, MOVE, "hus") if a.id == "fate_test")
    assert not spec.legal


def test_a_leader_retreating_at_its_discipline_test_takes_its_support_back_no_melee():
    """ПРОВЕДЕНИЕ АТАКИ 7: «Если ведущее подразделение Отступает, его поддержка также отступает и
    рукопашной не будет»; two retreating close-order battalions make Loison's brigade Faltering."""
    s = declared_at(45.0)
    spec = next(a for a in s.actions(A) if a.id == "attack_discipline")
    assert "discipline_test" in spec.umpire_table and [p.name for p in spec.umpire_result] == [
        "leader",
        SUPPORT,
        f"damage:{A}",
        f"damage:{SUPPORT}",
    ]
    out = s.act(ActionRequest("attack_discipline", A, {}, umpire_result={"leader": "retreating"}))
    assert out.status == "resolved", out.explanation
    st = s.state
    assert st.units[A].state == st.units[SUPPORT].state == "retreating"
    assert st.flags[f"gda-attack:{A}"]["stage"] == "repulsed"
    assert brigade_status(st, "french-2eme-division").state is CommandState.FALTERING
    (roll,) = [a for a in s.actions(A) if a.id == "attack"]
    assert "no melee" in roll.unavailable


def test_an_unformed_leader_attacks_on_and_an_unformed_support_rerolls_at_minus_one():
    """Steps 7-8: the Unformed leader fights with the Unformed -2; the Unformed support keeps
    supporting, its reroll at -1."""
    dice = ScriptedDice(
        {
            f"gda-attack:{A}:{TARGET}:t1:attacker": [(1, 4)],
            f"gda-attack:{A}:{TARGET}:t1:attacker:reroll1": [(1,)],
            f"gda-attack:{A}:{TARGET}:t1:defender": [(3, 3)],
        }
    )
    s = declared_at(45.0, dice=dice)
    umpire = {"leader": "unformed", SUPPORT: "unformed"}
    assert s.act(ActionRequest("attack_discipline", A, {}, umpire_result=umpire)).status == "resolved"
    out = s.act(ActionRequest("attack", A, {"reroll_below": 2}))
    assert out.status == "resolved", out.explanation
    assert "-2 Unformed" in out.explanation or "−2 Unformed" in out.explanation
    reroll = next(r for r in out.outcome.rolls if r.purpose.endswith("reroll1"))
    assert "at −1, minimum 1" in reroll.label and "now reads 1" in reroll.outcome  # 1 - 1 is still 1


def test_the_defender_must_include_its_supports_in_range():
    """ПРОВЕДЕНИЕ АТАКИ 2-3: the defender's flank support within 5 cm is part of the defence
    whether he wants it or not; a unit of his 12 cm away is not."""
    from battlestudio.rules.gda.melee import defending_supports

    beside = unit("inf2", side="austrian", formation=Formation.LINE, x=-17, y=20, facing=270)
    far = unit("inf3", side="austrian", formation=Formation.LINE, x=30, y=20, facing=270)
    st = cavalry_on_infantry(others=(beside, far))
    sup = defending_supports(st, st.units["inf"], st.units["hus"], gda_params(**MOVE))
    assert set(sup) == {"inf2"} and sup["inf2"] in ("left", "right")


def test_an_attack_on_a_garrison_goes_straight_into_melee():
    """ПРОВЕДЕНИЕ АТАКИ 10: no 2D6 attack roll on a garrison or built-up area; the melee
    chapter is lost, the umpire resolves it."""
    st = cavalry_on_infantry()
    st = replace(st, units={**st.units, "inf": replace(st.units["inf"], attributes={"garrison": True})})
    out = ACTIONS.resolve_action(st, ActionRequest("attack", "hus", {}), MOVE, SeededDice(1))
    assert out.status == "refused" and "ПРОВЕДЕНИЕ АТАКИ 10" in out.explanation


def test_a_passive_attack_whose_target_can_no_longer_be_reached_is_cancelled():
    """ПРОЦЕДУРА АТАКИ 1: «Если цель атаки пассивного игрока больше не может быть достигнута,
    атака отменяется» — the same shortfall that leaves the active side's attacker Unformed
    cancels the passive side's attack where it stands."""
    dice = ScriptedDice({f"gda-forward:{A}:t1": [(1, 1)]})
    s = declared_at(60.0, tasks=("infantry_assault", "forward"), dice=dice, supports=())
    st = s.state
    s2 = replace(st, flags={**st.flags, "initiative:holder": "austrian"})
    from battlestudio.rules.gda.actions import ACTIONS as table

    out = table.resolve_action(s2, ActionRequest("attack_move", A), MOVE, dice)
    assert out.status == "resolved" and "the attack is cancelled" in out.explanation
    assert not [e for e in out.events if isinstance(e, (Moved, OrderStateChanged))]
    after = s2
    for e in out.events:
        after = e.apply(after)
    (roll,) = [a for a in table.actions(after, MOVE, A) if a.id == "attack"]
    assert "cancelled" in roll.unavailable
