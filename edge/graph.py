"""The EDGE graph: tools as nodes, verified-or-not bindings as edges, saved as deterministic JSON.

``EdgeGraph`` wraps a ``networkx.MultiDiGraph`` (one edge per binding; two tools can be linked
by several bindings). It is validated on load — every node a catalog tool, every edge's field
and param real — with messages that list what is available. Saved JSON is sorted and carries
no clock, so the same seed on the same version gives identical bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import networkx as nx

from simulator import Catalog

from .cardinality import cardinality_of
from .observe import Observations
from .proposers import Binding
from .retrieve import bindable_params, scalar_fields
from .verify import EdgeState, VerifyConfig
from .errors import EdgeError

__all__ = ["GRAPH_FORMAT", "EdgeGraph", "GraphError"]

GRAPH_FORMAT = 1


class GraphError(EdgeError):
    """A graph file that does not fit the catalog (or is not a graph file)."""


def _tier_mismatch(path: Path, data: dict[str, Any], nodes: list[str], missing: list[str], catalog: Catalog) -> str:
    """One short line for a graph built over another catalog tier: counts, the first few tool
    ids and the ``--catalog`` that loads it (never the whole list: a full-tier graph has
    thousands of tools)."""
    built = data.get("catalog")
    if isinstance(built, str) and built != catalog.tier:
        fix = f"pass --catalog {built} (the tier it was built with)"
    else:  # a graph written before graphs named their tier
        fix = "pass the --catalog it was built with (full or all), or rebuild it with `simulator edge graph`"
    first = ", ".join(missing[:5]) + (", …" if len(missing) > 5 else "")
    return (f"{str(path)!r} was built over {len(nodes):,} tools; {len(missing):,} of them are not in the "
            f"{catalog.tier} catalog ({len(catalog.endpoints):,} tools): {first}; {fix}")


def _r(x: float) -> float:
    return round(float(x), 6)


class EdgeGraph:
    """Edges with their posteriors and evidence, over the catalog's tools."""

    def __init__(self, catalog: Catalog, states: Iterable[EdgeState] = (), *, meta: dict[str, Any] | None = None,
                 config: VerifyConfig | None = None) -> None:
        self.catalog = catalog
        self.config = config or VerifyConfig()
        self.meta: dict[str, Any] = dict(meta or {})
        self.g: nx.MultiDiGraph = nx.MultiDiGraph()
        self.states: dict[str, EdgeState] = {}
        for st in states:
            self.add(st)

    def add(self, st: EdgeState) -> None:
        self.validate_binding(st.binding)
        b = st.binding
        self.g.add_edge(b.source_tool, b.target_tool, key=b.key, state=st)
        self.states[b.key] = st

    def validate_binding(self, b: Binding) -> None:
        for tool in (b.source_tool, b.target_tool):
            if tool not in self.catalog.endpoints:
                raise GraphError(f"edge {b.key!r}: tool={tool!r} is not in the catalog "
                                 f"({len(self.catalog.endpoints)} tools; `simulator tools` lists them)")
        fields = scalar_fields(self.catalog.endpoint(b.source_tool))
        if b.source_field not in fields:
            raise GraphError(f"edge {b.key!r}: source_field={b.source_field!r} is not a field of "
                             f"{b.source_tool}; available: {', '.join(fields)}")
        params = bindable_params(self.catalog.endpoint(b.target_tool))
        if b.target_param not in params:
            raise GraphError(f"edge {b.key!r}: target_param={b.target_param!r} is not a bindable param "
                             f"of {b.target_tool}; available: {', '.join(params)}")

    # ---- views -----------------------------------------------------------------------
    def edges(self, status: str | None = None) -> list[EdgeState]:
        out = [self.states[k] for k in sorted(self.states)]
        return out if status is None else [s for s in out if s.status == status]

    def retained(self) -> list[EdgeState]:
        return [s for s in self.edges() if s.status != "pruned"]

    def verified_graph(self) -> nx.DiGraph:
        """Tools linked by at least one verified binding (for path finding)."""
        d = nx.DiGraph()
        for s in self.edges("verified"):
            d.add_edge(s.binding.source_tool, s.binding.target_tool)
        return d

    # ---- JSON ------------------------------------------------------------------------
    def to_json(self, obs: Observations | None = None) -> dict[str, Any]:
        cfg = self.config
        edges = []
        for st in self.edges():
            b = st.binding
            card = cardinality_of(obs, b.source_tool, b.source_field) if obs is not None and st.status == "verified" else None
            edges.append({
                "key": b.key,
                "source": b.source_tool, "source_field": b.source_field,
                "target": b.target_tool, "target_param": b.target_param,
                "transform": b.transform, "score": _r(b.score), "rationale": b.rationale,
                "status": st.status,
                "prior": {"alpha": _r(st.alpha0), "beta": _r(st.beta0)},
                "posterior": {"alpha": _r(st.alpha()), "beta": _r(st.beta(cfg)), "mean": _r(st.mean(cfg))},
                "trials": {"success": st.success, "structural": st.structural,
                           "environmental": st.environmental, "unknown": st.unknown},
                "evidence": st.evidence,
                "verified_on": st.verified_on,
                "cardinality": card.as_dict() if card else (self._old_card(b.key) if st.status == "verified" else None),
            })
        return {
            "format": GRAPH_FORMAT,
            **self.meta,
            "config": {k: v for k, v in sorted(vars(cfg).items())},
            "nodes": sorted(self.catalog.endpoints),
            "edges": edges,
        }

    def _old_card(self, key: str) -> Any:
        return self.meta.get("_cards", {}).get(key)

    def dumps(self, obs: Observations | None = None) -> str:
        data = self.to_json(obs)
        data.pop("_cards", None)
        return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"

    def save(self, path: Path, obs: Observations | None = None) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.dumps(obs), encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: Path, catalog: Catalog) -> EdgeGraph:
        """Read and validate a graph file against ``catalog``."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise GraphError(f"{str(path)!r} is not a readable graph file: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != GRAPH_FORMAT:
            raise GraphError(f"{str(path)!r} has format={data.get('format') if isinstance(data, dict) else None!r}; "
                             f"this edge reads format {GRAPH_FORMAT}: rebuild it with `edge graph`")
        nodes = data.get("nodes", [])
        missing = sorted(set(nodes) - set(catalog.endpoints))
        if missing:
            raise GraphError(_tier_mismatch(path, data, nodes, missing, catalog))
        known = {k for k in VerifyConfig.__dataclass_fields__}
        cfg = VerifyConfig(**{k: v for k, v in data.get("config", {}).items() if k in known})
        meta = {k: v for k, v in data.items() if k not in ("format", "config", "nodes", "edges")}
        meta["_cards"] = {e["key"]: e.get("cardinality") for e in data.get("edges", [])}
        g = cls(catalog, meta=meta, config=cfg)
        for e in data.get("edges", []):
            b = Binding(e["source"], e["source_field"], e["target"], e["target_param"], e.get("transform", ""),
                        float(e.get("score", 0.0)), e.get("rationale", ""))
            g.validate_binding(b)
            if b.key != e.get("key", b.key):
                raise GraphError(f"edge key={e.get('key')!r} does not match its fields ({b.key!r})")
            t = e.get("trials", {})
            st = EdgeState(b, alpha0=float(e["prior"]["alpha"]), beta0=float(e["prior"]["beta"]),
                           success=int(t.get("success", 0)), structural=int(t.get("structural", 0)),
                           environmental=int(t.get("environmental", 0)), unknown=int(t.get("unknown", 0)),
                           status=e.get("status", "candidate"), evidence=list(e.get("evidence", [])),
                           verified_on=e.get("verified_on", ""))
            g.add(st)
        return g
