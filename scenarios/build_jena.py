"""Build ``jena-1806.battle.json``: Napoleon against Hohenlohe at Jena, 14 October 1806.

Run from the repository: ``python scenarios/build_jena.py``.

Order of battle: the fogofwar Jena-Auerstedt tables for every corps (forces 1 Imperial Guard,
5 V, 4 IV, 6 VI, 7 VII Corps, 8 Murat's reserve cavalry; 10 Hohenlohe, 11 the advance guard,
92 Rüchel), because they give men and guns; the republique5 files give only game bases.
Arrivals: republique5's ``Jena.scenario`` (windows and probabilities, read with
``read_scenario``). Kalkreuth and Bernadotte's I Corps, which that file also lists, fought at or
near Auerstedt and are left out.

Table: 480 × 300 cm = 14.4 × 9 km at 1 cm = 30 m (Torden over Europa 1.1), north up, from
Kapellendorf in the north-west to Jena and the Saale in the south-east. Village positions are
approximate (see the scenario sources).
"""

from __future__ import annotations

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
    stage,
    toe_placeholders,
    units_under,
)
from battlestudio.model.scenario import DeploymentZone, Objective, Reinforcement, ScenarioInfo, Side, Source  # noqa: E402
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone, default_town_polygon  # noqa: E402
from battlestudio.model.units import Echelon, Formation  # noqa: E402
from battlestudio.store.importers.fogofwar import import_fogofwar  # noqa: E402
from battlestudio.store.importers.republique5_scenario import read_scenario, turns_for_hours  # noqa: E402
from battlestudio.rules.toe.scale import convert_to_toe, ground_scale_m_per_cm, table_cm  # noqa: E402

GROUND_M = (14_400.0, 9_000.0)
"""The ground the table shows, west-east and south-north (m), from Kapellendorf to the Saale: at
Torden over Europa's 1 m = 3 km (1.1) a table of 480 × 300 cm."""

FILE = "jena-1806.battle.json"
FRENCH, PRUSSIAN = "french", "prussian"
NORTH, SOUTH, EAST = 90.0, 270.0, 0.0
SCENARIO_FILE = OOB_DATA / "republique5" / "scenarios" / "jena-auerstadt-1806" / "Jena.scenario"
FORCES = [1, 5, 4, 6, 7, 8, 10, 11, 92]

VILLAGES = {  # table cm; from approximate village coordinates relative to Jena, 1 cm = 30 m
    "jena": (450.0, 73.0),
    "closewitz": (432.0, 207.0),
    "cospeda": (347.0, 140.0),
    "lutzeroda": (307.0, 170.0),
    "vierzehnheiligen": (223.0, 210.0),
    "isserstedt": (137.0, 170.0),
    "krippendorf": (253.0, 260.0),
    "kapellendorf": (22.0, 288.0),
}
NAMES = {
    "jena": "Jena",
    "closewitz": "Closewitz",
    "cospeda": "Cospeda",
    "lutzeroda": "Lützeroda",
    "vierzehnheiligen": "Vierzehnheiligen",
    "isserstedt": "Isserstedt",
    "krippendorf": "Krippendorf",
    "kapellendorf": "Kapellendorf",
}

# republique5 arrival (command, sub-command) -> commander ids of this scenario
ARRIVAL_COMMANDERS = {
    ("Hohenlohe", "1st Division"): ["prussian-1st-div"],
    ("Hohenlohe", "Advance Guard Division"): ["prussian-adv-guard-div"],
    ("Hohenlohe", "3rd Division"): ["prussian-3rd-div"],
    ("Hohenlohe", "2nd Division"): ["prussian-2nd-div"],
    ("Hohenlohe", "Reserve Division"): ["prussian-reserve-div"],
    ("Ruchel", ""): ["prussian-reserve-ruchel"],
    ("V-Corps", ""): ["french-v-corps"],
    ("VI-Corps", ""): ["french-vi-corps"],
    ("IV-Corps", ""): ["french-iv-corps"],
    ("VII-Corps", ""): ["french-vii-corps"],
    ("Imperial-Guard-Corps", ""): ["french-infantry-division", "french-cavalry-division"],
    ("Murat", ""): ["french-cavalry-reserve"],
}
LEFT_OUT = {
    ("Kalkreuth", ""): "Kalkreuth's reserve fought at Auerstedt",
    ("I-Corps", ""): "Bernadotte's I Corps reached neither battlefield in time",
}

# where each arriving formation waits: (start of its block, facing, block length cm, entry point)
STAGING = {
    "french-cavalry-reserve": ((10.0, 2.0), NORTH, 190.0, (105.0, 0.0)),
    "french-vii-corps": ((205.0, 2.0), NORTH, 95.0, (250.0, 0.0)),
    "french-infantry-division": ((305.0, 2.0), NORTH, 50.0, (330.0, 0.0)),
    "french-cavalry-division": ((305.0, 30.0), NORTH, 50.0, (330.0, 0.0)),
    "french-vi-corps": ((360.0, 2.0), NORTH, 62.0, (390.0, 0.0)),
    "french-iv-corps": ((426.0, 2.0), NORTH, 36.0, (445.0, 0.0)),
    "prussian-reserve-div": ((2.0, 270.0), EAST, 40.0, (0.0, 250.0)),
    "prussian-2nd-div": ((2.0, 226.0), EAST, 42.0, (0.0, 205.0)),
    "prussian-reserve-ruchel": ((2.0, 180.0), EAST, 80.0, (0.0, 140.0)),
    "prussian-3rd-div": ((300.0, 298.0), SOUTH, 100.0, (350.0, 300.0)),
}

SOURCES = [
    Source(
        "republique5 Jena.scenario (steveoc64/republique5)",
        "https://github.com/steveoc64/republique5",
        "BSD 2-Clause (Copyright (c) 2019, SteveOC)",
        "arrival windows and probabilities of every formation; start 14 Oct 1806 06:00",
    ),
    Source(
        "napoleoningermany.blogspot.com, 'Jena - Landgrafenberg' (September 2010)",
        "http://napoleoningermany.blogspot.com/2010/09",
        "",
        "the plateau on the Landgrafenberg above Jena (Windknolle), Lannes' corps holding it at dawn, "
        "Cospeda occupied by the French early, Closewitz the left and Lützeroda the right of the Prussian line",
    ),
    Source(
        "Patrick E. Wilson, 'Battle of Jena: an opinion', First Empire no. 81 (MagWeb)",
        "https://stefanov.no-ip.org/MagWeb/1stempir/81/fe81jena.htm",
        "",
        "Tauentzien between Lützeroda and Closewitz facing Lannes on the Landgrafenberg; Zeschwitz's "
        "Saxons, Grawert and Prittwitz's grenadiers to his right",
    ),
    Source(
        "napoleon.org, 'The Battle of Jena' battlefield itinerary",
        "http://www.napoleon.org/en/magazine/itineraries/course/jena_auerstedt_parcours1.asp?id=464879",
        "",
        "Napoleonstein on the Windknollen, the highest point "
        "of the Landgrafenberg, overlooking Jena and the Saale valley; Cospeda",
    ),
    Source(
        "Village and road positions: OpenStreetMap (ODbL) and Wikipedia village articles, read as approximate "
        "coordinates relative to Jena",
        "https://www.openstreetmap.org",
        "ODbL / CC BY-SA (facts only)",
        "Closewitz, Cospeda, Lützeroda, Vierzehnheiligen, Isserstedt, Krippendorf, Kapellendorf, the Saale "
        "and the Mühltal; the Dornberg is placed north-west of Closewitz and its position is uncertain",
    ),
]


def build():
    """The Jena scenario (a ``Scenario``), deterministic."""
    res = import_fogofwar(OOB_DATA / "fogofwar", force_ids=FORCES, sides={"France": FRENCH, "Prussia": PRUSSIAN})
    sc, notes = convert_to_toe(res.scenario)
    guard, lannes, soult, ney, augereau, murat, hohenlohe, advguard, ruchel = res.roots
    # Napoleon commands the army in person: the Guard force's commander becomes the C-in-C
    sc.commanders[guard] = replace(
        sc.commanders[guard],
        echelon=Echelon.C_IN_C.value,
        figures=6,
        attributes={**sc.commanders[guard].attributes, "formation": "Grande Armée (Imperial headquarters and Guard)"},
    )
    for corps in (lannes, soult, ney, augereau, murat):
        sc.oob.add(guard, corps)
    # Hohenlohe commands the Prussian-Saxon army; the advance guard division and Rüchel come under him
    sc.commanders[hohenlohe] = replace(sc.commanders[hohenlohe], echelon=Echelon.C_IN_C.value, figures=6)
    for sub in sc.oob.subordinates(advguard):
        sc.oob.add(hohenlohe if sub in sc.commanders else "prussian-adv-guard-div", sub)
    sc.oob.remove(advguard)
    del sc.commanders[advguard]
    sc.oob.add(hohenlohe, ruchel)
    sc.sides = {
        FRENCH: Side(FRENCH, "French Empire: Grande Armée", ("France", "Nassau", "Hesse"), "#2a4fb0"),
        PRUSSIAN: Side(PRUSSIAN, "Prussia and Saxony: Hohenlohe's army", ("Prussia", "Saxony"), "#303030"),
    }
    plan = read_scenario(SCENARIO_FILE)
    sc.info = ScenarioInfo(
        title="Jena 1806",
        date="1806-10-14",
        place="Jena, Thuringia",
        ruleset="toe",
        parameters={
            **sc.info.parameters,
            **toe_placeholders({guard: 3, hohenlohe: 2}),
            "toe.scenario.initiative": FRENCH,
            "scenario.left_out": {f"{c}{' - ' + s if s else ''}": why for (c, s), why in LEFT_OUT.items()},
            "toe.retreat_direction": "enemy_front",
            "toe.note.retreat_direction": "2.9 says a retreat goes 'directly away from the enemy front'. The "
            "engine's default reading (A11) is away from the nearest enemy unit, "
            "which late in the day at Jena is often a French unit that has got round "
            "a Prussian flank, so beaten divisions would retreat along or into the "
            "French line. This scenario uses the digest's alternative (T-9): the "
            "way the enemy front within 75 cm faces, i.e. straight back from the "
            "French line, towards Weimar and Kapellendorf",
            "scenario.note.advance_guard": "the data names Prince Louis Ferdinand, who fell at Saalfeld on "
            "10 October; his advance guard is kept as the data gives it",
            "scenario.note.data_per_corps": "every corps from fogofwar (men and guns); republique5 only for "
            "the arrival windows, since its bases are not head counts",
            "scenario.note.copied_rows": "two fogofwar rows carry the game editor's '_Copy' suffix: "
            "'9e Hussar_Copy' (force_unit 108, Lannes' light cavalry brigade) and "
            "'Corsican Legere_Copy' (force_unit 97, Legrand's division of Soult's "
            "corps). Each is the only row of its unit in its corps, a user's copy "
            "of a sibling row made into another regiment, not a duplicate: "
            "Treilhard's brigade of V Corps held the 9e and 10e Hussards, and "
            "Legrand's division the Tirailleurs corses (the Eylau tables list them "
            "under Legrand too). They keep their rows' strengths and are named "
            "'9e Hussar' and 'Corsican Legere'. Ney's brigade also has a '9e Hussar' "
            "row (force_unit 125), kept as the data gives it",
            "import.notes": notes,
        },
        table_width=table_cm(GROUND_M[0]),
        table_height=table_cm(GROUND_M[1]),
        ground_scale=ground_scale_m_per_cm(),
        turn_minutes=15,
        first_turn=plan.start.strftime("%H:%M") if plan.start else "06:00",
        turns=40,
        description=(
            "06:00, fog. Lannes' V Corps holds the Landgrafenberg plateau above Jena, with Napoleon; the Prussian "
            "advance guard stands between Lützeroda and Closewitz and Grawert's division by Vierzehnheiligen. "
            "The rest of both armies arrives in the windows of republique5's Jena.scenario: the French from "
            "Jena and the Saale valley (south edge), Hohenlohe's divisions and Rüchel from the west and north.\n\n"
            "French briefing (republique5): " + plan.briefings.get("France", "") + "\n\nPrussian briefing "
            "(republique5): " + plan.briefings.get("Prussia", "")
        ),
    )
    _terrain(sc)
    _deploy(sc)
    _reinforcements(sc, plan)
    place_commanders(sc, [guard, hohenlohe])
    sc.commanders[guard] = replace(sc.commanders[guard], position=(402.0, 128.0))  # on the Windknolle
    sc.commanders[hohenlohe] = replace(sc.commanders[hohenlohe], position=(38.0, 278.0), facing=SOUTH)  # Kapellendorf
    apply_order_capacity(sc)
    sc.sources = sc.sources + SOURCES
    return sc


def _terrain(sc) -> None:
    t = sc.terrain
    t["saale"] = TerrainFeature(
        "saale",
        TerrainKind.RIVER,
        LineString([(470, 0), (468, 60), (472, 120), (467, 200), (471, 300)]),
        "Saale",
        width=2.0,
    )
    t["jena-bridge"] = TerrainFeature("jena-bridge", TerrainKind.BRIDGE, box(465, 71, 475, 77), "Saale bridge at Jena")
    t["landgrafenberg"] = TerrainFeature(
        "landgrafenberg",
        TerrainKind.HILL,
        Polygon([(332, 130), (365, 100), (430, 92), (458, 112), (455, 165), (415, 182), (372, 172), (332, 168)]),
        "Landgrafenberg plateau",
        level=1,
    )
    t["windknolle"] = TerrainFeature(
        "windknolle", TerrainKind.HILL, Point(404, 121).buffer(12.0), "Windknolle", level=2
    )
    t["dornberg"] = TerrainFeature(
        "dornberg",
        TerrainKind.HILL,
        Point(385, 232).buffer(16.0),
        "Dornberg",
        level=1,
        properties={"note": "position approximate"},
    )
    t["muehlbach"] = TerrainFeature(
        "muehlbach",
        TerrainKind.STREAM,
        LineString([(452, 68), (420, 82), (380, 92), (330, 102), (270, 122), (200, 146), (160, 158)]),
        "Mühlbach in the Mühltal",
        width=1.0,
    )
    t["closewitz-wood"] = TerrainFeature(
        "closewitz-wood", TerrainKind.WOODS, Polygon([(442, 218), (462, 214), (463, 252), (446, 256)]), "Closewitz wood"
    )
    t["isserstedt-forest"] = TerrainFeature(
        "isserstedt-forest",
        TerrainKind.WOODS,
        Polygon([(108, 118), (175, 114), (186, 146), (118, 152)]),
        "Isserstedt forest",
    )
    roads = {
        "road-weimar": (
            "Jena–Weimar road through the Mühltal and Isserstedt",
            [(450, 73), (420, 84), (380, 94), (330, 104), (270, 124), (200, 148), (137, 170), (60, 180), (0, 184)],
        ),
        "road-steiger": ("Steiger path from Jena up the Landgrafenberg", [(446, 80), (425, 100), (404, 121)]),
        "road-lutzeroda": (
            "Road Cospeda–Lützeroda–Vierzehnheiligen–Kapellendorf",
            [(347, 140), (307, 170), (223, 210), (130, 250), (22, 288)],
        ),
        "road-closewitz": ("Road Closewitz–Krippendorf", [(432, 207), (340, 235), (253, 260), (200, 300)]),
        "road-saale": ("Saale valley road (west bank)", [(462, 0), (460, 60), (461, 200), (463, 300)]),
    }
    for rid, (name, pts) in roads.items():
        t[rid] = TerrainFeature(rid, TerrainKind.ROAD, LineString(pts), name, width=1.0)
    sc.towns = {vid: TownZone(vid, NAMES[vid], default_town_polygon(pos)) for vid, pos in VILLAGES.items()}
    sc.towns["jena"] = TownZone("jena", "Jena", box(438, 60, 462, 86), capacity=2)
    sc.objectives = {
        "obj-landgrafenberg": Objective(
            "obj-landgrafenberg", "Landgrafenberg (Windknolle)", Point(404, 121).buffer(12.0), FRENCH, 2
        ),
        "obj-vierzehnheiligen": Objective(
            "obj-vierzehnheiligen", "Vierzehnheiligen", sc.towns["vierzehnheiligen"].polygon, "", 3
        ),
        "obj-closewitz": Objective("obj-closewitz", "Closewitz", sc.towns["closewitz"].polygon, "", 1),
        "obj-lutzeroda": Objective("obj-lutzeroda", "Lützeroda", sc.towns["lutzeroda"].polygon, "", 1),
        "obj-isserstedt": Objective("obj-isserstedt", "Isserstedt", sc.towns["isserstedt"].polygon, "", 1),
        "obj-jena": Objective("obj-jena", "Jena", sc.towns["jena"].polygon, PRUSSIAN, 2),
        "obj-kapellendorf": Objective(
            "obj-kapellendorf", "Kapellendorf (Hohenlohe's headquarters)", sc.towns["kapellendorf"].polygon, FRENCH, 1
        ),
    }
    sc.deployment_zones = {
        "dz-french": DeploymentZone(
            "dz-french",
            FRENCH,
            "Landgrafenberg, Jena and the Saale valley",
            Polygon([(200, 0), (466, 0), (462, 182), (415, 186), (365, 165), (200, 60)]),
        ),
        "dz-prussian": DeploymentZone(
            "dz-prussian",
            PRUSSIAN,
            "Plateau from Closewitz to Kapellendorf",
            Polygon([(0, 100), (120, 100), (300, 160), (440, 196), (466, 260), (466, 300), (0, 300)]),
        ),
    }


def _deploy(sc) -> None:
    """The troops on the table at 06:00, every general within command distance of his troops
    (2.4-2.5; division 15 cm, corps 30 cm): each division a compact block of two rows, the
    generals placed where they cover it (``place_commanders``). Facing south, a row runs
    westwards (to the units' right) from its east end."""
    # V Corps crowded on the Landgrafenberg: Suchet on the right towards Closewitz, Gazan on the
    # left towards Cospeda and Lützeroda, Trelliard's hussars and the corps guns behind them
    suchet, gazan, trelliard = "french-1eme-division", "french-2eme-division", "french-cav-bde"
    s = units_under(sc, suchet)
    deploy_row(sc, s[:3], (400.0, 150.0), NORTH, Formation.COLUMN)
    deploy_row(sc, s[3:], (406.0, 141.0), NORTH, Formation.COLUMN)
    g = units_under(sc, gazan)
    deploy_row(sc, g[:2], (356.0, 158.0), NORTH, Formation.COLUMN)
    deploy_row(sc, g[2:], (362.0, 149.0), NORTH, Formation.COLUMN)
    deploy_row(sc, units_under(sc, trelliard) + units_under(sc, "french-v-corps"), (384.0, 134.0), NORTH)
    # the advance guard between Lützeroda and Closewitz facing the plateau: the infantry in one
    # line with its guns in the centre, the cavalry behind
    adv = "prussian-adv-guard-div"
    pelet, belvilaqua = by_name(sc, adv, "Bde von Pelet", "Bde Belvilaqua")
    guns = [u for u in units_under(sc, adv) if sc.units[u].arm.value == "artillery"]
    deploy_row(sc, [pelet] + guns + [belvilaqua], (434.0, 190.0), SOUTH)
    deploy_row(sc, [u for u in units_under(sc, adv) if sc.units[u].arm.value == "cavalry"], (426.0, 200.0), SOUTH)
    # Grawert's division before Vierzehnheiligen: Müffling and Schimonsky in line, the Erichsen
    # fusiliers out in front, Henkel's cavalry behind; Hohenlohe's artillery on its right
    gra = "prussian-1st-div"
    deploy_row(sc, by_name(sc, gra, "von Müffling", "von Schimonsky"), (290.0, 224.0), SOUTH)
    deploy_row(sc, by_name(sc, gra, "Erichsen Fusilers"), (257.0, 216.0), SOUTH)
    deploy_row(sc, by_name(sc, gra, "Bde Henkel"), (260.0, 234.0), SOUTH)
    deploy_row(sc, units_under(sc, "prussian-south-hohenlohe"), (212.0, 230.0), SOUTH)


def _all_units(sc, cid: str) -> list[str]:
    return [n for n in sc.oob.all_subordinates(cid) if n in sc.units]


def _reinforcements(sc, plan) -> None:
    for a in plan.arrivals:
        key = (a.command, a.subcommand)
        if key in LEFT_OUT or a.contact:
            continue
        for cid in ARRIVAL_COMMANDERS[key]:
            start, facing, length, entry = STAGING[cid]
            stage(sc, _all_units(sc, cid), start, facing, length)
            rid = f"arrive-{cid}"
            side = sc.commanders[cid].side
            sc.reinforcements[rid] = Reinforcement(
                rid,
                side,
                cid,
                turns_for_hours(a.earliest_hours),
                turns_for_hours(a.latest_hours),
                entry,
                a.probability,
                f"republique5 Jena.scenario line {a.line}: {a.command}"
                f"{' - ' + a.subcommand if a.subcommand else ''} ({a.earliest_hours}-{a.latest_hours} hrs) "
                f"{round(a.probability * 100)}%, {a.zone}; units wait at the entry point until they arrive",
            )


if __name__ == "__main__":
    main_for(build, FILE)
