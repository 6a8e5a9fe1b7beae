"""Catalog models: platforms, endpoints, parameters, fields, query semantics.

The catalog is data (one YAML file per platform under ``simulator/catalog/data/``),
validated by these pydantic models at load time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from ..vocab import Domain, Role

__all__ = [
    "CATALOG_FORMAT",
    "Endpoint",
    "FieldSpec",
    "FilterRule",
    "KeyLayout",
    "Param",
    "Platform",
    "QuerySemantics",
]

#: Format version of catalog data files; bump when a field changes meaning.
CATALOG_FORMAT = 1


# Role of a request parameter (DESIGN §3):
#   auth       the API key (never in a fingerprint, a cassette or a tool schema)
#   page       page number (pageNo, page_no, pIndex, page, currentPage)
#   page_size  rows per page (numOfRows, page_count, pSize, display, countPerPage)
#   range_start / range_end   1-based inclusive row range in the URL path (Seoul, ECOS)
#   format     response format switch (_type, dataType, resultType, type, Type, path segment)
#   filter     selects records of the endpoint's collection (part of the collection key)
#   plain      any other parameter (also part of the collection key)
#   ignore     sent by clients but selects nothing (the real API ignores it: ``MobileApp``);
#              never part of the collection key, reported in ``x-sim-ignored``
#   order      orders the collection (OpenDART ``sort``/``sort_mth``): not part of the key;
#              the resolver orders the recorded collection as ``Param.orders`` says
JsonType = Literal["string", "integer", "number", "boolean", "object", "array"]


def _repeated(names: list[str]) -> set[str]:
    """Names that occur more than once (linear: platforms hold thousands of endpoints)."""
    seen: set[str] = set()
    return {n for n in names if n in seen or seen.add(n)}  # type: ignore[func-returns-value]


class _Model(BaseModel):
    # Enum-typed fields (``Role``) hold their plain values: dumps and YAML read as before.
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, use_enum_values=True)


class Param(_Model):
    """One request parameter of an endpoint."""

    name: str
    location: Literal["query", "path"] = Field("query", alias="in")
    type: Literal["string", "integer", "number", "boolean"] = "string"
    required: bool = False
    role: Role = Role.PLAIN
    description: str = ""
    description_en: str = ""
    pattern: str | None = None
    example: str | None = None
    enum: list[str] | None = None
    default: str | None = None
    #: Other spellings the real API accepts (``ServiceKey`` for ``serviceKey``).
    aliases: list[str] = Field(default_factory=list)
    #: For role ``order``: what each value orders by. A sort-key param maps values to record
    #: fields (``date: rcept_dt``); a direction param maps them to ``asc`` / ``desc``. The
    #: param's ``default`` is the order collections are recorded in (the API's own default).
    orders: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _orders_need_role(self) -> Param:
        if self.orders and self.role != "order":
            raise ValueError(f"param {self.name!r}: orders is only for role 'order' (role={self.role!r})")
        if self.role == "order":
            if not self.orders or self.default is None:
                raise ValueError(
                    f"param {self.name!r}: role 'order' needs orders (value -> field, or "
                    "value -> asc/desc) and a default (the order collections are recorded in)"
                )
            if self.default not in self.orders:
                raise ValueError(
                    f"param {self.name!r}: default={self.default!r} is not one of orders "
                    f"{sorted(self.orders)}"
                )
        return self

    @field_validator("pattern")
    @classmethod
    def _pattern_compiles(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                re.compile(v)
            except re.error as exc:
                raise ValueError(f"pattern={v!r} is not a valid regular expression: {exc}") from exc
        return v


class FieldSpec(_Model):
    """One field of a response record."""

    name: str
    #: The JSON type the real API uses for this field (strings stay strings: codes keep zeros).
    type: JsonType = "string"
    description: str = ""
    #: Marks a code that other endpoints take as input (EDGE uses it as a hint, not a rule).
    code: bool = False
    #: Where a generated field's name, type and label were published (per-field provenance:
    #: a source named in ``simulator/catalog/generated/facts/``; ``assumed`` when none was).
    source: str = ""


class FilterRule(_Model):
    """How one filter parameter selects records (DESIGN §3 query semantics)."""

    param: str
    field: str
    op: Literal["equals", "prefix", "contains", "min", "max", "not_prefix"] = "equals"
    #: Compare after a transform of the record value: ``"slice:0:5"``, ``"digits"``, ``"lower"``.
    transform: str | None = None
    #: A switch param: only these request values apply the rule, each mapped to the value
    #: compared with (OpenDART ``last_reprt_at: {Y: "[기재정정]"}`` with ``not_prefix``);
    #: any other value (the API's default) selects every record.
    when: dict[str, str] | None = None


class QuerySemantics(_Model):
    """Lets the resolver answer unrecorded filter values from a recorded full collection."""

    filters: list[FilterRule]
    #: Record order of the answer: field names, ``-`` prefix for descending; empty keeps order.
    order_by: list[str] = Field(default_factory=list)
    #: Filter params that must be given together with the full-collection key (e.g. a year).
    #: Parameters not named in ``filters`` always stay part of the collection key.


@dataclass(frozen=True)
class KeyLayout:
    """What key stripping and request identity read of one endpoint (``Endpoint.key_layout``)."""

    #: Role of each param name the endpoint knows (the first of a name wins, as ``Endpoint.param``).
    roles: dict[str, str]
    path_names: frozenset[str]
    #: Path params that carry a key.
    auth_path: frozenset[str]
    #: Path template pieces: (param name, None) or (None, literal).
    template: tuple[tuple[str | None, str | None], ...]
    #: Names never in a canonical query: path params and the endpoint's auth params.
    dropped: frozenset[str]

    @classmethod
    def of(cls, ep: Endpoint) -> KeyLayout:
        roles: dict[str, str] = {}
        for p in ep.params:
            roles.setdefault(p.name, p.role)
        path_names = frozenset(p.name for p in ep.params if p.location == "path")
        return cls(
            roles=roles,
            path_names=path_names,
            auth_path=frozenset(
                p.name for p in ep.params if p.location == "path" and p.role == "auth"
            ),
            template=tuple(
                (m.group(1), None) if m else (None, piece)
                for piece in ep.path.strip("/").split("/")
                for m in (re.fullmatch(r"\{([^}]+)\}", piece),)
            ),
            dropped=path_names | {n for n, r in roles.items() if r == "auth"},
        )


class Endpoint(_Model):
    """One operation of a platform; also one tool for a model."""

    id: str
    operation: str
    summary: str
    summary_en: str = ""
    method: Literal["GET", "POST"] = "GET"
    host: str = ""
    #: Path template; ``{name}`` segments are path parameters (``{KEY}`` for a key in the path).
    path: str
    #: Query parameters that pick this endpoint among those sharing a path (law.go.kr ``target``).
    match: dict[str, str] = Field(default_factory=dict)
    params: list[Param] = Field(default_factory=list)
    #: ``collection`` pages over records; ``object`` is one record (company.json);
    #: ``binary`` is a file (corpCode.xml ZIP).
    kind: Literal["collection", "object", "binary"] = "collection"
    #: Where records sit in the native envelope, for people (``response.body.items.item``).
    record_path: str = ""
    fields: list[FieldSpec] = Field(default_factory=list)
    default_page_size: int = 10
    max_page_size: int = 100
    query: QuerySemantics | None = None
    #: Dialect variant data for this endpoint; overrides the platform's ``options``.
    options: dict[str, Any] = Field(default_factory=dict)
    #: The real provider (``opendart`` for OpenDART's curated and generated endpoints alike;
    #: ``simulator.catalog.platforms``).
    platform: str = ""
    #: The catalog file (part) it was read from: ``opendart``, ``gen_opendart``,
    #: ``datagokr_misc``. Cassette data files and sandbox generators are keyed on it, so
    #: versions recorded before platforms were merged replay as they were (default: platform).
    part: str = ""
    domain: str = ""
    #: Wire family of this endpoint (default: its platform's ``dialect``).
    dialect: str = ""
    #: ``curated`` (hand-made, checked against real bodies), ``measured`` (generated from
    #: measured responses) or ``partial`` (generated from published facts only).
    fidelity: Literal["curated", "measured", "partial"] = "curated"
    #: Where a generated endpoint's facts came from, per aspect (``simulator catalog show``).
    provenance: dict[str, str] = Field(default_factory=dict)

    @field_validator("id")
    @classmethod
    def _id_is_identifier(cls, v: str) -> str:
        if not re.fullmatch(r"[a-z][a-z0-9_]{2,63}", v):
            raise ValueError(
                f"id={v!r} must be a lowercase identifier (a-z, 0-9, _), usable as a tool name"
            )
        return v

    @model_validator(mode="after")
    def _check(self) -> Endpoint:
        names = [p.name for p in self.params]
        dupes = _repeated(names)
        if dupes:
            raise ValueError(f"endpoint {self.id!r}: duplicate params {sorted(dupes)}")
        for seg in re.findall(r"\{([^}]+)\}", self.path):
            if seg not in names:
                raise ValueError(
                    f"endpoint {self.id!r}: path segment {{{seg}}} has no param; add "
                    f"a param named {seg!r} with in: path"
                )
        if self.query is not None:
            for rule in self.query.filters:
                if rule.param not in names:
                    raise ValueError(
                        f"endpoint {self.id!r}: query filter param={rule.param!r} is not a param"
                    )
        if self.default_page_size > self.max_page_size:
            raise ValueError(
                f"endpoint {self.id!r}: default_page_size={self.default_page_size} > "
                f"max_page_size={self.max_page_size}"
            )
        return self

    @property
    def tier(self) -> Literal["curated", "generated", "inferred"]:
        """``curated`` (hand-made), ``generated`` (from published facts) or ``inferred`` (an
        unknown path of a known host, ``simulator.catalog.infer``): an attribute, not a platform."""
        if self.opt("inferred", False):
            return "inferred"
        return "curated" if self.fidelity == "curated" else "generated"

    @property
    def part_id(self) -> str:
        """The catalog part of this endpoint (its platform when built without one)."""
        return self.part or self.platform

    @cached_property
    def key_layout(self) -> KeyLayout:
        """Where this endpoint's keys and path parameters sit (computed once per endpoint)."""
        return KeyLayout.of(self)

    def param(self, name: str) -> Param | None:
        for p in self.params:
            if p.name == name:
                return p
        return None

    def params_with_role(self, *roles: str) -> list[Param]:
        return [p for p in self.params if p.role in roles]

    def opt(self, name: str, default: Any = None) -> Any:
        """A dialect option of this endpoint (already merged with its platform's)."""
        return self.options.get(name, default)

    def tool_schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema of this endpoint (auth and format params hidden)."""
        props: dict[str, Any] = {}
        required: list[str] = []
        for p in self.params:
            if p.role in ("auth", "format"):
                continue
            schema: dict[str, Any] = {"type": p.type}
            desc = p.description or p.description_en
            if p.description and p.description_en:
                desc = f"{p.description} ({p.description_en})"
            if p.example is not None:
                desc = f"{desc} 예: {p.example}".strip()
            if desc:
                schema["description"] = desc
            if p.enum:
                schema["enum"] = list(p.enum)
            if p.pattern and p.type == "string":
                schema["pattern"] = p.pattern
            props[p.name] = schema
            if p.required:
                required.append(p.name)
        desc = self.summary if not self.summary_en else f"{self.summary} — {self.summary_en}"
        return {
            "type": "function",
            "function": {
                "name": self.id,
                "description": desc,
                "parameters": {
                    "type": "object",
                    "properties": props,
                    "required": required,
                    "additionalProperties": False,
                },
            },
        }


class Platform(_Model):
    """One API provider with one wire dialect."""

    format: int = CATALOG_FORMAT
    id: str
    name: str
    name_ko: str
    domain: Domain
    #: Wire family; a key of ``simulator.dialects.DIALECTS``.
    dialect: str
    host: str
    #: Other hosts serving the same paths (``swopenapi.seoul.go.kr`` beside ``openapi...``).
    scheme: Literal["http", "https"] = "https"
    #: Environment variable holding the live key for ``simulator record --live``.
    key_env: str
    docs: str = ""
    #: Dialect variant data shared by every endpoint of the platform.
    options: dict[str, Any] = Field(default_factory=dict)
    #: Parameters every endpoint of the platform takes (key, paging, format); merged in.
    common_params: list[Param] = Field(default_factory=list)
    endpoints: list[Endpoint]

    @model_validator(mode="after")
    def _check(self) -> Platform:
        if self.format != CATALOG_FORMAT:
            raise ValueError(
                f"platform {self.id!r}: format={self.format} but this kopa-sim reads catalog "
                f"format {CATALOG_FORMAT}; update the file or kopa-sim"
            )
        dupes = _repeated([e.id for e in self.endpoints])
        if dupes:
            raise ValueError(f"platform {self.id!r}: duplicate endpoint ids {sorted(dupes)}")
        return self
