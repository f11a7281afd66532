"""Build ``auerstedt-1806.battle.json``: Davout against Brunswick at Auerstedt, 14 October 1806.

Run from the repository: ``python scenarios/build_auerstedt.py``.

Order of battle: the fogofwar Jena-Auerstedt tables, force 3 (Davout's III Corps) and forces 12
(Brunswick's main army: Orange, Wartensleben, Schmettau, Blücher) and 13 (Kalckreuth's reserve),
read with the project's fogofwar importer; the republique5 ``Auerstadt.scenario`` names who is in
contact at the start and who arrives later. Brigade level on the Prussian side and for Davout's
cavalry (the data gives brigades); regiment level for the French infantry (the data gives
regiments, which Torden over Europa plays as the brigade-sized unit); the artillery is regrouped
into gun models per army (Torden over Europa 1.3).

Table: 450 × 270 cm = 13.5 × 8.1 km at 1 cm = 30 m (Torden over Europa 1.1), north up, from
Eckartsberga in the west to the Saale at Kösen in the east and from the Ilm at Sulza in the south
to beyond Spielberg in the north. Positions are approximate (see ``GEOGRAPHY``).
"""

from __future__ import annotations

import csv
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shapely.geometry import LineString, Polygon, box  # noqa: E402

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
from battlestudio.model.georef import Georeference  # noqa: E402
from battlestudio.model.scenario import DeploymentZone, Objective, Reinforcement, ScenarioInfo, Side, Source  # noqa: E402
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone, default_town_polygon  # noqa: E402
from battlestudio.model.units import Echelon, Formation  # noqa: E402
from battlestudio.rules.toe.scale import convert_to_toe  # noqa: E402
from battlestudio.store.importers.fogofwar import import_fogofwar  # noqa: E402
from battlestudio.store.importers.republique5_scenario import read_scenario  # noqa: E402

FILE = "auerstedt-1806.battle.json"
FRENCH, PRUSSIAN = "french", "prussian"
NORTH, SOUTH, EAST, WEST = 90.0, 270.0, 0.0, 180.0
SCENARIO_FILE = OOB_DATA / "republique5" / "scenarios" / "jena-auerstadt-1806" / "Auerstadt.scenario"
JENA_SCENARIO_FILE = OOB_DATA / "republique5" / "scenarios" / "jena-auerstadt-1806" / "Jena.scenario"
FORCES = [3, 12, 13]
FIRST_TURN = "07:00"

ORIGIN_KM = (-6.4, -5.0)
"""Where the table's south-west corner lies, km east and north of Hassenhausen church."""

PLACES_KM = {  # km east, north of Hassenhausen; approximate (about ±300 m)
    "hassenhausen": (0.0, 0.0),
    "spielberg": (1.1, 1.8),
    "taugwitz": (-1.4, 1.55),
    "poppel": (-2.3, 0.7),
    "rehehausen": (-1.0, -1.8),
    "gernstedt": (-3.15, -1.65),
    "auerstedt": (-3.7, -3.45),
    "eckartsberga": (-5.5, -0.65),
    "koesen": (5.5, 0.45),
    "sulza": (-1.0, -4.5),
}
NAMES = {
    "hassenhausen": "Hassenhausen",
    "spielberg": "Spielberg",
    "taugwitz": "Taugwitz",
    "poppel": "Poppel",
    "rehehausen": "Rehehausen",
    "gernstedt": "Gernstedt",
    "auerstedt": "Auerstedt",
    "eckartsberga": "Eckartsberga",
    "koesen": "Kösen",
    "sulza": "Sulza",
}


def cm(x_km: float, y_km: float) -> tuple[float, float]:
    """Table cm of a point ``x_km`` east and ``y_km`` north of Hassenhausen (1 cm = 30 m)."""
    return (round((x_km - ORIGIN_KM[0]) / 0.03, 1), round((y_km - ORIGIN_KM[1]) / 0.03, 1))


VILLAGES = {vid: cm(*km) for vid, km in PLACES_KM.items()}

HASSENHAUSEN_LONLAT = (11.639, 51.131)
"""Approximate WGS84 position of Hassenhausen (about ±300 m), from which the georeference is set."""
GEOREF = Georeference(
    round(HASSENHAUSEN_LONLAT[0] + ORIGIN_KM[0] / (111.32 * 0.6277), 4),  # cos(51.13°) = 0.6277
    round(HASSENHAUSEN_LONLAT[1] + ORIGIN_KM[1] / 111.2, 4),
    90.0,
)
"""The table's south-west corner on the Earth, +x due east (approximate, as the positions are)."""


def turn_at(clock: str) -> int:
    """The turn (1-based, 15 minutes each from ``FIRST_TURN``) that begins at ``clock`` ("HH:MM")."""
    h, m = (int(x) for x in clock.split(":"))
    h0, m0 = (int(x) for x in FIRST_TURN.split(":"))
    return (h * 60 + m - h0 * 60 - m0) // 15 + 1


# The arrivals. Windows are the historical ones (the accounts in SOURCES); republique5's line for
# the same formation is kept in the note. (formation, earliest clock, latest clock, probability,
# republique5 line or "", why)
ARRIVALS = [
    (
        "french-2eme-division",
        "08:00",
        "08:30",
        1.0,
        "III-Corps - 2eme Division (1-2 hrs)",
        "Friant's division came up from Kösen about 08:00 and extended Gudin's right towards Spielberg",
    ),
    (
        "french-iii-corps-foot-guns-2",
        "08:00",
        "09:00",
        1.0,
        "",
        "the corps' 12-pounders came up the Kösen road with Friant",
    ),
    (
        "french-2e-chasseur",
        "08:45",
        "09:15",
        1.0,
        "",
        "the rest of Viallanes' light cavalry reached the field about 09:00 and went to Gudin's left",
    ),
    (
        "french-1eme-division",
        "09:30",
        "10:00",
        1.0,
        "III-Corps - 1eme Division (1-3 hrs)",
        "Morand's division arrived between 09:30 and 10:00 and deployed on the left, south of Hassenhausen",
    ),
    (
        "prussian-2nd-div",
        "08:30",
        "09:00",
        1.0,
        "Brunswick - 2nd Division (3-6 hrs)",
        "Wartensleben's division, with Brunswick, came up from Auerstedt about 08:30 to 09:00",
    ),
    (
        "prussian-brunswick-north-foot-guns-2",
        "08:30",
        "09:00",
        1.0,
        "",
        "Wartensleben's batteries",
    ),
    (
        "prussian-1st-div",
        "10:00",
        "10:30",
        1.0,
        "Brunswick - 1st Division (3-5 hrs)",
        "the Prince of Orange's division arrived about 10:00 to 10:30 and was split between both flanks",
    ),
    (
        "prussian-lt-bde-oswald",
        "10:00",
        "10:30",
        1.0,
        "Brunswick - Advanced Guard Division (1-2 hrs)",
        "Oswald's light infantry of the advance guard arrived with Orange about 10:30 (republique5's window "
        "for the advance guard fits Blücher's cavalry, on the table at the start)",
    ),
    (
        "prussian-brunswick-north-foot-guns-3",
        "10:00",
        "10:30",
        1.0,
        "",
        "Orange's batteries",
    ),
    (
        "prussian-reserve-kalkreuth",
        "11:00",
        "12:30",
        0.8,
        "Jena.scenario: Kalkreuth (3-6 hrs) 80%",
        "Kalckreuth's two reserve divisions stood on the heights by Auerstedt and were never ordered "
        "forward; they came up only to cover the retreat. Auerstadt.scenario does not list them; the "
        "probability is the 80% of Jena.scenario's Kalkreuth line",
    ),
]
LEFT_OUT = {
    "I-Corps": "Bernadotte's I Corps (Auerstadt.scenario: 5-8 hrs, 40%) marched to Dornburg and reached neither "
    "battlefield; fogofwar force 2 is not imported",
}

# where each arriving formation waits: (start of its block, facing, block length cm, entry point)
NAUMBURG_ROAD = (450.0, 183.0)
RANNSTEDT_ROAD = (0.0, 35.0)
STAGING = {
    "french-2eme-division": ((448.0, 118.0), WEST, 62.0, NAUMBURG_ROAD),
    "french-iii-corps-foot-guns-2": ((440.0, 170.0), WEST, 10.0, NAUMBURG_ROAD),
    "french-2e-chasseur": ((440.0, 150.0), WEST, 10.0, NAUMBURG_ROAD),
    "french-1eme-division": ((448.0, 48.0), WEST, 66.0, NAUMBURG_ROAD),
    "prussian-2nd-div": ((2.0, 128.0), EAST, 86.0, RANNSTEDT_ROAD),
    "prussian-brunswick-north-foot-guns-2": ((2.0, 36.0), EAST, 6.0, RANNSTEDT_ROAD),
    "prussian-1st-div": ((13.0, 128.0), EAST, 86.0, RANNSTEDT_ROAD),
    "prussian-lt-bde-oswald": ((13.0, 36.0), EAST, 20.0, RANNSTEDT_ROAD),
    "prussian-brunswick-north-foot-guns-3": ((13.0, 14.0), EAST, 6.0, RANNSTEDT_ROAD),
    "prussian-reserve-kalkreuth": ((26.0, 116.0), EAST, 84.0, RANNSTEDT_ROAD),
}

GEOGRAPHY = (
    "Positions approximate: village positions relative to Hassenhausen, the course of the Saale, Ilm "
    "and Emse and the line of the Kösen-Hassenhausen-Eckartsberga highway from general knowledge "
    "of the modern topographic map of the area (OpenStreetMap-style village coordinates, about "
    "±300 m), set against the battle accounts named in the sources; not traced from any map. "
    "The course of the Lissbach (from above Taugwitz past Poppel and Rehehausen to the Ilm at "
    "Sulza), the extent of the Auerstedt and Eckartsberga heights and of the wooded Saale slopes "
    "are the least certain (about ±500 m)"
)

SOURCES = [
    Source(
        "republique5 Auerstadt.scenario and Jena.scenario (steveoc64/republique5)",
        "https://github.com/steveoc64/republique5",
        "BSD 2-Clause (Copyright (c) 2019, SteveOC)",
        "who is in contact at the start (Gudin, Schmettau) and the order the others arrive in; the 80% "
        "of Kalckreuth's line in Jena.scenario",
    ),
    Source(
        "Battle of Auerstedt (Wikipedia text as mirrored by liquisearch.com)",
        "https://liquisearch.com/battle_of_jena-auerstedt/battle_of_auerstedt",
        "CC BY-SA (facts only)",
        "Gudin from Naumburg before 06:30; the 1st Chasseurs stopped outside Poppel at 07:00 in lifting fog; "
        "Schmettau deploying with Blücher's cavalry on his left; Wartensleben at 08:30 with Brunswick; the "
        "rest of the French cavalry at 09:00 on Gudin's left; Friant in squares on Gudin's right; "
        "Oswald and Orange about 10:30, Orange split to both flanks; Morand on the left",
    ),
    Source(
        "napoleoningermany.blogspot.com, Auerstadt battlefield walk (October 2010)",
        "http://napoleoningermany.blogspot.com/2010/10",
        "",
        "Hassenhausen's crossroads as the centre of the French position; Blücher's cavalry attack from "
        "Spielberg on the French right, which Friant's division extended; the tree-lined Spielberg road; "
        "Poppel half right from the crossroads",
    ),
    Source(
        "Meyers Konversations-Lexikon (1885), 'Auerstädt' (text as quoted on morton1905.blogspot.com)",
        "https://morton1905.blogspot.com/2018/05/kartchen-zur-schlacht-bei-auerstadt-14.html",
        "public domain",
        "Auerstädt on the Emsbach; the Kösen pass and the steep left bank of the Saale climbed by Davout; "
        "Blücher and Schmettau leaving Auerstädt at 06:00 in thick fog; Wartensleben about 09:00",
    ),
    Source(
        "eurasier-von-der-finne.de, 'Hassenhausen'",
        "http://eurasier-von-der-finne.de/finne_data/finne1b.html",
        "",
        "Hassenhausen on the Leipzig-Erfurt highway, which runs straight over the plateau once it has "
        "climbed from Kösen; Auerstedt about 7 km off in the Emse valley; the Guard of the reserve by "
        "Eckartsberga never brought up",
    ),
    Source(
        "Völderndorff, Kriegsgeschichte von Bayern (1826), vol. 1 p. 62 (staatsbibliothek.ewigerbund.org)",
        "https://staatsbibliothek.ewigerbund.org/viewer/fulltext/voelderndorff_kriegsgeschichte_0001/372",
        "public domain",
        "the reserve on the heights of Auerstedt, about 3,000 paces off, never ordered forward; "
        "Kalckreuth given the rearguard",
    ),
    Source(
        "ferienhaus-kreisel.de, 'Doppelschlacht Jena und Auerstedt'",
        "http://www.ferienhaus-kreisel.de/doppelschlacht-jena-auerstedt.html",
        "",
        "the totals compared with the data's: Prussians 49,800 men and 215 guns, French about 27,300 men "
        "and 45 guns; the King's quarters in Auerstedt; Schmettau sent for the Kösen crossing",
    ),
    Source(
        "ferienhausviernapoleonslinden.de, 'Die Schlacht bei Auerstedt'",
        "http://www.ferienhausviernapoleonslinden.de/html/geschichte.html",
        "",
        "8,800 Prussian horse against 1,300 French, 230 guns against 44; the Prussian columns strung out "
        "by the single Ilm bridge; the attack north of the Kösen highway about 09:00",
    ),
    Source("Village positions and watercourses", "", "", GEOGRAPHY),
]


def build():
    """The Auerstedt scenario (a ``Scenario``), deterministic."""
    res = import_fogofwar(OOB_DATA / "fogofwar", force_ids=FORCES, sides={"France": FRENCH, "Prussia": PRUSSIAN})
    sc, notes = convert_to_toe(res.scenario)
    davout, brunswick, kalkreuth = res.roots
    # Brunswick commands the main army, with the King present; Kalckreuth's reserve comes under him
    sc.commanders[brunswick] = replace(
        sc.commanders[brunswick],
        echelon=Echelon.C_IN_C.value,
        figures=6,
        attributes={**sc.commanders[brunswick].attributes, "formation": "Main army (Brunswick, with the King)"},
    )
    sc.oob.add(brunswick, kalkreuth)
    # the data has Blücher twice: the advance guard (Oswald's light brigade) and his cavalry
    # brigade; one general, so Oswald comes under Blücher's cavalry command and the empty
    # duplicate is removed
    advguard, blucher = "prussian-adv-guard", "prussian-cav-bde-blucher"
    for sub in sc.oob.subordinates(advguard):
        sc.oob.add(blucher, sub)
    sc.oob.remove(advguard)
    del sc.commanders[advguard]
    sc.commanders[blucher] = replace(
        sc.commanders[blucher],
        attributes={
            **sc.commanders[blucher].attributes,
            "formation": "Advance guard (Blücher's cavalry and Oswald's light brigade)",
        },
    )
    sc.sides = {
        FRENCH: Side(FRENCH, "French Empire: III Corps (Davout)", ("France",), "#2a4fb0"),
        PRUSSIAN: Side(PRUSSIAN, "Prussia: Brunswick's main army", ("Prussia",), "#303030"),
    }
    plan = read_scenario(SCENARIO_FILE)
    jena_plan = read_scenario(JENA_SCENARIO_FILE)
    kalk = next(a for a in jena_plan.arrivals if a.command == "Kalkreuth")
    assert kalk.probability == 0.8, kalk
    sc.info = ScenarioInfo(
        title="Auerstedt 1806",
        date="1806-10-14",
        place="Hassenhausen and Auerstedt, Thuringia",
        ruleset="toe",
        parameters={
            **sc.info.parameters,
            **toe_placeholders({davout: 2, brunswick: 2}),
            "toe.scenario.acting_army_chief": {FRENCH: davout},
            "toe.note.acting_army_chief": "Davout's corps is alone on this field and no army general is in play: "
            "Davout also acts as his side's army chief for issuing orders (scenario "
            "choice, as Elchingen's Ney; toe.toml scenario.acting_army_chief), "
            "with 2 OAS (toe.placeholder.order_capacity.*) for his three divisions "
            "and the cavalry brigade",
            "toe.note.order_capacity": "Brunswick 2 OAS: one army of five divisions and a reserve corps under a "
            "71-year-old commander rated 'Doddering Fool' (KE -1) by the data; Davout "
            "2 OAS as an acting army chief",
            "toe.scenario.initiative": FRENCH,
            "toe.note.initiative": "Davout's divisions were awake and marching; the Prussian columns ran into "
            "them in the fog: the French take the first player-turn",
            "toe.note.unrepresented_guns": "one-third rule (1.3): every gun is in a gun model here (see import.notes); "
            "the battalion guns of Kalckreuth's reserve stay on their battalions",
            "scenario.left_out": dict(LEFT_OUT),
            "scenario.note.fog": "07:00: thick fog, lifting about 07:00-08:00 near Poppel; no ruleset here "
            "models fog, so it is not played",
            "scenario.note.start_time": "Auerstadt.scenario starts at 06:00; this scenario starts at 07:00, when the "
            "French chasseurs met Blücher's horse outside Poppel, with Gudin's and "
            "Schmettau's divisions in contact as that file has them",
            "scenario.note.duplicate_blucher": "fogofwar force 12 has Blücher twice: the advance guard "
            "(force_unit 1215, Oswald's light brigade) and the cavalry brigade "
            "(force_unit 1221, 'Bluchers cav bde as part of the advance guard'). "
            "One general: Oswald's brigade is placed under force_unit 1221 and "
            "the other command removed. Row 1256, an unnamed empty division, "
            "holds no units and is not imported",
            "scenario.note.level": "brigades where the data gives brigades (every Prussian infantry and cavalry "
            "brigade, Blücher's regiments, Viallanes' two chasseur regiments), regiments "
            "for the French infantry (the data lists Davout's divisions by regiment, "
            "1,300-1,800 men each); batteries regrouped into gun models per army (1.3)",
            "scenario.note.brunswick": "Brunswick arrived at the front with Wartensleben about 08:30 and was mortally "
            "wounded before 10:00, Schmettau soon after; the loss of command is not "
            "scripted: he starts behind Schmettau by Gernstedt",
            "scenario.note.arrivals": "arrival windows follow the accounts; republique5's Auerstadt.scenario "
            "gives the same order for the French and Schmettau in contact, but its "
            "Prussian windows (Wartensleben 3-6 hrs, Orange 3-5 hrs) are later than "
            "the accounts; each reinforcement's note quotes its republique5 line",
            "scenario.note.geography": GEOGRAPHY,
            "import.notes": notes,
        },
        table_width=450.0,
        table_height=270.0,
        ground_scale=30.0,
        turn_minutes=15,
        first_turn=FIRST_TURN,
        turns=38,
        georef=GEOREF,
        description=(
            "07:00, fog. Gudin's division of Davout's III Corps has climbed from the Saale bridge at Kösen and "
            "reaches Hassenhausen on the highway to Eckartsberga; its chasseurs have just run into Blücher's "
            "cavalry outside Poppel, and Schmettau's division is coming up from Gernstedt. Friant (about 08:00, "
            "on the right towards Spielberg) and Morand (09:30-10:00, on the left) follow up the Kösen road; "
            "Wartensleben (08:30), Orange and Oswald (10:00-10:30) come from Auerstedt, Kalckreuth's reserve "
            "late (11:00-12:30, 80% a turn). The French must hold Hassenhausen and the Kösen pass behind it.\n\n"
            "Order of battle: fogofwar forces 3, 12 and 13 through the fogofwar importer, brigades where the "
            "data gives brigades (all Prussian brigades, Viallanes' chasseurs), regiments for the French "
            "infantry, whose divisions the data lists by regiment; the batteries are gun models per army. "
            "The data's strengths are rounded game values: Davout 22,900 men and 32 guns against about 27,000 "
            "and 44; Brunswick's army and reserve 52,500 men, about the 49,800 of the accounts, but 98 guns "
            "against about 230 (see scenarios/SOURCES.md). Positions approximate.\n\n"
            "French briefing (republique5): " + plan.briefings.get("France", "")
        ),
    )
    _subordinate_command_ability(sc)
    _terrain(sc)
    _deploy(sc)
    _reinforcements(sc, plan)
    place_commanders(sc, [davout, brunswick])
    sc.commanders[davout] = replace(sc.commanders[davout], position=(226.0, 168.0), facing=WEST)  # at Hassenhausen
    sc.commanders[brunswick] = replace(sc.commanders[brunswick], position=(92.0, 150.0), facing=EAST)
    # generals some of whose troops wait as reinforcements stand behind those on the table
    _behind(sc, "french-cav-bde", ["french-1e-chasseur"])
    blucher_cavalry = [u for u in units_under(sc, "prussian-cav-bde-blucher") if sc.units[u].arm.value == "cavalry"]
    _behind(sc, "prussian-cav-bde-blucher", blucher_cavalry)
    apply_order_capacity(sc)
    sc.sources = sc.sources + SOURCES
    return sc


def _subordinate_command_ability(sc) -> None:
    """Each division and brigade general's KE from his own fogofwar row (``force_unit.rating``
    read through ``lookup_cmd_rating``, as the corps generals' KE is from ``force.rating``); a
    detachment order adds it (2.12, A20). The data rates them differently (von Arnim "Doddering
    Fool"), so each record carries its own value rather than one ``toe.command_ability.division``."""
    data = OOB_DATA / "fogofwar"
    with open(data / "lookup_cmd_rating.csv", encoding="utf-8", newline="") as fh:
        ratings = {r["id"]: r for r in csv.DictReader(fh)}
    with open(data / "force_unit.csv", encoding="utf-8", newline="") as fh:
        rows = {f"force_unit:{r['id']}": r for r in csv.DictReader(fh)}
    found = []
    for cid, c in sorted(sc.commanders.items()):
        if c.echelon in ("division", "brigade") and c.command_ability is None:
            source = c.attributes["source_id"]
            rating = ratings[rows[source]["rating"].strip()]
            sc.commanders[cid] = replace(
                c,
                command_ability=int(rating["effect"]),
                attributes={**c.attributes, "fogofwar_cmd_rating": rating["name"]},
            )
            found.append(f"{c.name} '{rating['name']}' {int(rating['effect']):+d}")
    sc.info = replace(
        sc.info,
        parameters={
            **sc.info.parameters,
            "toe.note.command_ability_subordinates": "a detachment order (D) adds the division general's KE (2.12, "
            "A20); each division and brigade general carries his own, from "
            "his fogofwar row's rating read through lookup_cmd_rating as the "
            "corps generals' KE is: " + ", ".join(found),
        },
    )


def _terrain(sc) -> None:
    t = sc.terrain
    v = VILLAGES
    t["saale"] = TerrainFeature(
        "saale",
        TerrainKind.RIVER,
        LineString([(311, 0), (296, 35), (280, 62), (318, 76), (357, 92), (380, 130), (397, 182), (450, 196)]),
        "Saale",
        width=2.5,
    )
    t["ilm"] = TerrainFeature(
        "ilm",
        TerrainKind.RIVER,
        LineString([(140, 0), (180, 14), (215, 30), (250, 47), (280, 62)]),
        "Ilm",
        width=1.5,
    )
    t["emse"] = TerrainFeature(
        "emse",
        TerrainKind.STREAM,
        LineString([(70, 82), (90, 52), (130, 34), (178, 15)]),
        "Emse (Emsbach) by Auerstedt",
        width=0.8,
    )
    t["lissbach"] = TerrainFeature(
        "lissbach",
        TerrainKind.STREAM,
        LineString(
            [(150, 270), (158, 235), (158, 212), (149, 192), (150, 165), (166, 135), (173, 104), (178, 60), (180, 16)]
        ),
        "Lissbach",
        width=0.8,
        properties={"note": "course approximate"},
    )
    t["koesen-bridge"] = TerrainFeature(
        "koesen-bridge", TerrainKind.BRIDGE, box(392, 178, 402, 186), "Saale bridge at Kösen"
    )
    t["koesen-slopes"] = TerrainFeature(
        "koesen-slopes",
        TerrainKind.WOODS,
        Polygon([(345, 100), (372, 128), (388, 170), (362, 170), (350, 150), (332, 120)]),
        "Wooded slopes of the Saale valley south of the Kösen pass",
        properties={"note": "extent approximate"},
    )
    t["koesen-slopes-north"] = TerrainFeature(
        "koesen-slopes-north",
        TerrainKind.WOODS,
        Polygon([(362, 188), (390, 190), (420, 200), (400, 230), (360, 215)]),
        "Wooded slopes of the Saale valley north of the Kösen pass",
        properties={"note": "extent approximate"},
    )
    t["eckartsberga-heights"] = TerrainFeature(
        "eckartsberga-heights",
        TerrainKind.HILL,
        Polygon([(2, 118), (40, 112), (62, 128), (60, 165), (30, 178), (2, 170)]),
        "Eckartsberga heights (the Eckartsburg)",
        level=2,
        properties={"note": "extent approximate"},
    )
    t["auerstedt-heights"] = TerrainFeature(
        "auerstedt-heights",
        TerrainKind.HILL,
        Polygon([(62, 70), (95, 68), (118, 90), (100, 100), (70, 98)]),
        "Heights by Auerstedt",
        level=1,
        properties={"note": "extent approximate"},
    )
    roads = {
        "road-highway": (
            "Highway Naumburg–Kösen–Hassenhausen–Eckartsberga (Leipzig–Erfurt)",
            [
                NAUMBURG_ROAD,
                (420, 184),
                v["koesen"],
                (372, 178),
                (355, 176),
                (290, 171),
                v["hassenhausen"],
                (175, 180),
                v["poppel"],
                (90, 170),
                v["eckartsberga"],
                (0, 140),
            ],
        ),
        "road-spielberg": ("Road Hassenhausen–Spielberg", [v["hassenhausen"], v["spielberg"], (262, 270)]),
        "road-taugwitz": ("Road Hassenhausen–Taugwitz", [v["hassenhausen"], v["taugwitz"], (150, 270)]),
        "road-auerstedt": (
            "Road Rannstedt–Auerstedt–Gernstedt–Poppel",
            [RANNSTEDT_ROAD, v["auerstedt"], v["gernstedt"], v["poppel"]],
        ),
        "road-sulza": ("Road Hassenhausen–Rehehausen–Sulza", [v["hassenhausen"], v["rehehausen"], v["sulza"]]),
        "road-eckartsberga-auerstedt": ("Road Eckartsberga–Auerstedt", [v["eckartsberga"], (62, 100), v["auerstedt"]]),
    }
    for rid, (name, pts) in roads.items():
        t[rid] = TerrainFeature(rid, TerrainKind.ROAD, LineString(pts), name, width=1.0)
    sc.towns = {vid: TownZone(vid, NAMES[vid], default_town_polygon(pos)) for vid, pos in VILLAGES.items()}
    kx, ky = VILLAGES["koesen"]
    sc.towns["koesen"] = TownZone("koesen", "Kösen", box(kx - 6, ky - 12, kx + 10, ky + 4))
    ex, ey = VILLAGES["eckartsberga"]
    sc.towns["eckartsberga"] = TownZone(
        "eckartsberga", "Eckartsberga", box(ex - 10, ey - 8, ex + 10, ey + 8), capacity=2
    )
    pass_road = LineString([(355, 176), (372, 178), (397, 182)])
    sc.objectives = {
        "obj-hassenhausen": Objective("obj-hassenhausen", "Hassenhausen", sc.towns["hassenhausen"].polygon, "", 3),
        "obj-koesen-pass": Objective(
            "obj-koesen-pass", "Kösen pass (the road down to the Saale bridge)", pass_road.buffer(5.0), PRUSSIAN, 3
        ),
        "obj-spielberg": Objective("obj-spielberg", "Spielberg", sc.towns["spielberg"].polygon, "", 1),
        "obj-taugwitz": Objective("obj-taugwitz", "Taugwitz", sc.towns["taugwitz"].polygon, "", 1),
        "obj-poppel": Objective("obj-poppel", "Poppel", sc.towns["poppel"].polygon, "", 1),
        "obj-auerstedt": Objective(
            "obj-auerstedt", "Auerstedt (Prussian headquarters)", sc.towns["auerstedt"].polygon, FRENCH, 1
        ),
        "obj-eckartsberga": Objective(
            "obj-eckartsberga", "Eckartsberga (the Prussian road west)", sc.towns["eckartsberga"].polygon, FRENCH, 2
        ),
    }
    sc.deployment_zones = {
        "dz-french": DeploymentZone(
            "dz-french",
            FRENCH,
            "Hassenhausen, the plateau east of it and the Kösen road",
            Polygon(
                [
                    (195, 130),
                    (300, 125),
                    (345, 150),
                    (372, 170),
                    (398, 176),
                    (400, 190),
                    (360, 200),
                    (300, 240),
                    (240, 250),
                    (195, 215),
                ]
            ),
        ),
        "dz-friant": DeploymentZone(
            "dz-friant",
            FRENCH,
            "Friant: the right, from Hassenhausen towards Spielberg",
            Polygon([(216, 172), (290, 173), (300, 238), (240, 248), (216, 212)]),
            formation="french-2eme-division",
        ),
        "dz-morand": DeploymentZone(
            "dz-morand",
            FRENCH,
            "Morand: the left, south of Hassenhausen",
            Polygon([(197, 132), (298, 127), (288, 168), (216, 160), (197, 158)]),
            formation="french-1eme-division",
        ),
        "dz-kalkreuth": DeploymentZone(
            "dz-kalkreuth",
            PRUSSIAN,
            "Kalckreuth's reserve: the heights by Auerstedt",
            Polygon([(62, 70), (95, 68), (118, 90), (100, 100), (70, 98)]),
            formation="prussian-reserve-kalkreuth",
        ),
        "dz-prussian": DeploymentZone(
            "dz-prussian",
            PRUSSIAN,
            "West of the Lissbach, from Taugwitz to Gernstedt and Auerstedt",
            Polygon([(0, 0), (140, 0), (150, 90), (150, 165), (145, 195), (152, 240), (160, 270), (0, 270)]),
        ),
    }


def _deploy(sc) -> None:
    """The troops on the table at 07:00, every general within command distance of his troops
    (2.4-2.5; division 15 cm, corps 30 cm): Gudin's division at and behind Hassenhausen facing
    west, the 1st Chasseurs out towards Poppel; Schmettau's division coming up from Gernstedt in
    columns, Blücher's cavalry before Poppel and Taugwitz, both facing east."""
    gudin = "french-3eme-division"
    deploy_row(sc, by_name(sc, gudin, "12e Ligne", "85e Ligne", "25e Ligne"), (208.0, 150.0), WEST, Formation.COLUMN)
    deploy_row(
        sc, by_name(sc, gudin, "21e Ligne") + ["french-iii-corps-foot-guns-1"], (224.0, 156.0), WEST, Formation.COLUMN
    )
    deploy_row(sc, by_name(sc, "french-cav-bde", "1e Chasseur"), (180.0, 176.0), WEST, Formation.COLUMN)
    schmettau = "prussian-3rd-division"  # a march column on the Gernstedt-Poppel road, head towards Poppel
    deploy_row(sc, ["prussian-brunswick-north-foot-guns-1"], (126.0, 181.0), EAST)
    deploy_row(sc, by_name(sc, schmettau, "Bde von Alvensleben"), (126.0, 175.0), EAST, Formation.COLUMN)
    deploy_row(sc, by_name(sc, schmettau, "Bde von Schimonsky"), (119.0, 172.0), EAST, Formation.COLUMN)
    deploy_row(sc, by_name(sc, schmettau, "Cav Bde von Irwing"), (112.0, 167.0), EAST, Formation.COLUMN)
    blucher = "prussian-cav-bde-blucher"
    deploy_row(
        sc,
        by_name(sc, blucher, "Blucher Hussar Regt Nr 8", "Württemberg Hussars Nr 4", "Irwing Dragoon Nr 3"),
        (140.0, 258.0),
        EAST,
        Formation.COLUMN,
    )
    deploy_row(sc, ["prussian-brunswick-north-horse-guns-1"], (142.0, 205.0), EAST)


def _behind(sc, cid: str, unit_ids: list[str], behind: float = 6.0) -> None:
    """Put commander ``cid`` ``behind`` cm to the rear of the centre of ``unit_ids``."""
    from battlestudio.model.geometry import forward

    cs = [sc.units[u].footprint().centroid for u in unit_ids]
    x = sum(c.x for c in cs) / len(cs)
    y = sum(c.y for c in cs) / len(cs)
    facing = sc.units[unit_ids[0]].facing
    fx, fy = forward(facing)
    sc.commanders[cid] = replace(
        sc.commanders[cid], position=(round(x - fx * behind, 2), round(y - fy * behind, 2)), facing=facing
    )


def _all_units(sc, fid: str) -> list[str]:
    if fid in sc.units:
        return [fid]
    return [n for n in sc.oob.all_subordinates(fid) if n in sc.units]


def _reinforcements(sc, plan) -> None:
    lines = {f"{a.command} - {a.subcommand}" if a.subcommand else a.command: a for a in plan.arrivals}
    for fid, earliest, latest, probability, r5, why in ARRIVALS:
        start, facing, length, entry = STAGING[fid]
        stage(sc, _all_units(sc, fid), start, facing, length)
        side = (sc.commanders.get(fid) or sc.units[fid]).side
        r5_note = ""
        if r5:
            key = r5.split(" (")[0]
            if key in lines:
                a = lines[key]
                r5_note = f"; republique5 Auerstadt.scenario line {a.line}: {r5}"
            else:
                r5_note = f"; republique5 {r5}"
        rid = f"arrive-{fid}"
        sc.reinforcements[rid] = Reinforcement(
            rid,
            side,
            fid,
            turn_at(earliest),
            turn_at(latest),
            entry,
            probability,
            f"{earliest}-{latest}: {why}{r5_note}; units wait at the entry point until they arrive",
        )


if __name__ == "__main__":
    main_for(build, FILE)
