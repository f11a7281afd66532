"""The Regimental melee situation read from the table (3.4.1, 3.4.2, Застрельщики): the side
attacked from the units' rectangles, a fortification and a wood from the scenario's terrain;
the umpire's parameter still overrides the map and says so; the assumed readings change it."""

from __future__ import annotations

from shapely.geometry import box

from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.rules.actions import ActionRequest

from regimental_world import Script, activate, session

AV = "austrian-avantgarde"  # front (112, 61) facing south: body x 95-129, y 61-64

VIL = "french-bde-villatte"


def melee_preview(units, params=None, terrain=(), **req):
    s = session(Script(), units, params=params)
    activate(s, "french", "french-2eme-division", ["melee"])
    return s.preview_action(ActionRequest("melee", VIL, {"target": AV, **req}, terrain=tuple(terrain)))


def test_front_flank_and_rear_from_the_rectangles():
    front = melee_preview({VIL: {"position": (112.0, 60.5), "facing": 90.0, "formation": "line"}})
    assert "attack in the flank" not in front.explanation and "attack in the rear" not in front.explanation
    flank = melee_preview({VIL: {"position": (129.5, 62.5), "facing": 180.0, "formation": "column"}})
    assert "attack in the flank (3.4.1)" in flank.explanation and "attack into the flank" in flank.explanation
    rear = melee_preview({VIL: {"position": (112.0, 64.5), "facing": 270.0, "formation": "column"}})
    assert "attack in the rear (3.4.1)" in rear.explanation
    assert dict(rear.odds)["attacker wins"] > dict(flank.odds)["attacker wins"] > dict(front.odds)["attacker wins"]
    # a square has no flank or rear (3.4.2)
    sq = melee_preview(
        {AV: {"formation": "square"}, VIL: {"position": (112.0, 64.5), "facing": 270.0, "formation": "column"}}
    )
    assert "attack in the rear" not in sq.explanation
    # the umpire's ruling overrides the map and says so
    ruled = melee_preview({VIL: {"position": (112.0, 64.5), "facing": 270.0, "formation": "column"}}, attack="front")
    assert "by the umpire's ruling (the map gives rear" in ruled.explanation
    assert "attack in the rear (3.4.1)" not in ruled.explanation


def test_the_centre_sector_reading_changes_the_side():
    # VIL's front meets AV's front near AV's east end: the edge is AV's front, but VIL's front
    # centre stands 82° off AV's facing seen from AV's centre (112, 62.5)
    units = {VIL: {"position": (126.0, 60.5), "facing": 90.0, "formation": "line"}}
    assert "attack into the flank" not in melee_preview(units).explanation
    sector = melee_preview(units, params={"attack_side_reading": "centre_sector"})
    assert "attack into the flank: it stands 82° off the target's facing" in sector.explanation


def test_a_fortification_from_the_terrain_and_from_a_marked_feature():
    units = {VIL: {"position": (112.0, 60.5), "facing": 90.0, "formation": "line"}}
    redoubt = TerrainFeature("redoubt", TerrainKind.BUILT_UP, box(100, 60, 125, 66), "Ober-Elchingen abbey")
    pv = melee_preview(units, terrain=[redoubt])
    assert "attack on a fortification" in pv.explanation and "holds Ober-Elchingen abbey" in pv.explanation
    assert "attack on a fortification" not in melee_preview(units).explanation
    marked = TerrainFeature(
        "earthwork", TerrainKind.HILL, box(100, 60, 125, 66), "Earthwork", 1, properties={"fortification": True}
    )
    assert "attack on a fortification" in melee_preview(units, terrain=[marked]).explanation
    none = melee_preview(units, params={"fortification_terrain": []}, terrain=[redoubt])
    assert "attack on a fortification" not in none.explanation


def test_skirmishers_in_a_wood_on_the_map_cannot_be_attacked():
    wood = TerrainFeature("copse", TerrainKind.WOODS, box(90, 58, 135, 70), "Copse by the road")
    s = session(
        Script(),
        {
            AV: {"subtype": "skirmishers", "formation": "skirmish"},
            VIL: {"position": (112.0, 60.5), "facing": 90.0, "formation": "line"},
        },
    )
    activate(s, "french", "french-2eme-division", ["melee"])
    out = s.act(ActionRequest("melee", VIL, {"target": AV}, terrain=(wood,)))
    assert out.status == "refused" and "в лесу" in out.explanation
    assert s.preview_action(ActionRequest("melee", VIL, {"target": AV})).legal  # the bundled map has no wood there
