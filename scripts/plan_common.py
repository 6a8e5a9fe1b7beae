"""What the version plan scripts (``scripts/plan_v0006.py`` … ``plan_v0009.py``) share: the
plan's one-seed-a-line YAML, the report of the generated endpoints left out, the carried-over
real-keyed collections of the parent, and the ``--check`` entry point.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulator import Store  # noqa: E402
from simulator.catalog import Catalog  # noqa: E402
from simulator.catalog.generate.seeds import placeholder_params  # noqa: E402

Key = tuple[str, tuple[tuple[str, str], ...]]


def key(endpoint: str, params: dict[str, str]) -> Key:
    """A seed's identity (endpoint and sorted params)."""
    return endpoint, tuple(sorted(params.items()))


def _flow(value: Any, *, sort_keys: bool = True) -> str:
    return yaml.safe_dump(value, allow_unicode=True, default_flow_style=True, width=10**6, sort_keys=sort_keys).strip()


def plan_text(header: str, settings: Iterable[tuple[str, Any]], seeds_comment: str, seeds: list[dict[str, Any]],
              crawls_comment: str | None = None, crawls: list[dict[str, Any]] | None = None) -> str:
    """The plan as the scripts write it: the header, one setting a line, one seed (and crawl) a line."""
    lines = [header.rstrip("\n")]
    for k, v in settings:
        lines.append(_flow({k: v})[1:-1])
    lines.append(f"seeds:  # {seeds_comment}")
    lines += ["  - " + _flow(s) for s in seeds]
    if crawls_comment is not None:
        lines.append(f"crawls:  # {crawls_comment}")
        lines += ["  - " + _flow(c, sort_keys=False) for c in crawls or []]
    return "\n".join(lines) + "\n"


def report_text(script: str, version: str, intro: str, left: dict[str, list[tuple[str, str]]]) -> str:
    """``docs/seeds-<version>.md``: the generated endpoints a version does not record, and why."""
    doc = [
        f"<!-- written by scripts/{script} -->",
        f"# Generated endpoints kopa@{version} does not record",
        "",
        f"{len(left)} generated endpoints have a required parameter that no published example, enum value, "
        "entity code of the sandbox world or date format gives a real value. " + intro,
        "",
        *[f"- `{eid}`: " + "; ".join(f"`{p}` — {reason}" for p, reason in why) for eid, why in sorted(left.items())],
    ]
    return "\n".join(doc) + "\n"


def carried_generated(catalog: Catalog, parent: str, planned: set[Key],
                      keep: Callable[[str, dict[str, str]], bool] = lambda e, f: True) -> list[dict[str, Any]]:
    """The parent's real-keyed generated collections the plan does not already record (added to
    ``planned``), in key order; ``keep(endpoint, filters)`` may leave more out."""
    version = Store(ROOT / "cassettes").open("kopa", parent)
    out: list[dict[str, Any]] = []
    for c in sorted(version.index.collections(), key=lambda c: c.key):
        ep = catalog.endpoints[c.endpoint]
        if ep.tier != "generated" or placeholder_params(ep, c.filters) or not keep(c.endpoint, c.filters):
            continue
        if key(c.endpoint, c.filters) not in planned:
            out.append({"endpoint": c.endpoint, "params": dict(c.filters)})
            planned.add(key(c.endpoint, c.filters))
    return out


def main(doc: str, script: str, build: Callable[[], tuple[str, str]], plan: Path, report: Path) -> int:
    """Write the plan and the report (``--check``: exit 1 when either is stale)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a written file is stale")
    args = ap.parse_args()
    plan_t, report_t = build()
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, t in ((plan, plan_t), (report, report_t))
                 if not p.exists() or p.read_text(encoding="utf-8") != t]
        if stale:
            print(f"stale: {', '.join(stale)}; run python scripts/{script}", file=sys.stderr)
            return 1
        return 0
    plan.write_text(plan_t, encoding="utf-8")
    report.write_text(report_t, encoding="utf-8")
    print(f"wrote {plan.relative_to(ROOT)} and {report.relative_to(ROOT)}", file=sys.stderr)
    return 0
