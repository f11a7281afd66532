"""General d'Armée's odds of command (§2.1, §3) for the odds panel: the brigade's chance to
obey this turn (Steady / Hesitant / Faltering / Demoralised), with and without an ADC attached
(Brigade Attachment! rerolls a failure).
"""

from __future__ import annotations

from battlestudio.replay.state import GameState
from battlestudio.rules.gda.brigades import CommandState, brigade_quality, brigade_status
from battlestudio.rules.gda.command import _attached_adc, obey_probability, obey_threshold
from battlestudio.rules.odds import Odds, OddsRow, name_of, pct
from battlestudio.rules.params import RuleParameters


def gda_odds(state: GameState, p: RuleParameters, ruleset_id: str, issuer: str, brigade: str) -> Odds:
    """The chance that ``brigade`` obeys this turn (§2.1, §3), with the ruleset's numbers ``p``.

    Raises
    ------
    RuleRefused
        for a value the scenario lacks; ``KeyError`` for an unknown brigade.
    """
    status = brigade_status(state, brigade)
    grade = brigade_quality(state, brigade, p) if status.state is CommandState.FALTERING else None
    attached = _attached_adc(state, brigade)
    without = obey_probability(status, grade, p, reroll=False)
    with_adc = obey_probability(status, grade, p, reroll=True)
    name = name_of(state, brigade)
    if grade is not None:
        how = (
            f"Faltering brigade table, averaged quality {grade.value}"
            if not status.demoralised
            else "Faltering and Demoralised: the brigade disperses"
        )
    else:
        how = f"D6 ≥ {obey_threshold(status.demoralised, p)}" + (" (Demoralised)" if status.demoralised else "")
    rows = (
        OddsRow("no ADC attached", without, None, how, not attached),
        OddsRow(
            "ADC attached (Brigade Attachment!: reroll a failure)",
            with_adc,
            None,
            how + ", failed die rerolled",
            attached,
        ),
    )
    now = with_adc if attached else without
    head = f"{name} ({status.state.value}{', Demoralised' if status.demoralised else ''}): {pct(now)} to obey this turn"
    what = (
        "An ADC is already attached."
        if attached
        else f"Sending an ADC with Brigade Attachment! would raise it from {pct(without)} to {pct(with_adc)}."
    )
    return Odds(ruleset_id, issuer, brigade, head, rows, (), None, None, what, rule="General d'Armée §2.1, §3")
