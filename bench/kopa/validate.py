"""``simulator bench validate``: is each task a valid measurement?

Every rule below names a way a task can be passed or failed for the wrong reason. Each
finding is a :class:`Finding`; any finding fails the run (CI runs it over every shipped task).

- ``gold_error``: the gold program does not run.
- ``no_tool``: an answer given without any tool call passes — the most common answer of the
  task's other template instances, or a constant (:data:`CONSTANTS`). The sandbox world sometimes makes a field constant (every
  operating margin 10.00 %); such tasks measure nothing.
- ``order_dependent``: the gold changes when the records inside every response are shuffled
  (several seeds): the program took "the first match" where the question names no order.
- ``ambiguous_entity``: an entity the question names matches several records that differ in
  what the program reads from them (six Seoul schools named 종로초), and the question carries
  nothing that tells them apart.
- ``leaked_argument``: an argument of a dependent call (one fed by an earlier call) appears in
  the question: the lookup that should produce it is unnecessary.
- ``all_pages_small``: a step pages through a collection that one call of the endpoint's
  maximum page size returns whole: "needs all pages" only because of a small page size.
- ``chain_shortcut``: a dependent call reaches the same answer with a name the question gives
  in one of its own filter parameters, without the lookup's output; unless the task declares
  ``tags.shortcut`` (then both routes are valid and the chain is not counted as required).
- ``unfilled_particle``: ``이(가)``, ``은(는)`` … left in the question, or a particle that does not
  fit the Latin word before it (``NAVER이``).
- ``procedure``: the question spells out the procedure or names tools (``…조회 후``, ``API``).
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from simulator import BoundedCache

from .checkers import check_answer
from .env import GOLD_MEMO, ToolEnv, World
from .execute import run_program
from .scoring import consumers
from .program import CallStep, OpStep, Program, ProgramError, format_answer, refs_in
from .tasks import Gold, Task, gold_run
from .wording import particle
from .errors import BenchError

__all__ = ["CONSTANTS", "RULES", "Finding", "named_entities", "validate"]

RULES = ("gold_error", "no_tool", "order_dependent", "ambiguous_entity", "leaked_argument",
         "all_pages_small", "chain_shortcut", "unfilled_particle", "procedure")
#: Answers a no-tool baseline tries on every task.
CONSTANTS = ("0", "1", "정의", "없음", "예", "아니오")
#: Seeds of the record shuffles.
SHUFFLE_SEEDS = (1, 2, 3)

_PARTICLE = re.compile(r"\((?:이|가|은|는|을|를|과|와|으로|로|이라|라)\)")
#: A Latin word (a company's name) and the particle after it, and the particle pairs.
_LATIN_PARTICLE = re.compile(r"(?<![A-Za-z가-힣0-9])([A-Za-z][A-Za-z0-9]*)(이|가|은|는|을|를|과|와)(?=\s)")
_PAIRS = (("이", "가"), ("은", "는"), ("을", "를"), ("과", "와"))
_PROCEDURE = re.compile(
    r"조회\s*(?:후|한\s*뒤|해서)|코드(?:를)?\s*(?:조회|찾아|확인)|찾아\s*(?:주세요|서|낸\s*뒤)|찾은\s*뒤|바꾼\s*뒤|"
    r"\bAPI\b|에서\s*(?:찾아|조회|확인)|단축코드로\s*맞추|본문\s*기준|먼저\s*조회|검색\s*결과에서|"
    r"OpenDART|기업개황|상장종목정보|주식시세에서|인적사항에서|행정표준코드")


@dataclass(frozen=True)
class Finding:
    """One reason a task is not a valid measurement."""

    task: str
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.task}: {self.rule}: {self.detail}"

    def to_json(self) -> dict[str, str]:
        """JSON form."""
        return dataclasses.asdict(self)


class _Shuffled(World):
    """A world whose every response lists its records in a seeded random order."""

    def __init__(self, base: World, seed: int) -> None:  # noqa: D107 - shares base's state
        self.__dict__.update(base.__dict__)
        # Its own gold memo: the base's golds were computed on unshuffled records.
        self.gold = BoundedCache(GOLD_MEMO)
        self._base, self._seed = base, seed

    def answer(self, tool: str, args: dict[str, Any], **kw: Any) -> Any:
        a = self._base.answer(tool, args, **kw)
        if len(a.records) < 2:
            return a
        recs = list(a.records)
        random.Random(f"{self._seed}|{tool}|{sorted(args.items())}").shuffle(recs)
        return dataclasses.replace(a, records=recs)


def _same(a: str, b: str, task: Task) -> bool:
    return check_answer(f"ANSWER: {a}", b, task.check, task.question)


def _token_in(value: str, text: str) -> bool:
    return re.search(rf"(?<![0-9A-Za-z가-힣]){re.escape(value)}(?![0-9A-Za-z])", text) is not None


def _wording(t: Task, catalog: Any) -> list[Finding]:
    out = []
    m = _PARTICLE.search(t.question)
    if m:
        out.append(Finding(t.id, "unfilled_particle", f"{m.group(0)!r} in the question"))
    for m in _LATIN_PARTICLE.finditer(t.question):
        word, got = m.group(1), m.group(2)
        pair = next(p for p in _PAIRS if got in p)
        want = particle(word, *pair)
        if got != want:
            out.append(Finding(t.id, "unfilled_particle", f"{m.group(0)!r}: {word!r} takes {want!r}"))
    m = _PROCEDURE.search(t.question)
    tools = [name for name in catalog.endpoints if name in t.question]
    if m or tools:
        out.append(Finding(t.id, "procedure", f"the question spells out how: {(m.group(0) if m else tools[0])!r}"))
    return out


def _no_tool(tasks: list[Task], golds: dict[str, Gold]) -> list[Finding]:
    out = []
    for t in tasks:
        g = golds.get(t.id)
        if g is None:
            continue
        others = Counter(golds[u.id].answer for u in tasks
                         if u.template == t.template and u.id != t.id and u.id in golds)
        tries: list[tuple[str, str]] = [(a, "the template's other instances answer it") for a, _n in
                                        others.most_common(1)]
        tries += [(c, "a constant") for c in CONSTANTS]
        for ans, why in tries:
            if _same(ans, g.answer, t):
                out.append(Finding(t.id, "no_tool", f"answering {ans!r} with no tool call passes ({why})"))
                break
    return out


def _order(t: Task, g: Gold, world: World, seeds: Iterable[int]) -> list[Finding]:
    for seed in seeds:
        try:
            other = gold_run(t, _Shuffled(world, seed))
        except ProgramError as exc:
            return [Finding(t.id, "order_dependent", f"with records shuffled (seed {seed}) the program fails: {exc}")]
        if not _same(other.answer, g.answer, t):
            return [Finding(t.id, "order_dependent",
                            f"with records shuffled (seed {seed}) the gold is {other.answer!r}, not {g.answer!r}")]
    return []


def _ambiguous(t: Task, g: Gold) -> list[Finding]:
    out = []
    p = t.program
    for s in p.steps:
        if not isinstance(s, OpStep) or s.op != "filter":
            continue
        named = [w for w in s.where if w.op in ("eq", "contains", "prefix") and isinstance(w.value, str)
                 and w.value and w.value in t.question]
        if not named:
            continue
        recs = g.outputs.get(s.id)
        if not isinstance(recs, list) or len(recs) < 2:
            continue
        cons = consumers(p, s.id)
        picks = [c for c in cons if isinstance(c, dict) and c.get("pick", "all") != "all"]
        if not picks or len(picks) != len(cons):
            continue  # the program uses every match (counts them, fans out): not an entity
        fields = sorted({c.get("field") or "" for c in picks})
        differ = [f for f in fields
                  if len({json.dumps(_get(r, f), ensure_ascii=False, default=str) for r in recs}) > 1]
        if differ:
            out.append(Finding(t.id, "ambiguous_entity",
                               f"{named[0].value!r} matches {len(recs)} records (step {s.id}) that differ in "
                               f"{', '.join(differ)}; the program takes one"))
    return out


def _get(rec: Any, path: str) -> Any:
    cur = rec
    for part in path.split(".") if path else []:
        cur = cur.get(part) if isinstance(cur, dict) else None
    return cur


def _leaks(t: Task, g: Gold) -> list[Finding]:
    out = []
    p = t.program
    for c in p.calls():
        if not p.call_ancestors(c):
            continue
        calls = g.step_calls.get(c.id, [])
        refs = p.ref_args(c)
        if not calls or not refs:
            continue
        # leaked when every looked-up argument is already in the question, or one is and it is
        # no part of what the user typed (a building number inside the address the program
        # searches for is the user's input; a station id is not)
        said = {k: v for k in refs for v in {g.trace[i].args.get(k, "") for i in calls}
                if len(v) >= 2 and _token_in(v, t.question)}
        typed = [x for x in named_entities(t)]
        foreign = {k: v for k, v in said.items() if not any(_token_in(v, x) for x in typed)}
        if said and (len(said) == len(refs) or foreign):
            k, v = next(iter((foreign or said).items()))
            out.append(Finding(t.id, "leaked_argument",
                               f"{c.call} {k}={v!r} (step {c.id}) comes from a lookup but the question "
                               "already says it"))
    return out


def _small_pages(t: Task, g: Gold, catalog: Any) -> list[Finding]:
    out = []
    for c in t.program.calls():
        if c.pages != "all":
            continue
        ep = catalog.endpoint(c.call)
        groups: Counter[str] = Counter()
        totals: dict[str, int] = {}
        for i in g.step_calls.get(c.id, []):
            rec = g.trace[i]
            key = json.dumps(sorted(rec.filters.items()))
            groups[key] += 1
            totals[key] = rec.total or 0
        for key, n in groups.items():
            if n > 1 and totals[key] <= ep.max_page_size:
                out.append(Finding(t.id, "all_pages_small",
                                   f"{c.call} (step {c.id}) pages {n} times through {totals[key]} records; one "
                                   f"call of the maximum page size ({ep.max_page_size}) returns them all"))
                break
    if t.tags.needs_all_pages and not g.needs_all_pages:
        out.append(Finding(t.id, "all_pages_small", "tagged needs_all_pages but no collection spans pages"))
    return out


def named_entities(t: Task) -> list[str]:
    """Names the question gives that the program filters on or passes literally."""
    out: list[str] = []
    for s in t.program.steps:
        vals: list[Any] = []
        if isinstance(s, OpStep):
            vals = [w.value for w in s.where if w.op in ("eq", "contains", "prefix", "in")]
        else:
            vals = [v for v in s.args.values() if not refs_in(v)]
        for v in vals:
            for x in v if isinstance(v, list) else [v]:
                if isinstance(x, str) and len(x) >= 2 and x in t.question and x not in out:
                    out.append(x)
    return out


def _shortcuts(t: Task, g: Gold, world: World) -> list[Finding]:
    if t.tags.shortcut:
        return []
    p = t.program
    ents = named_entities(t)
    out = []
    for c in p.calls():
        refs = p.ref_args(c)
        if not refs or c.foreach is not None or not g.outputs.get(c.id):
            continue  # a fan-out, or a branch the gold did not take
        ep = world.catalog.endpoint(c.call)
        free = [q.name for q in ep.params if q.role == "filter" and q.name not in c.args]
        for name in free:
            for ent in ents:
                args = {k: v for k, v in c.args.items() if k not in refs}
                args[name] = ent
                try:
                    value, outs = run_program(_with_args(p, c.id, args), ToolEnv.for_task(world, p, f"{t.id}#shortcut", 10_000))
                    alt = format_answer(value)
                except (ProgramError, ValueError, KeyError, TypeError):
                    continue
                if outs.get(c.id) and alt.strip() and _same(alt, g.answer, t):
                    out.append(Finding(t.id, "chain_shortcut",
                                       f"{c.call} with {name}={ent!r} instead of {', '.join(refs)} from the lookup "
                                       "reaches the same answer; declare tags.shortcut or reshape the task"))
                    return out
    return out


def _with_args(p: Program, sid: str, args: dict[str, Any]) -> Program:
    steps = []
    for s in p.steps:
        if isinstance(s, CallStep) and s.id == sid:
            s = s.model_copy(update={"args": args})
        steps.append(s.model_dump(by_alias=True, exclude_defaults=True))
    return Program.model_validate({"steps": steps, "answer": p.answer})


def validate(tasks: list[Task], world: World, *, seeds: Iterable[int] = SHUFFLE_SEEDS,
             rules: Iterable[str] | None = None) -> list[Finding]:
    """Every finding over ``tasks`` on ``world`` (empty: the set is valid).

    ``rules`` limits the check to some of :data:`RULES` (default all).

    >>> from bench.kopa.tasks import load_tasks          # doctest: +SKIP
    >>> validate(load_tasks(), world)                     # doctest: +SKIP
    []
    """
    want = set(rules or RULES)
    bad = sorted(want - set(RULES))
    if bad:
        raise BenchError(f"rules={bad!r} unknown; choose from {', '.join(RULES)}")
    seeds = tuple(seeds)
    out: list[Finding] = []
    golds: dict[str, Gold] = {}
    for t in tasks:
        try:
            golds[t.id] = gold_run(t, world)
        except ProgramError as exc:
            out.append(Finding(t.id, "gold_error", str(exc)))
    if "no_tool" in want:
        out += _no_tool(tasks, golds)
    for t in tasks:
        if "unfilled_particle" in want or "procedure" in want:
            out += [f for f in _wording(t, world.catalog) if f.rule in want]
        g = golds.get(t.id)
        if g is None:
            continue
        if "order_dependent" in want:
            out += _order(t, g, world, seeds)
        if "ambiguous_entity" in want:
            out += _ambiguous(t, g)
        if "leaked_argument" in want:
            out += _leaks(t, g)
        if "all_pages_small" in want:
            out += _small_pages(t, g, world.catalog)
        if "chain_shortcut" in want:
            out += _shortcuts(t, g, world)
    order = {r: i for i, r in enumerate(RULES)}
    ids = {t.id: i for i, t in enumerate(tasks)}
    return sorted(out, key=lambda f: (ids.get(f.task, 0), order[f.rule]))

