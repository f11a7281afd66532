"""Where a table lies on the Earth: the georeference of a scenario and the table cm <-> WGS84 maps.

A ``Georeference`` pins the table origin (x = y = 0 cm, the bottom-left corner) to a longitude
and latitude (WGS84 degrees) and gives the bearing of the table's +x axis (degrees clockwise
from true north: 90 = +x points east, +y north). With the scenario's ground scale (metres of
ground per table cm) a table point becomes ground metres east and north of the origin, and
pyproj's azimuthal equidistant projection centred on the origin turns those into longitude and
latitude (distances and bearings from the origin are true on that projection).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

if TYPE_CHECKING:
    from pyproj import Transformer


class GeoreferenceError(ValueError):
    """A georeference or a pair of control points that cannot place the table."""


@dataclass(frozen=True, slots=True)
class Georeference:
    """The table origin at (``lon``, ``lat``) WGS84 degrees; the +x axis at ``bearing`` degrees
    clockwise from true north.

    Raises
    ------
    GeoreferenceError
        for a longitude outside [-180, 180], a latitude outside [-90, 90] or a bearing that is
        not a finite number.
    """

    lon: float
    lat: float
    bearing: float = 90.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.lon) and -180.0 <= self.lon <= 180.0):
            raise GeoreferenceError(f"georef.lon: {self.lon!r} is not a longitude in -180..180 degrees")
        if not (math.isfinite(self.lat) and -90.0 <= self.lat <= 90.0):
            raise GeoreferenceError(f"georef.lat: {self.lat!r} is not a latitude in -90..90 degrees")
        if not math.isfinite(self.bearing):
            raise GeoreferenceError(f"georef.bearing: {self.bearing!r} is not a bearing in degrees")


@lru_cache(maxsize=32)
def _transformer(lon: float, lat: float) -> Transformer:
    """Local azimuthal equidistant metres (origin at lon, lat) -> WGS84 lon/lat, always x = lon."""
    from pyproj import CRS, Transformer

    local = CRS.from_proj4(f"+proj=aeqd +lat_0={lat!r} +lon_0={lon!r} +x_0=0 +y_0=0 +datum=WGS84 +units=m")
    return Transformer.from_crs(local, CRS.from_epsg(4326), always_xy=True)


def _points(xy: ArrayLike) -> NDArray[np.float64]:
    pts = np.asarray(xy, dtype=np.float64)
    if pts.ndim == 1:
        pts = pts.reshape(1, -1)
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise GeoreferenceError(f"points must be (n, 2) pairs, not an array of shape {pts.shape}")
    return pts


def to_lonlat(georef: Georeference, ground_scale: float, xy: ArrayLike) -> NDArray[np.float64]:
    """Table points ``xy`` ((n, 2) cm) as (n, 2) WGS84 (lon, lat) degrees."""
    pts = _points(xy) * ground_scale
    b = math.radians(georef.bearing)
    east = pts[:, 0] * math.sin(b) - pts[:, 1] * math.cos(b)
    north = pts[:, 0] * math.cos(b) + pts[:, 1] * math.sin(b)
    lon, lat = _transformer(float(georef.lon), float(georef.lat)).transform(east, north)
    return np.column_stack([lon, lat])


def from_lonlat(georef: Georeference, ground_scale: float, lonlat: ArrayLike) -> NDArray[np.float64]:
    """WGS84 points ``lonlat`` ((n, 2) degrees) as (n, 2) table cm."""
    pts = _points(lonlat)
    east, north = _transformer(float(georef.lon), float(georef.lat)).transform(
        pts[:, 0], pts[:, 1], direction="INVERSE"
    )
    b = math.radians(georef.bearing)
    x = east * math.sin(b) + north * math.cos(b)
    y = -east * math.cos(b) + north * math.sin(b)
    return np.column_stack([x, y]) / ground_scale


def from_two_points(
    table_a: tuple[float, float],
    lonlat_a: tuple[float, float],
    table_b: tuple[float, float],
    lonlat_b: tuple[float, float],
    ground_scale: float,
) -> tuple[Georeference, float]:
    """The georeference that puts table point ``table_a`` (cm) on ``lonlat_a`` and turns the table
    so ``table_b`` lies towards ``lonlat_b``; with the ratio of the ground distance between the two
    places to the table distance times ``ground_scale`` (1.0 = the scale fits exactly).

    Raises
    ------
    GeoreferenceError
        when the two table points or the two places coincide.
    """
    from pyproj import Geod

    (ax, ay), (bx, by) = table_a, table_b
    table_cm = math.hypot(bx - ax, by - ay)
    if table_cm < 1e-9:
        raise GeoreferenceError("the two table points are the same point: pick two points apart")
    geod = Geod(ellps="WGS84")
    azimuth, _back, metres = geod.inv(lonlat_a[0], lonlat_a[1], lonlat_b[0], lonlat_b[1])
    if metres < 1e-6:
        raise GeoreferenceError("the two places are the same place: pick two places apart")
    # bearing of the table's +x axis = bearing from a to b minus the angle of a->b from +x (CCW)
    angle_ab = math.degrees(math.atan2(by - ay, bx - ax))
    bearing = float((azimuth + angle_ab) % 360.0)
    # the origin lies from a at table offset (-ax, -ay): walk that on the ground from lonlat_a
    provisional = Georeference(float(lonlat_a[0]), float(lonlat_a[1]), bearing)
    origin = to_lonlat(provisional, ground_scale, [(-ax, -ay)])[0]
    georef = Georeference(float(origin[0]), float(origin[1]), bearing)
    for _ in range(4):  # the projection is centred on the origin, not on a: correct for that
        (mlon, mlat), (nlon, nlat) = to_lonlat(georef, ground_scale, [table_a, table_b])
        mapped_azimuth = geod.inv(mlon, mlat, nlon, nlat)[0]
        turn = (azimuth - mapped_azimuth + 180.0) % 360.0 - 180.0
        georef = Georeference(
            float(georef.lon + lonlat_a[0] - mlon),
            float(georef.lat + lonlat_a[1] - mlat),
            float((georef.bearing + turn) % 360.0),
        )
    return georef, metres / (table_cm * ground_scale)
