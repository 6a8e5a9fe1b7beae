"""The FAN junction: a small set of values (2-5: all of a short list, a category's, a few named
entities or a top-k) each passed to the next tool in a fan-out call, joined by a sum or an
argmax/argmin over the branches."""

from __future__ import annotations

from collections import Counter
from typing import Any

from simulator.tools import PagedResult

from ...observe import scalar
from ...proposers import Binding
from ...transforms import apply_transform
from ..draft import Draft, FanPart, FinalMapPart
from ..execute import ProgramError
from ..sample import FAN_SET, Sampler, _is_unit

__all__ = ["build"]


def _fan_set(s: Sampler, d: Draft, sid: str, res: PagedResult, b: Binding) -> tuple[str, list[str], dict[str, Any]] | None:
    recs = res.records
    fr = s.fields.roles(b.source_tool, recs)
    f = b.source_field
    distinct = list(dict.fromkeys(x for r in recs if (x := scalar(r.get(f)))))
    lo, hi = FAN_SET
    opts: list[dict[str, Any]] = []
    if lo <= len(distinct) <= hi:
        opts.append({"op": "values", "from": sid, "field": f})
    for c in fr.category:
        for val, n in sorted(Counter(scalar(r.get(c)) for r in recs if scalar(r.get(c))).items()):
            sub = {scalar(r.get(f)) for r in recs if scalar(r.get(c)) == val and scalar(r.get(f))}
            if lo <= len(sub) <= hi:
                opts.append({"op": "values", "from": sid, "field": f, "where": {"field": c, "op": "eq", "value": val}})
    labs = [lab for lab in fr.label if lab != f]
    if len(distinct) > hi and labs:
        # a few entities the question names (their codes must be looked up first)
        lab = s.rng.choice(labs)
        lcol, fcol = s.fields.column(recs, lab), s.fields.column(recs, f)
        counts = Counter(lcol)
        idx = [i for i, (x, y) in enumerate(zip(lcol, fcol)) if x and y and counts[x] == 1 and x != y
               and s.answerable(b, y) and s.fits(b, recs[i])]
        if len(idx) >= lo:
            pick = sorted(s.rng.sample(idx, s.rng.randint(lo, min(4, len(idx)))))
            names = [lcol[i] for i in pick]
            opts.append({"op": "values", "from": sid, "field": f, "where": {"field": lab, "op": "in", "value": names}})
    if len(distinct) > hi:
        for nf in fr.numbers_for("topk"):
            opts.append({"op": "topk", "from": sid, "key": nf, "field": f, "k": s.rng.randint(lo, min(hi, 4))})
    if not opts:
        return None

    def ok(st: dict[str, Any]) -> bool:
        try:
            vals = s.try_reduce(d, st)
        except ProgramError:
            return False
        if not (isinstance(vals, list) and lo <= len(set(vals)) == len(vals) <= hi
                and all(s.answerable(b, v) for v in vals)):
            return False
        # a set of 동 cut to their 구 would count one 구 once per 동: the items must be units
        return all(_is_unit(str(v), b.transform) for v in vals)

    good = [o for o in opts if ok(o)]
    st = s.rng.choice(good or opts)
    vid, vals = s.reduce(d, st)
    if not isinstance(vals, list) or not lo <= len(set(vals)) <= hi or len(set(vals)) != len(vals):
        return None
    return vid, vals, st


def build(s: Sampler, length: int) -> Draft | None:
    got = s.begin(max(2, length - 3), lambda b: s.card(b) in ("FAN", "DRV"), "fan", want_set=True)
    if got is None:
        return None
    main, d, sid, res = got
    fs = _fan_set(s, d, sid, res, main)
    if fs is None:
        return None
    vid, vals, st = fs
    args = s.target_args(main, apply_transform(vals[0], main.transform), context=s.context(d))
    sid2, m = s.call(d, main.target_tool, args, each={"ref": vid, "param": main.target_param, "transform": main.transform})
    d.bound.extend(vals)
    d.edges.append((main.source_tool, main.target_tool))
    d.junctions.append("FAN")
    fr = s.fields.roles(main.source_tool, res.records)
    op = s.rng.choice(("map_sum", "map_argmax", "map_argmin"))
    per = Counter(str(r.get("_item")) for r in m.records)
    sizes = {per[str(v)] for v in vals}
    if len(sizes) == 1:
        op = "map_sum"  # every branch the same size: "which has most" would be a tie
    red: dict[str, Any] = {"op": op, "from": sid2, **({"keys": vid} if op != "map_sum" else {})}
    if op != "map_sum" and fr.label:
        red["label"] = {"from": sid, "key": main.source_field, "field": fr.label[0]}
    rid, ans = s.reduce(d, red)
    d.answer = rid
    d.parts.append(FanPart(tool=main.source_tool, set={k: v for k, v in st.items() if k not in ("from", "keys")},
                           target=main.target_tool, args=args, param=main.target_param, n=len(vals),
                           records=len(res.records), pages=len(res.pages)))
    d.parts.append(FinalMapPart(tool=main.target_tool, op=op,
                                label={**red["label"], "from_tool": main.source_tool} if red.get("label") else None))
    return d
