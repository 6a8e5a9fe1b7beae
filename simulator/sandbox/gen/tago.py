"""TAGO national bus information: cities → stops → routes → stops on a route → arrivals."""

from __future__ import annotations

import math
from typing import Any

from ..world import World
from ._common import shape

__all__ = ["GENERATORS"]


def _city(f: dict[str, str]) -> int | None:
    raw = f.get("cityCode", "")
    return int(raw) if raw.isdigit() else None


def city_codes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("tago_city_codes", world.bus_cities())


def stations_by_name(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    city = _city(f)
    return [] if city is None else shape("tago_stations_by_name", world.bus_stations(city))


def stations_nearby(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """Stops within ~500 m of the point, nearest first, over every city."""
    try:
        lat, lon = float(f.get("gpsLati", "")), float(f.get("gpsLong", ""))
    except ValueError:
        return []
    near = []
    for c in world.bus_cities():
        for s in world.bus_stations(c["citycode"]):
            dy = (s["gpslati"] - lat) * 111_000
            dx = (s["gpslong"] - lon) * 111_000 * math.cos(math.radians(lat))
            dist = math.hypot(dx, dy)
            if dist <= 500:
                near.append((dist, s["nodeid"], s))
    near.sort(key=lambda t: (t[0], t[1]))
    return shape("tago_stations_nearby", [s for _, _, s in near])


def station_routes(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    city = _city(f)
    if city is None:
        return []
    return shape("tago_station_routes", sorted(world.station_routes(city, f.get("nodeid", "")), key=lambda r: r["routeid"]))


def routes_by_number(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    city = _city(f)
    return [] if city is None else shape("tago_routes_by_number", world.bus_routes(city))


def route_stops(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    city = _city(f)
    return [] if city is None else shape("tago_route_stops", world.route_stops(city, f.get("routeId", "")))


def station_arrivals(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    city = _city(f)
    return [] if city is None else shape("tago_station_arrivals", world.bus_arrivals(city, f.get("nodeId", "")))


def route_arrival(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    city = _city(f)
    if city is None:
        return []
    rows = [a for a in world.bus_arrivals(city, f.get("nodeId", "")) if a["routeid"] == f.get("routeId")]
    return shape("tago_route_arrival_at_station", rows)


def bus_locations(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """Buses running on a route: about one every eight stops."""
    city = _city(f)
    if city is None:
        return []
    route = next((r for r in world.bus_routes(city) if r["routeid"] == f.get("routeId")), None)
    if route is None:
        return []
    rng = world.rng("bus_locations", city, route["routeid"])
    rows = []
    for s in world.route_stops(city, route["routeid"])[rng.randint(0, 5)::8]:
        rows.append({**s, "routenm": route["routeno"], "routetp": route["routetp"],
                     "vehicleno": f"{rng.choice(['충남', '대전', '경기', '경북', '부산'])}{rng.randint(70, 79)}자{rng.randint(1000, 9999)}"})
    return shape("tago_route_bus_locations", rows)


GENERATORS = {
    "tago_city_codes": city_codes,
    "tago_stations_by_name": stations_by_name,
    "tago_stations_nearby": stations_nearby,
    "tago_station_routes": station_routes,
    "tago_routes_by_number": routes_by_number,
    "tago_route_stops": route_stops,
    "tago_station_arrivals": station_arrivals,
    "tago_route_arrival_at_station": route_arrival,
    "tago_route_bus_locations": bus_locations,
}
