"""The validator behind both ``battlestudio check`` and the editor's Problems dock.

``find_problems(scenario)`` (the dock) runs every check of a scenario and ``check_battle(battle)``
(``battlestudio check``) adds the recorded game's; both return ``Problem`` records (severity, check id,
subject ids, a message naming the field and its value), errors first, then warnings, each group
in check order: record ids and references, the order of battle, the table and turns,
reinforcements, unit strengths, geometries (empty, invalid, off the table, overlapping towns),
where the troops stand (off the table, overlapping, in impassable terrain or a river, crowded towns),
idle commanders, the ruleset's terms and the recorded game. Pure: no Qt, no SQL.
"""

from __future__ import annotations

from battlestudio.model.scenario import Scenario
from battlestudio.replay.battle import Battle
from battlestudio.validate import geometry, oob, placement, records
from battlestudio.validate.game import game_log
from battlestudio.validate.placement import FootprintCache
from battlestudio.validate.problem import ERROR, WARNING, Problem, Severity, ordered
from battlestudio.validate.ruleset import ruleset_terms

__all__ = ["ERROR", "WARNING", "FootprintCache", "Problem", "Severity", "check_battle", "find_problems"]


def find_problems(s: Scenario, cache: FootprintCache | None = None) -> list[Problem]:
    """Every problem of scenario ``s`` (empty = fine), errors first: what the Problems dock lists.

    ``cache`` keeps unit footprints between calls (the dock re-checks after every edit).
    """
    footprints = (cache or FootprintCache()).footprints(s)
    found: list[Problem] = []
    found += records.ids(s)
    found += oob.structure(s)
    found += records.references(s)
    found += records.info(s)
    found += records.reinforcements(s)
    found += records.unit_strengths(s)
    found += records.formations(s)
    found += geometry.geometries(s)
    found += geometry.town_overlaps(s)
    found += placement.off_table(s, footprints)
    found += placement.in_impassable(s, footprints)
    found += placement.in_river(s, footprints)
    found += placement.overlaps(s, footprints)
    found += placement.towns_over_capacity(s, footprints)
    found += oob.idle_commanders(s)
    found += ruleset_terms(s)
    return ordered(found)


def check_battle(battle: Battle) -> list[Problem]:
    """Every problem of ``battle``: its scenario's (``find_problems``) and its recorded game's
    (replayed from the start), errors first: what ``battlestudio check`` prints. The dock learns
    of a game that cannot be replayed from the play layer, which replays it anyway."""
    return ordered([*find_problems(battle.scenario), *game_log(battle)])
