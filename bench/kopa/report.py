"""Reports: ``summary.json``, ``summary.md``, the contamination audit and (with matplotlib) plots.

Plots are drawn with matplotlib's object API on the Agg canvas (no pyplot state, no display)
and saved without the ``Software`` PNG text chunk, so the same results give the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simulator import atomic_dir, atomic_files

from .runner import DEFAULT_HELDOUT, META, load_results, summarize

__all__ = ["AUDIT", "PLOTS", "PLOTS_SKIPPED", "render_plots", "save_audit", "write_report"]

AUDIT = "audit.json"
#: Plot files written next to ``summary.md``.
PLOTS = ("domains.png", "taxonomy.png", "calls.png")
PLOTS_SKIPPED = ("Plots skipped: matplotlib is not installed. Install it with "
                 "`pip install 'kopa-sim[plots]'` (or `pip install matplotlib`) and re-run "
                 "`simulator bench report DIR`.")


def _pct(x: Any) -> str:
    return "–" if x is None else f"{100 * float(x):.1f}"


def _table(title: str, groups: dict[str, Any], k: int) -> list[str]:
    # pass@k once per k: at k = 1 it is pass@1's column
    passk = f" pass@{k} |" if k > 1 else ""
    lines = [f"### {title}", "", f"| group | tasks | pass@1 |{passk} 95% CI | RESPONSE | ACTION | ENVIRONMENT |",
             "|---|---|---|---|---|---|---|" + ("---|" if k > 1 else "")]
    for name, g in groups.items():
        if g is None:
            continue
        ci = g.get("ci95")
        ci_s = f"{_pct(ci[0])}–{_pct(ci[1])}" if ci else "–"
        pk = f" {_pct(g.get(f'pass@{k}'))} |" if k > 1 else ""
        lines.append(f"| {name} | {g['tasks']} | {_pct(g['pass@1'])} |{pk} "
                     f"{ci_s} | {_pct(g['response'])} | {_pct(g['action'])} | {_pct(g['environment'])} |")
    return lines + [""]


# ---- plots --------------------------------------------------------------------------------

_SAVE = {"format": "png", "dpi": 100, "metadata": {"Software": None}}


def _domains_plot(summary: dict[str, Any], path: Path) -> None:
    from matplotlib.figure import Figure

    dom = summary["by_domain"]
    names = list(dom)
    fig = Figure(figsize=(7.5, 3.6))
    ax = fig.add_subplot()
    width = 0.2
    xs = list(range(len(names)))
    p1 = [dom[d]["pass@1"] for d in names]
    lo = [max(0.0, p - max(0.0, (dom[d].get("ci95") or [p, p])[0])) for p, d in zip(p1, names)]
    hi = [max(0.0, min(1.0, (dom[d].get("ci95") or [p, p])[1]) - p) for p, d in zip(p1, names)]
    ax.bar([x - 1.5 * width for x in xs], p1, width, yerr=[lo, hi], capsize=3, label="pass@1 (95% CI)")
    for j, axis in enumerate(("response", "action", "environment")):
        ax.bar([x + (j - 0.5) * width for x in xs], [dom[d][axis] for d in names], width, label=axis.upper())
    ax.set_xticks(xs, names)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("rate")
    ax.set_title("Pass rates by domain")
    ax.legend(fontsize=7, ncols=4, loc="upper center", bbox_to_anchor=(0.5, -0.12))
    fig.tight_layout()
    fig.savefig(path, **_SAVE)  # type: ignore[arg-type]


def _taxonomy_plot(summary: dict[str, Any], path: Path) -> None:
    from matplotlib.figure import Figure

    prim, anyl = summary["taxonomy_primary"], summary["taxonomy_any"]
    names = list(prim)[::-1]
    fig = Figure(figsize=(7, 3.4))
    ax = fig.add_subplot()
    ys = list(range(len(names)))
    ax.barh([y + 0.2 for y in ys], [anyl[n] for n in names], 0.4, label="any label", color="#bbbbbb")
    ax.barh([y - 0.2 for y in ys], [prim[n] for n in names], 0.4, label="primary class")
    ax.set_yticks(ys, names)
    ax.set_xlabel("failed episodes")
    ax.set_title("Failure taxonomy")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, **_SAVE)  # type: ignore[arg-type]


def _calls_plot(rows: list[dict[str, Any]], path: Path) -> None:
    from matplotlib.figure import Figure

    calls = [int(r["calls"]) for r in rows]
    gold = [int(r["gold_calls"]) for r in rows]
    top = max(calls + gold + [1])
    bins = [b - 0.5 for b in range(0, top + 2)]
    fig = Figure(figsize=(7, 3.2))
    ax = fig.add_subplot()
    ax.hist([calls, gold], bins=bins, label=["agent calls per episode", "gold calls per task"])
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("tool calls")
    ax.set_ylabel("episodes")
    ax.set_title("Calls per task")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, **_SAVE)  # type: ignore[arg-type]


def render_plots(out: Path, summary: dict[str, Any], rows: list[dict[str, Any]]) -> list[str] | None:
    """Write :data:`PLOTS` into ``out``; the file names, or ``None`` without matplotlib."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return None
    _domains_plot(summary, out / PLOTS[0])
    _taxonomy_plot(summary, out / PLOTS[1])
    _calls_plot(rows, out / PLOTS[2])
    return list(PLOTS)


# ---- audit --------------------------------------------------------------------------------


def save_audit(out: Path, result: dict[str, Any]) -> dict[str, Any]:
    """Write the audit to ``out/audit.json``; the short record kept in ``run.json``."""
    with atomic_files(out / AUDIT) as (tmp,):
        assert tmp is not None
        tmp.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    ov = result["overall"]
    leak = result["splits"].get("heldout/train")
    return {**{k: result["edge_dataset"][k] for k in ("dir", "sha256", "examples")},
            "edge_jaccard": ov["edge_jaccard"], "verbatim_tasks": len(ov["verbatim_tasks"]),
            "near_verbatim_tasks": len(ov["near_verbatim_tasks"]),
            "heldout_train_shared_edges": leak["edges_shared"] if leak else None}


def _audit_lines(out: Path) -> tuple[list[str], dict[str, Any] | None]:
    path = out / AUDIT
    if not path.exists():
        return ["### Contamination audit", "",
                "No EDGE dataset audited (run `simulator bench report DIR --edge EDGE_DIR`).", ""], None
    from .audit import audit_table

    result = json.loads(path.read_text(encoding="utf-8"))
    info = result["edge_dataset"]
    lines = ["### Contamination audit", "",
             f"EDGE dataset `{info['dir']}`: {info['examples']} examples, examples.jsonl sha256 "
             f"`{info['sha256'][:16]}`. Method: {result['method']['near_verbatim']} for near-verbatim.", ""]
    lines += audit_table(result) + [""]
    return lines, result


def write_report(out: Path) -> dict[str, Any]:
    """Summarize ``out/results.jsonl`` into ``summary.json``, ``summary.md`` and plots.

    The run folder is rewritten whole (:func:`simulator.atomic_dir`, from a copy of the run):
    a failure half-way leaves the previous summaries as they were, never a mix of two.
    """
    if not load_results(out):
        raise FileNotFoundError(f"no results in {out}")
    with atomic_dir(out, carry=True) as tmp:
        return _write_report(tmp)


def _write_report(out: Path) -> dict[str, Any]:
    rows = load_results(out)
    if not rows:
        raise FileNotFoundError(f"no results in {out}")
    rows.sort(key=lambda r: (r["task"], r["seed"]))
    meta = json.loads((out / META).read_text(encoding="utf-8")) if (out / META).exists() else {}
    k = int(meta.get("k", 4))
    heldout = tuple(meta.get("heldout", DEFAULT_HELDOUT))
    summary = summarize(rows, k, heldout)
    summary["meta"] = meta
    #: What the answers are about (manifest ``source``); a run from before the label says so.
    summary["world"] = meta.get("world") or "unknown (run made before world labels)"
    audit_lines, audit_result = _audit_lines(out)
    if audit_result is not None:
        summary["edge_audit"] = save_audit(out, audit_result)
    plots = render_plots(out, summary, rows)
    summary["plots"] = plots or []
    (out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")
    ov = summary["overall"]
    lines = [
        f"# KOPA-Bench: {meta.get('agent', '?')}" + (f" ({meta['model']})" if meta.get("model") else ""),
        "",
        f"Version `{meta.get('version', '?')}` content hash `{str(meta.get('content_hash', ''))[:16]}`; "
        f"{ov['tasks']} tasks × {meta.get('seeds', '?')} seeds = {ov['episodes']} episodes.",
        "",
        f"World: **{summary['world']}**"
        + (" — invented values in real wire formats; not comparable with results on the live APIs."
           if summary["world"].startswith("synthetic") else "."),
        "",
        f"**pass@1 {_pct(ov['pass@1'])}%**" + (f", pass@{k} {_pct(ov.get(f'pass@{k}'))}%" if k > 1 else "") + " "
        f"(all three axes); RESPONSE {_pct(ov['response'])}%, ACTION {_pct(ov['action'])}%, "
        f"ENVIRONMENT {_pct(ov['environment'])}%.",
        "",
    ]
    jd = summary.get("judge")
    if jd:
        lines += [f"LLM judge ({meta.get('judge_model', '?')}): accepts {_pct(jd['accepted'])}% of "
                  f"{jd['episodes']} judged answers; agrees with the deterministic RESPONSE checker on "
                  f"{_pct(jd['agreement'])}% (the checker's verdict is the one that scores).", ""]
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
    lines += ["", f"Calls per episode: mean {cp['mean']}, max {cp['max']} (gold mean {cp['gold_mean']}).", ""]
    lines += audit_lines
    lines += ["### Plots", ""]
    if plots:
        titles = {"domains.png": "Pass rates by domain", "taxonomy.png": "Failure taxonomy",
                  "calls.png": "Calls per task"}
        lines += [f"![{titles[p]}]({p})" for p in plots]
    else:
        lines.append(PLOTS_SKIPPED)
    lines.append("")
    (out / "summary.md").write_text("\n".join(lines), encoding="utf-8")
    return summary
