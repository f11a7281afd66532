"""The 20-digit symbol codes (SIDC, MIL-STD-2525D / APP-6D numeric form) that ORBAT Mapper
stores per unit, read and written for what BattleStudio keeps: arm, echelon, headquarters.

Digits (1-based): 1–2 version, 3 context, 4 standard identity (3 friend, 6 hostile, …), 5–6
symbol set (10 land unit), 7 status (4 destroyed), 8 headquarters / task force / dummy, 9–10
echelon amplifier (11 team … 18 brigade, 21 division, 22 corps, 23 army, 24 army group, 25
theatre, 26 command), 11–16 entity, entity type and subtype, 17–20 modifiers. Only land units
(symbol set 10) carry an arm: infantry 1211, reconnaissance / cavalry 1213, field artillery 1303,
combined arms 1210, command and control 11.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlestudio.model.units import Arm, Echelon

LAND_UNIT = "10"
"""Symbol set of land units."""

ECHELON_NAMES: dict[str, str] = {
    "11": "team",
    "12": "squad",
    "13": "section",
    "14": "platoon",
    "15": "company",
    "16": "battalion",
    "17": "regiment",
    "18": "brigade",
    "21": "division",
    "22": "corps",
    "23": "army",
    "24": "army_group",
    "25": "theatre",
    "26": "command",
}
"""Echelon amplifier (digits 9–10 of a land unit's SIDC) → name."""

ECHELON_CODES: dict[str, str] = {v: k for k, v in ECHELON_NAMES.items()}

COMMANDER_ECHELON: dict[str, str] = {
    "26": Echelon.C_IN_C.value,
    "25": Echelon.C_IN_C.value,
    "24": Echelon.C_IN_C.value,
    "23": Echelon.ARMY.value,
    "22": Echelon.CORPS.value,
    "21": Echelon.DIVISION.value,
    "18": Echelon.BRIGADE.value,
}
"""Echelon amplifier → BattleStudio commander echelon (lower amplifiers command as brigades)."""

ECHELON_AMPLIFIER: dict[str, str] = {
    Echelon.C_IN_C.value: "24",
    Echelon.ARMY.value: "23",
    Echelon.CORPS.value: "22",
    Echelon.DIVISION.value: "21",
    Echelon.BRIGADE.value: "18",
}
"""BattleStudio commander echelon → echelon amplifier (the inverse of ``COMMANDER_ECHELON``)."""

ARM_ENTITY: dict[Arm, str] = {
    Arm.INFANTRY: "121100",
    Arm.CAVALRY: "121300",
    Arm.ARTILLERY: "130300",
    Arm.OTHER: "110000",
}
"""Arm → entity digits 11–16 written on export."""

COMBINED_ARMS = "121000"
"""Entity of a headquarters commanding more than one arm."""

HQ_DIGITS = frozenset("2367")
"""Digit 8 values that mark a headquarters (HQ, feint HQ, task force HQ, feint task force HQ)."""

DESTROYED = "4"
"""Status digit 7 of a destroyed unit."""


@dataclass(frozen=True, slots=True)
class Sidc:
    """A SIDC taken apart: ``identity`` (digit 4), ``symbol_set`` (5–6), ``status`` (7),
    ``hq`` (8), ``echelon`` (9–10), ``entity`` (11–16)."""

    code: str
    identity: str
    symbol_set: str
    status: str
    hq: str
    echelon: str
    entity: str

    @property
    def is_land_unit(self) -> bool:
        return self.symbol_set == LAND_UNIT

    @property
    def is_headquarters(self) -> bool:
        """Digit 8 marks a headquarters, or the entity is a land command-and-control unit."""
        return self.hq in HQ_DIGITS or (self.is_land_unit and self.entity == "110000")

    @property
    def echelon_name(self) -> str:
        """``"battalion"``, ``"division"``, …; ``""`` when the amplifier is not an echelon."""
        return ECHELON_NAMES.get(self.echelon, "") if self.is_land_unit else ""

    @property
    def arm(self) -> Arm | None:
        """The arm of a land unit's entity, or None when it is none of infantry, cavalry,
        artillery (a headquarters of combined arms or command and control is not an arm)."""
        if not self.is_land_unit:
            return None
        return {"1211": Arm.INFANTRY, "1213": Arm.CAVALRY, "1303": Arm.ARTILLERY}.get(self.entity[:4])


def parse_sidc(code: str) -> Sidc | None:
    """``code`` taken apart, or None when it is not 20 (or more) digits."""
    if len(code) < 20 or not code[:20].isdigit():
        return None
    return Sidc(code, code[3], code[4:6], code[6], code[7], code[8:10], code[10:16])


def build_sidc(identity: str, entity: str, echelon: str = "00", hq: bool = False, status: str = "0") -> str:
    """A land unit's SIDC: version 10, reality, ``identity`` ("3" friend, "6" hostile),
    ``status`` ("0" present, "4" destroyed), headquarters flag, ``echelon`` amplifier, ``entity``
    (six digits), no modifiers."""
    return f"100{identity}{LAND_UNIT}{status}{'2' if hq else '0'}{echelon}{entity}0000"


def with_identity(code: str, identity: str) -> str:
    """``code`` with its standard identity digit replaced (a SIDC kept from an import, put on
    the side it now belongs to)."""
    return code[:3] + identity + code[4:] if parse_sidc(code) else code
