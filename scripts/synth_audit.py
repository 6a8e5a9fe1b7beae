"""Count what a reader of a synthesis run would hold against it (docs/synthesis.md, *Quality*).

    python scripts/synth_audit.py synth-out            # figures as JSON
    python scripts/synth_audit.py synth-out --show 20  # and 20 questions drawn with seed 0

Figures: examples whose program counts, sums or compares over several periods it never restricts
(``period_blind``), questions with raw codes/ids/coordinates a person would not have
(``raw_code``, the rule's reading: a bill number or stock code quoted from the news may stand)
and with any raw-looking token at all (``raw_token_any``), each main
platform's share, conversations over 100,000 characters, the most frequent place named and its
share, the distinct-template ratio, how often questions open with the same frame (``openers``:
the most common opening clause, slots masked, its share, and the pairs of a sample of 40
expected to share one), the examples asked through each platform intent
(``edge.synth.intents``), and the run's rule and filter counts (``report.json``). The programs are run again on the run's cassette version.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

from simulator import MainPlatform, Resolver, Store, load_catalog
from simulator.tools import Program

from edge.synth.asks import opener_frame
from edge.synth.checks import _raw_codes
from edge.synth.execute import ProgramRunner
from edge.synth.quality import conversation_chars, opener_stats, platform_shares, raw_tokens, unscoped_periods

_PLACE = re.compile(r"([가-힣]{1,6}(?:특별시|광역시|특별자치시|특별자치도|시|군|구))(?![가-힣])")


def run_catalog(folder: Path, tier: str | None = None) -> object:
    """The catalog a run was made with (``report.json``'s ``catalog``; EDGE's default if none)."""
    from edge.catalog import EDGE_TIER, edge_catalog

    if tier is None:
        rep = folder / "report.json"
        tier = json.loads(rep.read_text(encoding="utf-8")).get("catalog") if rep.exists() else None
    tier = tier or EDGE_TIER
    return edge_catalog() if tier == EDGE_TIER else load_catalog(tier=tier)


def audit(folder: Path, tier: str | None = None) -> dict[str, object]:
    rows = [json.loads(x) for x in (folder / "examples.jsonl").read_text(encoding="utf-8").splitlines() if x]
    convs = [json.loads(x) for x in (folder / "conversations.jsonl").read_text(encoding="utf-8").splitlines() if x]
    catalog = run_catalog(folder, tier)
    v = rows[0]["cassettes"]["version"] if rows else None
    ex = ProgramRunner(Resolver(Store().open("kopa", v), catalog, miss="strict"))
    blind = []
    for e in rows:
        run = ex.run(e["gold_program"])
        if unscoped_periods(Program.model_validate(e["gold_program"]), run.values, catalog):
            blind.append(e["id"])
    # the raw_code rule's reading (a bill number or stock code a person has in hand may stand),
    # and every raw-looking token whatever it is (bill numbers included)
    raw = [e["id"] for e in rows if _raw_codes(Program.model_validate(e["gold_program"]), catalog, e["question"])]
    raw_any = [e["id"] for e in rows if raw_tokens(e["question"])]
    sizes = [conversation_chars(c["messages"]) for c in convs]
    places: Counter[str] = Counter()
    for e in rows:
        for p in set(_PLACE.findall(e["question"])):
            places[p] += 1
    top = places.most_common(3)
    n = max(1, len(rows))
    rep_path = folder / "report.json"
    rep = json.loads(rep_path.read_text(encoding="utf-8")) if rep_path.exists() else {}
    intents = Counter(str(e.get("template", "")).split(".")[0].removeprefix("INT:") for e in rows
                      if str(e.get("template", "")).startswith("INT:"))
    return {
        "examples": len(rows),
        "period_blind": len(blind),
        "raw_code": len(raw), "raw_code_share": round(len(raw) / n, 4),
        "raw_token_any": len(raw_any), "raw_token_any_share": round(len(raw_any) / n, 4),
        "platform_share": platform_shares(rows, [p.value for p in MainPlatform]),
        "over_100k": sum(1 for s in sizes if s > 100_000), "largest_conversation": max(sizes, default=0),
        "top_places": [(p, c, round(c / n, 3)) for p, c in top],
        "distinct_template_ratio": round(len({e.get("template", "") for e in rows}) / n, 3),
        "openers": opener_stats(opener_frame(str(e.get("template", ""))) for e in rows),
        "junction": dict(Counter(e["junction"] for e in rows)),
        "intents": dict(sorted(intents.items())),
        "rules_refused": rep.get("rules_refused", {}),
        "filters": rep.get("filters", {}),
        "kept_attempts": [rep.get("kept"), rep.get("attempts")],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--tier", default=None, help="the run's catalog (default: report.json's)")
    ap.add_argument("--show", type=int, default=0)
    a = ap.parse_args()
    print(json.dumps(audit(a.folder, a.tier), ensure_ascii=False, indent=1))
    if a.show:
        rows = [json.loads(x) for x in (a.folder / "examples.jsonl").read_text(encoding="utf-8").splitlines() if x]
        for e in random.Random(0).sample(rows, min(a.show, len(rows))):
            print(f"- [{e['junction']} {','.join(e['platforms'])}] {e['question']}  → {e['answer_text']}")
    sys.exit(0)


if __name__ == "__main__":
    main()
