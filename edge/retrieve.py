"""Candidate retrieval that scales: k same-domain + k cross-domain neighbours per tool.

Each tool gets two sparse signature vectors over hashed tokens (canonical name tokens and value
shapes): what it *gives* (its fields) and what it *takes* (its bindable params). A pair
(source, target) is a candidate when the source's give-vector is near the target's take-vector.
An inverted index over hashed buckets, with over-full buckets skipped (they carry no
information, like stop words), keeps the work per tool bounded, so candidates are O(n·k).
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from simulator import Endpoint

from .names import fixed_length, shape, tokens
from .observe import Observations

__all__ = ["BINDABLE_ROLES", "Retriever", "bindable_params", "scalar_fields"]

BINDABLE_ROLES = ("filter", "plain")
_DIM = 1 << 16


def bindable_params(ep: Endpoint) -> list[str]:
    """Params a value from another tool can fill (not key, paging or format)."""
    return [p.name for p in ep.params if p.role in BINDABLE_ROLES and not p.enum]


def scalar_fields(ep: Endpoint) -> list[str]:
    """Fields whose values can be passed on (not objects or arrays)."""
    return [f.name for f in ep.fields if f.type not in ("object", "array")]


def _bucket(token: str) -> int:
    return int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=4).digest(), "big") % _DIM


def _shape_tokens(values: Sequence[str]) -> list[str]:
    out: list[str] = []
    shapes = {shape(v) for v in values[:20]}
    for s in shapes:
        out.append("shape:" + s)
        if s.startswith("d") and s[1:].isdigit():
            n = int(s[1:])
            out += [f"shape:d{m}" for m in (2, 4, 5, 6, 8) if m < n]  # prefix slices
    return out


@dataclass
class Retriever:
    """Finds candidate (source, target) pairs.

    Args:
        k_same: neighbours per tool from its own domain.
        k_cross: neighbours per tool from other domains.
        max_postings: buckets shared by more tools than this are skipped.
    """

    k_same: int = 15
    k_cross: int = 10
    max_postings: int = 64

    def _vectors(
        self, tools: Sequence[Endpoint], obs: Observations | None
    ) -> tuple[list[dict[int, float]], list[dict[int, float]]]:
        give_raw: list[list[str]] = []
        take_raw: list[list[str]] = []
        for ep in tools:
            g: list[str] = []
            for f in scalar_fields(ep):
                g += tokens(f)
                if obs is not None:
                    g += _shape_tokens(obs.values(ep.id, f))
            t: list[str] = []
            for name in bindable_params(ep):
                p = ep.param(name)
                assert p is not None
                t += tokens(name)
                n = fixed_length(p.pattern)
                if n is not None:
                    t.append(f"shape:d{n}")
                elif p.example:
                    t.append("shape:" + shape(p.example))
            give_raw.append(g)
            take_raw.append(t)
        df: dict[int, int] = defaultdict(int)
        for toks in give_raw + take_raw:
            for b in {_bucket(x) for x in toks}:
                df[b] += 1
        n_docs = 2 * len(tools)

        def vec(toks: list[str]) -> dict[int, float]:
            v: dict[int, float] = defaultdict(float)
            for x in toks:
                b = _bucket(x)
                v[b] += math.log(1 + n_docs / df[b])
            norm = math.sqrt(sum(w * w for w in v.values())) or 1.0
            return {b: w / norm for b, w in v.items()}

        return [vec(x) for x in give_raw], [vec(x) for x in take_raw]

    def pairs(self, tools: Sequence[Endpoint], obs: Observations | None = None) -> list[tuple[str, str]]:
        """Sorted candidate (source id, target id) pairs, no self-pairs."""
        give, take = self._vectors(tools, obs)
        out: set[tuple[str, str]] = set()
        for query_vecs, index_vecs, as_target in ((take, give, True), (give, take, False)):
            postings: dict[int, list[tuple[int, float]]] = defaultdict(list)
            for j, v in enumerate(index_vecs):
                for b, w in v.items():
                    postings[b].append((j, w))
            for i, q in enumerate(query_vecs):
                acc: dict[int, float] = defaultdict(float)
                for b, w in q.items():
                    plist = postings.get(b)
                    if not plist or len(plist) > self.max_postings:
                        continue
                    for j, w2 in plist:
                        acc[j] += w * w2
                acc.pop(i, None)
                dom = tools[i].domain
                ranked = sorted(acc.items(), key=lambda kv: (-kv[1], tools[kv[0]].id))
                same = [j for j, s in ranked if s > 0 and tools[j].domain == dom][: self.k_same]
                cross = [j for j, s in ranked if s > 0 and tools[j].domain != dom][: self.k_cross]
                for j in same + cross:
                    a, b = (tools[j].id, tools[i].id) if as_target else (tools[i].id, tools[j].id)
                    out.add((a, b))
        return sorted(out)
