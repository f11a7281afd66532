"""The table cm <-> WGS84 maps of model.georef, on Jena's table (480 x 300 cm at 25 m/cm)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pyproj import Geod

from battlestudio.model.georef import Georeference, GeoreferenceError, from_lonlat, from_two_points, to_lonlat

JENA = Georeference(lon=11.50, lat=50.90, bearing=90.0)  # the table's south-west corner near Jena
SCALE = 25.0
CORNERS = np.array([(0.0, 0.0), (480.0, 0.0), (480.0, 300.0), (0.0, 300.0)])


def test_the_origin_is_the_given_place_and_x_points_east():
    (lon0, lat0), (lon1, lat1) = to_lonlat(JENA, SCALE, CORNERS[:2])
    assert (lon0, lat0) == pytest.approx((11.50, 50.90))
    azimuth, _, metres = Geod(ellps="WGS84").inv(lon0, lat0, lon1, lat1)
    assert azimuth == pytest.approx(90.0, abs=0.01) and metres == pytest.approx(480 * SCALE, rel=1e-6)


@pytest.mark.parametrize("bearing", [0.0, 37.0, 90.0, 200.0, 359.0])
def test_table_to_earth_and_back_is_exact(bearing):
    g = Georeference(11.50, 50.90, bearing)
    pts = np.array([(0.0, 0.0), (480.0, 300.0), (123.4, 56.7), (-20.0, 310.0)])
    assert np.abs(from_lonlat(g, SCALE, to_lonlat(g, SCALE, pts)) - pts).max() < 1e-6


def test_plus_y_is_a_quarter_turn_left_of_plus_x():
    g = Georeference(11.50, 50.90, 30.0)
    (lon0, lat0), (lon1, lat1) = to_lonlat(g, SCALE, [(0.0, 0.0), (0.0, 100.0)])
    azimuth = Geod(ellps="WGS84").inv(lon0, lat0, lon1, lat1)[0] % 360
    assert azimuth == pytest.approx(300.0, abs=0.01)


def test_two_known_places_give_back_the_georeference():
    truth = Georeference(11.55, 50.93, 37.0)
    a, b = (100.0, 50.0), (400.0, 250.0)
    la, lb = to_lonlat(truth, SCALE, [a, b])
    found, ratio = from_two_points(a, tuple(la), b, tuple(lb), SCALE)
    assert ratio == pytest.approx(1.0, rel=1e-6)
    assert (found.lon, found.lat) == pytest.approx((truth.lon, truth.lat), abs=1e-9)
    assert math.isclose(found.bearing, truth.bearing, abs_tol=1e-6)


def test_the_scale_ratio_says_when_the_places_are_farther_than_the_table_allows():
    a, b = (0.0, 0.0), (100.0, 0.0)
    la = (11.50, 50.90)
    lb = tuple(Geod(ellps="WGS84").fwd(la[0], la[1], 90.0, 5000.0)[:2])  # 5 km where the table says 2.5 km
    _, ratio = from_two_points(a, la, b, lb, SCALE)
    assert ratio == pytest.approx(2.0, rel=1e-6)


def test_bad_values_are_refused_naming_the_field():
    with pytest.raises(GeoreferenceError, match="georef.lat: 95"):
        Georeference(11.5, 95.0)
    with pytest.raises(GeoreferenceError, match="georef.lon"):
        Georeference(float("nan"), 50.0)
    with pytest.raises(GeoreferenceError, match="same point"):
        from_two_points((1.0, 1.0), (11.5, 50.9), (1.0, 1.0), (11.6, 50.9), SCALE)
    with pytest.raises(GeoreferenceError, match="same place"):
        from_two_points((1.0, 1.0), (11.5, 50.9), (5.0, 1.0), (11.5, 50.9), SCALE)
