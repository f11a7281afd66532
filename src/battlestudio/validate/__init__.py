"""The validator behind both ``battlestudio check`` and the editor's Problems dock.

``find_problems(battle)`` runs every check and returns ``Problem`` records (severity, check id,
subject ids, a message naming the field and its value), errors first, then warnings, each group
in check order: record ids and references, the order of battle, the table and turns,
reinforcements, unit strengths, geometries (empty, invalid, off the table, overlapping towns),
where the troops stand (off the table, overlapping, in impassable terrain, crowded towns),
idle commanders, the ruleset's terms and the recorded game. Pure: no Qt, no SQL.
"""

from __future__ import annotations

from battlestudio.replay.battle import Battle
from battlestudio.validate import geometry, oob, placement, records
from battlestudio.validate.game import game_log
from battlestudio.validate.placement import FootprintCache
from battlestudio.validate.problem import ERROR, WARNING, Problem, Severity, ordered
from battlestudio.validate.ruleset import ruleset_terms

__all__ = ["ERROR", "WARNING", "FootprintCache", "Problem", "Severity", "find_problems"]


def find_problems(battle: Battle, cache: FootprintCache | None = None, *, game: bool = True) -> list[Problem]:
    """Every problem of ``battle`` (empty = fine), errors first.

    ``cache`` keeps unit footprints between calls (the Problems dock re-checks after every
    edit). ``game=False`` skips replaying the recorded game (the dock learns of a game that
    cannot be replayed from the play layer, which replays it anyway).
    """
    s = battle.scenario
    footprints = (cache or FootprintCache()).footprints(s)
    found: list[Problem] = []
    found += records.ids(s)
    found += oob.structure(s)
    found += records.references(s)
    found += records.info(s)
    found += records.reinforcements(s)
    found += records.unit_strengths(s)
    found += geometry.geometries(s)
    found += geometry.town_overlaps(s)
    found += placement.off_table(s, footprints)
    found += placement.in_impassable(s, footprints)
    found += placement.overlaps(s, footprints)
    found += placement.towns_over_capacity(s, footprints)
    found += oob.idle_commanders(s)
    found += ruleset_terms(s)
    if game:
        found += game_log(battle)
    return ordered(found)
