"""Upgrading ORBAT Mapper scenario documents of older format versions to the shape the reader
takes (``READ_VERSIONS[0]``, 3.2.0), for the fields BattleStudio reads: sides and side groups,
units and their ``subUnits``, ``state`` entries (``t``, ``location``, ``via``, ``status``,
``sidc``, ``title``) and the scenario's ``events``.

The differences come from ORBAT Mapper's own upgrader (``src/scenariostore/upgrade.ts`` in
orbat-mapper/orbat-mapper, MIT) and from its example scenario ``public/scenarios/falkland82.json``
as saved at format 0.5.0 and at 0.6.0:

- 0.5.0 → 0.6.0: a side group keeps its units under ``units``, renamed ``subUnits``. Times
  (``startTime``, state ``t``, event ``startTime``) are epoch milliseconds, later ISO strings;
  the reader takes both, so they stay.
- 0.6.0 → 3.2.0: ORBAT Mapper's steps in this range (before 0.30.0 and before 3.2.0) rewrite
  only the overlay layers' drawn features, which BattleStudio does not read; units, their
  state and the events keep their shape, so only the version changes.

Other versions below 3.2.0 are refused by ``check_version`` naming the version: their
differences are not known here. SIDCs are 20-digit codes in every file seen (0.5.0 on), so no
SIDC is converted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from battlestudio.store.importers.orbat_mapper_read import READ_VERSIONS, Reader, check_version, kind_of

Step = Callable[[Reader, Mapping[str, Any]], dict[str, Any]]


def _groups_units_to_subunits(r: Reader, doc: Mapping[str, Any]) -> dict[str, Any]:
    """0.5.0 → 0.6.0: every side group's ``units`` becomes its ``subUnits``."""
    sides = doc.get("sides")
    if not isinstance(sides, list):
        return {**doc, "version": "0.6.0"}
    new_sides: list[Any] = []
    for i, side in enumerate(sides):
        groups = side.get("groups") if isinstance(side, Mapping) else None
        if not isinstance(groups, list):
            new_sides.append(side)
            continue
        new_groups: list[Any] = []
        for j, group in enumerate(groups):
            if not isinstance(group, Mapping) or "units" not in group:
                new_groups.append(group)
                continue
            path = f"$.sides[{i}].groups[{j}]"
            if group.get("subUnits"):
                raise r.fail(f"{path}.units", "a format 0.5.0 group with both units and subUnits")
            if not isinstance(group["units"], list):
                raise r.fail(f"{path}.units", f"must be a list, not {kind_of(group['units'])}")
            rest = {k: v for k, v in group.items() if k != "units"}
            new_groups.append({**rest, "subUnits": group["units"]})
        new_sides.append({**side, "groups": new_groups})
    return {**doc, "version": "0.6.0", "sides": new_sides}


def _same_units(r: Reader, doc: Mapping[str, Any]) -> dict[str, Any]:
    """0.6.0 → 3.2.0: units, state and events unchanged (see the module docstring)."""
    return {**doc, "version": "3.2.0"}


STEPS: dict[str, tuple[Step, str]] = {
    "0.5.0": (_groups_units_to_subunits, "0.6.0"),
    "0.6.0": (_same_units, "3.2.0"),
}
"""Format version → (the step, the version it leads to)."""

UPGRADED_VERSIONS = tuple(STEPS)
"""Versions upgraded on import (older ones, and others below ``READ_VERSIONS``, are refused)."""


def upgrade(r: Reader, doc: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
    """``doc`` in the shape of ``READ_VERSIONS`` and the version the file had; a note in
    ``r.warnings`` says when it was upgraded. ``doc`` itself is not changed.

    Raises
    ------
    OrbatMapperError
        from ``check_version`` for a version neither read nor upgraded, or from a step for a
        field that cannot be upgraded (named by its JSON path).
    """
    original = check_version(doc, r.file, UPGRADED_VERSIONS)
    version = original
    while version in STEPS:
        step, version = STEPS[version]
        doc = step(r, doc)
    if version != original:
        r.note(f"format version {original} upgraded to {version} (the shape read since {READ_VERSIONS[0]})")
    return doc, original
