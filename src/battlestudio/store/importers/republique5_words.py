"""The vocabulary of the republique5 ``.oob`` format: nations, grades, unit types, battery codes.

Shared by the ``.oob`` importer and the table importer (grade words). Cavalry types follow
Torden over Europa 1.3 (light: hussars, lancers, landwehr, cossacks; medium: dragoons; heavy:
cuirassiers, carabiniers).
"""

from __future__ import annotations

import re

from battlestudio.model.units import Arm, Quality, Subtype

NATIONS = {
    "french": "France",
    "france": "France",
    "prussia": "Prussia",
    "prussian": "Prussia",
    "russia": "Russia",
    "russian": "Russia",
    "austria": "Austria",
    "austrian": "Austria",
    "sweden": "Sweden",
    "swedish": "Sweden",
    "britain": "Britain",
    "british": "Britain",
    "saxony": "Saxony",
    "saxon": "Saxony",
    "bavaria": "Bavaria",
    "bavarian": "Bavaria",
}
"""Directive nation words → nation names."""

GRADES = {
    "guard": Quality.GUARD,
    "guards": Quality.GUARD,
    "elite": Quality.ELITE,
    "veteran": Quality.VETERAN,
    "crack": Quality.CRACK,
    "regular": Quality.REGULAR,
    "green": Quality.CONSCRIPT,
    "conscript": Quality.CONSCRIPT,
    "landwehr": Quality.MILITIA,
    "militia": Quality.MILITIA,
    "rabble": Quality.RABBLE,
}
"""Grade words → ``Quality`` (``green`` is read as conscript, ``landwehr`` as militia)."""

COMMAND_STYLES = {"cumbersome", "efficient", "functional", "cavalry"}
"""Directive words that describe the whole command in Republique; kept as attributes."""

# multi-word types first; value = (arm, subtype)
TYPE_PHRASES: list[tuple[str, Arm, Subtype | None]] = [
    ("chasseur a cheval", Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    ("chev legere", Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    ("landwehr cavalry", Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    ("landwehr cav", Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    ("light cavalry", Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    ("light cav", Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    ("medium cavalry", Arm.CAVALRY, Subtype.MEDIUM_CAVALRY),
    ("medium cav", Arm.CAVALRY, Subtype.MEDIUM_CAVALRY),
    ("heavy cavalry", Arm.CAVALRY, Subtype.HEAVY_CAVALRY),
    ("heavy cav", Arm.CAVALRY, Subtype.HEAVY_CAVALRY),
    ("line light", Arm.INFANTRY, Subtype.LIGHT_INFANTRY),
]
TYPE_WORDS: dict[str, tuple[Arm, Subtype | None]] = {
    "line": (Arm.INFANTRY, Subtype.LINE_INFANTRY),
    "light": (Arm.INFANTRY, Subtype.LIGHT_INFANTRY),
    "fusilier": (Arm.INFANTRY, Subtype.LIGHT_INFANTRY),
    "fusiliers": (Arm.INFANTRY, Subtype.LIGHT_INFANTRY),
    "jager": (Arm.INFANTRY, Subtype.LIGHT_INFANTRY),
    "jagers": (Arm.INFANTRY, Subtype.LIGHT_INFANTRY),
    "grenz": (Arm.INFANTRY, Subtype.LIGHT_INFANTRY),
    "grenadier": (Arm.INFANTRY, Subtype.GRENADIERS),
    "grenadiers": (Arm.INFANTRY, Subtype.GRENADIERS),
    "hussar": (Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    "hussars": (Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    "uhlan": (Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    "uhlans": (Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    "lancer": (Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    "lancers": (Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    "cossack": (Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    "cossacks": (Arm.CAVALRY, Subtype.LIGHT_CAVALRY),
    "dragoon": (Arm.CAVALRY, Subtype.MEDIUM_CAVALRY),
    "dragoons": (Arm.CAVALRY, Subtype.MEDIUM_CAVALRY),
    "cuirassier": (Arm.CAVALRY, Subtype.HEAVY_CAVALRY),
    "cuirassiers": (Arm.CAVALRY, Subtype.HEAVY_CAVALRY),
    "kuirassier": (Arm.CAVALRY, Subtype.HEAVY_CAVALRY),
    "carabinier": (Arm.CAVALRY, Subtype.HEAVY_CAVALRY),
    "carabiniers": (Arm.CAVALRY, Subtype.HEAVY_CAVALRY),
    "cavalry": (Arm.CAVALRY, None),
    "cav": (Arm.CAVALRY, None),
}
"""Type words → (arm, subtype), after Torden over Europa 1.3's light/medium/heavy cavalry."""

CAVALRY_NAME = re.compile(
    r"cavalry|\bcav\b|hussar|dragoon|cuirassier|kuirassier|uhlan|lancer|chasseurs? a.?cheval|"
    r"cossack|carabinier|chev\.?\s*leg",
    re.IGNORECASE,
)
"""Name words that make a unit with no type word cavalry (e.g. ``III Corps Cavalry - 6 bases``)."""

BATTERY_CODES = {
    "HvF": Subtype.HEAVY_ARTILLERY,
    "MdF": Subtype.FOOT_ARTILLERY,
    "LtF": Subtype.FOOT_ARTILLERY,
    "MdH": Subtype.HORSE_ARTILLERY,
    "LtH": Subtype.HORSE_ARTILLERY,
}
"""Battery codes → artillery subtype (HvF = heavy/12-pounder foot; …H = horse)."""
