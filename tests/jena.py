"""The engine parameters the bundled Jena game was recorded with (scenarios/record_jena.py
ENGINE_PARAMETERS, placeholders resolved), for tests that record more of it."""

from __future__ import annotations

from typing import Any

ENGINE: dict[str, Any] = {
    "toe.zones_cm.c_in_c": [20, 40, "60+"],
    "toe.zones_cm.army": [20, 40, "60+"],
    "toe.command_thresholds": [4, 6, 8],
    "toe.command_modifiers": {},
    "toe.corps_command_distance_cm": 30,
    "toe.division_command_distance_cm": 15,
    "toe.march_length_cm.infantry": 30,
    "toe.march_length_cm.artillery": 30,
    "toe.march_length_cm.cavalry": 45,
    "toe.march_length_cm.other": 30,
    "initiative": "french",
}
