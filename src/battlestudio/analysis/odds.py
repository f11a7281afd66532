"""Exact odds of command for an issuer and a recipient, per ruleset, for the odds panel.

* Torden over Europa (3.2, Table 1): a chief's order needs d10 + KE + Table 1 modifiers ≥ the
  threshold of the zone the recipient is in; the chance in every zone, which zone applies now,
  and what moving the chief into the next zone inward would give (and how far he must ride).
  A corps general's own order rolls as zone 1 (A20).
* General d'Armée (§2.1, §3): the brigade's chance to obey this turn (Steady / Hesitant /
  Faltering / Demoralised), with and without an ADC attached (Brigade Attachment! reroll).
* Regimental rules (2.2): the orders test's distribution of actions and the expected number
  carried out, in and out of the HQ's command zone (1-2 full, 3-4 one action, 5-6 none).

All chances are ``Fraction``s from ``rules.dice``; nothing is rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from battlestudio.replay.state import GameState
from battlestudio.rules import RuleRefused


@dataclass(frozen=True, slots=True)
class OddsRow:
    """One line of the odds table: ``label``, exact ``chance`` of success (None when the row
    is an expectation), ``expected`` value (e.g. actions), ``detail`` in words, ``current``
    when it is the situation now."""

    label: str
    chance: Fraction | None
    expected: Fraction | None = None
    detail: str = ""
    current: bool = False


@dataclass(frozen=True, slots=True)
class Odds:
    """The odds of command between ``issuer`` and ``recipient`` under ``ruleset``.

    ``headline`` says it in one sentence; ``rows`` per zone or situation; ``modifiers`` as
    (value, source); ``what_if`` how the odds change if the commander moved into the next zone;
    ``refusal`` why no odds could be given ("" when they could); ``rule`` the sections.
    """

    ruleset: str
    issuer: str
    recipient: str
    headline: str = ""
    rows: tuple[OddsRow, ...] = ()
    modifiers: tuple[tuple[int, str], ...] = ()
    distance: float | None = None
    zone: int | None = None
    what_if: str = ""
    refusal: str = ""
    rule: str = ""


def pct(p: Fraction | None) -> str:
    """``Fraction(3, 10)`` → ``"30 %"`` (one decimal where needed)."""
    if p is None:
        return "–"
    v = float(p) * 100
    return f"{v:.0f} %" if abs(v - round(v)) < 0.05 else f"{v:.1f} %"


def _name(state: GameState, rid: str) -> str:
    rec = state.commanders.get(rid) or state.units.get(rid)
    return rec.name if rec is not None and rec.name else rid


def toe_odds(state: GameState, params: Mapping[str, Any], issuer: str, recipient: str) -> Odds:
    """Torden over Europa command control of an order from ``issuer`` to ``recipient`` (3.2)."""
    from battlestudio.model.command_geometry import command_distances
    from battlestudio.rules.dice import success_probability
    from battlestudio.rules.toe.command import zones_for
    from battlestudio.rules.toe.common import CHIEFS, base_of, command_ability, commander, params_for, shape_of
    from battlestudio.rules.toe.control import dice_spec, table1_modifiers, thresholds

    p = params_for(params)  # type: ignore[arg-type]
    c = commander(state, issuer)
    mods = [(command_ability(p, c), f"command ability (KE) of {c.name} (2.12)")]
    mods += [(m.value, m.source) for m in table1_modifiers(p)]
    total = sum(v for v, _ in mods)
    spec = dice_spec(p)
    _, th = thresholds(p, c.echelon)
    d = float(command_distances(base_of(c), [shape_of(state, recipient)], "nearest")[0])
    who, to = c.name, _name(state, recipient)
    if c.echelon not in CHIEFS:
        chance = success_probability(spec, total, th[0])
        row = OddsRow(f"own order (zone 1, needs {th[0]})", chance, None,
                      f"{spec} {total:+d} ≥ {th[0]}", True)
        return Odds("toe", issuer, recipient, f"{who}'s own order to {to}: {pct(chance)} (A20, zone 1)", (row,),
                    tuple(mods), d, 1, "A corps general's own order always rolls as zone 1.", rule="3.2, A20")
    zones = zones_for(p, c)
    zone = next((b.zone for b in zones if b.outer is None or d <= b.outer + 1e-9), None)
    rows = []
    for b in zones:
        chance = success_probability(spec, total, th[b.zone - 1])
        span = f"{b.inner:g}–{b.outer:g} cm" if b.outer is not None else f"beyond {b.inner:g} cm"
        rows.append(OddsRow(f"zone {b.zone} ({span}), needs {th[b.zone - 1]}", chance, None,
                            f"{spec} {total:+d} ≥ {th[b.zone - 1]}", b.zone == zone))
    if zone is None:
        head = (f"{to} is {d:.1f} cm from {who}, beyond zone {zones[-1].zone} ({zones[-1].outer:g} cm): "
                "no order can be sent (2.2, 3.2)")
        last = zones[-1]
        what = (f"Riding {d - (last.outer or 0):.1f} cm closer brings {to} into zone {last.zone}: "
                f"{pct(rows[-1].chance)}.")
    else:
        now = rows[zone - 1].chance
        head = f"{who} → {to}: {d:.1f} cm, zone {zone}: {pct(now)} that the order gets through"
        if zone == 1:
            what = "Already in zone 1: riding closer does not change the odds."
        else:
            inner = zones[zone - 2]
            what = (f"Riding {d - (inner.outer or 0):.1f} cm closer (into zone {zone - 1}, ≤ {inner.outer:g} cm) "
                    f"raises the chance from {pct(now)} to {pct(rows[zone - 2].chance)}.")
    return Odds("toe", issuer, recipient, head, tuple(rows), tuple(mods), d, zone, what, rule="3.2, Table 1, 2.12")


def gda_odds(state: GameState, params: Mapping[str, Any], issuer: str, brigade: str) -> Odds:
    """General d'Armée: the chance that ``brigade`` obeys this turn (§2.1, §3)."""
    from battlestudio.rules.gda import parameters
    from battlestudio.rules.gda.brigades import CommandState, brigade_quality, brigade_status
    from battlestudio.rules.gda.command import _attached_adc, obey_probability, obey_threshold

    p = parameters(params)
    status = brigade_status(state, brigade)
    grade = brigade_quality(state, brigade, p) if status.state is CommandState.FALTERING else None
    attached = _attached_adc(state, brigade)
    without = obey_probability(status, grade, p, reroll=False)
    with_adc = obey_probability(status, grade, p, reroll=True)
    name = _name(state, brigade)
    if status.state is CommandState.FALTERING:
        how = (f"Faltering brigade table, averaged quality {grade.value}" if not status.demoralised
               else "Faltering and Demoralised: the brigade disperses")
    else:
        how = f"D6 ≥ {obey_threshold(status.demoralised, p)}" + (" (Demoralised)" if status.demoralised else "")
    rows = (OddsRow("no ADC attached", without, None, how, not attached),
            OddsRow("ADC attached (Brigade Attachment!: reroll a failure)", with_adc, None,
                    how + ", failed die rerolled", attached))
    now = with_adc if attached else without
    head = f"{name} ({status.state.value}{', Demoralised' if status.demoralised else ''}): {pct(now)} to obey this turn"
    what = ("An ADC is already attached." if attached else
            f"Sending an ADC with Brigade Attachment! would raise it from {pct(without)} to {pct(with_adc)}.")
    return Odds("gda", issuer, brigade, head, rows, (), None, None, what, rule="General d'Armée §2.1, §3")


def regimental_odds(state: GameState, params: Mapping[str, Any], issuer: str, formation: str) -> Odds:
    """Regimental rules: expected actions of ``formation`` from the orders test (2.2), in and
    out of the HQ's command zone."""
    from battlestudio.rules.regimental import parameters
    from battlestudio.rules.regimental.command import actions_distribution, hq_link

    p = parameters(params)
    dist = actions_distribution(p)
    k = int(p.get("max_actions"))
    full = sum((Fraction(min(n, k)) * q for n, q in dist.items()), Fraction(0))
    table = [str(v) for v in p.get("out_of_zone_table")]
    f_full, f_one = Fraction(table.count("full"), 6), Fraction(table.count("one"), 6)
    out = f_full * full + f_one * sum((q for n, q in dist.items() if n >= 1), Fraction(0))
    c = state.commanders.get(formation)
    inside = True
    d = None
    if c is not None and c.echelon == "division":
        link = hq_link(state, c.side, c.position, p)
        inside, d = link.within, link.distance
    spread = ", ".join(f"{n} action{'s' if n > 1 else ''}: {pct(q)}" for n, q in dist.items())
    rows = (OddsRow("in the command zone", None, full, spread, inside),
            OddsRow("outside the HQ's zone (order test: full / one / none)", None, out,
                    f"full {pct(f_full)}, one action {pct(f_one)}, none {pct(1 - f_full - f_one)}", not inside))
    name = _name(state, formation)
    now = full if inside else out
    head = f"{name}: {float(now):.2f} actions expected with {k} announced"
    what = ("Already in the command zone." if inside else
            f"Bringing {name} into the HQ's zone (or an adjutant chain) raises it from {float(out):.2f} to {float(full):.2f}.")
    return Odds("regimental", issuer, formation, head, rows, (), d, None, what, rule="Regimental 2.2")


def belle_alliance_odds(state: GameState, params: Mapping[str, Any], issuer: str, unit: str) -> Odds:
    """Belle Alliance: the chance that a written attack order passes its order roll (1.1.3),
    from the scenario's ``order_roll`` (the excerpt does not give it; refused without it)."""
    from battlestudio.rules.belle_alliance import parameters
    from battlestudio.rules.belle_alliance.attacks import order_roll
    from battlestudio.rules.dice import DiceSpec, distribution

    if unit not in state.units:
        raise KeyError(unit)
    n, sides, op, target = order_roll(parameters(params))
    dist = distribution(DiceSpec(n, sides))
    chance = sum((q for t, q in dist.items() if (t >= target if op == ">=" else t <= target)), Fraction(0))
    rows = (OddsRow(f"order roll {n}d{sides} {op} {target}", chance, None, "scenario parameter order_roll", True),)
    return Odds("belle-alliance", issuer, unit, f"{_name(state, unit)}: {pct(chance)} that the attack order passes",
                rows, rule="Belle Alliance 1.1.3 (order roll from the scenario)")


ODDS = {"toe": toe_odds, "gda": gda_odds, "regimental": regimental_odds, "belle-alliance": belle_alliance_odds}
"""Ruleset id → its odds function ``(state, params, issuer, recipient) -> Odds``."""


def order_odds(state: GameState, ruleset_id: str, params: Mapping[str, Any], issuer: str, recipient: str) -> Odds:
    """The odds for ``issuer`` → ``recipient`` under ``ruleset_id``; never raises for bad
    input: an unknown ruleset, id or missing parameter comes back as ``refusal``."""
    fn = ODDS.get(ruleset_id)
    if fn is None:
        return Odds(ruleset_id, issuer, recipient, refusal=f"no odds for ruleset {ruleset_id!r} "
                                                            f"(known: {', '.join(sorted(ODDS))})")
    try:
        return fn(state, params, issuer, recipient)
    except (RuleRefused, KeyError) as exc:
        msg = str(exc) if isinstance(exc, RuleRefused) else f"no unit or commander {exc.args[0]!r} in this game"
        return Odds(ruleset_id, issuer, recipient, refusal=msg)
