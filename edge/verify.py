"""Verification by execution (DESIGN §8, "verify"): Beta posteriors, Thompson-sampled paths.

Each edge (a ``Binding``) holds a Beta(α, β) posterior on "this handoff executes", starting
from a deliberately weak prior set by the proposer's score. Every iteration samples paths by
Thompson sampling (one draw per edge from its posterior; the walk follows the highest draws),
executes them step by step — a real source value, transformed, fed into the target with its
other params taken from a request the target was recorded with, and the target's records
feeding the next step — and updates each executed edge:

* success (the target returns at least one record) → α += 1;
* structural failure (empty result, native error for the param, missing field, unparseable
  body) → β += ``structural_weight`` (heavy);
* environmental failure (fault, timeout, 5xx, rate limit, auth) → β += ``environmental_weight``
  (light: transient errors must not kill a sound link);
* unknown (a strict replay miss: nothing recorded answers it) → no update, ever.

An edge is pruned only once it has ``min_trials`` decisive trials and its posterior mean is
under ``prune_below``.

At the full tier most proposals cannot be tested offline: their target was recorded for values
the source never shows, and the param is not one the target's query semantics answer, so every
call would be a replay miss (unknown). An executor that knows what it can answer
(``SimExecutor.answerable``) lets the verifier leave those edges ``unverified`` without a call
(their evidence says so) and spend every path on edges a call can decide; the number of paths
grows with the testable edges (``VerifyConfig.paths_per_edge``) so each is tried.
"""

from __future__ import annotations

import heapq
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from simulator import BoundedCache, Catalog, Endpoint, Resolver
from simulator.tools import Observation, ToolCaller, build_call, page_args, read_response

from .observe import Observations, scalar
from .proposers import Binding
from .transforms import apply_transform

__all__ = [
    "CallResult",
    "EdgeState",
    "Executor",
    "LiveExecutor",
    "Outcome",
    "SimExecutor",
    "UNTESTABLE",
    "VerifyConfig",
    "Verifier",
    "call_params",
    "classify",
]

Outcome = Literal["success", "structural", "environmental", "unknown"]

_ENV_KINDS = {"rate_limited", "quota_exceeded", "server_error", "invalid_key", "missing_key"}

#: The evidence detail of an edge left unexecuted: no call could be answered offline.
UNTESTABLE = "not executed: nothing recorded answers any value the source shows"


@dataclass
class CallResult:
    """One executed call: its outcome class, a short reason and the records it returned."""

    outcome: Outcome
    detail: str
    records: list[dict[str, Any]] = field(default_factory=list)


# Contract: ``call(endpoint_id, params)`` executes one tool call with string params (no key,
# paging or format params: the executor adds them) and classifies it; it never raises for a
# bad request, a miss or a failed call — those are outcomes. An executor may also offer
# ``answerable(endpoint, param) -> set[str] | None``: the values of ``param`` it can answer at
# all (None: any value); the verifier then skips edges none of whose values it can answer.
class Executor(Protocol):
    def call(self, endpoint: str, params: Mapping[str, str]) -> CallResult: ...


def call_params(ep: Endpoint, params: Mapping[str, str]) -> dict[str, str]:
    """``params`` plus first-page paging (``simulator.tools.page_args``), as a client would send."""
    out = dict(params)
    for k, v in page_args(ep, 0, min(ep.max_page_size, 100)).items():
        out.setdefault(k, v)
    return out


def classify(obs: Observation) -> CallResult:
    """Classify the observation of a call (through the simulator, or live)."""
    source = obs.source
    if obs.request is None:
        return CallResult("structural", f"refused: {obs.error}")
    if source == "miss":
        return CallResult("unknown", "replay miss: nothing recorded answers this call")
    if source == "fault":
        return CallResult("environmental", f"fault {obs.fault}")
    if obs.status == 429 or obs.status >= 500:
        return CallResult("environmental", f"HTTP {obs.status}")
    if obs.sim_error:
        return CallResult("structural", f"simulator error {obs.sim_error}")
    parsed = obs.native
    if parsed is None:  # a parse failure is a schema mismatch
        return CallResult("structural", f"unparseable body: {type(obs.parse_error).__name__}")
    if parsed.outcome == "error":
        kind = parsed.kind or ""
        cls: Outcome = "environmental" if kind in _ENV_KINDS else "structural"
        return CallResult(cls, f"native error {parsed.code or ''} {kind}".strip())
    if parsed.outcome == "empty" or not parsed.records:
        return CallResult("structural", "empty result")
    return CallResult("success", f"{len(parsed.records)} records", parsed.records)


@dataclass
class SimExecutor:
    """Executes calls offline through a ``Resolver`` (``miss="strict"``: a miss is unknown).

    The same call against the same version gives the same bytes (DESIGN §6), so a repeated
    call is answered from a memo of its classified result (``memo_size`` entries; 0: none):
    ``calls`` counts the calls executed, ``memo_hits`` those answered again from the memo.
    """

    resolver: Resolver
    calls: int = 0
    memo_size: int = 4096
    memo_hits: int = 0

    def __post_init__(self) -> None:
        # The platform's default format (what a bare client gets); its own memo is off: the
        # classified results are memoised here instead (no body is parsed twice).
        self._caller = ToolCaller(self.resolver, fmt="native", memo_size=0)
        self._memo: BoundedCache[tuple[str, tuple[tuple[str, str], ...]], CallResult] = BoundedCache(self.memo_size)
        self._answerable: dict[tuple[str, str], set[str] | None] = {}

    def call(self, endpoint: str, params: Mapping[str, str]) -> CallResult:
        key = (endpoint, tuple(sorted(params.items())))
        kept = self._memo.get(key)
        if kept is not None:
            self.memo_hits += 1
            return kept
        ep = self.resolver.catalog.endpoint(endpoint)
        self.calls += 1
        res = classify(self._caller.call(endpoint, call_params(ep, params)))
        self._memo.put(key, res)
        return res

    def answerable(self, endpoint: str, param: str) -> set[str] | None:
        """The values of ``param`` a call to ``endpoint`` can be answered with, None for any.

        Any value, when the endpoint's query semantics filter on ``param`` or exact
        interactions of it are recorded (the resolver's query and exact tiers); else only the
        values its collections were recorded with (the window tier): another value is a miss.
        """
        key = (endpoint, param)
        if key not in self._answerable:
            ep = self.resolver.catalog.endpoint(endpoint)
            version = self.resolver.version
            if (ep.query is not None and any(r.param == param for r in ep.query.filters)) or \
                    version.index.interaction_requests(endpoint, limit=1):
                self._answerable[key] = None
            else:
                self._answerable[key] = {c.filters[param] for c in version.collections(endpoint) if param in c.filters}
        return self._answerable[key]


@dataclass
class LiveExecutor:
    """Executes calls against the live APIs (or a sandbox) through ``simulator.record.LiveClient``.

    ``builder`` (a ``VersionBuilder``), when given, records every call it makes; publish it
    afterwards to keep what verification saw as a new version.
    """

    client: Any  # simulator.record.LiveClient
    builder: Any | None = None
    calls: int = 0

    def call(self, endpoint: str, params: Mapping[str, str]) -> CallResult:
        import httpx

        cat = self.client.catalog
        ep = cat.endpoint(endpoint)
        args = call_params(ep, params)
        req = build_call(cat, endpoint, args, fmt="native", key=self.client.key_for(ep))
        self.calls += 1
        if isinstance(req, Observation):
            return classify(req)
        try:
            resp = self.client.send(req, ep.platform)
        except httpx.HTTPError as exc:
            return CallResult("environmental", f"transport error {type(exc).__name__}")
        if self.builder is not None and resp.status < 500:
            self.builder.add_interaction(req, resp)
        return classify(read_response(cat, endpoint, args, req, resp))


@dataclass
class VerifyConfig:
    """Knobs of the execution loop (defaults follow the paper's shape at a smaller scale)."""

    iterations: int = 40
    paths_per_iteration: int = 25
    max_path_len: int = 3
    min_trials: int = 3
    prune_below: float = 0.3
    structural_weight: float = 1.0
    environmental_weight: float = 0.25
    #: α0 + β0 of the prior: small, so a few executions outweigh the proposer.
    prior_strength: float = 2.0
    #: Chance of starting from a source value the target was recorded with (else any value).
    recorded_bias: float = 0.85
    evidence_kept: int = 3
    #: Paths per iteration grow to ``paths_per_edge`` × testable edges ÷ ``iterations`` when
    #: that is more than ``paths_per_iteration``: every edge gets its trials at any scale.
    paths_per_edge: float = 1.0


@dataclass
class EdgeState:
    """Posterior and evidence of one edge."""

    binding: Binding
    alpha0: float
    beta0: float
    success: int = 0
    structural: int = 0
    environmental: int = 0
    unknown: int = 0
    status: str = "candidate"
    evidence: list[dict[str, str]] = field(default_factory=list)
    verified_on: str = ""

    @classmethod
    def fresh(cls, b: Binding, strength: float) -> EdgeState:
        s = max(0.05, min(0.95, b.score))
        return cls(b, alpha0=round(strength * s, 6), beta0=round(strength * (1 - s), 6))

    def alpha(self) -> float:
        return self.alpha0 + self.success

    def beta(self, cfg: VerifyConfig) -> float:
        return self.beta0 + cfg.structural_weight * self.structural + cfg.environmental_weight * self.environmental

    def mean(self, cfg: VerifyConfig) -> float:
        a, b = self.alpha(), self.beta(cfg)
        return a / (a + b)

    @property
    def decisive(self) -> int:
        return self.success + self.structural + self.environmental

    def reset(self) -> None:
        self.success = self.structural = self.environmental = self.unknown = 0
        self.status = "candidate"
        self.evidence = []

    def settle(self, cfg: VerifyConfig, content_hash: str) -> None:
        if self.decisive >= cfg.min_trials and self.mean(cfg) < cfg.prune_below:
            self.status = "pruned"
        elif self.success > 0:
            self.status = "verified"
        else:
            self.status = "unverified"
        self.verified_on = content_hash


@dataclass
class Verifier:
    """Runs the Thompson-sampled execution loop over a set of edges.

    Args:
        executor: where calls go (``SimExecutor`` offline, ``LiveExecutor`` live).
        obs: the version's observations (source values, recorded target params).
        catalog: the tools.
        rng: injected randomness (``random.Random(seed)``): same seed, same run.
    """

    executor: Executor
    obs: Observations
    catalog: Catalog
    rng: random.Random
    config: VerifyConfig = field(default_factory=VerifyConfig)
    calls: int = 0
    #: Edges the last ``run`` left unexecuted (``testable`` said no call could decide them).
    untestable: int = 0
    _answerable: dict[str, list[str]] = field(default_factory=dict)
    _filters: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    _by_value: dict[tuple[str, str], dict[str, list[dict[str, str]]]] = field(default_factory=dict)

    def _start_values(self, b: Binding) -> list[str]:
        vals = self.obs.values(b.source_tool, b.source_field)
        if b.key not in self._answerable:
            recorded = self.obs.recorded(b.target_tool, b.target_param)
            self._answerable[b.key] = [v for v in vals if apply_transform(v, b.transform) in recorded] if recorded else []
        if self._answerable[b.key] and self.rng.random() < self.config.recorded_bias:
            return self._answerable[b.key]
        return vals

    def _target_params(self, b: Binding, value: str) -> dict[str, str]:
        ep = self.catalog.endpoint(b.target_tool)
        recorded = self._filters.get(b.target_tool)
        if recorded is None:
            recorded = sorted(self.obs.filters.get(b.target_tool, []), key=lambda d: json.dumps(d, sort_keys=True))
            self._filters[b.target_tool] = recorded
        # A call recorded with this very value, when there is one: its other params belong with
        # it (a school code goes with its office code, a stop id with its city).
        by_value = self._by_value.get((b.target_tool, b.target_param))
        if by_value is None:
            by_value = self._by_value[(b.target_tool, b.target_param)] = {}
            for f in recorded:
                if b.target_param in f:
                    by_value.setdefault(f[b.target_param], []).append(f)
        pool = by_value.get(value) or recorded
        params: dict[str, str] = dict(self.rng.choice(pool)) if pool else {}
        for p in ep.params:
            if p.required and p.name not in params and p.role in ("filter", "plain"):
                fill = p.default or p.example
                if fill is not None:
                    params[p.name] = fill
        params[b.target_param] = value
        return params

    def _record(self, st: EdgeState, value: str, res: CallResult) -> None:
        if res.outcome == "success":
            st.success += 1
        elif res.outcome == "structural":
            st.structural += 1
        elif res.outcome == "environmental":
            st.environmental += 1
        else:
            st.unknown += 1
        if len(st.evidence) < self.config.evidence_kept and not any(e["outcome"] == res.outcome for e in st.evidence):
            st.evidence.append({"value": value, "outcome": res.outcome, "detail": res.detail})

    def _path(self, first: EdgeState, alive: set[int], out: Mapping[str, list[EdgeState]]) -> list[EdgeState]:
        # From the start edge, follow the highest Thompson draw among the current tool's
        # outgoing live edges.
        draws: dict[int, float] = {}

        def draw(s: EdgeState) -> float:
            if id(s) not in draws:
                draws[id(s)] = self.rng.betavariate(s.alpha(), s.beta(self.config))
            return draws[id(s)]

        path: list[EdgeState] = [first]
        here = first.binding.target_tool
        seen = {first.binding.source_tool, here}
        while len(path) < self.config.max_path_len:
            nxt = [s for s in out.get(here, []) if id(s) in alive and s.binding.target_tool not in seen]
            if not nxt:
                break
            step = max(nxt, key=lambda s: (draw(s), s.binding.key))
            path.append(step)
            here = step.binding.target_tool
            seen.add(here)
        return path

    def _prunable(self, s: EdgeState) -> bool:
        return s.decisive >= self.config.min_trials and s.mean(self.config) < self.config.prune_below

    def testable(self, b: Binding) -> bool:
        """Whether some call along ``b`` can be answered (see ``Executor``'s ``answerable``)."""
        answerable = getattr(self.executor, "answerable", None)
        if answerable is None:
            return True
        can = answerable(b.target_tool, b.target_param)
        if can is None:
            return True
        return any(apply_transform(v, b.transform) in can for v in self.obs.values(b.source_tool, b.source_field))

    def run(self, states: Sequence[EdgeState], content_hash: str = "") -> None:
        """Run ``config.iterations`` × paths per iteration, then settle every edge.

        Each path starts at one of the least-tried live edges (ties broken at random), so every
        edge gets tried; a heap keeps that choice O(log E) per path, which matters at thousands
        of tools (a scan per path made the loop 30× slower than its calls at 25,000 edges).
        Edges no call can decide (``testable``) take no path: they settle ``unverified``, their
        evidence saying why (``UNTESTABLE``).
        """
        cfg = self.config
        for st in states:
            if st.status == "pruned":
                st.status = "candidate"  # re-verification gives pruned edges a new chance
        ordered = sorted(states, key=lambda s: s.binding.key)
        testable = []
        for st in ordered:
            if self.testable(st.binding):
                testable.append(st)
            else:
                self.untestable += 1
                st.evidence = [{"value": "", "outcome": "unknown", "detail": UNTESTABLE}]
        out: dict[str, list[EdgeState]] = {}
        for st in testable:
            out.setdefault(st.binding.source_tool, []).append(st)
        # An edge whose source shows no value in this version cannot start a path: it would
        # never gather a trial and, as the least-tried edge, would take every path start.
        starts = [s for s in testable if self.obs.values(s.binding.source_tool, s.binding.source_field)]
        per_iteration = max(cfg.paths_per_iteration, math.ceil(cfg.paths_per_edge * len(starts) / max(cfg.iterations, 1)))
        self._loop(testable, starts, out, per_iteration)
        for st in states:
            st.settle(cfg, content_hash)

    def _loop(self, testable: list[EdgeState], starts: list[EdgeState], out: Mapping[str, list[EdgeState]],
              per_iteration: int) -> None:
        def tries(s: EdgeState) -> int:
            return s.decisive + s.unknown

        for _ in range(self.config.iterations):
            live = [s for s in testable if not self._prunable(s)]
            alive = {id(s) for s in live}
            heap = [(tries(s), self.rng.random(), i) for i, s in enumerate(starts) if id(s) in alive]
            if not heap:
                break
            heapq.heapify(heap)
            for _ in range(per_iteration):
                first: EdgeState | None = None
                while heap:
                    n, r, i = heap[0]
                    s = starts[i]
                    if tries(s) != n:  # tried on another path since: re-queue at its count
                        heapq.heapreplace(heap, (tries(s), r, i))
                    elif self._prunable(s):
                        heapq.heappop(heap)
                    else:
                        first = s
                        break
                if first is None:
                    break
                self._execute(self._path(first, alive, out))
                if tries(first) == n:
                    heapq.heappop(heap)  # nothing to learn from it this iteration

    def _execute(self, path: list[EdgeState]) -> None:
        records: list[dict[str, Any]] | None = None
        for st in path:
            b = st.binding
            if records is None:
                pool = self._start_values(b)
            else:
                pool = sorted({s for r in records if (s := scalar(r.get(b.source_field))) is not None})
                if not pool:
                    self._record(st, "", CallResult("structural", f"missing field {b.source_field!r} in the previous result"))
                    return
                recorded = self.obs.recorded(b.target_tool, b.target_param)
                answerable = [v for v in pool if apply_transform(v, b.transform) in recorded] if recorded else []
                if answerable and self.rng.random() < self.config.recorded_bias:
                    pool = answerable  # mid-path too: a value the target was recorded with teaches most
            if not pool:
                return  # nothing observed to feed: no evidence either way
            raw = self.rng.choice(pool)
            value = apply_transform(raw, b.transform)
            res = self.executor.call(b.target_tool, self._target_params(b, value))
            self.calls += 1
            self._record(st, value, res)
            if res.outcome != "success":
                return
            records = res.records
