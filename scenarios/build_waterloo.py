"""Build ``waterloo-1815.battle.json``: Napoleon against Wellington and Blücher, 18 June 1815, 11:30.

Run from the repository: ``python scenarios/build_waterloo.py``.

Order of battle: ``waterloo-1815-from-pages.csv`` (the shared data's compilation of public pages,
110 rows, three armies) read by the table importer through ``waterloo-1815.toml`` (the same
mapping File ▸ Import… and ``battlestudio import-oob`` take). The table states men and guns
mostly on armies, corps and divisions; ``_build.share_stated_strengths`` shares each stated
total among the units below it that have none (every such unit says so in
``strength_estimated``), so each army's men and guns are the table's own totals.

Table: 300 × 200 cm = 9 × 6 km at 1 cm = 30 m (Torden over Europa 1.1), north up, from
Braine-l'Alleud in the west to the Lasne valley in the east and from the Mont-Saint-Jean farm
and village in the north to Le Caillou in the south. Positions are approximate, after the
standard period maps of the field (W. B. Craan's plan of 1816, Siborne's of 1844) as the
scenario's sources say; ``KM`` gives each place in km east and north of La Haye Sainte.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shapely.geometry import LineString, Polygon, box  # noqa: E402

from _build import (  # noqa: E402
    HERE,
    OOB_DATA,
    apply_order_capacity,
    deploy_row,
    main_for,
    place_commanders,
    share_stated_strengths,
    stage,
    toe_placeholders,
    units_under,
)
from battlestudio.model.scenario import DeploymentZone, Objective, Reinforcement, ScenarioInfo, Side, Source  # noqa: E402
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone  # noqa: E402
from battlestudio.model.units import Echelon, Formation  # noqa: E402
from battlestudio.store.importers.tabular import import_table  # noqa: E402
from battlestudio.rules.toe.scale import convert_to_toe  # noqa: E402

FILE = "waterloo-1815.battle.json"
CSV = OOB_DATA / "waterloo-1815-from-pages.csv"
MAPPING = HERE / "waterloo-1815.toml"
FRENCH, ALLIED = "french", "allied"
NORTH, SOUTH, WEST, EAST = 90.0, 270.0, 180.0, 0.0
ORIGIN_CM = (120.0, 130.0)
"""Where La Haye Sainte stands on the table (cm); 1 km = 33.33 cm."""

KM = {  # km east, km north of La Haye Sainte (approximate)
    "la-haye-sainte": (0.0, 0.0),
    "hougoumont": (-1.15, -0.45),
    "papelotte": (1.9, -0.1),
    "la-haie": (2.25, 0.1),
    "smohain": (2.6, 0.2),
    "frichermont": (2.95, -0.3),
    "plancenoit": (2.1, -2.2),
    "la-belle-alliance": (-0.05, -1.35),
    "mont-saint-jean-farm": (0.15, 1.1),
    "mont-saint-jean": (0.05, 1.75),
    "rossomme": (-0.1, -2.4),
    "le-caillou": (-0.2, -3.55),
    "braine-l-alleud": (-3.15, 1.2),
    "merbe-braine": (-2.1, 0.75),
    "lasne": (4.9, -1.0),
}
NAMES = {
    "la-haye-sainte": "La Haye Sainte",
    "hougoumont": "Hougoumont",
    "papelotte": "Papelotte",
    "la-haie": "La Haie",
    "smohain": "Smohain",
    "frichermont": "Frichermont",
    "plancenoit": "Plancenoit",
    "la-belle-alliance": "La Belle Alliance",
    "mont-saint-jean-farm": "Mont-Saint-Jean farm",
    "mont-saint-jean": "Mont-Saint-Jean",
    "rossomme": "Rossomme",
    "le-caillou": "Le Caillou",
    "braine-l-alleud": "Braine-l'Alleud",
    "merbe-braine": "Merbe-Braine",
    "lasne": "Lasne",
}
VILLAGES = {"plancenoit", "mont-saint-jean", "braine-l-alleud", "merbe-braine", "lasne", "smohain"}
"""Villages get a full town zone (15 × 15 cm, 4.8); the rest are farms and hamlets (8 × 8 cm)."""

BATTERY_GUNS = {
    "french-armee-du-nord": (8, 6),
    "allied-anglo-allied-army": (6, 6),
    "allied-army-of-the-lower-rhine": (8, 8),
}
"""(foot, horse) guns per battery when a stated gun total is laid out as batteries: French foot
batteries of 8 pieces and horse batteries of 6, British and allied batteries of 6 (5 guns and a
howitzer), Prussian batteries of 8."""

NATIONS = (  # name word -> nation, for Wellington's army (first match; else Britain)
    ("Netherlands", "Netherlands"),
    ("Nassau", "Nassau"),
    ("Brunswick", "Brunswick"),
    ("KGL", "Hanover"),
    ("Hanoverian", "Hanover"),
)

GENERALS_NATION = {"Prince of Orange": "Netherlands", "Perponcher-Sedlnitsky": "Netherlands", "Chassé": "Netherlands"}
"""Generals of Wellington's army whose own nation is not their formation's name's."""

SOURCES = [
    Source(
        "W. B. Craan, Plan du champ de bataille de Waterloo dit de la Belle Alliance (Brussels, 1816)",
        "",
        "public domain",
        "the standard period map of the field: the ridge of Mont-Saint-Jean with the Ohain road along it, the "
        "Brussels–Charleroi and Nivelles roads, Hougoumont and its wood, La Haye Sainte, Papelotte, La Haie, "
        "Smohain, Frichermont, La Belle Alliance, Rossomme, Plancenoit, the Bois de Paris. Positions here are "
        "approximate (about ±150 m, ±5 cm on the table), read from its general layout, not measured",
    ),
    Source(
        "William Siborne, History of the War in France and Belgium in 1815 (1844) and its atlas",
        "",
        "public domain",
        "the positions of both armies at 11:30 (the opening of the attack on Hougoumont), the Prussian approach "
        "by Chapelle-Saint-Lambert, the Lasne valley and the Bois de Paris, Bülow's appearance about 16:30, "
        "Pirch's corps behind him at Plancenoit and Zieten's arrival at Smohain and Papelotte about 19:00",
    ),
]


def T(kx: float, ky: float) -> tuple[float, float]:
    """Table cm of a point ``kx`` km east and ``ky`` km north of La Haye Sainte (1 cm = 30 m)."""
    return (round(ORIGIN_CM[0] + kx / 0.03, 2), round(ORIGIN_CM[1] + ky / 0.03, 2))


def TL(*pts: tuple[float, float]) -> list[tuple[float, float]]:
    return [T(*p) for p in pts]


def build():
    """The Waterloo scenario (a ``Scenario``), deterministic."""
    res = import_table(CSV, MAPPING, fmt="csv")
    raw = res.scenario
    napoleon, wellington, blucher = res.roots
    _nations(raw, napoleon, wellington, blucher)
    # Cotton (the data's own note, shared/data/oob/SOURCES.md §3): Chassé's division stood under
    # Lord Hill on the day, at Braine-l'Alleud on the right
    # (after the shares, so I Corps' stated men are shared as the table nests them)
    shared = share_stated_strengths(raw, BATTERY_GUNS, _row_levels(raw))
    raw.oob.add("allied-ii-corps", "allied-3rd-netherlands-division")
    sc, notes = convert_to_toe(raw)
    for cid in (napoleon, wellington):
        sc.commanders[cid] = replace(sc.commanders[cid], echelon=Echelon.C_IN_C.value, figures=6)
    # one C-in-C a side: Blücher's army is an army under Wellington, who can give it only mission
    # orders (2.2) - the agreement of 17 June that the Prussians march to the allied left
    sc.oob.add(wellington, blucher)
    sc.sides = {
        FRENCH: Side(FRENCH, "French Empire: Armée du Nord", ("France",), "#2a4fb0"),
        ALLIED: Side(
            ALLIED,
            "Seventh Coalition: Wellington's Anglo-allied army and Blücher's Army of the Lower Rhine",
            ("Britain", "Hanover", "Netherlands", "Nassau", "Brunswick", "Prussia"),
            "#c0282d",
        ),
    }
    allied_corps = ["allied-i-corps", "allied-ii-corps", "allied-reserve", "allied-cavalry"]
    for cid in allied_corps:
        sc.commanders[cid] = replace(sc.commanders[cid], command_distance=ALLIED_CORPS_REACH_CM)
    sc.info = ScenarioInfo(
        title="Waterloo 1815",
        date="1815-06-18",
        place="Mont-Saint-Jean, south of Brussels",
        ruleset="toe",
        parameters={
            **sc.info.parameters,
            **toe_placeholders({napoleon: 3, wellington: 2, blucher: 2}),
            "toe.note.order_capacity": "OAS placeholders: Napoleon 3 (eight corps-level formations under him, the "
            "Guard and two cavalry corps among them), Wellington 2 (four: I and II Corps, the reserve, the "
            "cavalry; Blücher takes mission orders, 2.2), Blücher as army general 2 (three corps arriving one "
            "after another)",
            "toe.command_ability.corps": 0,
            "toe.command_ability.division": 0,
            "toe.note.command_ability": "the table rates no general: every corps and division general has KE 0 "
            "(placeholders); the C-in-Cs have KE from no source either and take 0 too",
            "toe.command_ability.c_in_c": 0,
            "toe.command_ability.army": 0,
            "toe.placeholders.scenario": [
                "toe.command_ability.c_in_c",
                "toe.command_ability.army",
                "toe.command_ability.corps",
                "toe.command_ability.division",
                "commanders[allied-*].command_distance",
            ],
            "toe.note.allied_corps_command_distance": f"Wellington's corps were administrative: the Prince of "
            f"Orange's I Corps stood from behind Hougoumont to Papelotte, Uxbridge's cavalry brigades from the "
            f"Nivelles road to Smohain, the reserve behind the whole centre. The national supplement's corps "
            f"command distance is missing (the French and Prussians keep the 30 cm placeholder); the four "
            f"Anglo-allied corps generals get {ALLIED_CORPS_REACH_CM:g} cm ({ALLIED_CORPS_REACH_CM * 30 / 1000:.2f} "
            f"km, from the centre of the ridge to its ends) on their records, so the historical deployment starts "
            f"in command",
            "toe.scenario.initiative": FRENCH,
            "scenario.note.sides": "Wellington's and Blücher's armies play one side (the Seventh Coalition), so "
            "their troops are never each other's enemies. A side has one C-in-C: Wellington, with Blücher as an "
            "army general under him (echelon army, his own OAS for his corps). Wellington can give Blücher only "
            "mission orders (Torden over Europa 2.2), which stands for the agreement of 17 June that the "
            "Prussians march to the allied left, not for a chain of command that did not exist",
            "scenario.note.strengths": "the table states men and guns mostly on armies, corps and divisions; each "
            "stated total, less what is stated below it, is shared among the units with none (a corps 4 shares, a "
            "division 2, a brigade 1; cavalry half; see scenarios/SOURCES.md). Units carrying such a share say "
            "so in strength_estimated",
            "scenario.note.level": "brigade level where the table gives brigades; division level for VI Corps "
            "(19th and 20th Divisions) and Subervie's cavalry division; corps level (one unit) for Kellermann's "
            "III Cavalry Corps; the Brunswick Corps (5,962 men, no rows below) is one unit; the Nassau contingent "
            "(Kruse) is one unit; Prussian brigades are the corps' brigades, each a division-sized unit",
            "scenario.note.chasse": "Chassé's 3rd Netherlands Division is under Hill's II Corps here, as Cotton "
            "says it was on the day (the table lists it under I Corps)",
            "scenario.note.deployment": "11:30, as Reille opens the attack on Hougoumont: the French in three "
            "lines from the Nivelles road to opposite Papelotte, Lobau and the Guard astride the Charleroi road "
            "at and behind La Belle Alliance and Rossomme; Wellington's army along and behind the ridge of "
            "Mont-Saint-Jean, Maitland's Guards on the ridge and Byng's brigade holding Hougoumont (at 11:30 its "
            "garrison was the Guards' light companies with Nassau and Hanoverian troops, about 1,500 men; the "
            "brigade, which fed it all afternoon, is the smallest unit this table has), La Haye Sainte with no "
            "unit in it (Baring's battalion of Ompteda's brigade is far below a unit here; Ompteda stands just "
            "behind it), Saxe-Weimar's Nassauers from Papelotte to Smohain, Chassé at Braine-l'Alleud. "
            "Bijlandt's brigade stands east of Picton's line rather than in front of it, about 600 m further "
            "east than history, so that Perponcher reaches both his brigades",
            "scenario.note.shared_strengths": shared,
            "import.notes": notes,
        },
        table_width=300.0,
        table_height=200.0,
        ground_scale=30.0,
        turn_minutes=15,
        first_turn="11:30",
        turns=40,
        description=(
            "18 June 1815, 11:30. The Armée du Nord stands on the ridge of La Belle Alliance facing Wellington's "
            "Anglo-allied army on the ridge of Mont-Saint-Jean behind the Ohain road; Hougoumont, La Haye Sainte "
            "and Papelotte are held in front of the allied line. Reille's II Corps is about to attack Hougoumont, "
            "d'Erlon's I Corps waits east of the Brussels road for the great attack. Blücher's Prussians come "
            "from Wavre through the Lasne valley: Bülow's IV Corps out of the Bois de Paris from about 16:30 "
            "towards Plancenoit, Pirch's II Corps behind him from about 17:30, Zieten's I Corps along the Ohain "
            "road to Smohain and Papelotte about 19:00 (east and north-east edges).\n\n"
            "Order of battle: waterloo-1815-from-pages.csv through the table importer. Brigade level where the "
            "table gives brigades; division level for VI Corps (Simmer, Jeannin) and Subervie; one unit for "
            "Kellermann's III Cavalry Corps, the Brunswick Corps and Kruse's Nassau contingent. Strengths: each "
            "army's men and guns are the table's totals (Armée du Nord 73,000 men and 252 guns; Anglo-allied "
            "67,655 and 156; the Prussians engaged 50,000, guns at IV Corps' rate), shared among the units the "
            "table gives no figure (see scenarios/SOURCES.md). Positions approximate, after the standard period "
            "maps (Craan 1816, Siborne 1844)."
        ),
    )
    _terrain(sc)
    _deploy(sc)
    _reinforcements(sc)
    apply_order_capacity(sc)
    sc.sources = sc.sources + SOURCES
    return sc


ALLIED_CORPS_REACH_CM = 60.0
"""Corps command distance of the four Anglo-allied corps generals (cm; see the scenario note)."""


def _row_levels(sc) -> dict[str, int]:
    """Unit id → the level of its table row (0 army … 3 brigade: its last filled level column), so
    a brigade row with no division above it (Uxbridge's cavalry, the Prussian brigades) counts as a
    brigade."""
    import csv

    with open(CSV, encoding="utf-8", newline="") as f:
        rows = {n: r for n, r in enumerate(csv.DictReader(f), start=2)}
    cols = ("army", "corps", "division", "brigade")
    return {
        uid: max(i for i, c in enumerate(cols) if rows[u.attributes["source_row"]][c].strip())
        for uid, u in sc.units.items()
        if "source_row" in u.attributes
    }


def _nations(sc, napoleon: str, wellington: str, blucher: str) -> None:
    """Each record's nation: France, Prussia, or for Wellington's army the contingent its name or
    its formation's name says (Netherlands, Nassau, Brunswick, Hanover for KGL and Hanoverian
    brigades), else Britain."""

    def of(name: str) -> str:
        return next((n for word, n in NATIONS if word in name), "")

    for root, default in ((napoleon, "France"), (wellington, "Britain"), (blucher, "Prussia")):
        for n, _ in sc.oob.walk(root):
            rec = sc.record(n)
            label = rec.name if n in sc.units else str(rec.attributes.get("formation", rec.name))
            nation = default
            if root == wellington:
                nation = of(label) or next(
                    (
                        of(str(sc.commanders[a].attributes.get("formation", "")))
                        for a in sc.oob.chain_of_command(n)
                        if of(str(sc.commanders[a].attributes.get("formation", "")))
                    ),
                    default,
                )
            if n in sc.commanders and rec.name in GENERALS_NATION:
                nation = GENERALS_NATION[rec.name]
            if n in sc.units:
                sc.units[n] = replace(rec, nation=nation)
            else:
                sc.commanders[n] = replace(rec, nation=nation)


def _terrain(sc) -> None:
    t = sc.terrain
    t["ridge-mont-saint-jean"] = TerrainFeature(
        "ridge-mont-saint-jean",
        TerrainKind.HILL,
        Polygon(
            TL(
                (-2.3, 0.45),
                (-1.5, 0.2),
                (-0.6, 0.15),
                (0.3, 0.12),
                (1.2, 0.12),
                (1.95, 0.2),
                (2.0, 0.8),
                (1.0, 0.9),
                (0.2, 0.95),
                (-0.8, 1.0),
                (-1.8, 1.05),
                (-2.4, 0.95),
            )
        ),
        "Ridge of Mont-Saint-Jean",
        level=1,
    )
    t["ridge-belle-alliance"] = TerrainFeature(
        "ridge-belle-alliance",
        TerrainKind.HILL,
        Polygon(
            TL(
                (-1.7, -1.55),
                (-0.6, -1.65),
                (0.5, -1.6),
                (1.6, -1.4),
                (1.7, -0.95),
                (0.6, -1.05),
                (-0.4, -1.1),
                (-1.6, -1.05),
            )
        ),
        "Ridge of La Belle Alliance",
        level=1,
    )
    t["hougoumont-wood"] = TerrainFeature(
        "hougoumont-wood",
        TerrainKind.WOODS,
        Polygon(TL((-1.5, -1.0), (-0.95, -0.95), (-0.95, -0.6), (-1.5, -0.6))),
        "Hougoumont wood",
    )
    t["bois-de-paris"] = TerrainFeature(
        "bois-de-paris",
        TerrainKind.WOODS,
        Polygon(TL((3.1, -1.55), (3.8, -1.75), (4.25, -1.3), (4.2, -0.6), (3.5, -0.45), (3.05, -0.8))),
        "Bois de Paris",
    )
    t["bois-d-ohain"] = TerrainFeature(
        "bois-d-ohain",
        TerrainKind.WOODS,
        Polygon(TL((2.7, 0.7), (3.7, 0.6), (4.1, 1.4), (3.6, 1.95), (2.9, 1.8))),
        "Bois d'Ohain",
    )
    t["smohain-stream"] = TerrainFeature(
        "smohain-stream",
        TerrainKind.STREAM,
        LineString(TL((1.85, -0.2), (2.3, 0.0), (2.6, 0.1), (3.2, 0.05), (3.9, 0.15), (4.5, 0.25), (5.0, 0.1))),
        "Smohain stream",
        width=1.0,
    )
    t["lasne-brook"] = TerrainFeature(
        "lasne-brook",
        TerrainKind.STREAM,
        LineString(TL((4.5, -3.9), (4.7, -2.6), (4.85, -1.5), (4.95, -0.6), (5.05, 0.1), (5.15, 1.2), (5.25, 2.1))),
        "Lasne brook (the Lasne valley)",
        width=1.5,
    )
    t["plancenoit-stream"] = TerrainFeature(
        "plancenoit-stream",
        TerrainKind.STREAM,
        LineString(TL((1.3, -2.9), (1.9, -2.4), (2.2, -2.15), (3.0, -2.3), (3.9, -2.25), (4.7, -2.6))),
        "Brook of Plancenoit (to the Lasne)",
        width=1.0,
    )
    roads = {
        "road-charleroi": (
            "Brussels–Charleroi road",
            [
                (-0.25, -3.9),
                (-0.2, -3.55),
                (-0.1, -2.4),
                (-0.05, -1.35),
                (0.0, 0.0),
                (0.05, 0.3),
                (0.15, 1.1),
                (0.05, 1.75),
                (0.05, 2.1),
            ],
        ),
        "road-nivelles": (
            "Nivelles road",
            [
                (0.05, 1.75),
                (-0.5, 0.8),
                (-0.85, 0.0),
                (-0.95, -0.5),
                (-1.4, -1.3),
                (-2.2, -2.3),
                (-2.9, -3.0),
                (-3.6, -3.5),
            ],
        ),
        "road-ohain": (
            "Ohain road (along the ridge)",
            [
                (-3.6, 1.25),
                (-3.15, 1.2),
                (-2.1, 0.75),
                (-1.3, 0.45),
                (0.05, 0.3),
                (1.0, 0.3),
                (1.7, 0.2),
                (2.25, 0.15),
                (2.6, 0.2),
                (2.9, 0.9),
                (3.1, 2.1),
            ],
        ),
        "road-plancenoit": (
            "La Belle Alliance–Plancenoit–Lasne road",
            [(-0.05, -1.35), (0.9, -1.8), (2.1, -2.2), (3.0, -1.9), (3.9, -1.3), (4.9, -1.0), (5.4, -0.9)],
        ),
        "road-frichermont": (
            "Lane Smohain–Frichermont–Plancenoit",
            [(2.6, 0.2), (2.95, -0.3), (2.6, -1.2), (2.1, -2.2)],
        ),
    }
    for rid, (name, pts) in roads.items():
        t[rid] = TerrainFeature(rid, TerrainKind.ROAD, LineString(TL(*pts)), name, width=1.0)
    sc.towns = {}
    for vid, (kx, ky) in KM.items():
        x, y = T(kx, ky)
        h = 7.5 if vid in VILLAGES else 4.0
        sc.towns[vid] = TownZone(vid, NAMES[vid], box(x - h, y - h, x + h, y + h))
    sc.objectives = {
        "obj-la-haye-sainte": Objective(
            "obj-la-haye-sainte", "La Haye Sainte", sc.towns["la-haye-sainte"].polygon, "", 3
        ),
        "obj-hougoumont": Objective("obj-hougoumont", "Hougoumont", sc.towns["hougoumont"].polygon, "", 2),
        "obj-mont-saint-jean": Objective(
            "obj-mont-saint-jean",
            "Mont-Saint-Jean farm (the road to Brussels)",
            sc.towns["mont-saint-jean-farm"].polygon,
            FRENCH,
            3,
        ),
        "obj-plancenoit": Objective("obj-plancenoit", "Plancenoit", sc.towns["plancenoit"].polygon, "", 2),
        "obj-papelotte": Objective("obj-papelotte", "Papelotte", sc.towns["papelotte"].polygon, "", 1),
        "obj-la-belle-alliance": Objective(
            "obj-la-belle-alliance", "La Belle Alliance", sc.towns["la-belle-alliance"].polygon, ALLIED, 2
        ),
    }
    sc.deployment_zones = {
        "dz-french": DeploymentZone(
            "dz-french",
            FRENCH,
            "Ridge of La Belle Alliance and the ground behind it to Le Caillou",
            Polygon(TL((-3.4, -3.85), (2.6, -3.85), (2.6, -0.8), (0.6, -0.75), (-1.0, -0.7), (-3.4, -1.3))),
        ),
        "dz-allied": DeploymentZone(
            "dz-allied",
            ALLIED,
            "Ridge of Mont-Saint-Jean from Braine-l'Alleud to Smohain, with Hougoumont, La Haye Sainte and Papelotte",
            Polygon(
                TL(
                    (-3.55, 0.2),
                    (-1.6, -0.2),
                    (-1.45, -0.6),
                    (-0.9, -0.6),
                    (-0.3, -0.2),
                    (1.6, -0.35),
                    (3.1, -0.45),
                    (3.2, 2.1),
                    (-3.55, 2.1),
                )
            ),
        ),
        "dz-prussian": DeploymentZone(
            "dz-prussian",
            ALLIED,
            "Prussian approach: the Lasne valley and the Bois de Paris (Blücher's army only)",
            Polygon(TL((3.0, -3.9), (5.4, -3.9), (5.4, 2.1), (2.9, 2.1), (3.0, 0.5), (3.0, -0.5))),
            formation="allied-army-of-the-lower-rhine",
        ),
    }


def _guns(sc, cid: str) -> list[str]:
    return [u for u in units_under(sc, cid) if sc.units[u].arm.value == "artillery"]


def _foot(sc, cid: str) -> list[str]:
    return [u for u in units_under(sc, cid) if sc.units[u].arm.value != "artillery"]


def _division(sc, cid: str, start: tuple[float, float], facing: float, formation=Formation.COLUMN, step=7.0) -> None:
    """A division as brigades one behind the other (``step`` cm apart, towards the rear)."""
    from battlestudio.model.geometry import forward

    fx, fy = forward(facing)
    for i, uid in enumerate(_foot(sc, cid)):
        deploy_row(sc, [uid], (start[0] - fx * step * i, start[1] - fy * step * i), facing, formation)


def _deep_columns(sc) -> None:
    """Infantry of 24 figures or more forms its columns four ranks deep (1.7 allows 3 or 4), so
    the division-sized brigades of this table keep about their historical frontage."""
    for uid, u in sc.units.items():
        if u.arm.value == "infantry" and u.figures >= 24:
            sc.units[uid] = replace(u, column_ranks=4)


def _deploy(sc) -> None:
    """Both armies at 11:30 (table cm; French rows run eastwards from their west end, allied rows
    westwards from their east end, each unit's front edge on the row)."""
    _deep_columns(sc)
    col, line = Formation.COLUMN, Formation.LINE
    # --- French first line: Reille west of the road (Jérôme before the Hougoumont wood), d'Erlon east
    _division(sc, "french-2nd-cavalry-division", (62.0, 84.0), NORTH, line, 8.0)  # Piré, by the Nivelles road
    _division(sc, "french-6th-division", (77.0, 92.0), NORTH)  # Jérôme
    _division(sc, "french-9th-division", (92.5, 92.0), NORTH)  # Foy
    _division(sc, "french-5th-division", (107.0, 92.0), NORTH)  # Bachelu, next to the road
    deploy_row(sc, _guns(sc, "french-ii-corps"), (90.0, 97.0), NORTH)
    _division(sc, "french-1st-division", (122.0, 92.0), NORTH)  # Quiot, next to the road
    _division(sc, "french-2nd-division", (139.0, 92.0), NORTH)  # Donzelot
    _division(sc, "french-3rd-division", (156.0, 92.0), NORTH)  # Marcognet
    _division(sc, "french-4th-division", (173.0, 92.0), NORTH)  # Durutte, opposite Papelotte
    deploy_row(sc, _guns(sc, "french-i-corps"), (140.0, 97.0), NORTH)
    # second line: Kellermann behind Reille, Milhaud behind d'Erlon, Jacquinot on the right
    deploy_row(sc, ["french-iii-cavalry-corps"], (74.0, 78.0), NORTH, col)
    deploy_row(sc, _guns(sc, "french-armee-du-nord"), (64.0, 70.0), NORTH)
    deploy_row(sc, units_under(sc, "french-division-wathier"), (124.0, 72.0), NORTH, line)
    deploy_row(sc, units_under(sc, "french-division-delort"), (143.0, 63.0), NORTH, line)
    deploy_row(sc, _guns(sc, "french-iv-cavalry-corps"), (163.0, 65.0), NORTH)
    deploy_row(sc, units_under(sc, "french-1st-cavalry-division"), (166.0, 76.0), NORTH, line)
    # Lobau astride the road behind La Belle Alliance; Domon and Subervie to his right
    vi = _foot(sc, "french-vi-corps")
    deploy_row(sc, vi[:1], (96.0, 64.0), NORTH, col)
    deploy_row(sc, vi[1:], (121.0, 64.0), NORTH, col)
    deploy_row(sc, _guns(sc, "french-vi-corps"), (106.0, 68.0), NORTH)
    deploy_row(sc, units_under(sc, "french-3rd-cavalry-division"), (146.0, 50.0), NORTH, line)
    deploy_row(sc, units_under(sc, "french-cavalry-reserve-detached"), (146.0, 42.0), NORTH, line)
    # the Guard about Rossomme: infantry in two lines astride the road, guns before it, cavalry behind
    guard = _foot(sc, "french-guard-infantry")
    deploy_row(sc, guard[:3], (93.0, 48.0), NORTH, col)
    deploy_row(sc, guard[3:], (93.0, 39.0), NORTH, col)
    deploy_row(sc, _guns(sc, "french-imperial-guard"), (98.0, 56.0), NORTH)
    deploy_row(sc, _foot(sc, "french-guard-cavalry"), (92.0, 30.0), NORTH, line)

    # --- Wellington, right to left (rows facing south run westwards from their east end)
    deploy_row(sc, _foot(sc, "allied-3rd-netherlands-division"), (46.0, 166.0), SOUTH, col)  # Chassé
    deploy_row(sc, _foot(sc, "allied-4th-british-division-part"), (60.0, 146.0), SOUTH)  # Mitchell
    deploy_row(sc, _foot(sc, "allied-2nd-british-division"), (94.0, 158.0), SOUTH)  # Clinton at Merbe-Braine
    deploy_row(sc, _guns(sc, "allied-ii-corps"), (60.0, 140.0), SOUTH)
    maitland, byng = _foot(sc, "allied-1st-british-division")
    deploy_row(sc, [maitland], (76.0, 143.0), SOUTH, col)  # Cooke: Maitland on the ridge,
    deploy_row(sc, [byng], (90.0, 112.0), SOUTH, col)  # Byng in Hougoumont
    halkett, ompteda, kielmansegge = _foot(sc, "allied-3rd-british-division")
    deploy_row(sc, [ompteda, kielmansegge], (120.0, 143.0), SOUTH, col)  # Alten, Ompteda by the road
    deploy_row(sc, [halkett], (110.0, 150.0), SOUTH, col)
    deploy_row(sc, _guns(sc, "allied-i-corps"), (118.0, 137.0), SOUTH)
    kempt, pack, vincke = _foot(sc, "allied-5th-british-division")
    deploy_row(sc, [vincke, pack, kempt], (196.0, 143.0), SOUTH)  # Picton, Kempt by the road
    deploy_row(sc, _foot(sc, "allied-6th-british-division"), (196.0, 152.0), SOUTH)  # Best
    deploy_row(sc, _foot(sc, "allied-brunswick-corps"), (125.0, 166.0), SOUTH, col)
    deploy_row(sc, ["allied-nassau-contingent"], (142.0, 158.0), SOUTH, col)  # Kruse
    deploy_row(sc, _guns(sc, "allied-reserve"), (140.0, 137.0), SOUTH)
    # Perponcher: Bijlandt before Pack and Vincke, Saxe-Weimar from Papelotte to Smohain
    deploy_row(sc, ["allied-1st-brigade-2"], (172.0, 137.0), SOUTH, col)
    deploy_row(sc, ["allied-2nd-brigade-nassau"], (213.0, 128.0), SOUTH)
    # Uxbridge: Household behind Alten, Union behind Picton, the light brigades on both flanks
    household, union, dornberg, vandeleur, grant, vivian, arentschildt = units_under(sc, "allied-cavalry")[:7]
    deploy_row(sc, [union], (143.0, 152.0), SOUTH, line)
    deploy_row(sc, [household], (157.0, 166.0), SOUTH, line)
    deploy_row(sc, [vandeleur, vivian], (195.0, 160.0), SOUTH, line)
    deploy_row(sc, [dornberg, arentschildt, grant], (125.0, 178.0), SOUTH, line)
    deploy_row(sc, _guns(sc, "allied-cavalry"), (150.0, 176.0), SOUTH)
    place_commanders(sc, ["french-armee-du-nord", "allied-anglo-allied-army"])
    sc.commanders["french-armee-du-nord"] = replace(
        sc.commanders["french-armee-du-nord"], position=T(-0.1, -2.35), facing=NORTH
    )  # Napoleon at Rossomme
    sc.commanders["allied-anglo-allied-army"] = replace(
        sc.commanders["allied-anglo-allied-army"], position=T(-0.05, 0.45), facing=SOUTH
    )  # Wellington by the elm at the crossroads


# (commander, earliest turn, latest turn, probability, entry point, staging start, facing, row length, note)
ARRIVALS = [
    (
        "allied-iv-corps",
        19,
        22,
        0.5,
        (300.0, 100.0),
        (298.0, 55.0),
        WEST,
        95.0,
        "Bülow's IV Corps: out of the Lasne valley and the Bois de Paris from about 16:30, towards Plancenoit",
    ),
    (
        "allied-ii-corps-2",
        25,
        29,
        0.5,
        (300.0, 100.0),
        (298.0, 2.0),
        WEST,
        50.0,
        "Pirch I's II Corps behind Bülow, by the same road, from about 17:30",
    ),
    (
        "allied-i-corps-2",
        28,
        30,
        0.5,
        (223.0, 200.0),
        (282.0, 198.0),
        SOUTH,
        60.0,
        "Zieten's I Corps from Ohain along the Ohain road, at Smohain and Papelotte about 19:00",
    ),
]


def _reinforcements(sc) -> None:
    blucher = "allied-army-of-the-lower-rhine"
    for cid, first, last, p, entry, start, facing, length, note in ARRIVALS:
        units = [n for n in sc.oob.all_subordinates(cid) if n in sc.units]
        stage(sc, units, start, facing, length)
        place_commanders(sc, [cid])
        rid = f"arrive-{cid}"
        sc.reinforcements[rid] = Reinforcement(
            rid,
            ALLIED,
            cid,
            first,
            last,
            entry,
            p,
            f"{note} (turns {first}-{last}: {_clock(first)}-{_clock(last)}, {round(p * 100)}% a turn); "
            "units wait at the entry point until they arrive",
        )
    # Blücher rides with Bülow; he waits at the IV Corps' entry point (a C-in-C binds no command distance)
    sc.commanders[blucher] = replace(sc.commanders[blucher], position=(296.0, 100.0), facing=WEST)


def _clock(turn: int) -> str:
    m = 11 * 60 + 30 + (turn - 1) * 15
    return f"{m // 60:02d}:{m % 60:02d}"


if __name__ == "__main__":
    main_for(build, FILE)
