"""EDGE's default catalog: the curated tier plus the generated tools the platform intents chain through.

``edge graph``, ``edge report`` and ``edge synthesize`` run on it when neither ``--catalog`` nor
``$KOPA_CATALOG`` names a shipped tier (``--catalog edge`` names it too). Why not one of the
shipped tiers:

* ``curated`` (82 tools) lacks the lookup a person's question about a company needs: OpenDART's
  tools all take an 8-digit ``corp_code`` nobody knows, and the one tool that turns a company's
  name into it, FSC's company outline (``fsc_corp_outline_v2``, ``corpNm`` → ``fssCorpUnqNo``),
  is a generated tool. On the curated tier the OpenDART intents (:mod:`edge.synth.intents`) are
  tried and given up: 0 % OpenDART in the default run.
* ``full`` (≈ 2,700 tools) gives every example the choice its platform faces over *every*
  tool of that platform: a conversation's tool schemas (``writers._schemas``: the platforms'
  tools) are then a median 105,000 and up to 980,000 characters (371 MB for 1,000 examples),
  far beyond the 32k-token context the 100,000-character conversation budget keeps to; and the
  sampler's walks over generated tools phrase their questions from catalog summaries and
  placeholder values ("'봉사제목 4'에서 건축HUB_건축물유지점검 점검기관이 …").

So the default is what a trainer gets from GRPO's platform-scoped tool offer
(``train.grpo.offered_tools``): the curated tools, plus each generated tool a question of the
run needs (:data:`INTENT_TOOLS`). ``--catalog full`` keeps the whole tier for those who want it.
"""

from __future__ import annotations

from functools import lru_cache

from simulator import Catalog, load_catalog

__all__ = ["EDGE_TIER", "INTENT_TOOLS", "edge_catalog"]

#: The name of the default catalog (``graph.json``'s ``catalog``; ``--catalog edge``).
EDGE_TIER = "edge"

#: Generated tools an intent of :mod:`edge.synth.intents` chains through: FSC's company outline,
#: the lookup from a company's name to its OpenDART ``corp_code`` (the FSS unique number).
INTENT_TOOLS: tuple[str, ...] = ("fsc_corp_outline_v2",)


@lru_cache(maxsize=1)
def edge_catalog() -> Catalog:
    """The curated tier's tools plus :data:`INTENT_TOOLS`, as the full tier defines them.

    >>> cat = edge_catalog()
    >>> cat.tier, "fsc_corp_outline_v2" in cat.endpoints, len(cat.endpoints) - len(load_catalog(tier="curated").endpoints)
    ('edge', True, 1)
    """
    full = load_catalog(tier="full")
    keep = set(load_catalog(tier="curated").endpoints) | set(INTENT_TOOLS)
    parts = [p.model_copy(update={"endpoints": [e for e in p.endpoints if e.id in keep]})
             for p in full.parts.values()]
    catalog = Catalog([p for p in parts if p.endpoints])
    catalog.tier = EDGE_TIER
    return catalog
