"""Build ``leipzig-1813.battle.json``: the southern front of Leipzig, 16 October 1813, 08:00.

Run from the repository: ``python scenarios/build_leipzig.py`` (then ``record_leipzig.py`` for
the recorded opening).

Order of battle, through the project's importers: the Allied side from republique5's Leipzig
``.oob`` files (``import_republique5``; bases, converted to figures with the placeholder
``toe.placeholder.figures_per_base.*``), the French side from the shared
``leipzig-1813-french-from-pages.csv`` (``import_table`` with ``leipzig-1813-french.map.toml``;
men where the pages give them, battalions where they give only those). Both at brigade level
where the source has brigades, at division (or Guard sub-corps) level where not; see
``scenario.note.levels``.

Which front: the southern battle of 16 October (Wachau, Markkleeberg, Liebertwolkwitz, Güldengossa,
Connewitz, Probstheida) and, on the same table, Lindenau west of Leipzig, where Gyulai attacked
Bertrand the same morning. Möckern (Blücher against Marmont, 10 km north of Leipzig) is a separate
battle of the same day and is left out with the northern armies (``scenario.left_out``).

Table: 520 × 450 cm = 15.6 × 13.5 km at 1 cm = 30 m (Torden over Europa 1.1), north up, from the
Lindenau causeway in the west to Seifertshain in the east and from Leipzig and the Parthe in the
north to Cröbern and Störmthal in the south. Positions are approximate, after the standard period
maps of the battle and modern village coordinates (about ±300 m).
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
    main_for,
    place_commanders,
    stage,
    toe_placeholders,
)
from battlestudio.model.scenario import DeploymentZone, Objective, Reinforcement, ScenarioInfo, Side, Source  # noqa: E402
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone, default_town_polygon  # noqa: E402
from battlestudio.model.units import Arm, Echelon, Formation, Unit  # noqa: E402
from battlestudio.rules.toe.scale import convert_to_toe  # noqa: E402
from battlestudio.store.importers.republique5 import import_republique5  # noqa: E402
from battlestudio.store.importers.tabular import import_table  # noqa: E402

FILE = "leipzig-1813.battle.json"
FRENCH, ALLIED = "french", "allied"
NORTH, SOUTH, EAST, WEST = 90.0, 270.0, 0.0, 180.0
HERE = Path(__file__).resolve().parent
ALLIED_DIR = OOB_DATA / "republique5" / "scenarios" / "leipzig-1813"
FRENCH_CSV = OOB_DATA / "leipzig-1813-french-from-pages.csv"
FRENCH_MAP = HERE / "leipzig-1813-french.map.toml"
TABLE_W, TABLE_H = 520.0, 450.0

# the Allied .oob files used, in order; the others belong to the northern armies or arrive later
ALLIED_FILES = [
    "Russo-Prussian-Army-HQ",
    "Prussian-Corps",
    "Russian-2-Corps",
    "Russian-1-Corps",
    "Russian-Cav-Corps",
    "Austrian-4-Corps",
    "Austrian-2-Corps",
    "Austrian-Reserve-Corps",
    "Austrian-Cavalry-Reserve",
    "Austrian-3-Corps",
    "Austrian-AdvGuard",
    "Austrian-1-Corps",
    "Russian-Reserve-Constantine",
    "Russian-3-Grenadier-Corps",
    "Russo-Prussian-5-Guard-Corps",
    "Russian-Reserve-Cavalry-Corps",
]
ALLIED_LEFT_OUT = {
    "Prussian-9-Bde.oob … Prussian-12-Bde.oob, Prussian-Reserve-Cav.oob": "the same brigades and Röder's "
    "cavalry as Kleist's Prussian-Corps.oob, laid out by lines: read once, from Prussian-Corps.oob",
    "Russian-6/9/10/11-Corps.oob, Russian-1-Cavalry-Corps.oob, Russian-Cavalry-Corps-Valishikov.oob": "Blücher's "
    "Army of Silesia (Langeron, Sacken), north of Leipzig on 16 October",
    "Prussian-4-Corps.oob, Russian-Corps-Voronsov.oob, Royal-Swedish-Army-Corps.oob": "the Army of the North, "
    "which reached Leipzig on 18 October",
    "Russian-12-Corps.oob": "Bennigsen's Army of Poland, which arrived on 17-18 October",
    "Austrian-AdvGuard.oob: 2nd Light Division (Bubna)": "with Bennigsen's army, not at Lindenau on 16 October",
}
FRENCH_LEFT_OUT = {
    "Northern sector (Ney): III, VI, VII Corps, III Cavalry Corps": "Möckern and the north on 16 October",
    "Southern force at Liebertwolkwitz 14 Oct (Murat)": "a command of 14 October; its corps are on the table "
    "under their own commanders",
    "IX Corps 51st Division, XI Corps 36th Division, Division Lefol, Decouz's Young Guard division, Division "
    "Exelmans, brigades Zotowski and Dombrowski (attached to Ney), Margaron's cavalry brigade and artillery": "the "
    "pages give them no strength (no men, battalions or guns): a unit of 0 figures cannot stand on the table",
}

KM = 100.0 / 3.0  # table cm per km (1 cm = 30 m)


def at(east_km: float, south_km: float) -> tuple[float, float]:
    """Table cm of a place ``east_km`` east and ``south_km`` south of Leipzig's market square."""
    return (round((east_km + 4.5) * KM, 1), round((11.5 - south_km) * KM, 1))


VILLAGES = {  # (km east, km south of the Markt), approximate
    "lindenau": ("Lindenau", (-3.3, 0.2)),
    "connewitz": ("Connewitz", (0.4, 3.7)),
    "loessnig": ("Lössnig", (1.4, 4.4)),
    "doelitz": ("Dölitz", (1.6, 5.3)),
    "markkleeberg": ("Markkleeberg", (1.9, 6.4)),
    "wachau": ("Wachau", (4.7, 6.5)),
    "liebertwolkwitz": ("Liebertwolkwitz", (7.3, 5.9)),
    "gueldengossa": ("Güldengossa", (5.4, 8.9)),
    "probstheida": ("Probstheida", (3.6, 3.7)),
    "stoetteritz": ("Stötteritz", (3.3, 2.0)),
    "zuckelhausen": ("Zuckelhausen", (6.4, 3.9)),
    "holzhausen": ("Holzhausen", (8.0, 3.1)),
    "meusdorf": ("Meusdorf", (5.0, 4.6)),
    "doesen": ("Dösen", (2.6, 4.8)),
    "auenhain": ("Auenhain", (3.6, 8.0)),
    "croebern": ("Cröbern", (2.3, 9.6)),
    "crostewitz": ("Crostewitz", (1.4, 9.0)),
    "gautzsch": ("Gautzsch", (-0.6, 6.1)),
    "gross-poessna": ("Gross-Pössna", (8.8, 8.3)),
    "seifertshain": ("Seifertshain", (10.4, 5.8)),
    "klein-zschocher": ("Klein-Zschocher", (-3.0, 2.6)),
}

SOURCES = [
    Source(
        "republique5 Leipzig 1813 order of battle (steveoc64/republique5, scenarios/leipzig-1813/*.oob)",
        "https://github.com/steveoc64/republique5",
        "BSD 2-Clause (Copyright (c) 2019, SteveOC)",
        "the Allied corps, divisions, brigades/regiments in bases and their batteries",
    ),
    Source(
        "Wikipedia, 'Battle of Leipzig' and 'Battle of Wachau'",
        "https://en.wikipedia.org/wiki/Battle_of_Leipzig",
        "CC BY-SA (facts only)",
        "who stood where on the morning of 16 October: Kleist at Markkleeberg, Eugen of Württemberg before "
        "Wachau, Gorchakov and Klenau against Liebertwolkwitz and the Kolmberg, Merveldt between Pleisse and "
        "Elster, Gyulai against Lindenau; Poniatowski, Victor and Lauriston on the line Markkleeberg–Wachau–"
        "Liebertwolkwitz, the Guard at Probstheida, Macdonald's approach from Holzhausen; the reserves' arrival",
    ),
    Source(
        "Village and river positions: the standard period maps of the battle (the 1813 plans of the "
        "environs of Leipzig as reproduced in the battle histories) and modern village coordinates "
        "(OpenStreetMap, ODbL; facts only), read as approximate distances from Leipzig's market square",
        "https://www.openstreetmap.org",
        "ODbL / CC BY-SA (facts only)",
        "villages to about ±300 m; the courses of the Pleisse, Elster, Parthe and Rietzschke, the woods and "
        "the heights (Galgenberg, Kolmberg, the Güldengossa heights) are drawn approximately",
    ),
]


def build():
    """The Leipzig scenario (a ``Scenario``), deterministic."""
    allied = import_republique5([ALLIED_DIR / f"{f}.oob" for f in ALLIED_FILES], side=ALLIED)
    french = import_table(FRENCH_CSV, FRENCH_MAP, scenario=allied.scenario)
    sc, notes = convert_to_toe(french.scenario)
    _french_structure(sc)
    _allied_structure(sc)
    sc.sides = {
        FRENCH: Side(FRENCH, "French Empire: Grande Armée", ("France", "Poland", "Italy", "Württemberg"), "#2a4fb0"),
        ALLIED: Side(ALLIED, "Allies: Army of Bohemia", ("Russia", "Prussia", "Austria"), "#2f7a3a"),
    }
    sc.info = ScenarioInfo(
        title="Leipzig 1813: Wachau and Lindenau",
        date="1813-10-16",
        place="Leipzig, Saxony: the southern front",
        ruleset="toe",
        parameters={
            **sc.info.parameters,
            **_placeholders(),
            "toe.note.order_capacity": "the general supplements are missing: Napoleon 4 (he directs seven "
            "corps on this table), Barclay 3 (the Allied wing east of the Pleisse and the Austrians beyond it), "
            "Grand Duke Constantine 2 (the reserve: grenadiers, Guard and reserve cavalry)",
            "toe.scenario.initiative": ALLIED,
            "toe.note.initiative": "the Allies attack at 08:00 on Schwarzenberg's plan; Napoleon answers",
            "toe.retreat_direction": "enemy_front",
            "toe.note.retreat_direction": "2.9: directly away from the enemy front (the digest's reading T-9), "
            "so a beaten French division falls back towards Leipzig and an Allied one to the south",
            "scenario.left_out": {**ALLIED_LEFT_OUT, **FRENCH_LEFT_OUT},
            "scenario.note.levels": LEVELS_NOTE,
            "scenario.note.head_count_units": HEAD_COUNT_NOTE,
            "scenario.note.command": COMMAND_NOTE,
            "scenario.note.guns": GUNS_NOTE,
            "import.notes": notes,
        },
        table_width=TABLE_W,
        table_height=TABLE_H,
        ground_scale=30.0,
        turn_minutes=15,
        first_turn="08:00",
        turns=40,
        description=DESCRIPTION,
    )
    _terrain(sc)
    _deploy(sc)
    _reinforcements(sc)
    place_commanders(sc, [NAPOLEON, BARCLAY])
    sc.commanders[NAPOLEON] = replace(sc.commanders[NAPOLEON], position=at(5.6, 5.4), facing=SOUTH)  # Galgenberg
    sc.commanders[BARCLAY] = replace(sc.commanders[BARCLAY], position=at(5.0, 8.3), facing=NORTH)  # Güldengossa heights
    apply_order_capacity(sc)
    sc.sources = sc.sources + SOURCES
    return sc


KE = {"c_in_c": 0, "army": 0, "corps": 0, "division": 0}
"""KE (command ability, 2.12) placeholders per echelon: neither source rates its generals."""


def _placeholders() -> dict:
    """``toe_placeholders`` with the KE placeholders this scenario adds (both sources lack ratings)."""
    p = toe_placeholders({NAPOLEON: 4, BARCLAY: 3, CONSTANTINE: 2})
    for ech, v in KE.items():
        p[f"toe.command_ability.{ech}"] = v
    p["toe.placeholders"] = sorted(p["toe.placeholders"] + [f"toe.command_ability.{e}" for e in KE])
    p["toe.note.command_ability"] = (
        "the general supplements are missing and neither source rates its generals: KE 0 for every general "
        "(toe.command_ability.<echelon>), except Napoleon, +2, the rating the same author's fogofwar tables "
        "give him at Jena (Commander.command_ability)"
    )
    return p


NAPOLEON, BARCLAY, CONSTANTINE = (
    "french-grande-armee",
    "russo-prussian-army-hq-russo-prussian-army-hq",
    "russian-reserve-constantine-russian-reserve-army",
)
LEVELS_NOTE = (
    "Brigade level where the sources give brigades: the Allied regiments and cavalry brigades of the "
    "republique5 files (a regiment of several battalions is one unit, as there); the French brigades of "
    "VIII Corps (Linawski, Malachowski, Grabowski, Uminski), IX Corps' 52nd Division (Bagneris, Godard), IV "
    "Cavalry Corps (Tolinski, Krasinski, Weissenhof) and Margaron's division (Bertrand, Hochberg). Division "
    "level where they do not: II Corps (4th, 5th, 6th), V Corps (10th, 16th, 19th), XI Corps (31st, 35th), "
    "IV Corps (12th, 15th, 38th, its cavalry division) and the corps cavalry of V Corps. Sub-corps level: the "
    "Imperial Guard (I and II Young Guard Corps, the Old Guard infantry, the Guard cavalry), and corps level: "
    "I, II and V Cavalry Corps, which the pages give only as a head count"
)
HEAD_COUNT_NOTE = (
    "a French formation the pages give only as a head count on its command row (I, II and V Cavalry "
    "Corps) is one unit of that strength under its commander, named "
    "'<formation> (head count)' and marked 'men_from_command_row'"
)
COMMAND_NOTE = (
    "The data has no Allied C-in-C: Barclay de Tolly's Russo-Prussian Army HQ (with its reserve artillery) "
    "commands every Allied corps on the table, as he directed the wing east of the Pleisse; Schwarzenberg's "
    "own headquarters is not in the data. Grand Duke Constantine's reserve army (its artillery) takes the "
    "3rd Grenadier Corps, the 5th Guard Corps and Gallitzin's reserve cavalry. Napoleon commands every "
    "French corps directly; Murat's command of 14 October is left out"
)
GUNS_NOTE = (
    "Neither source gives gun counts for these formations (republique5 names batteries; the French pages give "
    "guns only for the army, 700, and VIII Corps, 30): gun models come from the number of batteries (one "
    "third, Torden over Europa 1.3) and carry 0 real guns; VIII Corps' 30 guns are on its commander "
    "as stated_guns"
)
DESCRIPTION = (
    "16 October 1813, 08:00. Schwarzenberg's Army of Bohemia attacks the French line south of Leipzig in four "
    "columns: Kleist's Prussians and Russians against Markkleeberg on the Pleisse, Eugen of Württemberg's "
    "2nd Russian Corps against Wachau, Gorchakov and Klenau's Austrian IV Corps against Liebertwolkwitz and the "
    "Kolmberg; Merveldt's Austrians, with Hessen-Homburg's reserve and Nostitz's cavalry, try the crossings of "
    "the Pleisse at Connewitz and Dölitz from the marshy ground between Pleisse and Elster; in the west Gyulai "
    "attacks Bertrand's IV Corps at Lindenau, on the French line of retreat. Poniatowski holds the Pleisse "
    "villages, Victor Wachau and Lauriston Liebertwolkwitz, with the Guard, Augereau and the cavalry corps in "
    "reserve by Probstheida; Macdonald's XI Corps and Sebastiani's cavalry come down from Holzhausen in the "
    "late morning, and the Allied reserves (Raevsky's grenadiers, the Guard, Gallitzin's cuirassiers) and "
    "Colloredo's Austrian I Corps come up from the south in the afternoon.\n\n"
    + LEVELS_NOTE
    + ".\n\n"
    + COMMAND_NOTE
    + ". Positions approximate (about ±300 m), after the standard period maps of the battle."
)


def _drop(sc, node: str) -> None:
    for n in [node, *sc.oob.all_subordinates(node)]:
        sc.units.pop(n, None)
        sc.commanders.pop(n, None)
    for n in [*sc.oob.all_subordinates(node)][::-1] + [node]:
        if n in sc.oob:
            sc.oob.remove(n)


def _french_structure(sc) -> None:
    """Napoleon's southern army: the northern sector and Murat's 14 October command out, zero-strength
    units out, formations known only by head count made into one unit each."""
    for cid in (
        "french-northern-sector-ney",
        "french-southern-force-at-liebertwolkwitz-14-oct-murat",
        "french-iii-corps",
        "french-vi-corps",
        "french-vii-corps",
        "french-iii-cavalry-corps",
        "french-corps-not-stated",
        "french-cavalry-brigade-detached-from-iii-cavalry-corps",
    ):
        _drop(sc, cid)
    for uid, u in sorted(sc.units.items()):
        if u.side == FRENCH and u.arm is not Arm.ARTILLERY and u.figures == 0:
            _drop(sc, uid)
    for cid in ("french-i-cavalry-corps", "french-ii-cavalry-corps", "french-v-cavalry-corps"):
        c = sc.commanders[cid]
        men = int(c.attributes["stated_men"])
        uid = f"{cid}-troops"
        figs = men // 80
        sc.units[uid] = Unit(
            uid,
            f"{c.attributes['formation']} (head count)",
            FRENCH,
            "France",
            arm=Arm.CAVALRY,
            men=men,
            figures=figs,
            figure_width=_cav_size(sc)[0],
            figure_depth=_cav_size(sc)[1],
            attributes={"men_from_command_row": True, "source_row": c.attributes.get("source_row")},
        )
        sc.oob.add(cid, uid)
        attrs = {k: v for k, v in c.attributes.items() if k != "stated_men"}
        sc.commanders[cid] = replace(c, attributes={**attrs, "men_given_to": uid})
    nap = sc.commanders[NAPOLEON]
    sc.commanders[NAPOLEON] = replace(nap, echelon=Echelon.C_IN_C.value, figures=6, command_ability=2)


def _cav_size(sc) -> tuple[float, float]:
    for u in sorted(sc.units.values(), key=lambda u: u.id):
        if u.arm is Arm.CAVALRY and u.figures:
            return (u.figure_width, u.figure_depth)
    raise KeyError("no cavalry unit to take the figure size from")


def _allied_structure(sc) -> None:
    """Barclay's HQ as the Allied C-in-C over every corps; Constantine over the reserve."""
    _drop(sc, "austrian-advguard-2nd-light-division")
    barclay = sc.commanders[BARCLAY]
    sc.commanders[BARCLAY] = replace(barclay, echelon=Echelon.C_IN_C.value, figures=6)
    for root in sorted(sc.oob.roots()):
        if root in sc.commanders and sc.commanders[root].side == ALLIED and root != BARCLAY:
            if root in RESERVE:
                sc.oob.add(CONSTANTINE, root)
            elif root != CONSTANTINE:
                sc.oob.add(BARCLAY, root)
    sc.oob.add(BARCLAY, CONSTANTINE)


RESERVE = (
    "russo-prussian-5-guard-corps-russo-prussian-5th-guard-corps",
    "russian-reserve-cavalry-corps-reserve-cavalry-corps",
)


def _terrain(sc) -> None:
    t = sc.terrain

    def line(pts):
        return LineString([at(e, s) for e, s in pts])

    def poly(pts):
        return Polygon([at(e, s) for e, s in pts])

    t["pleisse"] = TerrainFeature(
        "pleisse",
        TerrainKind.RIVER,
        line(
            [
                (2.0, 11.5),
                (1.7, 10.0),
                (1.45, 8.6),
                (1.2, 7.2),
                (1.25, 6.4),
                (1.0, 5.3),
                (0.85, 4.4),
                (-0.1, 3.6),
                (-0.5, 2.0),
                (-0.8, 0.5),
                (-0.9, -1.0),
                (-1.2, -1.3),
            ]
        ),
        "Pleisse",
        width=1.5,
    )
    t["elster"] = TerrainFeature(
        "elster",
        TerrainKind.RIVER,
        line(
            [(-1.5, 11.5), (-1.4, 10.0), (-1.6, 7.0), (-1.4, 4.5), (-1.7, 2.5), (-1.5, 0.5), (-1.3, -1.3), (-1.9, -2.0)]
        ),
        "Weisse Elster",
        width=2.0,
    )
    t["parthe"] = TerrainFeature(
        "parthe",
        TerrainKind.RIVER,
        line([(3.9, -2.0), (2.6, -1.7), (1.2, -1.3), (0.2, -1.0), (-0.7, -1.2), (-1.2, -1.3)]),
        "Parthe",
        width=1.0,
    )
    t["rietzschke"] = TerrainFeature(
        "rietzschke",
        TerrainKind.STREAM,
        line([(6.8, 5.2), (6.0, 3.8), (4.5, 2.0), (3.0, 0.0), (2.6, -1.7)]),
        "Östliche Rietzschke",
        width=0.5,
        properties={"note": "course approximate"},
    )
    t["goeselbach"] = TerrainFeature(
        "goeselbach",
        TerrainKind.STREAM,
        line([(4.6, 9.6), (3.8, 8.6), (2.8, 8.0), (1.3, 7.6)]),
        "Göselbach",
        width=0.5,
        properties={"note": "course approximate"},
    )
    for bid, (e, s), name in (
        ("bridge-connewitz", (-0.05, 3.6), "Pleisse bridge at Connewitz"),
        ("bridge-doelitz", (1.0, 5.3), "Pleisse bridge and mill at Dölitz"),
        ("bridge-markkleeberg", (1.25, 6.4), "Pleisse bridge at Markkleeberg"),
        ("bridge-lindenau", (-1.5, 0.3), "Elster bridges on the Lindenau causeway"),
    ):
        x, y = at(e, s)
        t[bid] = TerrainFeature(bid, TerrainKind.BRIDGE, box(x - 4, y - 2, x + 4, y + 2), name)
    t["auwald"] = TerrainFeature(
        "auwald",
        TerrainKind.WOODS,
        poly([(-1.2, 2.4), (-0.5, 2.4), (0.1, 3.3), (0.6, 4.4), (0.6, 5.5), (-0.2, 5.6), (-1.2, 5.0)]),
        "Connewitz wood (the Auwald between Pleisse and Elster)",
    )
    t["elster-meadows"] = TerrainFeature(
        "elster-meadows",
        TerrainKind.MARSH,
        poly([(-2.9, -1.6), (-1.8, -1.6), (-1.8, 1.8), (-2.9, 1.8)]),
        "Elster and Luppe water meadows",
    )
    t["pleisse-meadows"] = TerrainFeature(
        "pleisse-meadows",
        TerrainKind.MARSH,
        poly([(-1.2, 6.2), (0.9, 6.9), (1.0, 8.2), (-1.1, 8.6)]),
        "Pleisse meadows by Gautzsch and Zöbigker",
    )
    t["universitaetsholz"] = TerrainFeature(
        "universitaetsholz",
        TerrainKind.WOODS,
        poly([(8.6, 6.9), (10.0, 6.7), (10.2, 7.9), (8.8, 8.0)]),
        "University wood",
    )
    t["niederholz"] = TerrainFeature(
        "niederholz", TerrainKind.WOODS, poly([(7.8, 5.2), (8.5, 5.1), (8.6, 5.8), (7.9, 5.9)]), "Niederholz"
    )
    t["ridge"] = TerrainFeature(
        "ridge",
        TerrainKind.HILL,
        poly([(2.4, 5.6), (4.0, 5.4), (6.2, 5.0), (7.8, 5.0), (7.8, 6.0), (6.0, 6.2), (4.0, 6.9), (2.4, 6.8)]),
        "Heights of Wachau and Liebertwolkwitz",
        level=1,
    )
    t["galgenberg"] = TerrainFeature(
        "galgenberg", TerrainKind.HILL, Point(at(5.6, 5.6)).buffer(9.0), "Galgenberg (Napoleon's post)", level=2
    )
    t["kolmberg"] = TerrainFeature(
        "kolmberg", TerrainKind.HILL, Point(at(8.3, 6.6)).buffer(10.0), "Kolmberg (Schwedenschanze)", level=2
    )
    t["gossa-heights"] = TerrainFeature(
        "gossa-heights",
        TerrainKind.HILL,
        poly([(3.6, 8.4), (5.0, 7.6), (6.6, 7.8), (6.8, 9.2), (3.8, 9.4)]),
        "Heights of Güldengossa (Wachtberg)",
        level=1,
        properties={"note": "extent approximate"},
    )
    roads = {
        "road-borna": (
            "Leipzig–Connewitz–Markkleeberg–Borna road",
            [(0.0, 0.5), (0.4, 3.7), (1.4, 4.4), (1.6, 5.3), (1.9, 6.4), (2.0, 8.5), (2.3, 10.0), (2.2, 11.5)],
        ),
        "road-wachau": (
            "Leipzig–Probstheida–Wachau–Güldengossa road",
            [(0.5, 0.5), (2.0, 2.0), (3.6, 3.7), (4.3, 5.2), (4.7, 6.5), (5.4, 8.9), (6.2, 10.5), (6.4, 11.5)],
        ),
        "road-liebertwolkwitz": (
            "Probstheida–Meusdorf–Liebertwolkwitz–Seifertshain road",
            [(3.6, 3.7), (5.0, 4.6), (7.3, 5.9), (10.4, 5.8), (11.0, 5.8)],
        ),
        "road-grimma": (
            "Leipzig–Stötteritz–Holzhausen road (to Grimma)",
            [(0.5, 0.0), (3.3, 2.0), (6.4, 3.9), (8.0, 3.1), (11.0, 2.6)],
        ),
        "road-front": (
            "Markkleeberg–Wachau–Liebertwolkwitz road",
            [(1.9, 6.4), (3.2, 6.6), (4.7, 6.5), (6.0, 6.2), (7.3, 5.9)],
        ),
        "road-gossa": (
            "Markkleeberg–Auenhain–Güldengossa–Gross-Pössna road",
            [(1.9, 6.4), (3.6, 8.0), (5.4, 8.9), (7.2, 8.7), (8.8, 8.3)],
        ),
        "road-lindenau": (
            "Leipzig–Lindenau causeway (the Frankfurt road, the French line of retreat)",
            [(-0.2, 0.2), (-1.5, 0.3), (-2.4, 0.25), (-3.3, 0.2), (-4.5, 0.3)],
        ),
        "road-zschocher": ("Lindenau–Klein-Zschocher road", [(-3.3, 0.2), (-3.0, 2.6), (-3.4, 6.0)]),
        "road-gautzsch": ("Connewitz–Gautzsch–Zöbigker road", [(0.2, 3.4), (-0.6, 6.1), (-0.9, 8.3), (-1.0, 11.5)]),
    }
    for rid, (name, pts) in roads.items():
        t[rid] = TerrainFeature(rid, TerrainKind.ROAD, line(pts), name, width=1.0)
    sc.towns = {vid: TownZone(vid, name, default_town_polygon(at(*pos))) for vid, (name, pos) in VILLAGES.items()}
    x0, y0 = at(-0.6, 0.6)
    x1, y1 = at(0.6, -0.6)
    sc.towns["leipzig"] = TownZone("leipzig", "Leipzig (old town)", box(x0, y0, x1, y1), capacity=4)
    town = sc.towns
    sc.objectives = {
        "obj-wachau": Objective("obj-wachau", "Wachau", town["wachau"].polygon, "", 3),
        "obj-markkleeberg": Objective("obj-markkleeberg", "Markkleeberg", town["markkleeberg"].polygon, "", 2),
        "obj-liebertwolkwitz": Objective(
            "obj-liebertwolkwitz", "Liebertwolkwitz", town["liebertwolkwitz"].polygon, "", 3
        ),
        "obj-kolmberg": Objective("obj-kolmberg", "Kolmberg", t["kolmberg"].geometry, "", 1),
        "obj-gueldengossa": Objective("obj-gueldengossa", "Güldengossa", town["gueldengossa"].polygon, FRENCH, 2),
        "obj-probstheida": Objective("obj-probstheida", "Probstheida", town["probstheida"].polygon, ALLIED, 3),
        "obj-connewitz": Objective("obj-connewitz", "Connewitz and its bridge", town["connewitz"].polygon, ALLIED, 2),
        "obj-lindenau": Objective(
            "obj-lindenau", "Lindenau (the French line of retreat)", town["lindenau"].polygon, ALLIED, 3
        ),
    }
    sc.deployment_zones = {
        "dz-french": DeploymentZone(
            "dz-french",
            FRENCH,
            "North of the line Markkleeberg–Wachau–Liebertwolkwitz, east of the Pleisse; Lindenau and Leipzig",
            Polygon(
                [
                    at(-4.0, -2.0),
                    at(11.0, -2.0),
                    at(11.0, 5.0),
                    at(7.8, 6.1),
                    at(4.7, 6.9),
                    at(1.6, 6.8),
                    at(-0.1, 3.6),
                    at(-1.7, 1.5),
                    at(-4.0, 1.5),
                ]
            ),
        ),
        "dz-allied": DeploymentZone(
            "dz-allied",
            ALLIED,
            "South of the line Cröbern–Güldengossa–Gross-Pössna–Seifertshain, the Pleisse–Elster ground, "
            "and south-west of Lindenau",
            Polygon(
                [
                    at(-4.5, 11.5),
                    at(11.0, 11.5),
                    at(11.0, 5.3),
                    at(8.0, 6.6),
                    at(5.0, 7.2),
                    at(2.0, 7.6),
                    at(-0.5, 5.8),
                    at(-1.2, 4.0),
                    at(-2.2, 2.0),
                    at(-4.5, 2.0),
                ]
            ),
        ),
    }


def _units(sc, cid: str) -> list[str]:
    """Every unit under ``cid`` (any depth), in order-of-battle order."""
    return [n for n in sc.oob.all_subordinates(cid) if n in sc.units]


def block(
    sc,
    cid: str,
    centre_km: tuple[float, float],
    facing: float,
    length: float = 40.0,
    formation: Formation = Formation.COLUMN,
) -> None:
    """The units of ``cid`` as a block of rows of at most ``length`` cm, centred on ``centre_km``."""
    from battlestudio.model.geometry import forward, right_of

    cx, cy = at(*centre_km)
    rx, ry = right_of(facing)
    fx, fy = forward(facing)
    start = (cx - rx * length / 2 - fx * 6.0, cy - ry * length / 2 - fy * 6.0)
    stage(sc, _units(sc, cid), start, facing, length, formation)


# formation → (centre km east, km south), facing, row length cm; each division its own block
DEPLOY: dict[str, tuple[tuple[float, float], float, float]] = {
    # French: Poniatowski on the Pleisse villages, Victor at Wachau, Lauriston at Liebertwolkwitz
    "french-26th-division": ((2.2, 6.0), SOUTH, 30.0),
    "french-27th-division": ((1.9, 5.0), SOUTH, 20.0),
    "french-27th-light-cavalry-brigade": ((2.6, 5.4), SOUTH, 20.0),
    "french-viii-corps-polish": ((2.4, 5.6), SOUTH, 10.0),
    "french-7th-light-cavalry-division": ((2.6, 4.9), SOUTH, 16.0),
    "french-8th-light-cavalry-division": ((3.0, 4.5), SOUTH, 30.0),
    "french-ii-corps": ((4.7, 5.9), SOUTH, 60.0),
    "french-v-corps": ((7.0, 5.4), SOUTH, 60.0),
    "french-52nd-division": ((2.6, 4.1), SOUTH, 30.0),
    "french-ix-corps": ((2.6, 4.1), SOUTH, 10.0),
    "french-imperial-guard": ((4.6, 3.0), SOUTH, 100.0),
    "french-i-cavalry-corps": ((4.3, 5.0), SOUTH, 60.0),
    "french-v-cavalry-corps": ((6.8, 4.5), SOUTH, 50.0),
    "french-iv-corps": ((-3.3, 0.7), SOUTH, 60.0),
    "french-division-margaron-in-leipzig": ((0.1, 1.1), SOUTH, 36.0),
    # Allies: Kleist against Markkleeberg, Eugen before Wachau, Gorchakov and Klenau on the right
    "prussian-corps-9th-brigade": ((2.4, 7.95), NORTH, 32.0),
    "prussian-corps-10th-brigade": ((2.4, 8.65), NORTH, 32.0),
    "prussian-corps-11th-brigade": ((3.35, 7.95), NORTH, 32.0),
    "prussian-corps-12th-brigade": ((3.4, 8.65), NORTH, 32.0),
    "prussian-corps-reserve-cavalry-division": ((2.9, 9.2), NORTH, 40.0),
    "prussian-corps-prussian-corps": ((2.85, 8.25), NORTH, 10.0),
    "russian-2-corps-3rd-division": ((4.5, 7.8), NORTH, 40.0),
    "russian-2-corps-4th-division": ((5.9, 7.8), NORTH, 40.0),
    "russian-1-corps-5th-division": ((6.6, 8.3), NORTH, 45.0),
    "russian-1-corps-14th-division": ((7.5, 8.9), NORTH, 35.0),
    "russian-1-corps-1st-russian-corps": ((6.5, 9.4), NORTH, 10.0),
    "russian-cav-corps-cavalry-corps": ((6.6, 7.0), NORTH, 50.0),
    "austrian-4-corps-1st-division": ((9.75, 7.75), NORTH, 30.0),
    "austrian-4-corps-2nd-division": ((9.0, 9.15), NORTH, 36.0),
    "austrian-4-corps-3rd-division": ((10.05, 9.2), NORTH, 32.0),
    "austrian-4-corps-4th-corps": ((9.4, 8.3), NORTH, 10.0),
    "russo-prussian-army-hq-reserve-artillery": ((4.6, 8.9), NORTH, 20.0),
    "russian-2-corps-2nd-russian-corps": ((4.8, 8.5), NORTH, 10.0),
    # Merveldt and the Austrian reserve between Pleisse and Elster
    "austrian-2-corps-1st-division": ((-0.4, 6.6), NORTH, 30.0),
    "austrian-2-corps-2nd-division": ((-0.2, 7.4), NORTH, 40.0),
    "austrian-2-corps-2nd-corps": ((0.5, 8.0), NORTH, 10.0),
    "austrian-reserve-corps-1st-division": ((-0.4, 8.9), NORTH, 30.0),
    "austrian-reserve-corps-2nd-division": ((0.6, 9.2), NORTH, 50.0),
    "austrian-reserve-corps-reserve-corps": ((0.0, 8.6), NORTH, 10.0),
    "austrian-cavalry-reserve-cavalry-reserve-corps": ((-0.5, 10.0), NORTH, 34.0),
    # Gyulai and Liechtenstein against Lindenau from Klein-Zschocher
    "austrian-3-corps-1st-division": ((-3.3, 2.2), NORTH, 40.0),
    "austrian-3-corps-2nd-division": ((-3.2, 3.1), NORTH, 40.0),
    "austrian-3-corps-3rd-division": ((-2.5, 3.6), NORTH, 40.0),
    "austrian-3-corps-3rd-corps": ((-3.6, 3.6), NORTH, 10.0),
    "austrian-advguard-advanced-guard": ((-4.0, 4.0), NORTH, 30.0),
}


def _deploy(sc) -> None:
    """The troops on the table at 08:00: each division a block of rows in column, the generals placed
    where they cover it (``place_commanders``). Units are laid out deepest command first, so a corps'
    own units (its guns) go beside the general after his divisions are placed."""
    done: set[str] = set()
    for cid, (centre, facing, length) in DEPLOY.items():
        own = [u for u in _units(sc, cid) if u not in done]
        if cid not in sc.commanders:
            raise KeyError(f"DEPLOY names {cid!r}, which is not a commander")
        if not own:
            continue
        from battlestudio.model.geometry import forward, right_of

        cx, cy = at(*centre)
        rx, ry = right_of(facing)
        fx, fy = forward(facing)
        start = (cx - rx * length / 2 - fx * 6.0, cy - ry * length / 2 - fy * 6.0)
        stage(sc, own, start, facing, length, Formation.COLUMN)
        done.update(own)
    waiting = {u for cid in ARRIVALS for u in _units(sc, cid)}
    left = sorted(set(sc.units) - done - waiting)
    if left:
        raise KeyError(f"units neither deployed nor arriving: {left}")


# reinforcements: formation → (earliest, latest turn, probability, entry km, staging km, facing, row cm, why)
ARRIVALS = {
    "french-xi-corps": (
        9,
        17,
        0.6,
        (9.0, -2.0),
        NORTH,
        "Macdonald's XI Corps marched from Taucha by Holzhausen "
        "and reached the field about 11:00-12:00, attacking the Kolmberg in the afternoon",
    ),
    "french-ii-cavalry-corps": (
        9,
        17,
        0.6,
        (6.5, -2.0),
        NORTH,
        "Sebastiani's II Cavalry Corps came down with Macdonald",
    ),
    "russian-3-grenadier-corps-3rd-grenadier-corps": (
        13,
        21,
        0.5,
        (6.2, 11.5),
        SOUTH,
        "Raevsky's grenadiers were brought up from the reserve about noon to stop the French counter-attack at Wachau",
    ),
    "russian-reserve-constantine-russian-reserve-army": (
        17,
        29,
        0.5,
        (8.9, 11.5),
        SOUTH,
        "Grand Duke Constantine's "
        "reserve (the Russian and Prussian Guard, Gallitzin's "
        "cuirassiers, the reserve artillery) reached Güldengossa "
        "and Auenhain in the afternoon",
    ),
    "austrian-1-corps-1st-corps": (
        21,
        33,
        0.5,
        (3.6, 11.5),
        SOUTH,
        "Colloredo's Austrian I Corps came up from Borna by the "
        "Borna road in the afternoon and relieved Kleist at Markkleeberg",
    ),
}


def _reinforcements(sc) -> None:
    for cid, (first, last, prob, entry_km, face_edge, why) in ARRIVALS.items():
        ex, ey = at(*entry_km)
        facing = SOUTH if face_edge == NORTH else NORTH  # troops face into the table
        units = [u for u in _units(sc, cid)]
        if facing == SOUTH:  # waiting at the north edge: rows step south from 2 cm inside it
            start = (ex + 40.0, TABLE_H - 2.0)
        else:
            start = (ex - 40.0, 2.0)
        stage(sc, units, start, facing, 80.0)
        rid = f"arrive-{cid}"
        sc.reinforcements[rid] = Reinforcement(
            rid,
            sc.commanders[cid].side,
            cid,
            first,
            last,
            (ex, TABLE_H if face_edge == NORTH else 0.0),
            prob,
            f"{why}; units wait at the entry point until they arrive",
        )


if __name__ == "__main__":
    main_for(build, FILE)
