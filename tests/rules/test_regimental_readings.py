"""The Regimental readings that were read and discarded (D-R6) now change the game when a
scenario overrides them: the initiative tie (2.1; ``initiative_tie``), which of the announced
actions are carried out (2.2; ``announced_first_n``), where a regiment is measured from its
general (Дистанция командования; ``zone_measure``), the sign of the morale modifiers (Тест на
мораль; ``morale_modifier_sign``) and what counts as a formation's losses for the commander
casualty test (``casualty_test_counts``); and disorganised skirmishers attacked by infantry
flee (Застрельщики)."""

from __future__ import annotations

from battlestudio.replay.flow_events import UnitRemoved
from battlestudio.rules.dice import Modifier, ReplayDice
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.activation import activate, regiment_order
from battlestudio.rules.regimental.command import roll_initiative
from battlestudio.rules.regimental.common import next_slot
from battlestudio.rules.regimental.morale import (
    casualty_due,
    formation_losses,
    morale_target,
    pass_probability,
)

from gda_world import general, unit
from regimental_world import Script, act, session
from test_regimental import apply_all, army

P = RuleParameters.for_ruleset("regimental", {})


def _p(**over):
    return RuleParameters.for_ruleset("regimental", over)


def d(*draws):
    return ReplayDice(list(draws))


def test_an_initiative_tie_is_rolled_again_or_the_last_holder_keeps_it():
    state = army(**{"initiative:holder": "france"})
    tie_then = d(
        ("regimental-initiative:russia:t1:1", (4,)),
        ("regimental-initiative:france:t1:1", (4,)),
        ("regimental-initiative:russia:t1:2", (5,)),
        ("regimental-initiative:france:t1:2", (2,)),
    )
    side, rolls, _ = roll_initiative(state, ("russia", "france"), P, tie_then)
    assert side == "russia" and len(rolls) == 4  # the tie rolled again (2.1; Ambiguity 2)
    keep = d(("regimental-initiative:russia:t1:1", (4,)), ("regimental-initiative:france:t1:1", (4,)))
    side, rolls, text = roll_initiative(state, ("russia", "france"), _p(initiative_tie="holder_keeps"), keep)
    assert side == "france" and len(rolls) == 2 and "keeps it" in text
    # no side held it yet: a tie is rolled again under either reading
    fresh = army()
    again = d(
        ("regimental-initiative:russia:t1:1", (3,)),
        ("regimental-initiative:france:t1:1", (3,)),
        ("regimental-initiative:russia:t1:2", (1,)),
        ("regimental-initiative:france:t1:2", (6,)),
    )
    assert roll_initiative(fresh, ("russia", "france"), _p(initiative_tie="holder_keeps"), again)[0] == "france"


def test_with_announced_first_n_off_any_n_of_the_announced_may_be_carried_out():
    state = army()
    dice = d(("regimental-orders:b1:t1", (4,)))  # 3-4: two actions
    first = activate(state, "b1", ("move", "move", "fire"), P, dice)
    after = apply_all(state, first.events)
    assert first.granted == ("move", "move")
    assert next_slot(after, "b1-r0", "fire")[0] == -1  # the third, fire, was not granted (2.2)
    anyn = activate(
        state, "b1", ("move", "move", "fire"), _p(announced_first_n=False), d(("regimental-orders:b1:t1", (4,)))
    )
    assert anyn.granted == ("move", "move", "fire") and "any 2 of" in anyn.explanation
    after = apply_all(state, anyn.events)
    slot, f, why = next_slot(after, "b1-r0", "fire")
    assert (slot, f, why) == (2, "b1", "")  # fire first, out of the announced order
    lost = activate(state, "b1", ("move",), _p(announced_first_n=False), d(("regimental-orders:b1:t1", (6,))))
    assert lost.granted == ("move",)  # 5-6: one action


def test_the_cap_of_n_holds_when_the_announced_may_be_taken_in_any_order():
    s = session(Script(), params={"announced_first_n": False})
    s.advance_to("activation", "austrian")
    s.dice.add("regimental-orders:austrian-1st-div", [5])  # one action of three announced
    s.dice.add("regimental-zone:austrian-1st-div", [1])
    from battlestudio.rules.protocol import OrderRequest

    out = s.issue_order(
        OrderRequest(
            "austrian-riesch-corps", "austrian-1st-div", "activate", parameters={"actions": ["move", "reform", "move"]}
        )
    )
    assert out.status == "delivered"
    av = s.state.units["austrian-avantgarde"]
    to = (av.position[0], av.position[1] + 4.0)
    assert act(s, "move", "austrian-avantgarde", to=to).status == "resolved"
    again = act(s, "move", "austrian-avantgarde", to=(to[0], to[1] + 4.0))
    assert again.status == "refused" and "used 1 of the 1 action" in again.explanation


def test_zone_measured_to_the_units_centres_when_overridden():
    # b1's regiments stand 4 bases wide; their nearest edge is within 15 cm of the general,
    # their centres beyond it
    state = army()
    g = state.commanders["b1"]
    moved = state.evolve(
        commanders={**state.commanders, "b1": general("b1", side="russia", x=g.position[0], y=g.position[1] - 13.0)}
    )
    near = regiment_order(moved, "b1-r0", 3, P, d())
    assert near.within and near.distance <= 15.0
    far = regiment_order(moved, "b1-r0", 3, _p(zone_measure="centre"), d(("regimental-zone:b1-r0:t1", (4,))))
    assert not far.within and far.distance > 15.0 and far.actions == 1


def test_morale_modifiers_added_to_the_dice_when_overridden():
    mods = [Modifier(2, "in the HQ's command zone (3.4.1)"), Modifier(-1, "general lost")]
    assert morale_target(P, mods) == 9  # 8 + 1: a bonus raises the target (Ambiguity 15)
    assert morale_target(_p(morale_modifier_sign="roll"), mods) == 7  # 2D6 + 1 ≤ 8
    assert pass_probability(morale_target(P, mods)) > pass_probability(
        morale_target(_p(morale_modifier_sign="roll"), mods)
    )


def test_casualty_test_losses_counted_in_bases_when_overridden():
    # 14 markers received, 2 still on the unit: 12 went with 2 removed infantry bases
    state = army().with_unit(unit("b1-r0", side="russia", x=-16, y=18, markers_received=14, markers=2))
    assert formation_losses(state, "b1", P) == 14 and casualty_due(state, "b1", P)[0]  # > 7 markers
    bases = _p(casualty_test_counts="bases")
    assert formation_losses(state, "b1", bases) == 2
    due, why, losses, trig = casualty_due(state, "b1", bases)
    assert not due and (losses, trig) == (2, 7)


def test_disorganised_skirmishers_attacked_by_infantry_flee():
    vil = "french-bde-villatte"
    units = {
        vil: {
            "position": (112.0, 60.5),
            "facing": 90.0,
            "formation": "skirmish",
            "subtype": "skirmishers",
            "state": "disorganised",
        },
    }
    s = session(Script(), units)
    from regimental_world import activate as activate_in

    activate_in(s, "austrian", "austrian-1st-div", ["melee"])
    n = len(s.battle.events)
    out = act(s, "melee", "austrian-avantgarde", target=vil)
    assert out.status == "resolved" and "flee the field" in out.explanation
    assert any(isinstance(e, UnitRemoved) and e.id == vil for e in s.battle.events[n:])
    assert not any(p.endswith(":attacker") for p in s.dice.purposes())  # no melee dice


def test_d_r1_a_captured_hq_relays_no_order_and_gives_no_zone_bonus():
    from battlestudio.rules.regimental.command import hq_link
    from battlestudio.rules.regimental.morale import zone_flags

    free = army()
    assert hq_link(free, "russia", free.commanders["div"].position, P).within
    assert zone_flags(free, free.units["b1-r0"], P)[0]  # 18 cm from the HQ: its zone (3.4.1)
    taken = army(**{"hq_captured:russia": True})
    assert not hq_link(taken, "russia", taken.commanders["div"].position, P).within
    assert zone_flags(taken, taken.units["b1-r0"], P) == (False, True)  # the general's zone still counts
    act = activate(taken, "div", ("move",), P, d(("regimental-orders:div:t1", (1,)), ("regimental-zone:div:t1", (5,))))
    assert act.granted == () and "the HQ is captured" in act.explanation  # the order test, and lost
