"""Edits: one class per verb; ``do``/``undo`` change a Scenario and return the ``Change``s.

The editor changes scenario data only through these, pushed on a ``Document``'s history. The
builders of the map's gestures are in ``edits.moves`` (drag, nudge, turn) and ``edits.place``
(a drop from the order of battle).
"""

from battlestudio.edits.base import (
    KINDS,
    MAP_KINDS,
    RECORD_KINDS,
    Change,
    Edit,
    Macro,
    MergingMacro,
    combine,
    container,
    count_text,
    merge_changes,
)
from battlestudio.edits.clipboard import Clip, copy_records, paste_edit
from battlestudio.edits.info import SetInfo
from battlestudio.edits.oob import Reattach, reattach_problem
from battlestudio.edits.records import MoveRecords, PutRecords, RemoveRecords

__all__ = [
    "KINDS",
    "MAP_KINDS",
    "RECORD_KINDS",
    "Change",
    "Edit",
    "Macro",
    "MergingMacro",
    "combine",
    "container",
    "count_text",
    "merge_changes",
    "Clip",
    "copy_records",
    "paste_edit",
    "SetInfo",
    "Reattach",
    "reattach_problem",
    "MoveRecords",
    "PutRecords",
    "RemoveRecords",
]
