"""Build ``elchingen-1805.battle.json``: Ney's VI Corps against Riesch, 14 October 1805.

Run from the repository: ``python scenarios/build_elchingen.py``. The order of battle is the
fogofwar Elchingen data (forces 101 and 102) converted to Torden over Europa's scale; the table
(240 × 180 cm = 7.2 × 5.4 km at 1 cm = 30 m) is drawn from the historical geography named in the
scenario's sources: the Danube along the south of the table with the partly dismantled bridge
at Elchingen, Unter-Elchingen by the river, the village and abbey of Ober-Elchingen on the
heights north of it, the large wood to the north-west, the roads to Albeck and to Ulm.
"""

from __future__ import annotations

import csv
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shapely.geometry import LineString, Point, Polygon, box  # noqa: E402

from _build import (  # noqa: E402
    OOB_DATA,
    apply_order_capacity,
    by_name,
    deploy_row,
    main_for,
    place_commanders,
    toe_placeholders,
    units_under,
)
from battlestudio.model.scenario import DeploymentZone, Objective, ScenarioInfo, Side, Source  # noqa: E402
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone  # noqa: E402
from battlestudio.model.units import Formation  # noqa: E402
from battlestudio.store.importers.fogofwar import import_fogofwar  # noqa: E402
from battlestudio.rules.toe.scale import convert_to_toe  # noqa: E402

FILE = "elchingen-1805.battle.json"
FRENCH, AUSTRIAN = "french", "austrian"
NORTH, SOUTH = 90.0, 270.0
DANUBE = [(0.0, 48.0), (60.0, 45.0), (110.0, 40.0), (170.0, 38.0), (240.0, 33.0)]

GEOGRAPHY_SOURCES = [
    Source(
        "Battle of Elchingen (Wikipedia, as quoted in the fogofwar scenario notes and briefs)",
        "https://en.wikipedia.org/wiki/Battle_of_Elchingen",
        "CC BY-SA 4.0 (facts only used)",
        "partly dismantled bridge directly south of Riesch's position; Ober-Elchingen and the abbey on "
        "the heights; the Grosser Forst the Austrians fell back into; Malher crossing further east",
    ),
    Source(
        "Schlacht bei Elchingen (German Wikipedia, mirror de.zxc.wiki)",
        "https://de.zxc.wiki/wiki/Schlacht_bei_Elchingen",
        "CC BY-SA 3.0 (facts only used)",
        "Elchingen lies about 7 km east of Ulm (direction of the road to Ulm)",
    ),
    Source(
        "Ian Castle, Austerlitz: Napoleon and the Eagles of Europe (excerpt read online)",
        "",
        "",
        "Riesch aligned along the high ground of the abbey and Ober-Elchingen, extending towards "
        "Unter-Elchingen; two battalions and two guns at the broken bridge; Ney's battery by the bridge on "
        "the south bank",
    ),
    Source(
        "Napoleon & Empire: Battle of Elchingen",
        "https://www.napoleon-empire.net/en/battles/elchingen.php",
        "",
        "the Elchingen bridge over the Danube; Loison's and Malher's divisions on the south bank",
    ),
]


def build():
    """The Elchingen scenario (a ``Scenario``), deterministic."""
    res = import_fogofwar(OOB_DATA / "fogofwar", force_ids=[101, 102], sides={"France": FRENCH, "Austria": AUSTRIAN})
    sc, notes = convert_to_toe(res.scenario)
    ney, riesch = res.roots
    sc.sides = {
        FRENCH: Side(FRENCH, "French Empire: VI Corps", ("France",), "#2a4fb0"),
        AUSTRIAN: Side(AUSTRIAN, "Austria: Riesch's corps", ("Austria",), "#d8cfa8"),
    }
    params = {
        **sc.info.parameters,
        **toe_placeholders({ney: 2, riesch: 2}),
        "toe.scenario.acting_army_chief": {FRENCH: ney, AUSTRIAN: riesch},
        "toe.note.acting_army_chief": "one corps a side and no army general in play: each corps general also "
        "acts as his side's army chief for issuing orders (scenario choice; toe.toml scenario.acting_army_chief). "
        "Ney and Riesch each give their own corps A, H or M orders as an army chief does (2.3), 1 OAS each "
        "(toe.placeholder.order_capacity.*), rolled in the army zones (toe.zones_cm.army: zone 1 for his own "
        "corps); as corps generals they still order their corps' retreat (T) and detach divisions (D) without "
        "OAS (2.4, A20); the divisions get no orders of their own (2.1)",
        **_division_command_ability(sc),
        "toe.scenario.initiative": FRENCH,
        "toe.note.unrepresented_guns": "one-third rule (1.3): the French 12-pdr battery (4 guns) and the "
        "Austrian horse battery (8 guns) round to no gun model; see the corps "
        "commanders' unrepresented_guns",
        "scenario.note.deployment": "Every general starts within command distance of his troops (division "
        "15 cm, corps 30 cm, the placeholders): each division stands as a compact "
        "block. Historically Riesch's line ran from the abbey towards Unter-Elchingen "
        "and Malher crossed further downstream; here Loudon's line covers about 2 km "
        "before the abbey and Ober-Elchingen and Malher stands about 1 km downstream "
        "of Loison, closer than history, so that no one starts out of command",
        "import.notes": notes,
    }
    sc.info = ScenarioInfo(
        title="Elchingen 1805",
        date="1805-10-14",
        place="Elchingen on the Danube, Bavaria",
        ruleset="toe",
        parameters=params,
        table_width=240.0,
        table_height=180.0,
        ground_scale=30.0,
        turn_minutes=15,
        first_turn="08:00",
        turns=28,
        description=(
            "Tutorial scenario. At 08:00 Ney's VI Corps stands on the south bank of the Danube; the bridge at "
            "Elchingen has been partly dismantled and is held by Riesch's bridge guard. Riesch's corps holds the "
            "heights of Ober-Elchingen and the abbey. Loison must force the bridge and storm the heights while "
            "Malher crosses further east. North is up the table; the Danube runs along the south."
        ),
    )
    _terrain(sc)
    _deploy(sc, ney, riesch)
    apply_order_capacity(sc)
    sc.sources = sc.sources + GEOGRAPHY_SOURCES
    return sc


def _division_command_ability(sc) -> dict:
    """``toe.command_ability.division``: the division generals' KE, which a detachment (D) order
    adds to the corps general's (2.12, A20), from the same fogofwar rating as the corps generals'
    (``toe.assumed.command_ability_from``), with the note saying so.

    Raises
    ------
    ValueError
        when the data rates the division commanders differently (then one value would not do).
    """
    data = OOB_DATA / "fogofwar"
    with open(data / "lookup_cmd_rating.csv", encoding="utf-8", newline="") as fh:
        ratings = {r["id"]: r for r in csv.DictReader(fh)}
    with open(data / "force_unit.csv", encoding="utf-8", newline="") as fh:
        rows = {f"force_unit:{r['id']}": r for r in csv.DictReader(fh)}
    found = {}
    for c in sc.commanders.values():
        if c.echelon == "division":
            rating = ratings[rows[c.attributes["source_id"]]["rating"].strip()]
            found[c.name] = (rating["name"], int(rating["effect"]))
    if len(set(found.values())) != 1:
        raise ValueError(f"the division commanders are rated differently: {found}")
    name, effect = next(iter(found.values()))
    return {
        "toe.command_ability.division": effect,
        "toe.note.command_ability_division": f"a detachment order (D) adds the division general's KE (2.12: "
        f"'bruges kun ved detacheringer'; A20); the fogofwar data rates all {len(found)} division commanders "
        f"'{name}' (force_unit rating, read through lookup_cmd_rating as the corps generals' KE is): {effect:+d}",
    }


def _terrain(sc) -> None:
    t = sc.terrain
    t["danube"] = TerrainFeature("danube", TerrainKind.RIVER, LineString(DANUBE), "Danube", width=5.0)
    t["elchingen-bridge"] = TerrainFeature(
        "elchingen-bridge",
        TerrainKind.BRIDGE,
        box(108.5, 35.0, 111.5, 45.0),
        "Elchingen bridge (partly dismantled)",
        properties={"note": "planks removed on 13 Oct; repaired by French engineers during the attack"},
    )
    t["elchingen-heights"] = TerrainFeature(
        "elchingen-heights",
        TerrainKind.HILL,
        Polygon([(30, 66), (90, 62), (150, 64), (205, 70), (215, 110), (170, 128), (90, 130), (35, 115)]),
        "Heights of Elchingen",
        level=1,
    )
    t["abbey-crest"] = TerrainFeature(
        "abbey-crest",
        TerrainKind.HILL,
        Polygon([(85, 76), (145, 74), (152, 98), (120, 106), (88, 98)]),
        "Crest of the abbey and Ober-Elchingen",
        level=2,
    )
    t["grosser-forst"] = TerrainFeature(
        "grosser-forst",
        TerrainKind.WOODS,
        Polygon([(5, 140), (60, 135), (95, 145), (100, 178), (5, 178)]),
        "Grosser Forst",
    )
    t["wood-east"] = TerrainFeature(
        "wood-east",
        TerrainKind.WOODS,
        Polygon([(200, 140), (238, 138), (238, 176), (205, 172)]),
        "Wood towards Göttingen",
    )
    t["road-albeck"] = TerrainFeature(
        "road-albeck",
        TerrainKind.ROAD,
        LineString([(110, 0), (110, 35), (110, 45), (122, 56), (122, 84), (112, 120), (110, 180)]),
        "Road from the bridge through Unter- and Ober-Elchingen to Albeck",
        width=1.0,
    )
    t["road-ulm"] = TerrainFeature(
        "road-ulm",
        TerrainKind.ROAD,
        LineString([(122, 56), (70, 60), (18, 64), (0, 66)]),
        "Road along the north bank to Thalfingen and Ulm",
        width=1.0,
    )
    t["road-south-bank"] = TerrainFeature(
        "road-south-bank",
        TerrainKind.ROAD,
        LineString([(0, 24), (110, 22), (240, 18)]),
        "Road along the south bank (Leipheim–Ulm)",
        width=1.0,
    )
    sc.towns = {
        "ober-elchingen": TownZone("ober-elchingen", "Ober-Elchingen", box(115, 77, 130, 92)),
        "elchingen-abbey": TownZone("elchingen-abbey", "Elchingen Abbey", box(100, 82, 112, 94)),
        "unter-elchingen": TownZone("unter-elchingen", "Unter-Elchingen", box(124, 48, 139, 60)),
        "thalfingen": TownZone("thalfingen", "Thalfingen", box(10, 58, 25, 72)),
    }
    sc.objectives = {
        "obj-abbey": Objective("obj-abbey", "Elchingen Abbey", box(100, 82, 112, 94), "", 3),
        "obj-ober-elchingen": Objective("obj-ober-elchingen", "Ober-Elchingen", box(115, 77, 130, 92), "", 2),
        "obj-bridge": Objective("obj-bridge", "Elchingen bridge (north end)", Point(110.0, 45.0).buffer(4.0), "", 1),
    }
    sc.deployment_zones = {
        "dz-french": DeploymentZone(
            "dz-french", FRENCH, "South bank of the Danube", Polygon([(0, 0), (240, 0), (240, 28), (110, 33), (0, 40)])
        ),
        "dz-austrian": DeploymentZone(
            "dz-austrian",
            AUSTRIAN,
            "North bank and the heights",
            Polygon([(0, 58), (110, 50), (240, 44), (240, 150), (0, 150)]),
        ),
    }


def _deploy(sc, ney: str, riesch: str) -> None:
    """Both corps at 08:00, every general within command distance of his troops (2.4-2.5):
    division generals reach 15 cm, corps generals 30 cm (the scenario's placeholders), so each
    division stands as a compact block and the generals stand where they cover it best."""
    loison, malher, dragoons, colbert = (
        "french-2eme-division",
        "french-3eme-division",
        "french-4eme-dragoon-division",
        "french-cav-bde",
    )
    # Loison at the south end of the bridge, Villatte's brigade leading in column, Roguet behind
    deploy_row(sc, by_name(sc, loison, "Bde Villatte"), (98.0, 32.0), NORTH, Formation.COLUMN)
    deploy_row(sc, by_name(sc, loison, "Bde Roguet"), (98.0, 25.0), NORTH, Formation.COLUMN)
    # Ney's battery by the bridge on the south bank, facing Unter-Elchingen
    deploy_row(sc, ["french-vi-corps-foot-guns-1"], (124.0, 31.0), NORTH)
    # Colbert's light cavalry and the horse guns behind the battery
    deploy_row(sc, units_under(sc, colbert) + ["french-vi-corps-horse-guns-1"], (124.0, 20.0), NORTH)
    # Laplanche's dragoons behind Loison
    deploy_row(sc, units_under(sc, dragoons), (101.0, 12.0), NORTH)
    # Malher downstream of Loison, to cross further east
    deploy_row(sc, units_under(sc, malher), (134.0, 26.0), NORTH, Formation.COLUMN)
    # (facing south a row runs westwards, to the units' right, from its east end)
    # Riesch: Loudon's division on the slope before the abbey and Ober-Elchingen, its right towards
    # Unter-Elchingen, the bridge guard (Avantgarde) forward above the broken bridge
    loudon, homburg = "austrian-1st-div", "austrian-2nd-div"
    deploy_row(sc, by_name(sc, loudon, "Reserve Bde", "Centre Bde"), (152.0, 70.0), SOUTH)
    deploy_row(sc, by_name(sc, loudon, "Avantgarde"), (129.0, 61.0), SOUTH)
    deploy_row(sc, by_name(sc, loudon, "Centre Bde (cavalry)", "Avantgarde (cavalry)"), (114.5, 75.0), SOUTH)
    deploy_row(sc, by_name(sc, loudon, "Reserve Bde (cavalry)"), (136.0, 75.0), SOUTH)
    # Hessen-Homburg's division in second line on the plateau behind the villages
    deploy_row(sc, by_name(sc, homburg, "Reserve Bde", "Avantgarde"), (153.0, 98.0), SOUTH, Formation.COLUMN)
    deploy_row(sc, by_name(sc, homburg, "Center Bde"), (144.0, 110.0), SOUTH, Formation.COLUMN)
    deploy_row(sc, by_name(sc, homburg, "Center Bde (cavalry)", "Reserve Bde (cavalry)"), (129.0, 117.0), SOUTH)
    place_commanders(sc, [ney, riesch])
    # Riesch at the abbey, between his two lines (within 30 cm of both division generals)
    sc.commanders[riesch] = replace(sc.commanders[riesch], position=(114.0, 96.0))


if __name__ == "__main__":
    main_for(build, FILE)
