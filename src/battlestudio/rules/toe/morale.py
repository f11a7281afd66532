"""Torden over Europa: the morale test (chapter 8) and reorganisation (chapter 9) as actions.

Chapters 8 and 9 and their Tables 9-11 are not in the rules text (only their headings
survive), so the umpire enters each result; what the surviving text gives is computed:

* who tests after a melee: "Taber skal altid teste moral, mens vinder skal teste som normalt
  ... ved ikke afgjort nærkamp testes ligeledes som normalt" (7.2.2), with the loser's Table 8
  deduction named;
* a unit that goes into FU flees (8.7 heading "Enhed flygter og kommer i FU"), and a unit
  already in FU that a test puts into U or FU makes a new flight move (1.6 "foretager et
  fornyet flugttræk");
* elimination: "Hvis en enhed har mistet to tredjedele eller mere af sin oprindelige styrke og
  kommer i FU, er enheden elimineret ... Fjernelsen af enheden sker først efter at enheden har
  foretaget et flugttræk"; without a flight move it stays in permanent disorder (1.6, A34);
* reorganisation in phase 7 for both sides (1.2 "REORGANISERING - BEGGE SIDER"): U to O
  (1.6), FU to U (chapter 9 "Procedure for enheder i FU"); a unit in permanent disorder never
  reorganises.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from battlestudio.model.geometry import Point
from battlestudio.model.units import OrderState, Unit
from battlestudio.replay.combat_events import MoraleTest
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Moved, OrderStateChanged, UnitRemoved
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.toe.combat_marks import CombatMarked, mark_of, original_figures, this_turn
from battlestudio.rules.toe.contact import on_table

TEST_PHASES = ("fire", "attack")
RALLY_PHASE = "reorganisation"
RESULTS = ("pass", "U", "FU")
TABLES_9_10 = "Tables 9-10 (moraltest, chapter 8), toe.morale_table"
TABLE_11 = "Table 11 (reorganisering), toe.rally_table: chapter 9 is not in the rules text"


def _stamp(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "side": state.side, "phase": state.phase}


def why_test(state: GameState, u: Unit) -> tuple[str, bool]:
    """Why ``u`` tests now and whether it must (7.2, 7.2.2); ("", False) when no melee of this
    player-turn calls for it."""
    m = mark_of(state, u.id)
    if not this_turn(state, m) or m.get("tested"):
        return "", False
    result = m.get("result")
    if result == "loser":
        ded = m.get("deduction")
        extra = f", with the loser's deduction of {ded} from Table 8" if ded else ""
        return f"{u.name} lost its melee and must test (7.2.2 'Taber skal altid teste moral'{extra})", True
    if result == "winner":
        return f"{u.name} won its melee and tests as normal (7.2.2; chapter 8 is not in the rules text)", False
    if result == "undecided":
        return f"{u.name}'s melee was undecided: it tests as normal (7.2.2 'ved ikke afgjort nærkamp')", False
    return "", False


def lost_two_thirds(state: GameState, p: RuleParameters, u: Unit) -> tuple[bool, str]:
    """Whether ``u`` has lost 2/3 or more of its original strength (1.6), with the sum in words."""
    orig, source = original_figures(state, u)
    frac = Fraction(str(p.get("elimination_fraction")))
    lost = orig - u.figures
    hit = orig > 0 and Fraction(lost, orig) >= frac
    return hit, f"{lost} of {orig} figures lost ({source}) {'≥' if hit else '<'} {frac} (1.6)"


# ------------------------------------------------------------------------------ morale test
def test_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    u = state.units.get(subject)
    if state.phase not in TEST_PHASES or u is None or not on_table(state, u):
        return None
    why, must = why_test(state, u)
    m = mark_of(state, u.id)
    unavailable = ""
    if this_turn(state, m) and m.get("tested"):
        unavailable = f"{u.name} has already tested morale for this melee"
    note = (
        why or "the umpire judges whether it tests (8.2 fire, 8.3 losses, 8.4 interpenetration: not in the rules text)"
    )
    return ActionSpec(
        "morale_test",
        "Morale test" + (" (required)" if must else ""),
        "moraltest",
        "7.2.2, 8",
        "unit",
        (),
        (
            ParameterSpec("result", "choice", choices=RESULTS, label="result (Table 10): pass, into U, flees into FU"),
            ParameterSpec("move_to", "point", required=False, label="where its retreat or flight move ends"),
        ),
        unavailable,
        TABLES_9_10,
        note,
    )


def test_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    u = state.units[req.subject]
    why, _ = why_test(state, u)
    hit, sums = lost_two_thirds(state, p, u)
    text = "; ".join(
        x
        for x in (
            why,
            f"{TABLES_9_10}: the umpire enters the result",
            sums,
            "if it goes into FU it is eliminated after its flight move (1.6)" if hit else "",
        )
        if x
    )
    return ActionPreview("morale_test", req.subject, True, "", text, umpire_entry=True, assumed=tuple(p.assumptions()))


def _point(v: Any) -> Point | None:
    if v is None:
        return None
    try:
        return (float(v[0]), float(v[1]))
    except (TypeError, ValueError, IndexError):
        raise RuleRefused(f"a move's end must be a point (x, y) in cm, got {v!r}") from None


def test_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    u = state.units[req.subject]
    entry = dict(req.umpire_result or {})
    result = str(entry.get("result", ""))
    if result not in RESULTS:
        raise RuleRefused(f"morale test: the umpire's result must be one of {', '.join(RESULTS)}, got {result!r}")
    to = _point(entry.get("move_to"))
    stamp = _stamp(state)
    why, _ = why_test(state, u)
    if not why:  # not after a melee of this player-turn: a test the umpire calls (chapter 8 lost)
        why = (
            f"{u.name} tests at the umpire's call in the {state.phase.replace('_', ' ')} phase (1.1 'Dommerens "
            "afgørelser er indiskutable'; chapter 8's morale tests by fire and passage survive only as headings)"
        )
    lines = [x for x in (why, f"the umpire's entry: {result} ({TABLES_9_10})") if x]
    was_fu = u.state == OrderState.FU.value
    evs: list[BattleEvent] = []
    flees = result == "FU" or (was_fu and result in ("U", "FU"))
    hit, sums = lost_two_thirds(state, p, u)
    if flees and to is None and not (result == "FU" and hit):
        rule = "1.6 'foretager et fornyet flugttræk'" if was_fu else "8.7 'Enhed flygter og kommer i FU'"
        raise RuleRefused(f"morale test: {u.name} flees ({rule}); enter where its flight move ends (move_to)")
    evs.append(
        MoraleTest(**stamp, unit=u.id, passed=result == "pass", result=result, roll={"umpire": entry}, explanation="")
    )
    if result != "pass" and result != u.state:
        evs.append(OrderStateChanged(**stamp, unit=u.id, state=result, reason=f"morale test: {result}"))
    if to is not None and result != "pass":
        evs.append(Moved(**stamp, id=u.id, path=(u.position, to)))
        lines.append(
            ("new flight move (1.6)" if was_fu else "flight move (8.7)" if result == "FU" else "retreat move")
            + f" to ({to[0]:g}, {to[1]:g})"
        )
    mark: dict[str, Any] = {"tested": True}
    if result == "FU" and hit:
        lines.append(sums)
        if to is not None:
            lines.append(f"{u.name} has lost two thirds or more and is in FU: eliminated after its flight move (1.6)")
            evs.append(
                OrderStateChanged(
                    **stamp,
                    unit=u.id,
                    state=OrderState.ELIMINATED.value,
                    reason="2/3 or more lost and in FU, after its flight move (1.6)",
                )
            )
            evs.append(UnitRemoved(**stamp, id=u.id, reason="eliminated: 2/3 lost and in FU (1.6)"))
        else:
            lines.append(
                f"{u.name} makes no flight move: it stays in permanent disorder for the rest of the game (1.6, A34)"
            )
            evs[-1] = OrderStateChanged(
                **stamp,
                unit=u.id,
                state=OrderState.U.value,
                reason="permanent disorder: 2/3 lost, in FU without a flight move (1.6)",
            )
            mark["permanent_disorder"] = True
    text = "; ".join(lines)
    evs[0] = MoraleTest(
        **stamp, unit=u.id, passed=result == "pass", result=result, roll={"umpire": entry}, explanation=text
    )
    if not any(isinstance(e, UnitRemoved) for e in evs):
        evs.append(CombatMarked(**stamp, unit=u.id, mark=mark))
    return ActionOutcome("resolved", text, tuple(evs), (), tuple(p.assumptions()))


# ------------------------------------------------------------------------------ rally (9)
def rally_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    u = state.units.get(subject)
    if state.phase != RALLY_PHASE or u is None or not on_table(state, u):
        return None
    if u.state not in (OrderState.U.value, OrderState.FU.value):
        return None
    m = mark_of(state, u.id)
    unavailable = ""
    if m.get("permanent_disorder"):
        unavailable = f"{u.name} is in permanent disorder for the rest of the game (1.6 'permanent uorden')"
    elif tuple(m.get("rallied") or ()) == (state.turn, state.side):
        unavailable = f"{u.name} has already tried to reorganise in this phase"
    choices = ("O", "U") if u.state == OrderState.U.value else ("U", "FU")
    return ActionSpec(
        "rally",
        "Reorganise",
        "reorganisering",
        "1.2 phase 7, 1.6, 9",
        "unit",
        (),
        (ParameterSpec("result", "choice", choices=choices, label="order state after reorganisation (Table 11)"),),
        unavailable,
        TABLE_11,
        "both sides reorganise (1.2 'REORGANISERING - BEGGE SIDER')",
    )


def rally_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    u = state.units[req.subject]
    step = "U to O (1.6)" if u.state == OrderState.U.value else "FU to U (9, procedure for units in FU)"
    return ActionPreview(
        "rally",
        req.subject,
        True,
        "",
        f"{u.name} may reorganise {step}; {TABLE_11}: the umpire enters the result",
        umpire_entry=True,
        assumed=tuple(p.assumptions()),
    )


def rally_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    u = state.units[req.subject]
    spec = rally_spec(state, p, u.id)
    assert spec is not None
    result = str((req.umpire_result or {}).get("result", ""))
    allowed = spec.umpire_result[0].choices
    if result not in allowed:
        raise RuleRefused(
            f"rally: a unit in {u.state} reorganises to one of {', '.join(allowed)} (1.6, 9), got {result!r}"
        )
    stamp = _stamp(state)
    evs: list[BattleEvent] = [CombatMarked(**stamp, unit=u.id, mark={"rallied": [state.turn, state.side]})]
    if result != u.state:
        evs.append(OrderStateChanged(**stamp, unit=u.id, state=result, reason="reorganised (9)"))
        text = f"{u.name} reorganises from {u.state} to {result} (the umpire's entry; {TABLE_11})"
    else:
        text = f"{u.name} fails to reorganise and stays in {u.state} (the umpire's entry; {TABLE_11})"
    return ActionOutcome("resolved", text, tuple(evs), (), tuple(p.assumptions()))


HANDLERS: tuple[ActionHandler, ...] = (
    ActionHandler("morale_test", test_spec, test_preview, test_resolve),
    ActionHandler("rally", rally_spec, rally_preview, rally_resolve),
)
