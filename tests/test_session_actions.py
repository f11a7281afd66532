"""The session's action plumbing (rules.actions): a ruleset's action is offered, previewed,
rolled through the session's dice and recorded in the open phase; a refused one records
nothing; an umpire-entered loss is validated against the unit (rules.losses)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any
from collections.abc import Mapping, Sequence

import pytest

from battlestudio import store
from battlestudio.replay.combat_events import Casualties, MoraleTest
from battlestudio.replay.state import GameState
from battlestudio.rules import get_ruleset
from battlestudio.rules.actions import ActionOutcome, ActionPreview, ActionRequest, ActionSpec, refused
from battlestudio.rules.dice import DiceSource, DiceSpec, RollRecord
from battlestudio.rules.losses import loss_event
from battlestudio.rules.params import RuleRefused
from battlestudio.session import GameSession

ELCHINGEN = Path(__file__).resolve().parents[1] / "scenarios" / "elchingen-1805.battle.json"


class OneTest:
    """Belle Alliance with one extra action: a d6 test passed on 4+ (wraps the real ruleset)."""

    def __init__(self) -> None:
        self._inner = get_ruleset("belle-alliance")
        self.id = self._inner.id

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def actions(self, state: GameState, params: Mapping[str, Any], subject: str) -> Sequence[ActionSpec]:
        if subject not in state.units:
            return ()
        return (ActionSpec("steady", "Steadiness test", rule="test"),)

    def preview_action(self, state: GameState, request: ActionRequest, params: Mapping[str, Any]) -> ActionPreview:
        return ActionPreview(request.action, request.subject, True, odds=(("passes", Fraction(1, 2)),))

    def resolve_action(
        self, state: GameState, request: ActionRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> ActionOutcome:
        if request.subject not in state.units:
            return refused(f"{request.subject!r} is not a unit")
        face = dice.roll("steady:" + request.subject, DiceSpec(1, 6))[0]
        key = "steady:" + request.subject
        r = RollRecord(key, "Steadiness", DiceSpec(1, 6), (face,), threshold=4, success=face >= 4)
        ev = MoraleTest(turn=state.turn, side=state.side, phase=state.phase, unit=request.subject, passed=face >= 4)
        return ActionOutcome("resolved", r.explain(), (ev,), (r,))


def test_an_action_is_rolled_and_recorded_in_the_open_phase() -> None:
    battle = store.load(ELCHINGEN)
    s = GameSession(battle, OneTest(), seed=3)  # type: ignore[arg-type]
    s.start()
    uid = next(iter(s.state.units))
    assert [a.id for a in s.actions(uid)] == ["steady"]
    assert s.preview_action(ActionRequest("steady", uid)).odds == (("passes", Fraction(1, 2)),)
    n = len(battle.events)
    res = s.act(ActionRequest("steady", uid))
    assert res.status == "resolved" and res.odds == (Fraction(1, 2),)
    (ev,) = battle.events[n:]
    assert isinstance(ev, MoraleTest) and (ev.turn, ev.side, ev.phase) == tuple(s.key)
    assert s.act(ActionRequest("steady", "nobody")).status == "refused"
    assert len(battle.events) == n + 1


def test_a_ruleset_without_actions_refuses_them() -> None:
    s = GameSession(store.load(ELCHINGEN), get_ruleset("belle-alliance"))
    s.start()
    assert list(s.actions(next(iter(s.state.units)))) == []
    assert s.act(ActionRequest("fire", "x")).status == "refused"


def test_a_loss_cannot_exceed_the_unit_and_men_and_guns_follow() -> None:
    state = GameSession(store.load(ELCHINGEN)).state
    gun = next(u for u in state.units.values() if u.guns and u.figures)
    stamp = {"turn": 1, "side": gun.side, "phase": "fire"}
    with pytest.raises(RuleRefused, match=r"more than the"):
        loss_event(state, gun.id, gun.figures + 1, "fire", stamp)
    with pytest.raises(RuleRefused, match=">= 0"):
        loss_event(state, gun.id, -1, "fire", stamp)
    whole = loss_event(state, gun.id, gun.figures, "fire", stamp)
    assert isinstance(whole, Casualties) and (whole.men, whole.guns) == (gun.men, gun.guns)
