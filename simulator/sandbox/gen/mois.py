"""MOIS: the legal-dong code table (StanReginCd, real codes) and resident population."""

from __future__ import annotations


from typing import Any

from ..world import World
from ._common import Rows, endpoint, shape, shape_one

__all__ = ["GENERATORS"]


def _region_row(r: Any) -> dict[str, Any]:
    return {
        "region_cd": r.code, "sido_cd": r.sido_cd, "sgg_cd": r.sgg_cd, "umd_cd": r.umd_cd, "ri_cd": r.ri_cd,
        "locatjumin_cd": r.code, "locatjijuk_cd": r.code, "locatadd_nm": r.name, "locat_order": r.order,
        "locat_rm": "", "locathigh_cd": r.high, "locallow_nm": r.leaf, "adpt_de": r.adpt_de,
    }


def stan_regin_cd(world: World, f: dict[str, str]) -> Any:
    """Every code in force (20,000+ rows); ``locatadd_nm`` is applied by the query step."""
    ep = endpoint("mois_stan_regin_cd")
    regions = world.regions()
    want = f.get("locatadd_nm")
    if want:  # substring match, done early to keep the answer cheap
        return [shape_one(ep, _region_row(r)) for r in regions if want in r.name]
    return Rows(len(regions), lambda i: shape_one(ep, _region_row(regions[i])))


def _months(f: dict[str, str]) -> list[str]:
    a, b = f.get("srchFrYm", ""), f.get("srchToYm", "")
    if not (a.isdigit() and b.isdigit() and len(a) == 6 and len(b) == 6) or a > b:
        return []
    out = []
    y, m = int(a[:4]), int(a[4:])
    while f"{y}{m:02d}" <= b and len(out) < 3:  # the service serves at most 3 months a call
        out.append(f"{y}{m:02d}")
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def _population(endpoint_id: str, ages: bool, one_person: bool):  # type: ignore[no-untyped-def]
    def gen(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
        code = f.get("admmCd", "")
        rows: list[dict[str, Any]] = []
        for ym in _months(f):
            for r in world.population(code, ym):
                if ages or one_person:
                    rng = world.rng("ages", r["admmCd"], one_person)
                    total = int(r["totNmprCnt"]) // (5 if one_person else 1)
                    male = int(total * 0.49)
                    r = {**r, "totNmprCnt": str(total), "maleNmprCnt": str(male), "femlNmprCnt": str(total - male)}
                    for sex, n in (("male", male), ("feml", total - male)):
                        weights = [rng.uniform(0.5, 1.5) for _ in range(11)]
                        s = sum(weights)
                        for k, w in enumerate(weights):
                            r[f"{sex}{k * 10}AgeNmprCnt"] = str(int(n * w / s))
                rows.append(r)
        return shape(endpoint_id, rows)

    return gen


GENERATORS = {
    "mois_stan_regin_cd": stan_regin_cd,
    "mois_population_households": _population("mois_population_households", False, False),
    "mois_population_sex_age": _population("mois_population_sex_age", True, False),
    "mois_one_person_households": _population("mois_one_person_households", True, True),
}

