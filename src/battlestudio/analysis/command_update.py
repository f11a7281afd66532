"""Updating a command picture after a few units or generals changed, instead of recomputing it.

A general dragged in the editor moves once per mouse move. Little of the command picture
depends on where he stands: his reach (only its centre moves), his own finding and link to his
superior, and the findings and links of those measured from him. Which subjects those are
depends on the ruleset, which says so through ``Ruleset.finding_dependencies``: e.g. a subject
measured from its direct superior only (``rules.dependencies.DIRECT_SUPERIOR``: a moved general
changes his own finding and his direct subordinates', a changed unit its own), or the Regimental
rules' brigade distances and adjutant chains (``rules.regimental.dependencies``).

``update_picture`` asks the ruleset (through the Protocol's ``out_of_command``) for exactly
those findings, on a state reduced to the records they read, and patches a copy of the picture.
It returns None — the caller recomputes the whole picture — for a ruleset that does not
describe its dependencies or when ``out_of_command`` refuses (a missing command distance). The
result equals ``command_picture`` of the new state: tested on the Leipzig-shaped synthetic game
and on Jena for every ruleset. A ruleset whose findings come to read more than its
dependencies say must update them (the tests compare with a full recompute).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from collections.abc import Iterable, Mapping

from battlestudio.analysis.command_picture import CommandPicture, _on_table, link_of, standing_orders, unknown_reach
from battlestudio.model.units import Unit
from battlestudio.replay.pmap import ChunkedMap
from battlestudio.replay.state import GameState
from battlestudio.rules import OutOfCommandFinding, Ruleset, RuleRefused
from battlestudio.rules.dependencies import direct_subjects

__all__ = ["affected_subjects", "findings_for", "local_change", "update_picture"]


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
        return bool(new.side == old.side)
    return bool(replace(new, position=old.position, facing=old.facing) == old)


def affected_subjects(ruleset: Ruleset, state: GameState, moved: Iterable[str]) -> set[str] | None:
    """Ids whose out-of-command finding may change when the records of the units or
    commanders ``moved`` change (each a ``local_change``), or None when the ruleset does not
    describe its findings' dependencies (``Ruleset.finding_dependencies``)."""
    deps = ruleset.finding_dependencies()
    return None if deps is None else deps.subjects(state, moved)


def findings_for(
    ruleset: Ruleset, state: GameState, params: Mapping[str, Any], subjects: set[str]
) -> dict[str, OutOfCommandFinding]:
    """The ruleset's findings for ``subjects`` only (subject id → finding; a subject with none
    is absent), as its ``out_of_command`` gives them for the whole ``state``.

    Computed on ``state`` reduced to the records those findings read (the ruleset's
    ``finding_dependencies().context``); commanders keep the state's order (a ruleset may take
    a side's first HQ).

    Raises
    ------
    ValueError
        for a ruleset whose ``finding_dependencies`` is None.
    RuleRefused
        as ``out_of_command`` does (e.g. a missing command distance).
    """
    deps = ruleset.finding_dependencies()
    if deps is None:
        raise ValueError(f"ruleset {ruleset.id!r} does not describe what its findings read")
    need = deps.context(state, subjects)
    units, commanders = state.units, state.commanders
    if isinstance(commanders, ChunkedMap):  # the few needed, not a walk over every general
        kept = {i: commanders[i] for i in commanders.in_order(need)}
    else:
        kept = {i: c for i, c in commanders.items() if i in need}
    reduced = state.evolve(units={i: units[i] for i in sorted(need) if i in units}, commanders=kept)
    return {f.subject: f for f in ruleset.out_of_command(reduced, params) if f.subject in subjects}


def update_picture(
    picture: CommandPicture,
    state: GameState,
    ruleset: Ruleset,
    params: Mapping[str, Any],
    moved: Iterable[str],
    with_budgets: bool = True,
) -> tuple[CommandPicture, set[str]] | None:
    """``picture`` (of the state before) brought up to ``state``, where only the records of the
    units and commanders ``moved`` changed, each a ``local_change`` (a unit may be gone; order of
    battle, flags, orders, off-table set, turn and the rules the same).

    Returns
    -------
    (CommandPicture, set[str]) | None
        the new picture — equal to ``command_picture(state, ruleset, params, with_budgets)`` —
        and the ids whose finding or link was recomputed; None when it cannot be updated (a
        ruleset without ``finding_dependencies``, ``out_of_command`` refused before or now, a moved
        general's reach or budget refused where it was not): recompute it whole.
    """
    moved = set(moved)
    if picture.findings_refused:
        return None
    subjects = affected_subjects(ruleset, state, moved)
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
        if not with_budgets:
            continue
        try:
            b = ruleset.order_budget(state, cid, params)
        except RuleRefused as exc:
            if str(exc) not in refused or cid in budgets:
                return None
            continue
        if b is not None:
            budgets[cid] = b
        else:
            budgets.pop(cid, None)
    links = dict(picture.links)
    touched = subjects | direct_subjects(state, moved)
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
