"""The command overlay against the command engine: marks, lines, reaches, orders, budgets,
detached formations, the "command" layer toggle, and live updates when a general is moved."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlestudio.analysis.command_picture import IN, OUT
from battlestudio.document import Document
from battlestudio.edits import MoveRecords
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import Detached, OrderDelivered, OrderWritten
from battlestudio.replay.state import GameState
from battlestudio.rules import get_ruleset
from battlestudio.ui.command_overlay import LAYER, BudgetItem, CommandOverlay, OrderItem
from battlestudio.ui.map_scene import MapScene
from tests.analysis import known_game

TOE = get_ruleset("toe")
MOVABLE = [
    "french-c1",
    "french-d1",
    "french-u1",
    "french-u2",
    "prussian-c1",
    "prussian-d1",
    "prussian-u1",
    "prussian-u2",
]


def overlay_for(state: GameState) -> CommandOverlay:
    scene = MapScene()
    ov = CommandOverlay(scene)
    ov.set_rules("toe", known_game.PARAMS)
    ov.show_state(state)
    return ov


def marked(ov: CommandOverlay, exempt: bool) -> set[str]:
    return {k for k, item in ov.marks.items.items() if item.exempt is exempt}


points = st.tuples(st.floats(0.0, 200.0), st.floats(0.0, 180.0))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.dictionaries(st.sampled_from(MOVABLE), points, min_size=1), detach=st.booleans())
def test_units_drawn_out_of_command_are_the_engines_list(qapp, moves, detach):
    state = GameState.from_scenario(known_game.scenario())
    for rid, pos in moves.items():
        rec = state.record(rid)
        state = state.with_unit(rec.moved(pos)) if rid in state.units else state.with_commander(rec.moved(pos))
    if detach:
        state = Detached(
            1,
            "french",
            "orders",
            node="french-d1",
            superior_before="french-c1",
            superior_after="french-c1",
            order_id="o9",
        ).apply(state)
    ov = overlay_for(state)
    findings = TOE.out_of_command(state, known_game.PARAMS)
    assert marked(ov, exempt=False) == {f.subject for f in findings if not f.within and not f.exemption}
    assert marked(ov, exempt=True) == {f.subject for f in findings if not f.within and f.exemption}
    assert ov.picture.out_of_command() == marked(ov, exempt=False)
    out_lines = {
        s
        for s, link in ov.picture.links.items()
        if link.status == OUT and link.superior != "french-army" and link.superior != "prussian-army"
    }
    assert out_lines == marked(ov, exempt=False)
    assert len(ov.links.lines[OUT]) == sum(1 for link in ov.picture.links.values() if link.status == OUT)


def test_reaches_zones_and_radii_follow_the_engine(qapp):
    state = GameState.from_scenario(known_game.scenario())
    ov = overlay_for(state)
    assert ov.message == "" and ov.reaches.items == {}  # a reach has an item only when shown
    ov.set_show_all_reaches(True)
    assert set(ov.reaches.items) == set(ov.picture.reaches)
    army = ov.reaches.items["french-army"]
    assert army.reach.kind == "zones" and [b.outer for b in army.reach.zones] == [20.0, 40.0, None]
    assert "zone 1: 0–20 cm; zone 2: 20–40 cm; zone 3: beyond 40 cm" in army.toolTip()
    assert ov.reaches.items["french-c1"].reach.radius == 30.0
    assert ov.reaches.items["french-d1"].reach.radius == 15.0
    # the corps general is 30 cm from his army general: zone 2 of the chief's bands
    link = ov.picture.links["french-c1"]
    assert (link.status, link.zone, round(link.distance)) == (IN, 2, 30)


def test_out_of_command_mark_tells_the_consequence(qapp):
    state = GameState.from_scenario(known_game.scenario())
    state = state.with_commander(state.commanders["french-d1"].moved((100.0, 80.0)))
    ov = overlay_for(state)
    assert marked(ov, exempt=False) == {"french-d1", "french-u1", "french-u2"}
    tip = ov.marks.items["french-u1"].text
    assert "outside his command distance of 15 cm" in tip and "must-return" in tip
    assert "must move back inside in its movement phase" in tip


def test_orders_budgets_and_detachments_are_drawn(qapp):
    log = GameLog.from_scenario(known_game.scenario(), known_game.events()[:4])  # o1 written, rolled, delivered
    state = log.head
    ov = overlay_for(state)
    order = ov.orders.items["o1"]
    assert isinstance(order, OrderItem) and order.text == "A" and not order.pending
    assert "objective at 100, 90 cm" in order.toolTip()
    badge = ov.budgets.items["french-army"]
    assert isinstance(badge, BudgetItem) and badge.text == "OAS 2/3"  # one point spent on o1
    assert ov.budgets.items["prussian-army"].text == "OAS 3/3"
    pending = OrderWritten(
        1,
        "prussian",
        "orders",
        order_id="o2",
        issuer="prussian-army",
        recipient="prussian-c1",
        order_type="M",
        objective=(20.0, 150.0),
        cost=1,
    ).apply(state)
    ov.show_state(pending)
    assert ov.orders.items["o2"].pending and ov.orders.items["o2"].text == "M (pending)"
    detached = Detached(
        1, "french", "orders", node="french-d1", superior_before="french-c1", superior_after="french-c1", order_id="o1"
    ).apply(pending)
    ov.show_state(detached)
    assert set(ov.detached.items) == {"french-d1"}
    assert ov.picture.detached == {"french-d1", "french-u1", "french-u2"}
    delivered = OrderDelivered(1, "prussian", "orders", order_id="o2").apply(detached)
    ov.show_state(delivered)
    assert not ov.orders.items["o2"].pending
    ov.show_state(GameState.from_scenario(known_game.scenario()))
    assert ov.orders.items == {} and ov.detached.items == {}


def test_command_layer_toggle(qapp):
    scene = MapScene()
    ov = CommandOverlay(scene)
    ov.set_rules("toe", known_game.PARAMS)
    ov.show_state(GameState.from_scenario(known_game.scenario()))
    assert LAYER in scene.layer_names(["french", "prussian"])
    assert ov.picture.reaches and all(item.isVisible() for item in ov.items())
    assert ov.reaches.items == {}  # command circles are off until asked for: no reach item
    ov.set_reach_ids({"french-c1", "french-u1"})  # a corps general, and a unit
    assert (
        {k for k, r in ov.reaches.items.items() if r.isVisible()}
        == {
            "french-c1",
            ov.picture.links["french-u1"].superior,
        }
        == set(ov.reaches.items)
    )
    ov.set_show_all_reaches(True)
    assert set(ov.reaches.items) == set(ov.picture.reaches)
    assert all(r.isVisible() for r in ov.reaches.items.values())
    scene.set_layer_visible(LAYER, False)
    assert not any(item.isVisible() for item in ov.items())
    scene.set_layer_visible(LAYER, True)
    assert all(item.isVisible() for item in ov.items()) and len(ov.items()) > 5


def test_missing_parameters_are_reported_not_raised(qapp):
    s = known_game.scenario()
    s.commanders["french-c1"] = replace(s.commanders["french-c1"], command_distance=None)
    ov = CommandOverlay(MapScene())
    ov.set_rules("toe", {})
    ov.show_state(GameState.from_scenario(s))
    assert "zones_cm" in ov.message and "corps_command_distance_cm" in ov.message
    ov.set_rules("no-such-rules", {})
    ov.refresh()
    assert "no ruleset 'no-such-rules'" in ov.message and ov.marks.items == {}


def test_dragging_a_general_updates_the_overlay_live(qtbot):
    doc = Document(Battle(known_game.scenario()))
    ov = CommandOverlay(MapScene())
    ov.bind(doc)
    ov.set_reach_ids({"french-d1"})  # the general dragged is the one selected: his reach is drawn
    assert marked(ov, exempt=False) == set()
    for y in (60.0, 70.0, 80.0):  # a drag: one merged move edit per mouse move
        doc.push(MoveRecords("commanders", {"french-d1": (100.0, y)}, None, "Move", merge_key="drag"))
    assert marked(ov, exempt=False) == {"french-d1", "french-u1", "french-u2"}
    assert ov.reaches.items["french-d1"].pos().y() == -80.0
    doc.undo()
    assert marked(ov, exempt=False) == set()
    ov.unbind()
    doc.push(MoveRecords("commanders", {"french-d1": (100.0, 80.0)}, None, "Move"))
    assert marked(ov, exempt=False) == set()  # no longer following the document


def test_replay_steps_keep_the_overlay_on_the_state_at_the_cursor(qtbot):
    """Stepping a game event by event and phase by phase, back and forth: what the overlay
    shows is always the command picture of the state at the cursor (steps that change nothing
    it reads keep the items, the others redraw them)."""
    from battlestudio.analysis.command_picture import command_picture
    from battlestudio.document import Document
    from battlestudio.replay.battle import Battle
    from battlestudio.session.synthetic import synthetic_game
    from battlestudio.rules import get_ruleset
    from battlestudio.ui.map_view import MapView

    game = synthetic_game(turns=3, units_per_side=12, seed=7)
    view = MapView(Document(Battle(game.scenario, game.events)))
    qtbot.addWidget(view)
    overlay = CommandOverlay(view.map_scene)
    overlay.set_rules(game.scenario.info.ruleset, game.scenario.info.parameters)
    log = game.log()
    ruleset = get_ruleset(game.scenario.info.ruleset)
    positions = list(range(0, min(len(log), 120))) + list(range(min(len(log), 120), -1, -7))
    positions += log.phase_starts()[:10]
    refreshed = skipped = 0
    for pos in positions:
        state = log.state_at(pos)
        before = overlay.picture
        overlay.show_state(state)
        expected = command_picture(state, ruleset, game.scenario.info.parameters)
        assert overlay.picture.links == expected.links and overlay.picture.findings == expected.findings
        assert overlay.picture.orders == expected.orders and overlay.picture.budgets == expected.budgets
        assert set(overlay.marks.items) == set(expected.out_of_command()) | set(expected.exempt())
        if overlay.picture is before:
            skipped += 1
        else:
            refreshed += 1
    assert refreshed and skipped  # both kinds of step occurred
