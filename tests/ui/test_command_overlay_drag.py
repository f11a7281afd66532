"""Dragging generals and units in the editor with the command overlay on: each mouse move
updates only what depends on the moved record, and what is drawn equals a fresh overlay on
the same scenario — on a Leipzig-shaped synthetic army (generals wandered away mid-battle) and
on Jena 1806, under Torden over Europa, Regimental, Belle Alliance and General d'Armée."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.analysis.command_picture import command_picture
from battlestudio.document import Document
from battlestudio.edits import MoveRecords, PutRecords, SetInfo
from battlestudio.model.units import Commander
from battlestudio.replay.battle import Battle
from battlestudio.replay.state import GameState
from battlestudio.session.synthetic import synthetic_game
from battlestudio.rules import get_ruleset
from battlestudio.ui.command_overlay import CommandOverlay
from battlestudio.ui.map_scene import MapScene

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"
TOE_LARGE = {
    "corps_command_distance_cm": 60.0,
    "zones_cm.army": [40, 80, "120+"],
    "command_thresholds": [3, 5, 7],
    "command_modifiers": {},
}


def drawn(ov: CommandOverlay) -> dict:
    """Everything the overlay's items show, comparable."""

    def pos(item):
        return (item.pos().x(), item.pos().y())

    def rect(r):
        return (r.x(), r.y(), r.width(), r.height())

    return {
        "reaches": {k: (i.reach, pos(i), i.colour.name(), i.isVisible()) for k, i in ov.reaches.items.items()},
        "links": {k: (s, ln.x1(), ln.y1(), ln.x2(), ln.y2()) for k, (s, ln) in ov.links.links().items()},
        "lines": {k: len(v) for k, v in ov.links.lines.items()},
        "marks": {
            k: (m.exempt, m.text, rect(m.outline.boundingRect()), ov.marks.isVisible())
            for k, m in ov.marks.items.items()
        },
        "orders": {
            k: (i.a.x(), i.a.y(), i.b.x(), i.b.y(), i.text, i.pending, i.toolTip()) for k, i in ov.orders.items.items()
        },
        "budgets": {k: (pos(i), i.text, i.toolTip()) for k, i in ov.budgets.items.items()},
        "detached": {k: rect(i.path().boundingRect()) for k, i in ov.detached.items.items()},
        "summaries": {k: (i.count, i.toolTip(), pos(i)) for k, i in ov.summaries.items.items()},
        "message": ov.message,
    }


def assert_as_fresh(ov: CommandOverlay, doc: Document) -> None:
    state = GameState.from_scenario(doc.scenario)
    info = doc.scenario.info
    expected = command_picture(state, get_ruleset(info.ruleset), info.parameters)
    for name in ("reaches", "findings", "links", "budgets", "orders", "detached", "refusals"):
        assert getattr(ov.picture, name) == getattr(expected, name), name
    fresh = CommandOverlay(MapScene())
    fresh.set_rules(info.ruleset, info.parameters)
    fresh.set_reach_ids(ov._reach_ids)  # the same reaches asked for
    fresh.set_show_all_reaches(ov.show_all_reaches)
    fresh.show_state(state)
    assert drawn(ov) == drawn(fresh)


def drag(doc: Document, ov: CommandOverlay, kind: str, rid: str, rng: random.Random, steps: int = 4) -> None:
    start = getattr(doc.scenario, kind)[rid].position
    for _ in range(steps):
        pos = (start[0] + rng.uniform(-40, 40), start[1] + rng.uniform(-40, 40))
        facings = {rid: rng.uniform(0, 360)} if kind == "units" else None
        doc.push(MoveRecords(kind, {rid: pos}, facings, "Move", merge_key=("drag", rid)))
        assert ov.last_update == "moved"
        assert_as_fresh(ov, doc)


def leipzig_document() -> Document:
    """The synthetic army as it stands two thirds into its game, as an editor scenario."""
    game = synthetic_game(turns=8, units_per_side=64, seed=1813, command_orders=True)
    log = game.log()
    state = log.state_at(log.phase_starts()[len(log.phases()) * 2 // 3])
    s = game.scenario
    s.units, s.commanders = dict(state.units), dict(state.commanders)
    s.info = replace(s.info, parameters=dict(TOE_LARGE))
    return Document(Battle(s))


def test_dragging_on_a_leipzig_shaped_army_updates_only_the_moved_and_equals_a_fresh_overlay(qapp):
    doc = leipzig_document()
    ov = CommandOverlay(MapScene())
    ov.bind(doc)
    assert ov.last_update == "full" and len(ov.marks.items) > 20
    ov.set_show_all_reaches(True)  # every reach drawn and followed
    rng = random.Random(5)
    s = doc.scenario
    corps = [c.id for c in s.commanders.values() if c.echelon == "corps"]
    divisions = [c.id for c in s.commanders.values() if c.echelon == "division"]
    for rid in corps[:2] + divisions[:2] + ["french-army"]:
        drag(doc, ov, "commanders", rid, rng)
    drag(doc, ov, "units", next(iter(s.units)), rng)
    while doc.can_undo:  # undoing each drag is a move back: updated the same way
        doc.undo()
        assert ov.last_update == "moved"
    assert_as_fresh(ov, doc)


def jena_document(ruleset: str, params: dict | None) -> Document:
    battle = store.load(JENA)
    s = battle.scenario
    if ruleset == "regimental":  # an adjutant relaying the French HQ's zone (Ambiguity 17)
        hq = s.commanders["french-imperial-guard"]
        s.commanders["french-adc"] = Commander(
            "french-adc",
            "ADC Lejeune",
            "french",
            "France",
            "division",
            (hq.position[0] + 18.0, hq.position[1]),
            attributes={"role": "adjutant"},
        )
    s.info = replace(s.info, ruleset=ruleset, parameters=s.info.parameters if params is None else params)
    return Document(Battle(s))


@pytest.mark.parametrize(
    "ruleset, params",
    [
        ("toe", None),
        ("regimental", {"adjutants.french": 1, "adjutants.prussian": 1}),
        ("belle-alliance", {"command_distance_cm": 20.0}),
        ("gda", {"adcs": 2}),
    ],
)
def test_dragging_on_jena_equals_a_fresh_overlay(qapp, ruleset, params):
    doc = jena_document(ruleset, params)
    ov = CommandOverlay(MapScene())
    ov.bind(doc)
    assert ov.picture.findings and ov.message == ""
    rng = random.Random(1806)
    movers = ["french-v-corps", "french-imperial-guard", "french-1eme-division", "french-cav-bde", "prussian-1st-div"]
    if ruleset == "regimental":
        movers.append("french-adc")
    ov.set_reach_ids(set(movers))  # the dragged generals' reaches drawn
    for rid in movers:
        drag(doc, ov, "commanders", rid, rng)
    unit = next(n for n in doc.scenario.oob.subordinates("french-cav-bde") if n in doc.scenario.units)
    drag(doc, ov, "units", unit, rng)


def test_edits_other_than_moves_recompute_everything(qapp):
    doc = jena_document("toe", None)
    ov = CommandOverlay(MapScene())
    ov.bind(doc)
    lannes = doc.scenario.commanders["french-v-corps"]
    doc.push(PutRecords("commanders", {lannes.id: replace(lannes, command_distance=5.0)}, "Edit"))
    assert ov.last_update == "full"
    assert_as_fresh(ov, doc)
    assert {f.subject for f in ov.picture.findings.values() if f.superior == lannes.id and not f.within}
    doc.push(MoveRecords("commanders", {lannes.id: (lannes.position[0] + 5, lannes.position[1])}, None, "Move"))
    assert ov.last_update == "moved"
    assert_as_fresh(ov, doc)
    info = doc.scenario.info
    doc.push(SetInfo({"ruleset": "belle-alliance", "parameters": {"command_distance_cm": 12.0}}, "Rules"))
    assert ov.last_update == "full" and doc.scenario.info is not info
    assert_as_fresh(ov, doc)


def test_a_hidden_overlay_follows_the_drag_and_draws_when_shown(qapp):
    doc = jena_document("toe", None)
    ov = CommandOverlay(MapScene(), visible=False)
    ov.bind(doc)
    rng = random.Random(3)
    start = doc.scenario.commanders["french-v-corps"].position
    for _ in range(3):
        doc.push(
            MoveRecords(
                "commanders",
                {"french-v-corps": (start[0] + rng.uniform(-40, 40), start[1])},
                None,
                "Move",
                merge_key="drag",
            )
        )
        assert ov.last_update == "hidden"
    ov.set_visible(True)
    assert ov.last_update == "full"
    assert_as_fresh(ov, doc)


def test_views_following_the_drag_share_the_overlays_state(qapp):
    from battlestudio.ui.command_overlay import document_state

    doc = jena_document("toe", None)
    ov = CommandOverlay(MapScene())
    ov.bind(doc)
    before = document_state(doc)
    assert before is not ov._state  # a full recompute: no shared state yet
    doc.push(MoveRecords("commanders", {"french-v-corps": (400.0, 150.0)}, None, "Move"))
    shared = document_state(doc)
    assert shared is ov._state and shared.commanders["french-v-corps"].position == (400.0, 150.0)
    fresh = GameState.from_scenario(doc.scenario)
    assert dict(shared.units) == dict(fresh.units) and dict(shared.commanders) == dict(fresh.commanders)
    assert shared.oob == fresh.oob and shared.off_table == fresh.off_table
    lannes = doc.scenario.commanders["french-v-corps"]
    doc.push(PutRecords("commanders", {lannes.id: replace(lannes, name="Jean Lannes")}, "Rename"))
    renamed = document_state(doc)  # not a move: built from the scenario again
    assert renamed is not ov._state and renamed.commanders["french-v-corps"].name == "Jean Lannes"


def test_replay_steps_that_change_some_records_update_only_them(qapp):
    """Stepping the Leipzig-shaped game event by event, forwards and back: steps that move
    units or generals, change formations or losses are drawn by updating what depends on them,
    and what is drawn always equals a fresh overlay on the state at the cursor."""
    game = synthetic_game(turns=4, units_per_side=48, seed=1813, command_orders=True)
    log = game.log()
    params = dict(TOE_LARGE)
    ov = CommandOverlay(MapScene())
    ov.set_rules("toe", params)
    start = log.phase_starts()[len(log.phases()) // 2]
    cursors = list(range(start, start + 60)) + list(range(start + 60, start - 1, -3)) + log.phase_starts()[:6]
    kinds = []
    for pos in cursors:
        state = log.state_at(pos)
        ov.show_state(state)
        kinds.append(ov.last_update)
        expected = command_picture(state, get_ruleset("toe"), params)
        for name in ("reaches", "findings", "links", "budgets", "orders", "detached", "refusals"):
            assert getattr(ov.picture, name) == getattr(expected, name), (pos, name)
        if pos % 5 == 0:
            fresh = CommandOverlay(MapScene())
            fresh.set_rules("toe", params)
            fresh.show_state(state)
            assert drawn(ov) == drawn(fresh), pos
    assert kinds.count("moved") > len(cursors) // 3 and "full" in kinds


def test_an_order_arrow_goes_when_its_unit_is_eliminated_in_a_replay_step(qapp):
    from battlestudio.model.orders import Order

    doc = jena_document("belle-alliance", {"command_distance_cm": 20.0})
    state = GameState.from_scenario(doc.scenario)
    uid = next(n for n in state.oob.subordinates("french-cav-bde") if n in state.units)
    state = state.with_order(Order("o-charge", "french-cav-bde", uid, "attack", objective=(200.0, 120.0)))
    ov = CommandOverlay(MapScene())
    ov.set_rules("belle-alliance", {"command_distance_cm": 20.0})
    ov.show_state(state)
    assert set(ov.orders.items) == {"o-charge"}
    ov.show_state(state.with_unit(replace(state.units[uid], state="eliminated")))
    assert ov.last_update == "moved" and ov.orders.items == {} and uid not in ov.links.links()
    ov.show_state(state)
    assert ov.last_update == "moved" and set(ov.orders.items) == {"o-charge"}


def test_an_out_of_command_unit_put_under_another_corps_is_counted_there(qapp):
    from battlestudio.edits.oob import Reattach
    from battlestudio.ui.command_summaries import corps_of

    doc = leipzig_document()
    ov = CommandOverlay(MapScene())
    ov.bind(doc)
    s = doc.scenario
    sub = next(k for k, f in sorted(ov.picture.findings.items()) if not f.within and not f.exemption and k in s.units)
    head = corps_of(ov._state, sub, s.oob.superior(sub))
    other = next(
        c.id for c in s.commanders.values() if c.echelon == "corps" and c.side == s.units[sub].side and c.id != head
    )
    division = next(d for d in s.oob.subordinates(other) if d in s.commanders)
    doc.push(Reattach(sub, division, "Attach to another corps"))  # the order of battle changed in place
    assert_as_fresh(ov, doc)
    f = ov.picture.findings.get(sub)
    counted = f is not None and not f.within and not f.exemption
    assert (sub in ov.summaries._members.get(other, set())) == counted
    assert sub not in ov.summaries._members.get(head, set())
    doc.undo()
    assert_as_fresh(ov, doc)
    assert sub in ov.summaries._members[head]
