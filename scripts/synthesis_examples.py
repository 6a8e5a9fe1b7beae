"""Write docs/synthesis.md's *Examples* section from a `simulator edge synthesize` output.

    simulator edge synthesize --n 1000 --seed 0 --out synth-out
    python scripts/synthesis_examples.py synth-out            # print the section
    python scripts/synthesis_examples.py synth-out --write    # replace it in docs/synthesis.md

Per junction type, the first kept examples (in file order), one per domain while there are
domains left, three in all: the question, each tool call (tool, arguments; one per page), the
size of the tool messages and the answer, as a reader of the conversation sees them; then three
questions per main platform.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "synthesis.md"
JUNCTIONS = ("SEQ", "FAN", "DRV", "SEM", "CMP", "COND")
SHOWN_CALLS = 4
#: The ten main platforms (``simulator.vocab.MainPlatform``), in its order.
PLATFORMS = ("tago", "seoul", "opendart", "fsc", "neis", "lawgokr", "assembly", "nec", "mois", "molit")


def _pick(examples: list[dict[str, Any]], junction: str, k: int = 3) -> list[dict[str, Any]]:
    pool = [e for e in examples if e["junction"] == junction]
    out: list[dict[str, Any]] = []
    for e in pool:  # one per domain first
        if len(out) < k and e["domain"] not in {o["domain"] for o in out}:
            out.append(e)
    for e in pool:
        if len(out) < k and e not in out:
            out.append(e)
    return out


def _calls(messages: list[dict[str, Any]]) -> tuple[list[str], int]:
    calls, chars = [], 0
    for m in messages:
        if m["role"] == "assistant" and m.get("tool_calls"):
            for c in m["tool_calls"]:
                args = json.loads(c["function"]["arguments"])
                calls.append(f"`{c['function']['name']}` {json.dumps(args, ensure_ascii=False, sort_keys=True)}")
        elif m["role"] == "tool":
            chars += len(m["content"])
    return calls, chars


def section(out_dir: Path) -> str:
    def rows(name: str) -> list[dict[str, Any]]:
        return [json.loads(line) for line in (out_dir / name).read_text(encoding="utf-8").split("\n") if line]

    examples = rows("examples.jsonl")
    convs = {c["id"]: c for c in rows("conversations.jsonl")}
    report = json.loads((out_dir / "report.json").read_text(encoding="utf-8"))
    version = examples[0]["cassettes"] if examples else {}
    lines = [f"## Examples (`--n {report['requested']} --seed {examples[0]['seed'] if examples else 0}`, "
             f"shipped cassettes `{version.get('set', 'kopa')}@{version.get('version', '?')}`), as a reader sees them",
             "",
             "Each: the question, the tool calls of its conversation (tool, arguments; one per page), the",
             "answer. The first kept examples of each junction type, one per domain where there are several",
             "(written by `python scripts/synthesis_examples.py synth-out --write`).",
             ""]
    for j in JUNCTIONS:
        lines += [f"### {j}", ""]
        picked = _pick(examples, j)
        if not picked:
            lines += ["(none kept in this run)", ""]
        for e in picked:
            calls, chars = _calls(convs[e["id"]]["messages"])
            shown = "; ".join(calls[:SHOWN_CALLS]) + (f"; … {len(calls) - SHOWN_CALLS} more" if len(calls) > SHOWN_CALLS else "")
            lines += [f"- **{e['question']}**  ",
                      f"  {shown} ({chars:,} characters of tool messages)  ",
                      f"  → {e['answer_text']}", ""]
    lines += ["### By platform", "",
              "Three questions per main platform (the first kept that touch it), with their answers.", ""]
    for plat in PLATFORMS:
        pool = [e for e in examples if plat in {str(p).removeprefix("gen_") for p in e["platforms"]}]
        lines.append(f"- **{plat}** ({len(pool)} of {len(examples)}):" + ("" if pool else " none kept in this run"))
        for e in pool[:3]:
            lines.append(f"  - {e['question']} → {e['answer_text']}")
    lines.append("")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir", type=Path, help="a `simulator edge synthesize` output directory")
    ap.add_argument("--write", action="store_true", help=f"replace the section in {DOC.relative_to(ROOT)}")
    args = ap.parse_args()
    text = section(args.out_dir)
    if not args.write:
        print(text)
        return 0
    doc = DOC.read_text(encoding="utf-8")
    start = doc.index("## Examples (")
    end = doc.index("\n## ", start + 1)
    DOC.write_text(doc[:start] + text + doc[end:], encoding="utf-8")
    print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
