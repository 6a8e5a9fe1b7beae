"""Reports: ``summary.json``, ``summary.md`` and (with matplotlib) plots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .runner import DEFAULT_HELDOUT, META, load_results, summarize

__all__ = ["write_report"]


def _pct(x: Any) -> str:
    return "–" if x is None else f"{100 * float(x):.1f}"


def _table(title: str, groups: dict[str, Any], k: int) -> list[str]:
    lines = [f"### {title}", "", f"| group | tasks | pass@1 | pass@{k} | 95% CI | RESPONSE | ACTION | ENVIRONMENT |",
             "|---|---|---|---|---|---|---|---|"]
    for name, g in groups.items():
        if g is None:
            continue
        ci = g.get("ci95")
        ci_s = f"{_pct(ci[0])}–{_pct(ci[1])}" if ci else "–"
        lines.append(f"| {name} | {g['tasks']} | {_pct(g['pass@1'])} | {_pct(g.get(f'pass@{k}'))} | "
                     f"{ci_s} | {_pct(g['response'])} | {_pct(g['action'])} | {_pct(g['environment'])} |")
    return lines + [""]


def _plots(out: Path, summary: dict[str, Any]) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "Plots skipped: matplotlib is not installed (`pip install matplotlib`)."
    dom = summary["by_domain"]
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.bar(list(dom), [g["pass@1"] for g in dom.values()])
    ax.set_ylabel("pass@1")
    fig.tight_layout()
    fig.savefig(out / "domains.png")
    tax = summary["taxonomy_primary"]
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.barh(list(tax), list(tax.values()))
    fig.tight_layout()
    fig.savefig(out / "taxonomy.png")
    plt.close("all")
    return "Plots: domains.png, taxonomy.png."


def write_report(out: Path) -> dict[str, Any]:
    """Summarize ``out/results.jsonl`` into ``summary.json`` and ``summary.md``."""
    rows = load_results(out)
    if not rows:
        raise FileNotFoundError(f"no results in {out}")
    meta = json.loads((out / META).read_text(encoding="utf-8")) if (out / META).exists() else {}
    k = int(meta.get("k", 4))
    heldout = tuple(meta.get("heldout", DEFAULT_HELDOUT))
    summary = summarize(rows, k, heldout)
    summary["meta"] = meta
    (out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")
    ov = summary["overall"]
    lines = [
        f"# KOPA-Bench: {meta.get('agent', '?')}" + (f" ({meta['model']})" if meta.get("model") else ""),
        "",
        f"Version `{meta.get('version', '?')}` content hash `{str(meta.get('content_hash', ''))[:16]}`; "
        f"{ov['tasks']} tasks × {meta.get('seeds', '?')} seeds = {ov['episodes']} episodes.",
        "",
        f"**pass@1 {_pct(ov['pass@1'])}%**, pass@{k} {_pct(ov.get(f'pass@{k}'))}% "
        f"(all three axes); RESPONSE {_pct(ov['response'])}%, ACTION {_pct(ov['action'])}%, "
        f"ENVIRONMENT {_pct(ov['environment'])}%.",
        "",
    ]
    lines += _table("By domain", summary["by_domain"], k)
    lines += _table("By platform", summary["by_platform"], k)
    hs = summary["heldout_split"]
    lines += _table(f"Held-out platforms ({', '.join(hs['heldout_platforms'])})",
                    {"held-out": hs["heldout"], "seen": hs["seen"]}, k)
    lines += ["### Failure taxonomy (failed episodes; primary class, any label)", "",
              "| class | primary | any |", "|---|---|---|"]
    for c, n in summary["taxonomy_primary"].items():
        lines.append(f"| {c} | {n} | {summary['taxonomy_any'][c]} |")
    cp = summary["calls_per_task"]
    lines += ["", f"Calls per episode: mean {cp['mean']}, max {cp['max']} (gold mean {cp['gold_mean']}).",
              "", _plots(out, summary), ""]
    (out / "summary.md").write_text("\n".join(lines), encoding="utf-8")
    return summary
