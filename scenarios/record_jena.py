"""Record the bundled game of Jena, 14 October 1806, into ``jena-1806.battle.json``.

Run from the repository after the build script: ``python scenarios/build_jena.py`` writes the
scenario without a game, then ``python scenarios/record_jena.py`` loads it, records 40 turns
(06:00–15:45) through ``battlestudio.session.GameSession`` (the recording API the GUI uses) and
saves the file with the game in it. Running this script again re-records the same game: it drops
any recorded events first, and every roll comes from dice seeded with ``SEED``.

What follows the historical course is the umpire's plan below: which orders Napoleon and
Hohenlohe write and when, when each formation arrives (inside the windows of republique5's
Jena.scenario), and a lean on the umpire's melee table for the side history favoured at that
hour. Everything else is the Torden over Europa engine's: command-control rolls, failed orders
rolled again, corps generals moved by their standing orders (attack 20–30 cm, march, retreat),
the per-turn command check (engaged, automatic retreat). Combat is the umpire's (``_umpire``),
since the seed's fire, melee and morale tables are missing. Annotations carry the narrative.
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from typing import Any
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _movement import _execute, _has_troops, _leave_table, _lone_generals_leave  # noqa: E402
from _umpire import fire_phase, flight, melee_phase, reorganise  # noqa: E402
from battlestudio import store  # noqa: E402
from battlestudio.model.scenario import Source  # noqa: E402
from battlestudio.replay.battle import Battle  # noqa: E402
from battlestudio.rules import OrderRequest, RuleRefused  # noqa: E402
from battlestudio.session import GameSession  # noqa: E402

HERE = Path(__file__).resolve().parent
FILE = HERE / "jena-1806.battle.json"
SEED = 14101806
TURNS = 40
FR, PR = "french", "prussian"
NAPOLEON, HOHENLOHE = "french-imperial-guard", "prussian-south-hohenlohe"
LANNES, SOULT, NEY, AUGEREAU, MURAT = (
    "french-v-corps",
    "french-iv-corps",
    "french-vi-corps",
    "french-vii-corps",
    "french-cavalry-reserve",
)
GUARD_INF, GUARD_CAV = "french-infantry-division", "french-cavalry-division"
ADV, GRAWERT, ZECHWITZ, TAUENTZIEN, PRITTWITZ, RUCHEL = (
    "prussian-adv-guard-div",
    "prussian-1st-div",
    "prussian-2nd-div",
    "prussian-3rd-div",
    "prussian-reserve-div",
    "prussian-reserve-ruchel",
)

ENGINE_PARAMETERS = {
    # the scenario carries every Table 1 / supplement placeholder under the engine's names
    # (scenarios/_build.py); the recorded game only adds who holds the initiative
    "initiative": FR,
    # 2.9: an automatic retreat "may be assigned"; this game's umpire assigns every one at the check
    "auto_retreat_assignment": "forced",
}

SOURCES = [
    Source(
        "F. Loraine Petre, Napoleon's Conquest of Prussia 1806 (London, 1907), chapters VIII-IX",
        "https://archive.org/details/napoleonsconques00petruoft",
        "public domain",
        "the course of the battle of Jena hour by hour: fog, Lannes at Closewitz and Cospeda, Soult by the "
        "Rautal towards Krippendorf, Ney's premature attack on Vierzehnheiligen, Augereau by Isserstedt, "
        "Grawert's line standing in the open, the general advance after noon, Rüchel's arrival and rout",
    ),
    Source(
        "Wikipedia, 'Battle of Jena-Auerstedt'",
        "https://en.wikipedia.org/wiki/Battle_of_Jena%E2%80%93Auerstedt",
        "CC BY-SA (facts only)",
        "times of the main events of the recorded game (no text copied)",
    ),
]

# The umpire's plan for each general: from a turn on, the order he should be under and the
# point it aims at. Each order phase, a chief writes the order when his general is under no
# pending or standing order of that plan entry (so a completed attack is renewed towards the same
# point); objectives of attacks and retreats are set within the 100 cm the rule allows (2.7, 2.9)
# on the way to the point. Listed in each chief's order of priority (his order capacity is
# limited, 2.12). A retreat's point None means directly away from the enemy (2.9).
PLAN: dict[str, list[tuple[int, str, tuple[float, float] | None]]] = {
    LANNES: [(1, "A", (425.0, 205.0)), (13, "A", (320.0, 240.0)), (24, "A", (225.0, 240.0)), (33, "A", (120.0, 275.0))],
    NEY: [(12, "M", (345.0, 125.0)), (16, "A", (228.0, 208.0)), (27, "A", (140.0, 225.0)), (34, "A", (60.0, 245.0))],
    AUGEREAU: [(8, "M", (215.0, 95.0)), (15, "A", (140.0, 168.0)), (27, "A", (60.0, 195.0))],
    SOULT: [(10, "M", (452.0, 150.0)), (15, "A", (330.0, 262.0)), (27, "A", (200.0, 288.0))],
    # Murat arrives within 75 cm of the Prussians, where no march takes place (2.10): he attacks
    MURAT: [(26, "A", (175.0, 70.0)), (31, "A", (90.0, 200.0)), (35, "A", (30.0, 240.0))],
    GUARD_INF: [(10, "M", (375.0, 100.0))],
    ADV: [(6, "T", None)],
    GRAWERT: [(17, "A", (226.0, 212.0)), (30, "T", None)],
    TAUENTZIEN: [(10, "M", (320.0, 278.0)), (31, "T", None)],
    ZECHWITZ: [(14, "M", (100.0, 205.0)), (30, "T", None)],
    PRITTWITZ: [(18, "M", (160.0, 252.0)), (31, "T", None)],
    RUCHEL: [(34, "A", (120.0, 185.0)), (38, "T", None)],
}
CHIEF = {FR: NAPOLEON, PR: HOHENLOHE}
HOME = {FR: (450.0, 73.0), PR: (0.0, 300.0)}
"""Where each side's fugitives run: Jena and the Saale bridge; the Weimar road by Kapellendorf."""

# each chief rides with order capacity (at most 40 cm a turn, 2.12) towards the generals he is
# ordering, from this turn on (Hohenlohe stays at Kapellendorf until the firing wakes him)
RIDE_FROM = {NAPOLEON: 1, HOHENLOHE: 5}
RIDE_KEEP_OFF_CM = 30.0
"""A chief does not ride to within this distance of an enemy unit (the umpire's caution)."""

ARRIVALS: dict[tuple[int, str], list[str]] = {
    (7, FR): ["arrive-french-vii-corps"],
    (9, FR): ["arrive-french-iv-corps", "arrive-french-infantry-division", "arrive-french-cavalry-division"],
    (11, FR): ["arrive-french-vi-corps"],
    (25, FR): ["arrive-french-cavalry-reserve"],
    (9, PR): ["arrive-prussian-3rd-div"],
    (13, PR): ["arrive-prussian-2nd-div"],
    (17, PR): ["arrive-prussian-reserve-div"],
    (33, PR): ["arrive-prussian-reserve-ruchel"],
}

NARRATIVE: dict[tuple[int, str], tuple[str, str, tuple[float, float] | None]] = {
    (1, FR): (
        "Fog on the Landgrafenberg",
        "06:00. Thick fog. Lannes' V Corps, which climbed the Landgrafenberg in "
        "the night with Napoleon, advances: Suchet on Closewitz, Gazan on Cospeda and Lützeroda, against "
        "Tauentzien's advance guard (Petre ch. VIII).",
        (410.0, 170.0),
    ),
    (1, PR): (
        "Hohenlohe at Kapellendorf",
        "Hohenlohe, at his headquarters in Kapellendorf, takes the firing for an "
        "affair of outposts and sends no orders yet; his divisions are spread from the Dornberg to the "
        "Weimar road.",
        (30.0, 280.0),
    ),
    (4, FR): (
        "Closewitz",
        "About 07:00 Suchet's brigades fight their way towards Closewitz in the fog; the Prussian "
        "and Saxon battalions fire blind and give ground.",
        (432.0, 207.0),
    ),
    (5, PR): (
        "Hohenlohe rides forward",
        "The gunfire grows; Hohenlohe rides towards the plateau and calls up Grawert's division and the Saxons.",
        (75.0, 265.0),
    ),
    (7, FR): (
        "Augereau by the Mühltal",
        "Augereau's VII Corps comes up from Jena through the Mühltal towards "
        "Cospeda and the Isserstedt forest, on Lannes' left.",
        (250.0, 30.0),
    ),
    (9, FR): (
        "Soult and the Guard",
        "Soult's IV Corps climbs from the Saale by the Rautal on the right; the Guard "
        "infantry files up the Steiger to the Landgrafenberg.",
        (445.0, 40.0),
    ),
    (11, FR): (
        "Ney arrives",
        "Ney arrives with the advance guard of VI Corps and, impatient, presses forward between Lannes and Augereau.",
        (390.0, 40.0),
    ),
    (13, FR): (
        "The fog lifts",
        "Around 09:00 the fog lifts. Tauentzien's advance guard has been pushed back past "
        "the Dornberg; Lannes turns west towards Vierzehnheiligen.",
        (385.0, 232.0),
    ),
    (17, FR): (
        "Ney on Vierzehnheiligen",
        "About 10:00 Ney throws his advance guard at Vierzehnheiligen without "
        "orders and is soon in difficulty against the Prussian cavalry; Napoleon sends Lannes to his "
        "support.",
        (223.0, 210.0),
    ),
    (17, PR): (
        "Grawert's line",
        "Grawert's division deploys in line before Vierzehnheiligen as on the parade "
        "ground, and stands there in the open under the French skirmishers' fire for two hours.",
        (260.0, 225.0),
    ),
    (21, FR): (
        "The battle hangs",
        "11:00. French and Prussians trade fire around Vierzehnheiligen; Augereau's "
        "divisions fight for Isserstedt and its forest on the left.",
        (140.0, 165.0),
    ),
    (25, FR): (
        "Murat arrives",
        "About noon Murat's reserve cavalry reaches the field; Napoleon has some 90,000 "
        "men up against Hohenlohe's 38,000 and waits for Rüchel no longer.",
        (105.0, 20.0),
    ),
    (27, FR): (
        "The general advance",
        "12:30. Napoleon orders the whole line forward: Lannes and Ney on "
        "Vierzehnheiligen and beyond, Augereau by Isserstedt, Soult on the right by Krippendorf.",
        (230.0, 210.0),
    ),
    (30, PR): (
        "Hohenlohe's line breaks",
        "13:00. Hohenlohe's line gives way; Grawert's and the Saxon divisions "
        "fall back towards Kapellendorf and Gross Romstedt, covered by their cavalry.",
        (150.0, 240.0),
    ),
    (33, PR): (
        "Rüchel arrives",
        "About 14:00 Rüchel's corps comes up from Weimar by Kapellendorf, too late to "
        "save the day, and forms to attack through the fugitives.",
        (20.0, 150.0),
    ),
    (34, PR): (
        "Rüchel attacks",
        "Rüchel's 15,000 advance in echelon towards Vierzehnheiligen against the victorious French.",
        (60.0, 180.0),
    ),
    (37, FR): (
        "Rüchel's defeat",
        "15:00. Rüchel's lines are shot down and broken by the French infantry and "
        "Murat's cavalry; Rüchel himself is badly wounded.",
        (100.0, 190.0),
    ),
    (39, FR): (
        "Pursuit",
        "Murat's cavalry pursues the routed army towards Weimar. Of Hohenlohe's and Rüchel's "
        "troops some 25,000 are killed, wounded or taken at Jena (Petre ch. IX).",
        (40.0, 220.0),
    ),
}


def lean(side: str, turn: int) -> int:
    """The umpire's lean on the melee table for the side history favoured (see ``_umpire``):
    the French in the fog and surprise of the morning and in the afternoon's advance, the
    Prussian cavalry against Ney's over-hasty attack (10:00–10:45)."""
    if 17 <= turn <= 20:
        return 1 if side == PR else 0
    if side == FR:
        return 2 if turn <= 12 or turn >= 27 else 1
    return 0


def engine_parameters(battle: Battle) -> dict[str, Any]:
    """The engine's parameter names the scenario lacks, with the placeholders' values (laid
    over the scenario's parameters for this game only; the scenario file's own are kept)."""
    params = battle.scenario.info.parameters
    out = {}
    for key, value in ENGINE_PARAMETERS.items():
        if key not in params:
            out[key] = params[value] if isinstance(value, str) and value in params else value
    return out


def with_sources(battle: Battle) -> None:
    """The historical accounts the game's narrative follows, added to the scenario's sources."""
    known = {s.title for s in battle.scenario.sources}
    battle.scenario.sources = list(battle.scenario.sources) + [s for s in SOURCES if s.title not in known]


def retreat_objective(s: GameSession, cid: str, dist: float = 95.0) -> tuple[float, float] | None:
    """The point ``dist`` cm directly away from the enemy front (2.9, the scenario's
    ``retreat_direction``), held on the table as the engine holds its automatic retreats: an
    objective is a point on the table (2.6, ``auto_retreat_off_table = "edge"``). None when no
    enemy is on the table or the general already stands at the edge on that line."""
    from battlestudio.rules.toe.checks import on_table_along
    from battlestudio.rules.toe.common import params_for
    from battlestudio.rules.toe.orders import retreat_direction

    away = retreat_direction(s.state, cid, params_for(s.params))
    if away is None:
        return None
    x, y = s.state.commanders[cid].position
    far = (round(x + dist * away[0], 2), round(y + dist * away[1], 2))
    obj = on_table_along((x, y), far, s.table)
    return obj if math.dist((x, y), obj) >= 1.0 else None


def _towards(here: tuple[float, float], target: tuple[float, float], limit: float) -> tuple[float, float]:
    d = math.dist(here, target)
    if d <= limit:
        return target
    f = limit / d
    return (round(here[0] + f * (target[0] - here[0]), 2), round(here[1] + f * (target[1] - here[1]), 2))


def _entry(cid: str, turn: int) -> tuple[int, str, tuple[float, float] | None] | None:
    found = [e for e in PLAN.get(cid, []) if e[0] <= turn]
    return found[-1] if found else None


def _planned_requests(s: GameSession, turn: int, side: str) -> list[OrderRequest]:
    st = s.state
    out = []
    for cid in PLAN:
        c = st.commanders.get(cid)
        entry = _entry(cid, turn)
        if c is None or c.side != side or cid in st.off_table or entry is None:
            continue
        start, kind, target = entry
        tag = f"{cid}@{start}"
        mine = [o for o in st.orders.values() if o.recipient == cid and o.parameters.get("plan") == tag]
        if any(o.status.value in ("written", "failed", "delivered") for o in mine):
            continue
        if kind == "T" and mine:
            continue  # a retreat is ordered once
        here = c.position
        if kind == "T":
            obj = retreat_objective(s, cid)
        elif kind == "A":
            obj = _towards(here, _on_table(s, target), 95.0)
        else:
            obj = _on_table(s, target)
        if obj is None or math.dist(here, obj) < 1.0:
            continue
        req = _legal(s, OrderRequest(CHIEF[side], cid, kind, objective=obj, parameters={"plan": tag}))
        if req is not None:
            out.append(req)
    ride = _ride(s, turn, side, [r.recipient for r in out])
    if ride is not None:
        out.append(ride)
    return out


def _ride(s: GameSession, turn: int, side: str, ordered: list[str]) -> OrderRequest | None:
    """The chief's ride towards the generals he orders this turn or whose orders are pending:
    to 15 cm short of their centre, at most 40 cm (2.12), keeping clear of the enemy. A chief
    the enemy has come within ``RIDE_KEEP_OFF_CM`` of rides back instead, towards the centre of
    his side's generals or, if that is no safer, towards his side's line of retreat (``HOME``)."""
    from shapely.geometry import Point as SPoint

    chief = CHIEF[side]
    st = s.state
    if turn < RIDE_FROM[chief]:
        return None
    enemies = [
        u.footprint()
        for u in st.units.values()
        if u.side != side and u.id not in st.off_table and u.state != "eliminated"
    ]

    def danger(p: tuple[float, float]) -> bool:
        return any(e.distance(SPoint(p)) < RIDE_KEEP_OFF_CM for e in enemies)

    here = st.commanders[chief].position
    if danger(here):
        own = [
            c.position
            for cid, c in sorted(st.commanders.items())
            if c.side == side
            and cid != chief
            and cid not in st.off_table
            and c.echelon in ("corps", "division")
            and _has_troops(s, cid)
        ]
        targets = ([(sum(p[0] for p in own) / len(own), sum(p[1] for p in own) / len(own))] if own else []) + [
            HOME[side]
        ]
        for target in targets:
            to = _towards(here, _on_table(s, target), 39.9)
            if not danger(to):
                break
        return OrderRequest(chief, chief, "move", parameters={"to": to})
    pending = [o.recipient for o in st.orders.values() if o.issuer == chief and o.status.value in ("written", "failed")]
    gens = [g for g in dict.fromkeys(ordered + pending) if g in st.commanders and g not in st.off_table]
    if not gens:
        return None
    cx = sum(st.commanders[g].position[0] for g in gens) / len(gens)
    cy = sum(st.commanders[g].position[1] for g in gens) / len(gens)
    d = math.dist(here, (cx, cy))
    if d <= 16.0:
        return None
    to = _towards(here, _towards(here, (cx, cy), d - 15.0), 39.9)
    if danger(to):
        return None
    return OrderRequest(chief, chief, "move", parameters={"to": to})


def _legal(s: GameSession, req: OrderRequest) -> OrderRequest | None:
    """``req`` if the engine allows it; else the umpire's fallback the rules allow: a march
    that may not start within 75 cm of the enemy becomes an attack (2.10), an attack whose
    point does not lie towards the enemy goes 60 cm towards the nearest enemy instead (2.7).
    None (nothing written) when neither is allowed."""
    from battlestudio.rules.toe.orders import nearest_enemy_point

    if s.preview(req).legal:
        return req
    if req.order_type == "M":
        req = replace(
            req, order_type="A", objective=_towards(s.state.commanders[req.recipient].position, req.objective, 95.0)
        )
        if s.preview(req).legal:
            return req
    if req.order_type == "A":
        found = nearest_enemy_point(s.state, req.recipient)
        if found is not None:
            here = s.state.commanders[req.recipient].position
            q = found[0]
            d = math.dist(here, q) or 1.0
            planned = math.atan2(req.objective[1] - here[1], req.objective[0] - here[0])
            enemy = math.atan2(q[1] - here[1], q[0] - here[0])
            if abs((planned - enemy + math.pi) % (2 * math.pi) - math.pi) > math.radians(60.0):
                return _refused(s, f"{req.recipient}: the nearest enemy lies off the planned direction; no attack")
            obj = _on_table(
                s, (round(here[0] + 60.0 * (q[0] - here[0]) / d, 2), round(here[1] + 60.0 * (q[1] - here[1]) / d, 2))
            )
            req = replace(req, objective=obj)
            if s.preview(req).legal:
                return req
    return _refused(s, s.preview(req).reason)


def _refused(s: GameSession, why: str) -> None:
    if why not in _REFUSED:
        _REFUSED.add(why)
        print(f"turn {s.key.turn} {s.key.side}: {why}", file=sys.stderr)
    return None


_REFUSED: set[str] = set()


def order_phase(s: GameSession, turn: int, side: str) -> None:
    for cid, c in sorted(s.state.commanders.items()):
        if (
            c.side == side
            and c.echelon in ("corps", "division")
            and cid not in s.state.off_table
            and s.state.oob.superior(cid) in (NAPOLEON, HOHENLOHE)
        ):
            s.command_check(cid)
    for r in s.issue_orders(_planned_requests(s, turn, side)):
        if r.status == "refused" and "order capacity" not in r.explanation:
            print(f"turn {turn} {side}: {r.explanation}", file=sys.stderr)


def _on_table(s: GameSession, p: tuple[float, float]) -> tuple[float, float]:
    """``p`` kept 20 cm inside the table (30 cm from the top and bottom edges, where the troops
    march ahead of their general)."""
    w, h = s.table
    return (min(max(p[0], 20.0), w - 20.0), min(max(p[1], 30.0), h - 30.0))


def _arrival_order(s: GameSession, rid: str) -> None:
    """A formation arrives under the order it marched with: its plan's first order, written by
    its chief before it reached the table, so in force on arrival (no roll: it was delivered on
    the march, off the table)."""
    from battlestudio.replay.order_events import OrderDelivered, OrderWritten

    cid = s.battle.scenario.reinforcements[rid].formation
    plan = PLAN.get(cid)
    if not plan or cid not in s.state.commanders:
        return
    start, kind, target = plan[0]
    side = s.state.commanders[cid].side
    req = OrderRequest(CHIEF[side], cid, kind, objective=_on_table(s, target), parameters={"plan": f"{cid}@{start}"})
    if kind == "A":
        req = _legal(s, replace(req, objective=_towards(s.state.commanders[cid].position, req.objective, 95.0)))
    elif not s.preview(req).legal:
        req = _legal(s, req)
    if req is None:
        return
    oid = f"arrival-{cid}"
    s.record_all(
        [
            s.stamped(
                OrderWritten,
                order_id=oid,
                issuer=req.issuer,
                recipient=cid,
                order_type=req.order_type,
                objective=req.objective,
                parameters={**req.parameters, "given": "order carried on the march; in force on arrival (scenario)"},
                cost=0,
            ),
            s.stamped(OrderDelivered, order_id=oid, origin=s.state.commanders[cid].position),
        ]
    )


def movement_phase(s: GameSession, turn: int, side: str) -> None:
    for rid in ARRIVALS.get((turn, side), []):
        s.arrive(rid)
        _arrival_order(s, rid)
    flight(s, side, HOME[side])
    _lone_generals_leave(s, side)
    for cid, c in sorted(s.state.commanders.items()):
        if c.side != side or cid in s.state.off_table or cid in (NAPOLEON, HOHENLOHE) or not _has_troops(s, cid):
            continue
        if _retreated_to_edge(s, cid):
            _leave_table(s, cid)
            continue
        _limber_to_march(s, cid)
        try:
            _execute(s, cid)
        except RuleRefused as exc:
            print(f"turn {turn} {side}: {cid}: {exc}", file=sys.stderr)


EDGE_CM = 2.0
"""A general this near the table edge stands at it (his retreat's objective lies 1 cm inside)."""


def _retreated_to_edge(s: GameSession, cid: str) -> bool:
    """True when ``cid``'s retreat has brought him to the table edge: the engine held its
    objective on the table (2.6, 2.9) and the corps now stands there under the defence order
    that follows it. The umpire then rules (1.1 "Dommerens afgørelser er indiskutable") that the
    beaten formation goes on by its line of retreat and leaves the table, lost for the rest of
    the battle (4.4), instead of standing behind the enemy's line at the edge."""
    from battlestudio.replay.order_events import DEFENCE
    from battlestudio.rules.toe.common import standing_order

    own = standing_order(s.state, cid)
    if own is None or own.order_type != DEFENCE:
        return False
    done = s.state.orders.get(str(own.parameters.get("follows", "")))
    if done is None or done.order_type != "T":
        return False
    (x, y), (w, h) = s.state.commanders[cid].position, s.table
    return min(x, y, w - x, h - y) <= EDGE_CM


def _limber_to_march(s: GameSession, cid: str) -> None:
    """A corps under a march order limbers its batteries first: "Artilleri skal være påprodset"
    (Torden over Europa 2.10), or the march does not take place."""
    from battlestudio.rules.toe.common import corps_units, standing_order

    own = standing_order(s.state, cid)
    if own is None or own.order_type != "M" or cid not in s.state.commanders:
        return
    batteries = [
        u for u in corps_units(s.state, cid) if u.arm.value == "artillery" and u.formation.value == "unlimbered"
    ]
    for u in batteries:
        s.change_formation(u.id, "limbered")
    if batteries:
        names = ", ".join(u.name for u in batteries)
        s.annotate(f"{s.state.commanders[cid].name}'s corps limbers its guns to march ({names}; 2.10).")


def record(battle: Battle) -> GameSession:
    """Record the whole game into ``battle`` (events replaced)."""
    battle.events = []
    battle.ruleset_record = None  # the rule numbers in force now, not those of the last recording
    sc = battle.scenario  # records by id, as the file stores them: the engine names the first of equals
    sc.units, sc.commanders = dict(sorted(sc.units.items())), dict(sorted(sc.commanders.items()))
    with_sources(battle)
    s = GameSession(battle, seed=SEED, params=engine_parameters(battle))
    s.start()
    s.annotate(
        f"Recorded with BattleStudio's GameSession: command rolls by the Torden over Europa engine, "
        f"dice seeded with {SEED}; combat by the umpire's table (scenarios/_umpire.py).",
        title="About this game",
    )
    for turn in range(1, TURNS + 1):
        for side in dict.fromkeys(st.side for st in s.steps(turn)):
            other = FR if side == PR else PR
            s.advance_to("orders", side)
            if (turn, side) in NARRATIVE:
                title, text, at = NARRATIVE[(turn, side)]
                s.annotate(text, title=title, at=at)
            order_phase(s, turn, side)
            s.advance_to("movement", side)
            movement_phase(s, turn, side)
            s.advance_to("fire", side)
            fire_phase(s, other)
            s.advance_to("attack", side)
            melee_phase(s, side, lean)
            s.advance_to("reorganisation", side)
            reorganise(s, side)
    return s


def main(argv: list[str]) -> None:
    """``record_jena.py [OUT]``: record into ``jena-1806.battle.json`` (or write to ``OUT``)."""
    out = Path(argv[0]) if argv else FILE
    battle = store.load(FILE)
    record(battle)
    store.save(battle, out)
    print(f"recorded {len(battle.events)} events over {battle.turns_logged} turns into {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
