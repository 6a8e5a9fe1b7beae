"""A picture of the graph: PNG when matplotlib is installed, else a Graphviz ``.dot`` file."""

from __future__ import annotations

from pathlib import Path

from .graph import EdgeGraph

__all__ = ["render_picture", "to_dot"]

_COLOURS = {"verified": "darkgreen", "unverified": "gray60", "pruned": "red3", "candidate": "gray80"}


def to_dot(g: EdgeGraph) -> str:
    """Graphviz text: tools clustered by platform, edges coloured by status (deterministic)."""
    lines = ["digraph edge {", "  rankdir=LR; node [shape=box, fontsize=9]; edge [fontsize=7];"]
    by_platform: dict[str, list[str]] = {}
    used = sorted({s.binding.source_tool for s in g.edges()} | {s.binding.target_tool for s in g.edges()})
    for tool in used:
        by_platform.setdefault(g.catalog.endpoint(tool).platform, []).append(tool)
    for plat, tools in sorted(by_platform.items()):
        lines.append(f'  subgraph "cluster_{plat}" {{ label="{plat}";')
        lines += [f'    "{t}";' for t in tools]
        lines.append("  }")
    for s in g.edges():
        if s.status == "unverified":
            continue  # no evidence either way: left out to keep the picture readable
        b = s.binding
        lab = f"{b.source_field}→{b.target_param}" + (f" [{b.transform}]" if b.transform else "")
        lines.append(f'  "{b.source_tool}" -> "{b.target_tool}" [label="{lab}", color={_COLOURS[s.status]}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _write_dot(g: EdgeGraph, directory: Path) -> Path:
    path = directory / "graph.dot"
    path.write_text(to_dot(g), encoding="utf-8")
    return path


def render_picture(g: EdgeGraph, directory: Path) -> Path:
    """Write ``graph.png`` (matplotlib, and scipy for a graph of 500+ tools) or ``graph.dot``
    into ``directory``; returns the path."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import networkx as nx
    except ModuleNotFoundError:
        return _write_dot(g, directory)
    d = nx.DiGraph()
    for s in g.edges():
        if s.status != "unverified":
            d.add_edge(s.binding.source_tool, s.binding.target_tool, color=_COLOURS[s.status].rstrip("0123456789"))
    try:
        pos = nx.spring_layout(d, seed=0)
    except ModuleNotFoundError:  # networkx lays out 500+ nodes with scipy, which is optional
        return _write_dot(g, directory)
    fig, ax = plt.subplots(figsize=(16, 12))
    nx.draw_networkx(d, pos, ax=ax, node_size=60, font_size=6,
                     edge_color=[d.edges[e]["color"] for e in d.edges])
    ax.set_axis_off()
    path = directory / "graph.png"
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path
