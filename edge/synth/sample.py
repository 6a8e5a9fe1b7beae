"""Path sampling: verified chains → executed gold programs (the junction builders' toolkit).

The sampler walks the verified EDGE graph (only bindings that executed, and whose field and
param mean the same kind of thing), with a seeded ``random.Random``. The junction builders
(one module per type, registered in :data:`edge.synth.junctions.BUILDERS`) draw from it:

* a main edge that supports the junction (:meth:`Sampler.main_edge`), then a prefix path into
  its source (:meth:`Sampler.chain`), preferring code lookups (tools recorded with no
  arguments) as starts and FAN/DRV handoffs on the way;
* every value that passes between calls is chosen from the previous call's *full* result
  (all pages), by name lookup (:meth:`Sampler.pick`) or deterministic reduction (argmax/argmin,
  filter, top-k);
* the draft's steps are executed as they are chosen (:class:`~edge.synth.execute.ProgramRunner`,
  the one runner of :mod:`simulator.tools`), so a draft that meets a miss, an empty result or a
  too-large call is abandoned, never guessed.

The result is a :class:`~edge.synth.draft.Draft`: the gold program (a
:class:`simulator.tools.Program`: call steps read every page, values pass as ``$ref``
expressions), typed question parts for the templates, and facts (tools, platforms, junctions)
for the summary and filters. A reduction is chosen as a *spec* in the question parts'
vocabulary (``pick``, ``argmax``, ``topk``, ``values``, ``map_argmax``, ``cmp``, …);
:meth:`Sampler.reduce` emits its program steps (``filter``, ``argmax``, ``sort``, ``distinct``,
``group_count``, ``choose``, …) and the ``$ref`` expression of its value.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from simulator import BoundedCache, Catalog, Junction

from ..cardinality import FAN_MAX, cardinality_of
from ..graph import EdgeGraph
from ..observe import Observations, scalar
from ..proposers import Binding
from ..transforms import apply_transform
from simulator.tools import CallStep, Cond, OpStep, PageCall, PagedResult, Program, Step, eval_expr

from .draft import CallPart, Draft, FinalPart, PickLabelPart, PickOnePart, PickReducePart, ScopePart, StartPart
from .execute import CallFailed, ProgramError, ProgramRunner, value_of
from .fields import _CITABLE, _IDLIKE, FieldMemo, bookkeeping
from .quality import period_fields, period_kind, raw_tokens
from .semantics import allowed, joins

__all__ = ["JUNCTIONS", "Draft", "Sampler", "family", "sane_edges", "threshold"]

#: The junction types, in the order the sampler tries them (``simulator.vocab.Junction``).
JUNCTIONS: tuple[str, ...] = tuple(x.value for x in Junction)
#: Largest set a FAN junction expands into parallel calls.
FAN_SET = (2, 5)
#: Names of date-valued fields and params (``cnddtId`` is an id, not a date: no bare ``dt``).
_DAY = re.compile(r"(ymd|date|_de$|_dt$|^dt|dtm$|일자|일시|날짜|birth|_ym$)", re.I)


def family(platform: str) -> str:
    """The provider a platform id stands for. Catalog platforms are providers already
    (``molit`` holds the curated and generated MOLIT tools); an old id read from a dataset made
    before platforms were merged (``gen_molit``) is its provider too."""
    return platform.removeprefix("gen_")


def _kind(name: str, desc: str) -> str:
    """The kind of value a field or param carries: date, month, year, election id, name, code."""
    n = name.lower()
    if n in ("sgid",):
        return "election"
    if "ymd" in n and "deal" in n or "년월" in desc or "yyyymm " in (desc.lower() + " ") and "dd" not in desc.lower():
        return "month"
    if n in ("ay", "dealyear", "bsns_year", "solyear") or "연도" in desc or "학년도" in desc:
        return "year"
    if _DAY.search(name) or "일자" in desc or "날짜" in desc:
        return "date"
    if re.search(r"(nm|name)$", n) or "명" in desc[-2:] or "이름" in desc:
        return "name"
    return "code"


def _desc_of(catalog: Catalog, tool: str, name: str, param: bool) -> str:
    ep = catalog.endpoint(tool)
    items = ep.params if param else ep.fields
    for it in items:
        if it.name == name:
            return it.description or ""
    return ""


def sane_edges(graph: EdgeGraph) -> list[Binding]:
    """Verified bindings whose source field and target param carry the same kind of value.

    Execution verifies that a value *answers*; it does not say the question would make
    sense (a law's serial number happens to parse as a ``YYYYMM`` month, an air-quality
    등급 of 1–3 as a school 학년). Field and param must mean the same thing
    (:func:`edge.synth.semantics.joins`); cross-platform code→code bindings must also share a
    name stem, carry a transform, or start at a lookup.
    """
    cat = graph.catalog
    out = []
    for st in graph.edges("verified"):
        b = st.binding
        ks = _kind(b.source_field, _desc_of(cat, b.source_tool, b.source_field, False))
        kt = _kind(b.target_param, _desc_of(cat, b.target_tool, b.target_param, True))
        if b.transform.startswith("slice:0:4") and kt == "year" and ks in ("date", "year", "election"):
            ks = "year"
        if b.transform.startswith("slice:0:6") and kt == "month" and ks in ("date",):
            ks = "month"
        if b.transform.startswith("slice:0:5") and ks == "code":
            kt = "code"
        if ks != kt or not joins(cat, b.source_tool, b.source_field, b.target_tool, b.target_param):
            continue
        if ks in ("date", "month", "year"):
            continue  # a date passed on from a result is one the question already states
        if ks == "election" and not b.source_tool.endswith("_codes"):
            continue  # an election id comes from the election-code lookup, not echoed rows
        same = family(cat.endpoint(b.source_tool).platform) == family(cat.endpoint(b.target_tool).platform)
        if ks == "code" and not same:
            name_score = re.search(r"name ([0-9.]+)", b.rationale or "")
            if not (b.transform or (name_score and float(name_score.group(1)) > 0) or b.source_tool.endswith(("_codes", "_cd"))):
                continue
        out.append(b)
    return sorted(out, key=lambda b: b.key)


def _ref(sid: str, **more: Any) -> dict[str, Any]:
    return {"$ref": sid, **more}


def _key(handle: Any) -> str:
    return json.dumps(handle, sort_keys=True, ensure_ascii=False)


class Sampler:
    """Builds drafts of each junction type over ``edges`` (see the module docstring)."""

    def __init__(self, catalog: Catalog, edges: list[Binding], obs: Observations, ex: ProgramRunner, rng: Any) -> None:
        self.catalog, self.edges, self.obs, self.ex, self.rng = catalog, edges, obs, ex, rng
        self.out: dict[str, list[Binding]] = {}
        self.inn: dict[str, list[Binding]] = {}
        for b in edges:
            self.out.setdefault(b.source_tool, []).append(b)
            self.inn.setdefault(b.target_tool, []).append(b)
        self._filters = {t: sorted(fs, key=lambda d: json.dumps(d, sort_keys=True, ensure_ascii=False))
                         for t, fs in obs.filters.items()}
        self.made: Counter[str] = Counter()
        #: This sampler's shard of the run (index, count): intents ask about its entities only.
        self.portion: tuple[int, int] = (0, 1)
        #: Constant calls (tool + args) found over the budget: never started again.
        self.too_big: set[str] = set()
        self._full: ProgramRunner | None = None
        self._fs_cache: dict[tuple[str, str, str], list[str]] = {}
        #: Columns and field roles of the call results this sampler reads.
        self.fields = FieldMemo(catalog)
        #: Call results by their page requests (one list per distinct call: see ``_stable``).
        self._results: BoundedCache[str, list[dict[str, Any]]] = BoundedCache(4096)
        self._cards: dict[Binding, str] = {}
        self._keys: dict[str, list[tuple[str, str]]] = {}
        self._static_w: dict[Binding, float] = {}
        self._cands: dict[str, list[int]] = {}
        self._sem: list[list[Binding]] | None = None
        self._masses: dict[str, float] = {}
        self._fam_made: Counter[str] = Counter()
        self._fam_made_at = -1
        self._weights: list[float] = []
        self._weights_at: tuple[int, int] | None = None
        self._sayable: dict[tuple[Any, ...], bool] = {}
        self._say_start: dict[str, bool] = {}
        # only edges a chain a person can ask reaches: its source starts with arguments a
        # question states, or is reached from such a start (a draft that could only start
        # with "cityCode=12" or coordinates is never tried)
        reach = {t for t in {b.source_tool for b in edges} | {b.target_tool for b in edges} if self.says_start(t)}
        grew = True
        while grew:
            grew = False
            for b in edges:
                if b.source_tool in reach and b.target_tool not in reach:
                    reach.add(b.target_tool)
                    grew = True
        self.reach = reach
        self.edges = [b for b in edges if b.source_tool in reach]
        self.out = {t: [b for b in bs if t in reach] for t, bs in self.out.items() if t in reach}
        self.inn = {t: [b for b in bs if b.source_tool in reach] for t, bs in self.inn.items()}

    # ---- graph facts -----------------------------------------------------------------
    def is_lookup(self, tool: str) -> bool:
        """A code lookup: recorded with no arguments (a whole list of codes or entities)."""
        return any(js == "{}" for _k, js in self._start_keys(tool))

    def card(self, b: Binding) -> str:
        got = self._cards.get(b)
        if got is None:
            c = cardinality_of(self.obs, b.source_tool, b.source_field)
            got = self._cards[b] = c.label if c else "SEQ"
        return got

    def _start_keys(self, tool: str) -> list[tuple[str, str]]:
        """Per recorded call of ``tool`` (in ``_filters`` order): its key (``tool`` + its args
        as JSON) and the args' JSON; computed once per tool (thousands of candidate edges are
        weighed per draft)."""
        got = self._keys.get(tool)
        if got is None:
            got = []
            for f in self._filters.get(tool, []):
                js = json.dumps({k: v for k, v in f.items() if self._arg_ok(tool, k)}, sort_keys=True, ensure_ascii=False)
                got.append((tool + js, js))
            self._keys[tool] = got
        return got

    def _arg_ok(self, tool: str, name: str) -> bool:
        p = self.catalog.endpoint(tool).param(name)
        return p is not None and p.role in ("filter", "plain")

    def fits_budget(self, pages: list[PageCall]) -> bool:
        """Whether every page request fits one tool message (``TOOL_MESSAGE_BUDGET``)."""
        from simulator.tools.observation import observation_text

        from .writers import TOOL_MESSAGE_BUDGET, _caller

        caller = _caller(self.ex)
        total = 0
        for page in pages:
            n = len(observation_text(caller.call(page.tool, page.args), TOOL_MESSAGE_BUDGET + 1))
            total += n
            if n > TOOL_MESSAGE_BUDGET:
                return False
        from .writers import CONVERSATION_BUDGET

        return total <= CONVERSATION_BUDGET

    def filtered_start(self, tool: str, nxt: Binding | None = None) -> dict[str, str] | None:
        """A code-table lookup reached with its own name filter (``SCHUL_NM='세종초등학교'``),
        not a dump: the name comes from the recorded table (read here, never shown), and the
        filtered call is the one the program makes."""
        rules = self._name_filters(tool)
        # the table: the recorded call with no arguments, or the first one recorded (a dated
        # table such as ``fsc_listed_items`` is recorded with ``basDt=20250314``)
        bases = self._filters.get(tool, [])
        if not rules or not bases:
            return None
        base = {} if {} in bases else {k: v for k, v in bases[0].items() if self._arg_ok(tool, k)}
        if not self.sayable(tool, base):
            return None  # a table read with a code nobody states ("cityCode=12"): looked up first
        if self._full is None:
            # the table itself, in large pages: read here to choose a name, never shown
            self._full = ProgramRunner(self.ex.resolver, max_pages=200)
        try:
            got, pages = self._full.step(CallStep(id="t", call=tool, args=base, pages="all"), {})
        except ProgramError:
            return None
        got = self._stable(got, pages)
        if not got:
            return None
        full = PagedResult(tool, base, got, len(got), [])
        fr = self.fields.roles(tool, full.records)
        # a name shared by many records (a precedent's 사건명 "건물명도") still starts a chain
        # where a number people cite (its 사건번호) picks one record of the filtered result
        cited = any(_CITABLE.search(x) for x in fr.label)
        labs = [(prm, fld) for prm, fld in rules if prm not in base and (fld in fr.label or cited and fld not in fr.number)]
        if not labs:
            return None
        prm, lab = self.rng.choice(labs)
        key = (tool, prm + ":" + lab, nxt.key if nxt is not None else "")
        cands = self._fs_cache.get(key)
        if cands is None:
            col = self.fields.column(full.records, lab)
            counts = Counter(col)
            ok: Any = range(len(col))
            if nxt is not None:  # only entities whose onward call was recorded
                ok = [i for i in ok if self.answerable(nxt, scalar(full.records[i].get(nxt.source_field)) or "")
                      and self.fits(nxt, full.records[i])]
                # a handoff that cuts a code to its district (slice:0:5) starts at the district
                # itself: a 동 named there would be answered with its whole 구's count
                unit = [i for i in ok if _is_unit(scalar(full.records[i].get(nxt.source_field)) or "", nxt.transform)]
                ok = unit or ok
            most = 3 if lab in fr.label else 150
            cands = self._fs_cache[key] = sorted({col[i] or "" for i in ok
                                                  if col[i] and counts[col[i]] <= most and len(col[i] or "") <= 30})
        if not cands:
            return None
        return {**base, prm: self.rng.choice(cands)}

    def _name_filters(self, tool: str) -> list[tuple[str, str]]:
        """(param, field) of ``tool``'s name filters: a filter param named like a field
        (``SCHUL_NM``), or one the catalog's query semantics match against a field
        (``query`` → ``법령명한글`` contains, ``likeCorpNm`` → ``corpNm``)."""
        ep = self.catalog.endpoint(tool)
        fields = {f.name for f in ep.fields}
        out = [(p.name, p.name) for p in ep.params if p.role == "filter" and p.name in fields]
        for r in ep.query.filters if ep.query is not None else []:
            p = ep.param(r.param)
            if (p is not None and p.role == "filter" and r.op in ("equals", "contains") and r.transform is None
                    and r.when is None and r.field in fields and all(x != r.param for x, _f in out)):
                out.append((r.param, r.field))
        return out

    def sayable(self, tool: str, args: dict[str, Any], skip: tuple[str, ...] = ()) -> bool:
        """Whether a person could state every constant argument of a call of ``tool``: no raw
        code, id or coordinate (:func:`~edge.synth.quality.raw_tokens`) unless the catalog gives
        it a label (``sgTypecode=2`` → 국회의원), it is a date, or it is a code people have in
        hand (a stock code). A chain that needs one asks by a name and looks the code up."""
        key = (tool, tuple(sorted((k, str(v)) for k, v in args.items() if not isinstance(v, dict))), skip)
        got = self._sayable.get(key)
        if got is None:
            got = self._sayable[key] = self._say(tool, args, skip)
        return got

    def _say(self, tool: str, args: dict[str, Any], skip: tuple[str, ...]) -> bool:
        from .checks import _KNOWN_CODE, arg_label
        from .korean import date_text
        from .semantics import semantic_type

        ep = self.catalog.endpoint(tool)
        for k, v in args.items():
            if k in skip or isinstance(v, dict) or not self._arg_ok(tool, k):
                continue
            text = str(v)
            p = ep.param(k)
            coded = semantic_type(k, (p.description if p else "") or "") in ("code", "identifier", "coordinate")
            if not (raw_tokens(text) or coded) or date_text(text) or arg_label(self.catalog, tool, k, text):
                continue
            if _KNOWN_CODE.search(f"{k} {(p.description if p else '') or ''}"):
                continue
            return False
        return True

    def start_args(self, tool: str) -> dict[str, str] | None:
        keys = self._start_keys(tool)
        fs = [f for f, (k, _js) in zip(self._filters.get(tool, []), keys) if k not in self.too_big
              and self.sayable(tool, f)]
        if not fs:
            return None
        f = self.rng.choice(fs)
        return {k: v for k, v in f.items() if self._arg_ok(tool, k)}

    def target_args(self, b: Binding, value: str, fixed: dict[str, str] | None = None,
                    context: dict[str, str] | None = None) -> dict[str, str]:
        """Args of ``b.target_tool`` besides the bound param: a recorded call's, if one fits
        (one that also has the ``fixed`` values, when given: else ``CallFailed``), preferring
        one that agrees with ``context`` (the draft's earlier args: a chain that started in one
        city, ``cityCode=25``, stays there)."""
        fs = self._filters.get(b.target_tool, [])
        exact = [f for f in fs if f.get(b.target_param) == value]
        if fixed:
            exact = [f for f in exact if all(f.get(k) == x for k, x in fixed.items())]
            if not exact:
                raise CallFailed(f"{b.target_tool}: no recorded call with {b.target_param}={value} and {fixed}")
        having = [f for f in fs if b.target_param in f]
        pool = exact or having or fs
        if pool:
            # the other arguments are stated in the question: none may be a code nobody knows
            pool = [f for f in pool if self.sayable(b.target_tool, f, skip=(b.target_param, *(fixed or {})))]
            if not pool:
                raise CallFailed(f"{b.target_tool}: every recorded call needs a code the question cannot state")
        if context:
            agree = [f for f in pool if all(f.get(k) == x for k, x in context.items() if k in f and k != b.target_param)]
            pool = agree or pool
        base = dict(self.rng.choice(pool)) if pool else {}
        args = {k: v for k, v in base.items() if self._arg_ok(b.target_tool, k) and k != b.target_param}
        for p in self.catalog.endpoint(b.target_tool).params:
            if p.required and p.name not in args and p.name != b.target_param and p.role in ("filter", "plain"):
                if p.default or p.example:
                    args[p.name] = p.default or p.example or ""
        return args

    def fits(self, b: Binding, rec: dict[str, Any]) -> bool:
        """Whether a recorded call of ``b.target_tool`` answers ``rec``'s value *and* agrees
        with ``rec`` on every other argument ``rec`` has as a field (see ``bind_args``)."""
        raw = scalar(rec.get(b.source_field))
        if raw is None:
            return False
        value = apply_transform(raw, b.transform)
        fields = {f.name for f in self.catalog.endpoint(b.source_tool).fields}
        for f in self._filters.get(b.target_tool, []):
            if f.get(b.target_param) != value:
                continue
            if all(scalar(rec.get(k)) == x for k, x in f.items()
                   if k != b.target_param and k in fields and k != b.source_field and self._arg_ok(b.target_tool, k)):
                return True
        return False

    def answerable(self, b: Binding, raw: str) -> bool:
        rec = self.obs.recorded(b.target_tool, b.target_param)
        return apply_transform(raw, b.transform) in rec

    # ---- execution helpers -------------------------------------------------------------
    def _stable(self, recs: list[dict[str, Any]], pages: list[PageCall]) -> list[dict[str, Any]]:
        """The records list an identical call (the same page requests) returned before, so the
        field memo (keyed by a result's identity) knows it again."""
        key = json.dumps([(p.tool, p.args) for p in pages], sort_keys=True, ensure_ascii=False)
        hit = self._results.get(key)
        if hit is not None and len(hit) == len(recs):
            return hit
        self._results.put(key, recs)
        return recs

    def call(self, d: Draft, tool: str, args: dict[str, str], bind: dict[str, Any] | None = None,
             each: dict[str, Any] | None = None, guard: dict[str, Any] | None = None) -> tuple[str, Any]:
        """Add and execute a call step (every page) of ``tool``: constant ``args``, ``bind``
        (param → ``{"ref": value expression, "transform": …}``), a fan-out ``each`` (``ref``,
        ``param``, ``transform``) and a COND ``guard``. A call that fails, answers nothing or
        is over the message budget raises ``CallFailed``; a guarded call that does not run
        is added unexecuted. Returns the step id and its result (a ``PagedResult``; records
        of a fan-out carry ``_item``)."""
        sid = d.sid("s")
        full: dict[str, Any] = dict(sorted(args.items()))
        for param, b in (bind or {}).items():
            full[param] = {**b["ref"], "transform": b["transform"]} if b.get("transform") else b["ref"]
        if each:
            full[each["param"]] = {"$item": None, **({"transform": each["transform"]} if each.get("transform") else {})}
        step = CallStep(id=sid, call=tool, args=dict(sorted(full.items())), pages="all",
                        foreach=each["ref"] if each else None, when=_cond(guard))
        key = tool + json.dumps(args, sort_keys=True, ensure_ascii=False)
        if key in self.too_big and not bind and not each:  # only a constant call was found too big
            raise CallFailed(f"{tool}: over the tool-message budget")
        values = self.values(d)
        if step.when is not None and not _holds(step.when, values):
            d.steps.append(step)  # a branch not taken on this version: kept, not run
            d.ctx.values[sid] = []
            return sid, PagedResult(tool, dict(args), [], 0, [])
        recs, pages = self.ex.step(step, values)
        if not each:  # a fan-out's records carry their items: not shared by page requests alone
            recs = self._stable(recs, pages)
        items = [str(x) for x in eval_expr(each["ref"], values)] if each else [""]
        have = {str(r.get("_item")) for r in recs} if each else ({""} if recs else set())
        if any(i not in have for i in items):
            raise CallFailed(f"{tool}: empty result")
        if not self.fits_budget(pages):
            if not bind and not each:
                self.too_big.add(key)
            raise CallFailed(f"{tool}: over the tool-message budget")
        d.steps.append(step)
        d.calls += len(items) if each else 1
        d.ctx.values[sid] = recs
        return sid, PagedResult(tool, dict(args), recs, len(recs), pages)

    def scope(self, d: Draft, spec: dict[str, Any], say: bool = True) -> dict[str, Any]:
        """``spec`` restricted to one period where it aggregates records of several.

        A count, sum, extreme or ranking over records that span more than one period (a
        school's classes of two 학년도, :func:`~edge.synth.quality.period_fields`) is an answer
        to a question nobody asked: the reduction keeps one period (the one this draft already
        uses for the same field, else the latest), and the draft says it (a ``scope`` part the
        question states: "2025학년도"). Derived from the catalog's field semantics, so it holds
        for every tool."""
        if spec.get("op") not in _SCOPED or not isinstance(spec.get("from"), str):
            return spec
        src = next((s for s in d.steps if s.id == spec["from"]), None)
        recs = d.ctx.values.get(spec["from"]) if src is not None else None
        if not isinstance(src, CallStep) or not isinstance(recs, list):
            return spec
        w = spec.get("where")
        if w and w.get("op", "eq") == "eq":
            recs = [r for r in recs if scalar(r.get(w["field"])) == str(w["value"])]
        spans = period_fields(self.catalog, src.call, recs)
        if not spans:
            return spec
        scope = list(spec.get("scope") or [])
        for f, vals in sorted(spans.items()):
            v = d.scopes.get((src.call, f)) or vals[-1]
            scope.append({"field": f, "op": "eq", "value": v})
            if say and (src.call, f) not in d.scopes:
                d.scopes[(src.call, f)] = v
                d.parts.append(ScopePart(tool=src.call, field=f, period=period_kind(self.catalog, src.call, f), value=v))
        return {**spec, "scope": scope}

    def reduce(self, d: Draft, spec: dict[str, Any]) -> tuple[Any, Any]:
        """Emit the program steps of reduction ``spec`` and run them; returns the ``$ref``
        expression of its value and the value (``ProgramError`` when it has none)."""
        spec = self.scope(d, spec)
        steps, handle = self._compile(d, spec)
        env = self.values(d)
        for st in steps:
            env[st.id] = d.ctx.values[st.id] = self.ex.step(st, env)[0]
        v = value_of(handle, env)
        d.steps.extend(steps)
        if spec["op"] in ("pick", "argmax", "argmin") and "field" in spec:
            d.ctx.picks[_key(handle)] = handle
        return handle, v

    def try_reduce(self, d: Draft, spec: dict[str, Any]) -> Any:
        """The value of ``spec`` on the draft so far, adding nothing (``ProgramError`` when none)."""
        steps, handle = self._compile(Draft(n=d.n), self.scope(d, spec, say=False))
        env = self.values(d)
        for st in steps:
            env[st.id] = self.ex.step(st, env)[0]
        return value_of(handle, env)

    def _compile(self, d: Draft, spec: dict[str, Any]) -> tuple[list[Step], Any]:  # noqa: C901 - one op table
        """Program steps and value expression of a reduction spec (see the module docstring)."""
        op = spec["op"]
        when = _cond(spec.get("if"))
        base = {"when": when} if when is not None else {}
        w = spec.get("where")
        where = [{"field": w["field"], "op": w.get("op", "eq"), "value": w["value"]}] if w else []
        where += [dict(x) for x in spec.get("scope") or []]
        src = spec.get("from")
        out: list[Step] = []

        def add(**kw: Any) -> str:
            sid = d.sid("v")
            out.append(OpStep.model_validate({"id": sid, **base, **kw}))
            return sid

        if op == "pick":
            if where:
                return out, _ref(add(op="filter", **{"from": src}, where=where), field=spec["field"], pick="first")
            return out, _ref(src, field=spec["field"], pick="first")
        if op in ("argmax", "argmin"):
            a = add(op=op, **{"from": src}, by=spec["key"], numeric=True, where=where)
            return out, _ref(a, field=spec["field"])
        if op == "count":
            return out, _ref(add(op="count", **{"from": src}, where=where))
        if op == "distinct_count":
            dd = add(op="distinct", **{"from": src}, field=spec["field"], where=where)
            return out, _ref(add(op="count", **{"from": dd}))
        if op in ("sum", "mean", "max", "min"):
            return out, _ref(add(op=op, **{"from": src}, field=spec["key"], where=where, round=2 if op == "mean" else 4))
        if op == "topk":
            srt = add(op="sort", **{"from": src}, by=spec["key"], desc=True, numeric=True, top=int(spec["k"]), where=where)
            return out, _ref(srt, field=spec["field"])
        if op == "values":
            return out, _ref(add(op="distinct", **{"from": src}, field=spec["field"], where=where))
        if op == "map_sum":
            return out, _ref(add(op="count", **{"from": src}, where=where))
        if op in ("map_argmax", "map_argmin"):
            g = add(op="group_count", **{"from": src}, by="_item", keys=spec["keys"], where=where)
            best = add(op=op[4:], **{"from": g}, by="count", numeric=True)
            lab = spec.get("label")
            if not lab:
                return out, _ref(best, field="key")
            f = add(op="filter", **{"from": lab["from"]},
                    where=[{"field": lab["key"], "op": "eq", "value": _ref(best, field="key")}])
            return out, _ref(f, field=lab["field"], pick="first")
        if op == "cmp":
            la, lb = spec["labels"]
            return out, _ref(add(op="choose", test={"left": spec["a"], "op": "gt", "right": spec["b"]}, a=la, b=lb))
        if op == "pair":
            return out, list(spec["refs"])
        if op == "choose":
            t = spec["test"]
            return out, _ref(add(op="choose", test={"left": t["ref"], "op": "ge", "right": t["gte"]},
                                 a=spec["then"], b=spec["else"]))
        raise ProgramError(f"reduction op={op!r} is unknown")

    def bind_args(self, d: Draft, b: Binding, vid: str, v: str,
                  guard: dict[str, Any] | None = None) -> tuple[dict[str, str], dict[str, Any]]:
        """Args and binds of a call of ``b.target_tool`` fed by value ``vid`` (= ``v``).

        A target keyed by two ids (a NEIS school: office code + school code; a TAGO stop:
        city code + node id) takes *both* from the record the value came from: every other
        recorded argument that the source tool also has as a field is picked from that same
        record (the same reduction, another field) and bound, never taken from some other
        recorded call. A draft whose record has no recorded call fails here.
        """
        value = apply_transform(v, b.transform)
        bind: dict[str, Any] = {b.target_param: {"ref": vid, "transform": b.transform}}
        spec = d.ctx.picks.get(_key(vid))
        co: dict[str, tuple[Any, str]] = {}
        if spec is not None:
            fields = {f.name for f in self.catalog.endpoint(b.source_tool).fields}
            keys = sorted({k for f in self._filters.get(b.target_tool, []) for k in f
                           if k != b.target_param and self._arg_ok(b.target_tool, k)})
            for p in keys:
                if p in fields and p != spec["field"]:
                    # the same record's other field: the same expression, another field
                    cref = {**spec, "field": p}
                    try:
                        cv = value_of(cref, self.values(d))
                    except ProgramError:
                        raise CallFailed(f"{b.source_tool}: no {p} in the picked record") from None
                    co[p] = (cref, cv)
        args = self.target_args(b, value, {p: cv for p, (_c, cv) in co.items()}, self.context(d))
        for p, (cref, _cv) in co.items():
            bind[p] = {"ref": cref, "transform": ""}
            args.pop(p, None)
        return args, bind

    @staticmethod
    def context(d: Draft) -> dict[str, str]:
        """The draft's constant args so far, by param name (the first call's win)."""
        out: dict[str, str] = {}
        for s in d.steps:
            for k, v in s.args.items() if isinstance(s, CallStep) else ():
                if not isinstance(v, dict):
                    out.setdefault(k, str(v))
        return out

    @staticmethod
    def _consts(d: Draft) -> set[str]:
        """Every constant argument value of the draft's calls so far (what the question states)."""
        return {str(v) for s in d.steps if isinstance(s, CallStep) for v in s.args.values()
                if not isinstance(v, dict)}

    @staticmethod
    def values(d: Draft) -> dict[str, Any]:
        """The value of each of the draft's executed steps so far, by step id."""
        return {s.id: d.ctx.values[s.id] for s in d.steps if s.id in d.ctx.values}

    # ---- picks: one value out of a full result -------------------------------------------
    def pick(self, d: Draft, sid: str, res: PagedResult, b: Binding, allow_drv: bool = True,
             force_drv: bool = False) -> tuple[str, str] | None:
        """Choose one value of ``b.source_field`` from ``res`` (by name, or by a reduction)."""
        recs = res.records
        f = b.source_field
        fr = self.fields.roles(b.source_tool, recs)
        large = len(recs) > FAN_MAX or len(res.pages) > 1
        fcol = self.fields.column(recs, f)
        distinct = set(fcol) - {None}
        if not distinct:
            return None
        if len(distinct) == 1 and not force_drv:
            if next(iter(distinct)) in self._consts(d) | set(d.bound):
                return None  # the value only echoes an argument given or passed on before
            vid, v = self.reduce(d, {"op": "pick", "from": sid, "field": f})
            d.parts.append(PickOnePart(tool=b.source_tool, field=f))
            d.junctions.append("SEQ")
            return vid, v
        labelled = [lab for lab in fr.label if any(x and y and x != y for x, y in zip(self.fields.column(recs, lab), fcol))]
        keys = fr.numbers_for("argmax")
        use_drv = force_drv or (allow_drv and large and keys and self.rng.random() < 0.5) or not labelled
        if use_drv and keys:
            key = self.rng.choice(keys)
            op = self.rng.choice(("argmax", "argmin"))
            where = None
            if fr.category and self.rng.random() < 0.4:
                cf = self.rng.choice(fr.category)
                cv = sorted(Counter(x for x in self.fields.column(recs, cf) if x).items(), key=lambda t: (-t[1], t[0]))
                where = {"field": cf, "op": "eq", "value": self.rng.choice(cv[:4])[0]}
            st: dict[str, Any] = {"op": op, "from": sid, "key": key, "field": f}
            if where:
                st["where"] = where
            try:
                vid, v = self.reduce(d, st)
            except ProgramError:
                return None
            d.parts.append(PickReducePart(tool=b.source_tool, op=op, key=key, field=f, where=where,
                                          records=len(recs), pages=len(res.pages)))
            d.junctions.append("DRV" if large else "SEQ")
            return vid, v
        if not labelled:
            return None
        lab = self.rng.choice(labelled)
        lcol = self.fields.column(recs, lab)
        counts = Counter(lcol)
        cands = [i for i, (x, y) in enumerate(zip(lcol, fcol)) if x and y and counts[x] == 1 and x != y]
        if not cands:
            return None
        rec = self.obs.recorded(b.target_tool, b.target_param)
        good = [i for i in cands if apply_transform(fcol[i], b.transform) in rec and self.fits(b, recs[i])] if rec else []
        pool = good or cands
        pool = [i for i in pool if _is_unit(fcol[i] or "", b.transform)] or pool  # as in filtered_start
        i = self.rng.choice(pool)
        name = lcol[i] or ""
        if fcol[i] in set(d.bound) | self._consts(d):
            return None  # an echo: the value this call was given
        vid, v = self.reduce(d, {"op": "pick", "from": sid, "where": {"field": lab, "op": "eq", "value": name}, "field": f})
        d.parts.append(PickLabelPart(tool=b.source_tool, label=lab, name=name, field=f,
                                     records=len(recs), pages=len(res.pages)))
        d.junctions.append("DRV" if large and self.rng.random() < 0 else "SEQ")
        return vid, v

    def hop(self, d: Draft, b: Binding, vid: str, v: str) -> tuple[str, PagedResult]:
        if not _is_unit(v, b.transform):
            # a place cut to the district it lies in ("'청운길 138'이 속한 시·군·구 전체"): nobody
            # names a district by an address in it; the chain starts from the district's name
            raise CallFailed(f"{b.source_tool}->{b.target_tool}: a widening handoff")
        args, bind = self.bind_args(d, b, vid, v)
        sid, res = self.call(d, b.target_tool, args, bind=bind)
        d.bound.append(v)
        d.edges.append((b.source_tool, b.target_tool))
        d.parts.append(CallPart(tool=b.target_tool, args=args, param=b.target_param, transform=b.transform,
                                widens=not _is_unit(v, b.transform), from_tool=b.source_tool,
                                records=len(res.records), pages=len(res.pages)))
        return sid, res

    # ---- final reductions -------------------------------------------------------------------
    def final(self, d: Draft, sid: str, res: PagedResult, tool: str, prefer_drv: bool = False) -> bool:
        recs = res.records
        fr = self.fields.roles(tool, recs)
        opts: list[dict[str, Any]] = []
        if len(recs) > 1:
            opts.append({"op": "count", "from": sid})
            for c in fr.category:
                vals = sorted({scalar(r.get(c)) or "" for r in recs} - {""})
                opts.append({"op": "distinct_count", "from": sid, "field": c})
                if len(vals) >= 2:
                    opts.append({"op": "count", "from": sid, "where": {"field": c, "op": "eq", "value": self.rng.choice(vals)}})
            for nf in fr.number:
                ty = fr.types.get(nf, "text")
                ops = [o for o in ("sum", "mean", "max", "min") if allowed(o, ty)]
                if ops:
                    opts.append({"op": self.rng.choice(ops), "from": sid, "key": nf})
                for lab in fr.label[:2]:
                    if allowed("argmax", ty):
                        opts.append({"op": self.rng.choice(("argmax", "argmin")), "from": sid, "key": nf, "field": lab})
                    if len(recs) >= 5 and allowed("topk", ty):
                        opts.append({"op": "topk", "from": sid, "key": nf, "field": lab, "k": 3})
        else:
            ep = self.catalog.endpoint(tool)
            for fs in ep.fields:
                val = scalar(recs[0].get(fs.name))
                if val and not fs.code and not _IDLIKE.search(fs.name) and len(val) <= 40 and not bookkeeping(ep, fs.name):
                    opts.append({"op": "pick", "from": sid, "field": fs.name})
        if prefer_drv:
            opts = [o for o in opts if o["op"] != "pick"] or opts
        if not opts:
            return False
        st = self.rng.choice(opts)
        try:
            vid, v = self.reduce(d, st)
        except ProgramError:
            return False
        if v in (None, "", []) or isinstance(v, float) and v != v:
            return False
        d.answer = vid
        d.parts.append(FinalPart(tool=tool, **{k: v2 for k, v2 in st.items() if k not in ("from",)},
                                 records=len(recs), pages=len(res.pages)))
        if len(recs) > FAN_MAX and st["op"] != "pick":
            d.junctions.append("DRV")
        return True

    # ---- paths ------------------------------------------------------------------------------
    def _weight_start(self, b: Binding) -> float:
        plat = self.catalog.endpoint(b.source_tool).platform
        # A provider's edges share weight by the square root of their number (at the full tier
        # generated MOLIT tools hold two thirds of the edges; Seoul's one would never be
        # drawn), and providers made less so far come first.
        fam = family(plat)
        w = self._static_weight(b) / self._mass(fam) ** 0.5 / (1.0 + self._made_of(fam)) ** 0.7
        if not self.startable(b.source_tool):
            w *= 0.05  # a chain cannot start here (every recorded call is over the budget)
        return w

    def _static_weight(self, b: Binding) -> float:
        """The part of an edge's start weight that never changes during a run."""
        w = self._static_w.get(b)
        if w is None:
            w = 3.0 if self.is_lookup(b.source_tool) else 1.0
            w *= {"DRV": 2.0, "FAN": 1.6}.get(self.card(b), 1.0)
            if self.catalog.endpoint(b.source_tool).platform != self.catalog.endpoint(b.target_tool).platform:
                k = _kind(b.target_param, _desc_of(self.catalog, b.target_tool, b.target_param, True))
                if k in ("date", "month", "year"):
                    w *= 0.25  # a shared date across domains: allowed, but not the favourite
            self._static_w[b] = w
        return w

    def _made_of(self, fam: str) -> int:
        """How many examples made so far use a tool of provider ``fam``."""
        total = sum(self.made.values())
        if self._fam_made_at != total:
            self._fam_made = Counter()
            for p, n in self.made.items():
                self._fam_made[family(p)] += n
            self._fam_made_at = total
        return self._fam_made[fam]

    def _mass(self, fam: str) -> float:
        """The static weight of every edge starting at a tool of provider ``fam`` (computed once)."""
        if not self._masses:
            for e in self.edges:
                f = family(self.catalog.endpoint(e.source_tool).platform)
                self._masses[f] = self._masses.get(f, 0.0) + self._static_weight(e)
        return self._masses.get(fam) or 1.0

    def startable(self, tool: str) -> bool:
        """Whether a chain can start at ``tool``: a recorded call not known to be over budget."""
        return any(k not in self.too_big for k, _js in self._start_keys(tool))

    def says_start(self, tool: str) -> bool:
        """Whether a chain can start at ``tool`` with arguments a person states: a recorded call
        with no raw code (:meth:`sayable`), or a name filter (``SCHUL_NM``). Else the chain
        walks further back, to the lookup that turns a name into the code."""
        got = self._say_start.get(tool)
        if got is None:
            bases = self._filters.get(tool, [])
            base = {} if {} in bases else (bases[0] if bases else {})
            got = self._say_start[tool] = (bool(self._name_filters(tool)) and self.sayable(tool, base)) or any(
                self.sayable(tool, f) for f in bases)
        return got

    def prefix(self, tool: str, hops: int) -> list[Binding]:
        """Up to ``hops`` edges leading into ``tool``, walking back toward a code lookup."""
        path: list[Binding] = []
        seen = {tool}
        here = tool
        for _ in range(hops + 2):
            if self.is_lookup(here) or len(path) >= hops and self.startable(here) and self.says_start(here):
                break  # a code lookup is where a chain starts: nothing feeds it
            cands = [b for b in self.inn.get(here, []) if b.source_tool not in seen]
            if not cands:
                break
            ws = [self._weight_start(b) for b in cands]
            b = self.rng.choices(cands, weights=ws)[0]
            path.insert(0, b)
            seen.add(b.source_tool)
            here = b.source_tool
        return path

    def run_prefix(self, d: Draft, path: list[Binding], first_tool: str,
                   main: Binding | None = None) -> tuple[str, PagedResult] | None:
        """Execute the start call and the prefix hops; returns the last call (the main source)."""
        start = path[0].source_tool if path else first_tool
        nxt = path[0] if path else main
        args = self.filtered_start(start, nxt) if not d.ctx.want_set and self.rng.random() < 0.85 else None
        if args is None:
            args = self.start_args(start)
        if args is None:
            return None
        sid, res = self.call(d, start, args)
        d.parts.append(StartPart(tool=start, args=args, records=len(res.records), pages=len(res.pages)))
        for b in path:
            got = self.pick(d, sid, res, b)
            if got is None:
                return None
            sid, res = self.hop(d, b, *got)
        return sid, res

    def new_draft(self, want_set: bool = False) -> Draft:
        """An empty draft; ``want_set``: its start must be a multi-record list (FAN, CMP)."""
        d = Draft()
        d.ctx.want_set = want_set
        return d

    # ---- what the junction builders (edge.synth.junctions) draw ----------------------------
    def sem_groups(self) -> list[list[Binding]]:
        """Edges sharing a source field into two or more target tools (computed once)."""
        if self._sem is None:
            self._sem = []
            for _src, bs in sorted(self.out.items()):
                by_field: dict[str, list[Binding]] = {}
                for b in bs:
                    by_field.setdefault(b.source_field, []).append(b)
                for _f, group in sorted(by_field.items()):
                    tools = {b.target_tool: b for b in group}
                    if len(tools) >= 2:
                        self._sem.append(sorted(tools.values(), key=lambda b: b.key))
        return self._sem

    def main_edge(self, pred: Any = None, tag: str = "") -> Binding | None:
        """A main edge drawn by start weight among those ``pred`` accepts (a static property of
        the edge: the candidates are kept per ``tag``, and the weights until something they read
        changes — thousands of edges are weighed per draft at the full tier)."""
        cands = self._cands.get(tag) if tag else None
        if cands is None:
            cands = [i for i, b in enumerate(self.edges) if pred is None or pred(b)]
            if tag:
                self._cands[tag] = cands
        if not cands:
            return None
        stamp = (sum(self.made.values()), len(self.too_big))
        if self._weights_at != stamp:
            self._weights = [self._weight_start(b) for b in self.edges]
            self._weights_at = stamp
        ws = self._weights
        return self.edges[self.rng.choices(cands, weights=[ws[i] for i in cands])[0]]

    def begin(self, length: int, pred: Any = None, tag: str = "", want_set: bool = False
              ) -> tuple[Binding, Draft, str, PagedResult] | None:
        """A main edge (satisfying ``pred``, cached as ``tag``) and its executed chain of about
        ``length`` calls (``want_set``: :meth:`new_draft`)."""
        main = self.main_edge(pred, tag)
        if main is None:
            return None
        got = self.chain(length, main, want_set)
        return None if got is None else (main, *got)

    def chain(self, length: int, main: Binding, want_set: bool = False) -> tuple[Draft, str, PagedResult] | None:
        """A new draft's executed start and prefix into ``main``'s source (about ``length``
        calls with ``main``): the draft, the last step id and its result."""
        d = self.new_draft(want_set)
        hops = max(0, length - 2)
        got = self.run_prefix(d, self.prefix(main.source_tool, hops), main.source_tool, main)
        if got is None:
            return None
        return d, got[0], got[1]


def _is_unit(value: str, transform: str) -> bool:
    """Whether ``value`` names the whole unit ``transform`` cuts it to: a code whose tail past
    a ``slice:0:N`` is all zeros (``1168000000`` is 강남구 itself, ``1168010300`` a 동 in it).
    Any value is its own unit under another transform."""
    m = re.match(r"slice:0:(\d+)$", transform or "")
    if not m:
        return True
    tail = value[int(m.group(1)):]
    return not tail or set(tail) == {"0"}


#: Reductions whose value depends on which records they read: restricted to one period.
_SCOPED = frozenset({"count", "distinct_count", "sum", "mean", "max", "min", "argmax", "argmin", "topk",
                     "map_sum", "map_argmax", "map_argmin"})

#: The least count a COND tests: below it the condition is a lookup's one record.
COND_MIN = 5

#: Round numbers a COND threshold is drawn from (1, 2, 3, 5, 10, 20, …).
_ROUND = tuple(sorted({c * 10 ** e for e in range(7) for c in (1, 2, 3, 5)}))


def threshold(m: int, rng: Any) -> int:
    """A round COND threshold for a count ``m``, at a clear distance from it: 30–70 % below
    (the then-branch) or 40–200 % above (the else-branch), the side drawn from ``rng``.

    A threshold next to the count (167 for 166) states the answer in the question; a round
    one far from it does not, and either branch stays one another version may take.

    >>> import random
    >>> threshold(166, random.Random(0)) in (100, 300), threshold(0, random.Random(0))
    (True, 1)
    """
    below = [k for k in _ROUND if 0.3 * m <= k <= 0.7 * m]
    above = [k for k in _ROUND if 1.4 * m <= k <= 3 * m]
    sides = [s for s in (below, above) if s]
    return int(rng.choice(rng.choice(sides))) if sides else 1


def _cond(guard: dict[str, Any] | None) -> Cond | None:
    """A COND guard (``{"ref": expression, "gte": k}``, or ``"lt": k`` for a fallback) as the
    program's ``when``."""
    if not guard:
        return None
    if "lt" in guard:  # a fallback: the other call runs only when the count falls short
        return Cond(left=guard["ref"], op="lt", right=guard["lt"])
    return Cond(left=guard["ref"], op="ge", right=guard["gte"])


def _holds(cond: Cond, values: dict[str, Any]) -> bool:
    from simulator.tools import compare

    return compare(eval_expr(cond.left, values), cond.op, eval_expr(cond.right, values))

