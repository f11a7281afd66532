"""What ``battlestudio info`` reports about a battle: counts of everything, per side and per arm.

All values are JSON data; counts are ints, so ``info --json`` can be read by scripts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from battlestudio.model.units import ECHELON_RANK, Arm
from battlestudio.replay.battle import Battle


def summarize(battle: Battle) -> dict[str, Any]:
    """Counts for ``battle``.

    Returns
    -------
    dict
        top-level ints ``commanders``, ``units``, ``men``, ``guns``, ``horses``,
        ``terrain_features``, ``town_zones``, ``objectives``, ``deployment_zones``,
        ``reinforcements``, ``orders``, ``turns`` (turns the scenario lasts), ``turns_logged``
        (highest turn in the game log) and ``events``; ``sides`` (id → name, commanders, units,
        men, guns, horses, units_per_arm), ``arms`` (arm → units, men, guns, horses),
        ``commanders_per_echelon``, ``terrain_per_kind``, ``events_per_kind``, and the
        scenario's ``title``, ``date``, ``place``, ``ruleset``, ``table_cm``, ``ground_scale``
        (m per cm) and ``georef`` (``{"lon", "lat", "bearing"}`` in degrees, or None).
    """
    s = battle.scenario
    units, cmd = s.units.values(), s.commanders.values()
    g = s.info.georef

    def strength(records: Any) -> dict[str, int]:
        rs = list(records)
        return {
            "units": len(rs),
            "men": sum(u.men for u in rs),
            "guns": sum(u.guns for u in rs),
            "horses": sum(u.horses for u in rs),
        }

    side_ids = sorted(set(s.sides) | {u.side for u in units} | {c.side for c in cmd})
    sides = {}
    for sid in side_ids:
        mine = [u for u in units if u.side == sid]
        sides[sid] = {
            "name": s.sides[sid].name if sid in s.sides else "",
            "commanders": sum(1 for c in cmd if c.side == sid),
            **strength(mine),
            "units_per_arm": dict(sorted(Counter(u.arm.value for u in mine).items())),
        }
    arms = {a.value: strength(u for u in units if u.arm is a) for a in Arm if any(u.arm is a for u in units)}
    echelons = Counter(c.echelon for c in cmd)
    total = strength(units)
    return {
        "title": s.info.title,
        "date": s.info.date,
        "place": s.info.place,
        "ruleset": s.info.ruleset,
        "table_cm": [s.info.table_width, s.info.table_height],
        "ground_scale": s.info.ground_scale,
        "georef": None if g is None else {"lon": g.lon, "lat": g.lat, "bearing": g.bearing},
        "sides": sides,
        "commanders": len(s.commanders),
        "commanders_per_echelon": dict(sorted(echelons.items(), key=lambda kv: (ECHELON_RANK.get(kv[0], 99), kv[0]))),
        "units": total["units"],
        "men": total["men"],
        "guns": total["guns"],
        "horses": total["horses"],
        "arms": arms,
        "terrain_features": len(s.terrain),
        "terrain_per_kind": dict(sorted(Counter(t.kind.value for t in s.terrain.values()).items())),
        "town_zones": len(s.towns),
        "objectives": len(s.objectives),
        "deployment_zones": len(s.deployment_zones),
        "reinforcements": len(s.reinforcements),
        "orders": len(s.orders),
        "turns": s.info.turns,
        "turns_logged": battle.turns_logged,
        "events": len(battle.events),
        "events_per_kind": dict(sorted(Counter(e.kind for e in battle.events).items())),
    }
