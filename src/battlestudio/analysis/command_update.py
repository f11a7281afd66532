"""Updating a command picture after a few units or generals changed, instead of recomputing it.

A general dragged in the editor moves once per mouse move. Little of the command picture
depends on where he stands: his reach (only its centre moves), his own finding and link to his
superior, and the findings and links of those measured from him. Which subjects those are
depends on the ruleset:

* Torden over Europa (2.4-2.5), Belle Alliance (scenario command distance), General d'Armée
  (brigadier's 30 cm): a subject is measured from its direct superior only — a moved general
  changes his own finding and his direct subordinates'; a changed unit (moved, new formation,
  routed, …) its own.
* Regimental (Дистанция командования): a unit's distance is its *brigade's* — from its general
  to the nearest unit anywhere below him — so a moved unit changes the findings of every unit
  directly under any of its superiors; a division general's finding is his link to the HQ
  through the adjutant chain, so a moved HQ or adjutant changes every division general's of
  his side.

``update_picture`` asks the ruleset (through the Protocol's ``out_of_command``) for exactly
those findings, on a state reduced to the records they read, and patches a copy of the picture.
It returns None — the caller recomputes the whole picture — for a ruleset not described here or
when ``out_of_command`` refuses (a missing command distance). The result equals
``command_picture`` of the new state: tested on the Leipzig-shaped synthetic game and on Jena
for every ruleset. A ruleset whose findings come to read more than this table says must update
its entry here (the tests compare with a full recompute).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping

from battlestudio.analysis.command_picture import (
    BUDGETS, CommandPicture, _on_table, link_of, standing_orders, unknown_reach,
)
from battlestudio.model.units import Unit
from battlestudio.replay.state import GameState
from battlestudio.rules import OutOfCommandFinding, Ruleset, RuleRefused

__all__ = ["DEPENDENCIES", "affected_subjects", "findings_for", "local_change", "update_picture"]


def local_change(old: Any, new: Any) -> bool:
    """Whether replacing record ``old`` by ``new`` changes only what ``update_picture`` follows:
    a commander moved or turned (position, facing); a unit changed in anything but its side
    (moved, turned, formation, figures, morale state, eliminated, …). ``new`` None: a unit
    removed from the game (its node stays in the order of battle)."""
    if new is None:
        return isinstance(old, Unit)
    if type(new) is not type(old) or new.id != old.id:
        return False
    if isinstance(new, Unit):
        return new.side == old.side
    return replace(new, position=old.position, facing=old.facing) == old


def _direct(state: GameState, moved: Iterable[str]) -> set[str]:
    """Each moved node and, for a moved commander, his direct subordinates."""
    out: set[str] = set()
    for m in moved:
        out.add(m)
        out.update(state.oob.subordinates(m))
    return out


def _direct_context(state: GameState, subjects: set[str]) -> set[str]:
    """The records a subject measured from its direct superior reads: itself and him."""
    need = set(subjects)
    for s in subjects:
        sup = state.oob.superior(s)
        if sup is not None:
            need.add(sup)
    return need


def _is_relay(c: Any) -> bool:
    """A Regimental HQ (the ``c_in_c`` or role ``hq``) or adjutant: the chain to the HQ."""
    return c.echelon == "c_in_c" or c.attributes.get("role") in ("hq", "adjutant")


def _regimental_subjects(state: GameState, moved: Iterable[str]) -> set[str]:
    """Regimental: units sharing a brigade distance with a changed unit; a moved general's
    units and own link; every division general of a side whose HQ or adjutant moved."""
    out: set[str] = set()
    for m in moved:
        out.add(m)
        c = state.commanders.get(m)
        if c is None:  # a unit (or one removed): every unit whose brigade distance includes it
            for ancestor in state.oob.chain_of_command(m):
                out.update(n for n in state.oob.subordinates(ancestor) if n in state.units)
            continue
        out.update(state.oob.subordinates(m))
        if _is_relay(c):
            out.update(d.id for d in state.commanders.values() if d.echelon == "division" and d.side == c.side)
    return out


def _regimental_context(state: GameState, subjects: set[str]) -> set[str]:
    """Regimental: each subject, its general and every unit below him, and the HQ and
    adjutants of every side involved."""
    need = set(subjects)
    sides: set[str] = set()
    for s in subjects:
        sup = state.oob.superior(s)
        if sup is not None:
            need.add(sup)
            if s in state.units:
                need.update(n for n in state.oob.all_subordinates(sup) if n in state.units)
    for n in need:
        c = state.commanders.get(n)
        if c is not None:
            sides.add(c.side)
    need.update(c.id for c in state.commanders.values() if c.side in sides and _is_relay(c))
    return need


DEPENDENCIES: dict[str, tuple[Callable[[GameState, Iterable[str]], set[str]],
                              Callable[[GameState, set[str]], set[str]]]] = {
    "toe": (_direct, _direct_context),
    "belle-alliance": (_direct, _direct_context),
    "gda": (_direct, _direct_context),
    "regimental": (_regimental_subjects, _regimental_context),
}
"""Ruleset id → (subjects whose finding a change of the given nodes' records may change;
records the findings of given subjects read)."""


def affected_subjects(ruleset_id: str, state: GameState, moved: Iterable[str]) -> set[str] | None:
    """Ids whose out-of-command finding may change when the records of the units or
    commanders ``moved`` change (each a ``local_change``), or None when the ruleset is not
    described."""
    deps = DEPENDENCIES.get(ruleset_id)
    return None if deps is None else deps[0](state, moved)


def findings_for(ruleset: Ruleset, state: GameState, params: Mapping[str, Any],
                 subjects: set[str]) -> dict[str, OutOfCommandFinding]:
    """The ruleset's findings for ``subjects`` only (subject id → finding; a subject with none
    is absent), as its ``out_of_command`` gives them for the whole ``state``.

    Computed on ``state`` reduced to the records those findings read (``DEPENDENCIES``);
    commanders keep the state's order (Regimental takes a side's first HQ).

    Raises
    ------
    KeyError
        for a ruleset not in ``DEPENDENCIES``.
    RuleRefused
        as ``out_of_command`` does (e.g. a missing command distance).
    """
    need = DEPENDENCIES[ruleset.id][1](state, subjects)
    units = state.units
    reduced = state.evolve(units={i: units[i] for i in sorted(need) if i in units},
                           commanders={i: c for i, c in state.commanders.items() if i in need})
    return {f.subject: f for f in ruleset.out_of_command(reduced, params) if f.subject in subjects}


def update_picture(picture: CommandPicture, state: GameState, ruleset: Ruleset, params: Mapping[str, Any],
                   moved: Iterable[str], with_budgets: bool = True) -> tuple[CommandPicture, set[str]] | None:
    """``picture`` (of the state before) brought up to ``state``, where only the records of the
    units and commanders ``moved`` changed, each a ``local_change`` (a unit may be gone; order of
    battle, flags, orders, off-table set, turn and the rules the same).

    Returns
    -------
    (CommandPicture, set[str]) | None
        the new picture — equal to ``command_picture(state, ruleset, params, with_budgets)`` —
        and the ids whose finding or link was recomputed; None when it cannot be updated (a
        ruleset not in ``DEPENDENCIES``, ``out_of_command`` refused before or now, a moved
        general's reach or budget refused where it was not): recompute it whole.
    """
    moved = set(moved)
    if picture.findings_refused:
        return None
    subjects = affected_subjects(ruleset.id, state, moved)
    if subjects is None:
        return None
    try:
        found = findings_for(ruleset, state, params, subjects)
    except RuleRefused:
        return None
    findings = dict(picture.findings)
    for s in subjects:
        findings.pop(s, None)
    findings.update(found)
    reaches, budgets = dict(picture.reaches), dict(picture.budgets)
    budget_of = BUDGETS.get(ruleset.id) if with_budgets else None
    refused = set(picture.refusals)
    for cid in moved:
        if cid not in state.commanders or not _on_table(state, cid):
            reaches.pop(cid, None)
            budgets.pop(cid, None)
            continue
        # A reach or budget does not depend on where the general stands; one refused before
        # stays refused with the same message, which must already be among the refusals.
        try:
            r = ruleset.command_reach(state, cid, params)
        except RuleRefused as exc:
            if str(exc) not in refused or cid in reaches:
                return None
            continue
        if r.unknown:
            if unknown_reach(state, cid, r) not in refused or cid in reaches:
                return None
        elif r.kind != "none":
            reaches[cid] = r
        else:
            reaches.pop(cid, None)
        if budget_of is None:
            continue
        try:
            b = budget_of(state, cid, params)
        except RuleRefused as exc:
            if str(exc) not in refused or cid in budgets:
                return None
            continue
        if b is not None:
            budgets[cid] = b
        else:
            budgets.pop(cid, None)
    links = dict(picture.links)
    touched = subjects | _direct(state, moved)
    for sub in touched:
        sup = state.oob.superior(sub)
        link = link_of(state, sup, sub, findings, reaches) if sup is not None else None
        if link is not None:
            links[sub] = link
        else:
            links.pop(sub, None)
    # a unit eliminated or brought back puts the orders it received off or on the table
    orders = standing_orders(state) if any(m not in state.commanders for m in moved) else picture.orders
    return CommandPicture(reaches, findings, links, orders, budgets, picture.detached, picture.refusals), touched
