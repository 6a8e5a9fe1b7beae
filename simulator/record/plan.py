"""Recording plans: seed queries per endpoint, and crawls that follow lookups (DESIGN §7).

A plan is a YAML file::

    set: kopa
    rate_per_sec: {default: 5, opendart: 10}      # live pacing per platform
    seeds:
      - endpoint: mois_region_codes                # a whole collection, every page
        params: {}
      - endpoint: molit_apt_trade
        params: {LAWD_CD: "11680", DEAL_YMD: "202503"}
    crawls:
      - from: mois_region_codes                    # values from recorded collections
        field: region_cd
        transform: "slice:0:5"                     # same transforms as query semantics
        where: {locatadd_nm: {contains: "서울"}}    # optional record filter
        limit: 10                                  # distinct values, in first-seen order
        to: molit_apt_trade
        param: LAWD_CD
        params: {DEAL_YMD: "202503"}              # fixed params of every crawled request
        also: {OTHER_PARAM: other_field}           # more params from the same record
    replace_tiers: [generated]                     # optional, see below

Crawls run in order after the seeds, each reading what was recorded before it. A new version
carries over every collection of its parent, except those of endpoints of the catalog tiers
``replace_tiers`` names (``generated``, ``curated``): the plan records those anew, and a parent
collection of such an endpoint the plan does not record again is not in the new version
(``kopa@v0006`` replaces the generated tier's collections, 1,051 of them keyed on a dummy).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..catalog import Catalog
from ..errors import RecordError

__all__ = ["Crawl", "Plan", "Seed", "load_plan", "DEFAULT_PLAN"]

DEFAULT_PLAN = Path(__file__).parent / "plans" / "default.yaml"


class Seed(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: str
    params: dict[str, str] = Field(default_factory=dict)


class Crawl(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    source: str = Field(alias="from")
    field: str
    to: str
    param: str
    transform: str | None = None
    where: dict[str, dict[str, str]] = Field(default_factory=dict)
    limit: int = 10
    params: dict[str, str] = Field(default_factory=dict)
    also: dict[str, str] = Field(default_factory=dict)
    #: Only source collections whose filters include these values.
    source_filters: dict[str, str] = Field(default_factory=dict)


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")
    set: str = "kopa"
    rate_per_sec: dict[str, float] = Field(default_factory=lambda: {"default": 5.0})
    seeds: list[Seed] = Field(default_factory=list)
    crawls: list[Crawl] = Field(default_factory=list)
    #: Filter values checked live against the local query answer, per endpoint.
    fidelity_samples: int = 3
    #: Catalog tiers whose parent collections are not carried over (the plan records them anew).
    replace_tiers: list[Literal["curated", "generated", "inferred"]] = Field(default_factory=list)

    def digest(self) -> str:
        data = self.model_dump(by_alias=True)
        if not data["replace_tiers"]:
            del data["replace_tiers"]  # the digests of plans written before it stay as they were
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def validate_against(self, catalog: Catalog) -> None:
        """Every endpoint and param of the plan exists; messages name the fix."""
        for i, s in enumerate(self.seeds):
            ep = catalog.endpoint(s.endpoint)
            for p in s.params:
                if ep.param(p) is None:
                    raise RecordError(
                        f"plan seeds[{i}]: endpoint {s.endpoint!r} has no param {p!r}; "
                        f"params: {', '.join(x.name for x in ep.params)}"
                    )
        for i, c in enumerate(self.crawls):
            src = catalog.endpoint(c.source)
            dst = catalog.endpoint(c.to)
            names = {f.name for f in src.fields}
            for f in [c.field, *c.also.values(), *c.where]:
                if names and f not in names:
                    raise RecordError(
                        f"plan crawls[{i}]: {c.source!r} has no field {f!r}; fields: "
                        + ", ".join(sorted(names))
                    )
            for p in [c.param, *c.also, *c.params]:
                if dst.param(p) is None:
                    raise RecordError(f"plan crawls[{i}]: {c.to!r} has no param {p!r}")


def load_plan(path: Path | None = None) -> Plan:
    path = path or DEFAULT_PLAN
    try:
        raw: Any = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordError(f"plan file {str(path)!r} not found") from None
    except yaml.YAMLError as exc:
        raise RecordError(f"plan file {str(path)!r} is not valid YAML: {exc}") from None
    try:
        return Plan.model_validate(raw or {})
    except ValidationError as exc:
        raise RecordError(f"plan file {str(path)!r} is invalid:\n{exc}") from None
