"""General d'Armée initiative (ИНИЦИАТИВА, digest §6): after all command rolls each player
rolls 2D6, -1 per Hesitant or Faltering brigade, +1 per Initiative! ADC (at most 2, optional
French rule); the higher total is the active player. On a tie the previous holder keeps it; a
tie on turn 1 is settled by a D6 each (repeated ties rolled again, Ambiguity 15).

The holder is recorded as ``CommandStateChanged(subject="holder", state="initiative")``, i.e.
``flags["initiative:holder"]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlestudio.model.orders import OrderStatus
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.order_events import CommandRolled, CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, DiceSpec, Modifier, RollRecord
from battlestudio.rules.gda.brigades import CommandState, brigade_status, brigades_of, members
from battlestudio.rules.params import RuleParameters, RuleRefused

HOLDER_FLAG = "initiative:holder"


def initiative_modifiers(state: GameState, side: str, params: RuleParameters) -> list[Modifier]:
    """The modifiers of ``side``'s initiative roll: -1 per Hesitant or Faltering brigade on the
    table (a brigade counts once, Demoralised alone not at all; a dispersed brigade not at all;
    with ``initiative_count_brigade_once`` False a brigade that rallied this turn — Faltering and
    Hesitant — counts twice),
    +1 per Initiative! ADC sent this turn."""
    per = int(params.get("initiative_penalty_per_brigade"))
    once = bool(params.get("initiative_count_brigade_once"))
    mods = []
    for b in brigades_of(state, side, params):
        if not members(state, b).present:
            continue  # a dispersed brigade is off the table: it is no longer Hesitant or Faltering
        st = brigade_status(state, b)
        if st.state in (CommandState.HESITANT, CommandState.FALTERING) and (
            st.state is CommandState.FALTERING or st.state_turn == state.turn
        ):
            name = state.commanders[b].name or b
            if not once and st.state is CommandState.HESITANT and st.rallied_turn == state.turn:
                mods.append(Modifier(2 * per, f"{name} Faltering and Hesitant (Rally) (ИНИЦИАТИВА)"))
            else:
                mods.append(Modifier(per, f"{name} {st.state.value} (ИНИЦИАТИВА)"))
    adcs = initiative_adcs(state, side)
    if adcs:
        bonus = int(params.get("initiative_adc_bonus"))
        mods.append(Modifier(bonus * adcs, f"{adcs} Initiative! ADC{'s' if adcs > 1 else ''} (Французская Инициатива)"))
    return mods


def initiative_adcs(state: GameState, side: str) -> int:
    """Initiative! ADCs ``side`` sent this turn (``order_type == "initiative"``)."""
    return sum(
        int(o.parameters.get("adcs", 1))
        for o in state.orders.values()
        if o.order_type == "initiative"
        and o.turn_issued == state.turn
        and o.status is not OrderStatus.CANCELLED
        and (state.commanders.get(o.issuer) is not None and state.commanders[o.issuer].side == side)
    )


@dataclass(frozen=True, slots=True)
class GdaInitiative:
    """Who holds the initiative this turn, the rolls, the explanation and the event recording it."""

    side: str
    rolls: tuple[RollRecord, ...]
    explanation: str
    events: tuple[BattleEvent, ...]


def roll_initiative(
    state: GameState, sides: tuple[str, str], params: RuleParameters, dice: DiceSource
) -> GdaInitiative:
    """Roll initiative for the two ``sides`` (ИНИЦИАТИВА).

    Raises
    ------
    RuleRefused
        on a tie after turn 1 with no recorded previous holder.
    """
    n = int(params.get("initiative_dice"))
    spec = DiceSpec(n, 6)
    turn = state.turn
    rolls, totals = [], {}
    for s in sides:
        purpose = f"gda-initiative:{s}:t{turn}"
        faces = dice.roll(purpose, spec)
        rec = RollRecord(
            purpose=purpose,
            label=f"Initiative, {s}",
            dice=spec,
            raw=faces,
            modifiers=tuple(initiative_modifiers(state, s, params)),
            threshold_source="higher total wins (ИНИЦИАТИВА)",
        )
        rolls.append(rec)
        totals[s] = rec.total
    a, b = sides
    if totals[a] != totals[b]:
        winner = a if totals[a] > totals[b] else b
        how = f"{winner} wins {max(totals.values())} to {min(totals.values())}"
    elif turn > 1:
        prev = state.flags.get(HOLDER_FLAG)
        if prev not in sides:
            raise RuleRefused(
                f"initiative tie on turn {turn}: the previous holder keeps it, but none is recorded "
                f"(flag {HOLDER_FLAG!r})"
            )
        winner, how = prev, f"tie at {totals[a]}: {prev} had the initiative and keeps it"
    else:
        winner, how = _roll_off(sides, turn, dice, params, rolls)
    final = []
    for r in rolls:
        won = r.purpose.split(":")[1] == winner
        final.append(
            RollRecord(
                r.purpose,
                r.label,
                r.dice,
                r.raw,
                r.modifiers,
                r.threshold,
                r.threshold_source,
                outcome="wins the initiative" if won else "loses",
                success=won,
            )
        )
    ev: list[BattleEvent] = [
        CommandRolled(turn, state.side, state.phase or "initiative", roll=r.to_dict(), explanation=r.explain())
        for r in final
    ]
    ev.append(
        CommandStateChanged(
            turn,
            state.side,
            state.phase or "initiative",
            subject="holder",
            state="initiative",
            value=winner,
            reason=how,
        )
    )
    text = "; ".join(r.explain() for r in final) + f". {how}: {winner} is the active player this turn."
    return GdaInitiative(winner, tuple(final), text, tuple(ev))


def _roll_off(
    sides: tuple[str, str], turn: int, dice: DiceSource, params: RuleParameters, rolls: list[RollRecord]
) -> tuple[str, str]:
    """Turn-1 tie: a D6 each, higher wins; a repeated tie is rolled again (Ambiguity 15)."""
    attempt = 1
    while True:
        faces = {s: dice.roll(f"gda-initiative-rolloff:{s}:t{turn}:{attempt}", DiceSpec(1, 6))[0] for s in sides}
        for s in sides:
            rolls.append(
                RollRecord(
                    f"gda-initiative-rolloff:{s}:t{turn}:{attempt}",
                    f"Initiative roll-off, {s}",
                    DiceSpec(1, 6),
                    (faces[s],),
                    threshold_source="turn-1 tie: higher D6 wins",
                )
            )
        a, b = sides
        if faces[a] != faces[b]:
            w = a if faces[a] > faces[b] else b
            return w, f"tie on turn 1, {w} wins the D6 roll-off {max(faces.values())} to {min(faces.values())}"
        if not params.get("initiative_repeat_tie_reroll"):
            raise RuleRefused("the turn-1 initiative roll-off tied again and rerolling is switched off")
        attempt += 1
