"""Areas and lines (the small Jena 1806 battle, a 240 × 180 cm table): empty and invalid
geometries, geometry off the table, overlapping town zones."""

from __future__ import annotations

from dataclasses import replace

from shapely.affinity import translate
from shapely.geometry import LineString, Point, Polygon, box

from battlestudio.model import DeploymentZone, Objective, TerrainFeature, TerrainKind, TownZone, default_town_polygon
from battlestudio.validate import Problem, check_battle
from tests.store.conftest import jena_battle


def test_invalid_and_empty_geometries():
    b = jena_battle()
    bowtie = Polygon([(0, 0), (10, 10), (10, 0), (0, 10)])
    b.scenario.terrain["bad-wood"] = TerrainFeature("bad-wood", TerrainKind.WOODS, bowtie)
    b.scenario.towns["nowhere"] = TownZone("nowhere", "Nowhere", Polygon())
    found = check_battle(b)
    assert Problem("error", "geometry.empty", "towns['nowhere'].polygon: empty Polygon", ("nowhere",)) in found
    bad = [p for p in found if p.subjects == ("bad-wood",)]
    assert len(bad) == 1 and bad[0].check == "geometry.invalid"
    assert bad[0].message.startswith("terrain['bad-wood'].geometry: invalid Polygon: Self-intersection")
    assert {p.check for p in found} == {"geometry.empty", "geometry.invalid"}  # not also "off the table"


def test_towns_that_only_touch_do_not_overlap():
    b = jena_battle()
    b.scenario.towns = {"a": TownZone("a", "A", box(0, 0, 15, 15)), "b": TownZone("b", "B", box(15, 0, 30, 15))}
    assert check_battle(b) == []
    b.scenario.towns["b"] = TownZone("b", "B", box(14, 0, 29, 15))
    assert check_battle(b) == [
        Problem("error", "town.overlap", "towns['a'].polygon: overlaps town zone 'b' by 15.0 cm²", ("a", "b"))
    ]


def test_terrain_may_run_past_the_edge_but_not_lie_wholly_off_the_table():
    b = jena_battle()
    s = b.scenario
    # the Saale already runs from edge to edge; a wood cut by the north edge is ordinary scenery
    s.terrain["edge-wood"] = TerrainFeature("edge-wood", TerrainKind.WOODS, box(170, 170, 190, 195), "Rauhtal")
    assert check_battle(b) == []
    s.terrain["lost-road"] = TerrainFeature(
        "lost-road", TerrainKind.ROAD, LineString([(250, 10), (300, 60)]), "Apolda road", width=1.0
    )
    assert check_battle(b) == [
        Problem(
            "warning",
            "terrain.off_table",
            "terrain['lost-road'].geometry: LineString "
            "lies wholly off the table (spans x 250.0–300.0, y 10.0–60.0 cm; the table "
            "is 240 × 180 cm)",
            ("lost-road",),
        )
    ]


def test_towns_objectives_and_deployment_zones_must_lie_on_the_table():
    b = jena_battle()
    s = b.scenario
    s.towns["closewitz"] = replace(s.towns["closewitz"], polygon=default_town_polygon((236.0, 120.0)))
    s.objectives["vierzehnheiligen"] = replace(s.objectives["vierzehnheiligen"], geometry=Point(100.0, 181.0))
    s.deployment_zones["dz-soult"] = replace(
        s.deployment_zones["dz-soult"], polygon=translate(s.deployment_zones["dz-soult"].polygon, 10.0)
    )
    got = check_battle(b)
    assert [(p.severity, p.check, p.subjects) for p in got] == [
        ("error", "town.off_table", ("closewitz",)),
        ("error", "objective.off_table", ("vierzehnheiligen",)),
        ("error", "deployment_zone.off_table", ("dz-soult",)),
    ]
    assert got[1].message == (
        "objectives['vierzehnheiligen'].geometry: Point spans x 100.0–100.0, y 181.0–181.0 cm; "
        "the table is 240 × 180 cm"
    )
    assert got[2].message.startswith("deployment_zones['dz-soult'].polygon: Polygon spans x 190.0–250.0, y 0.0–60.0")


def test_an_area_on_the_table_edge_is_on_the_table():
    b = jena_battle()
    s = b.scenario
    s.deployment_zones["dz-all"] = DeploymentZone("dz-all", "french", "Whole table", box(0, 0, 240, 180))
    s.objectives["corner"] = Objective("corner", "Corner", Point(240.0, 180.0), "french", 1)
    assert check_battle(b) == []
