"""A stub model's final messages for a task: right answers phrased as models phrase them,
and near-miss wrong ones, each with the verdict a careful grader gives.

The verdict is fixed by the template that made the answer (the gold value said another
way: right; the gold off by one, in the wrong unit, with its sign flipped, another entity, a
list with an item missing: wrong), never by running the checker. Used by
``tests/bench/test_checker_natural.py`` and by ``python tests/data/natural_answers.py``,
which prints the acceptance of right and rejection of wrong answers over the shipped tasks.

Phrasings cover Korean and English, a final ``ANSWER:`` line or none, a breakdown before the
total, a sign said in words (적습니다, 낮습니다, fewer), 만원/억 amounts, dates in their common
forms, names with a prefix or suffix (서울특별시 …, …(주)) and lists in any order and separator.
"""

from __future__ import annotations

import random
import re
from typing import Any

Answer = tuple[str, bool, str]  # (final message, expected verdict, why)

_NUMERIC = re.compile(r"-?\d+(?:\.\d+)?")


def _decimals(gold: str) -> int:
    return len(gold.split(".")[1]) if "." in gold else 0


def _fmt(v: float, dec: int) -> str:
    return f"{v:,.{dec}f}"


def _counter(question: str) -> str:
    for c in ("건", "곳", "명", "개", "대", "가지"):
        if c in question:
            return c
    return "건"


def _parts(n: int, rng: random.Random, k: int) -> list[int]:
    """``k`` positive parts summing to ``n`` (n >= k)."""
    cuts = sorted(rng.sample(range(1, n), k - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, n])]


def _man_won(v: float) -> str:
    """An amount given in 만원 said as 억 and 만 (``135052.6`` → ``13억 5,052.6만 원``)."""
    sign = "-" if v < 0 else ""  # a person says -6억 8,700.6만, never -7억 1,299.4만 (divmod's)
    eok, man = divmod(round(abs(v), 1), 10_000)
    man_s = f"{man:,.1f}".rstrip("0").rstrip(".")
    if not eok:
        return f"{sign}{man_s}만 원"
    return sign + (f"{int(eok)}억 {man_s}만 원" if man else f"{int(eok)}억 원")


def _won(v: int) -> str:
    """An amount in 원 said as 억 and 만 (``26434000000`` → ``264억 3,400만 원``)."""
    eok, rest = divmod(v, 10**8)
    man = rest // 10**4
    s = f"{eok:,}억" if eok else ""
    if man:
        s += f" {man:,}만"
    return s.strip() + " 원"


def _number_answers(q: str, gold: str, check: dict[str, Any], rng: random.Random) -> list[Answer]:
    g = float(gold)
    dec = _decimals(gold)
    integer = dec == 0
    tol = max(check.get("abs_tol", 0.0), check.get("rel_tol", 0.0) * abs(g))
    unit = _counter(q)
    man = "만원" in q or "만 원" in q
    won = "(원)" in q
    pct = "%" in q
    signed = "음수" in q
    s = _fmt(g, dec)
    a = _fmt(abs(g), dec)
    out: list[Answer] = []
    R = out.append
    if pct:
        unit = "%"
    elif man:
        unit = "만 원"
    elif won:
        unit = "원"
    sp = "" if unit in ("%",) else ("" if unit in ("건", "곳", "명", "개", "대", "가지") else " ")
    # ---- right -------------------------------------------------------------------------
    R((f"조회 결과를 정리했습니다.\nANSWER: {s}", True, "marker"))
    R((f"{s}{sp}{unit}입니다.", True, "value + unit + copula"))
    R((f"정답: {s}", True, "정답 marker"))
    R((f"The answer is {s}.", True, "English"))
    R((f"**{s}{sp}{unit}**", True, "bold"))
    if integer and not signed and not man and not won and g >= 6:
        n = int(g)
        parts = _parts(n, rng, 3)
        names = ["첫째", "둘째", "셋째"]
        R((", ".join(f"{x} {p:,}{unit}" for x, p in zip(names, parts)) + f"으로 총 {n:,}{unit}입니다.", True,
           "breakdown then total (Korean)"))
        R(("; ".join(f"group {i + 1}: {p:,}" for i, p in enumerate(parts)) + f". In total: {n:,}.", True,
           "breakdown then total (English)"))
        R((f"각각 {parts[0]:,}{unit}, {parts[1]:,}{unit}, {parts[2]:,}{unit}이므로 합하면 {n:,}{unit}입니다.", True,
           "breakdown, 합하면"))
        R((f"모두 {n:,}{unit}입니다.", True, "모두"))
        R((f"There are {n:,} in total.", True, "English total"))
    if signed and g < 0:
        R((f"{a}{unit} 적습니다.", True, "sign in words 적다"))
        R((f"{a}{unit} 적으므로 {s}", True, "sign in words then the signed value"))
        R((f"차이는 {s}{unit}입니다 ({a}{unit} 적음).", True, "signed + words"))
        R((f"It has {a} fewer, so the answer is {s}.", True, "English fewer"))
        R((f"{a}{sp}{unit} 낮습니다.", True, "sign in words 낮다"))
    if signed and g > 0:
        R((f"{a}{unit} 더 많습니다.", True, "sign in words 많다"))
    if man:
        R((f"{_man_won(g)}입니다.", True, "억 and 만 won"))
        R((f"약 {_fmt(g, dec)}만원", True, "만원 written"))
        R((f"{round(g * 10_000):,}원", True, "the same amount in 원"))
    if won and integer and g >= 10**6:
        R((f"{_won(int(g))}입니다.", True, "억 and 만 won"))
        R((f"{int(g):,}원", True, "원 digits"))
        R((f"약 {g / 1e8:,.2f}억 원".replace(".00억", "억"), int(g) % 10**6 == 0, "억 with two decimals"))
    if pct:
        R((f"{s} 퍼센트입니다.", True, "퍼센트"))
        R((f"{s} percent", True, "English percent"))
    if not integer and tol:
        R((f"약 {s}", True, "약 with a tolerance"))
        r1 = _fmt(round(g, max(0, dec - 1)), max(0, dec - 1)) if dec >= 2 and tol >= 10 ** -(dec - 1) / 2 else s
        R((f"{r1}{sp}{unit}", True, "rounded within the task's tolerance"))
    # ---- wrong -------------------------------------------------------------------------
    step = 1.0 if integer else max(10 ** -dec, 0.0) + 3 * tol + 10 ** -dec
    for d, why in ((1, "off by one"), (-1, "off by minus one"), (2, "off by two")):
        w = g + d * step if not integer else g + d
        ws = _fmt(w, dec)
        R((f"ANSWER: {ws}", False, why))
        R((f"총 {ws}{sp}{unit}입니다.", False, why + " in a sentence"))
    if integer and not signed and not man and not won and g >= 6:
        n = int(g)
        parts = _parts(n, rng, 3)
        R((", ".join(f"{p:,}{unit}" for p in parts) + f"으로 총 {n + 1:,}{unit}입니다.", False,
           "breakdown with a wrong total"))
        R((f"In total: {n + 3:,} (groups of {parts[0]:,} and {n - parts[0]:,}).", False, "English wrong total"))
    if g != 0:
        R((f"ANSWER: {_fmt(-g, dec)}", False, "sign flipped"))
    if signed and g < 0:
        R((f"{a}{unit} 많습니다.", False, "sign in words flipped 많다"))
        R((f"It has {a} more.", False, "English more"))
        R((f"ANSWER: {a}", False, "sign dropped"))
    if man:
        R((f"{_fmt(g, dec)}원", False, "the 만원 value labelled 원"))
        R((f"{_fmt(g, dec)}억 원", False, "the 만원 value labelled 억"))
    if won and integer and g >= 10**6:
        R((f"{int(g) // 10_000:,}원", False, "원 read as 만원"))
    R((f"{_fmt(g * 10, dec)}", False, "x10"))
    R((f"{s} 또는 {_fmt(g + (1 if integer else step), dec)}", False, "hedge"))
    return out


def _date_answers(gold: str) -> list[Answer]:
    y, m, d = int(gold[:4]), int(gold[4:6]), int(gold[6:])
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December"]
    out: list[Answer] = [
        (f"ANSWER: {gold}", True, "date bare"),
        (f"{y}년 {m}월 {d}일입니다.", True, "date 년 월 일"),
        (f"가장 높았던 날은 {y}-{m:02d}-{d:02d}입니다.", True, "date dashes in a sentence"),
        (f"{y}.{m:02d}.{d:02d}", True, "date dots"),
        (f"The date is {months[m - 1]} {d}, {y}.", True, "date in English"),
        (f"{y}년 {m}월 {d}일({gold})", True, "date with the asked form"),
    ]
    nd = d + 1 if d < 28 else d - 1
    out += [(f"ANSWER: {y}{m:02d}{nd:02d}", False, "date off by one day"),
            (f"{y}년 {m}월 {nd}일입니다.", False, "date off by one day in words"),
            (f"{y}{d:02d}{m:02d}" if d <= 12 and d != m else f"{y - 1}{m:02d}{d:02d}", False, "date swapped or year")]
    return out


def _name_answers(q: str, gold: str, others: list[str], rng: random.Random) -> list[Answer]:
    out: list[Answer] = [
        (f"ANSWER: {gold}", True, "name marker"),
        (f"{gold}입니다.", True, "name copula"),
        (f"조회해 보니 답은 {gold}입니다.", True, "name 답은"),
        (f"The answer is {gold}.", True, "name English"),
        (f"**{gold}**", True, "name bold"),
        (f"정답: '{gold}'", True, "name quoted"),
    ]
    if gold.endswith("구") and len(gold) <= 5:
        out += [(f"서울특별시 {gold}입니다.", True, "구 with 서울특별시"), (f"서울 {gold}", True, "구 with 서울")]
    if gold.endswith("부") or gold.endswith("위원회"):
        out += [(f"소관 부처는 {gold}입니다.", True, "ministry in a sentence"),
                (f"It is handled by {gold}.", True, "ministry in English")]
    if re.search(r"\d", gold) and "로" in gold:
        out += [(f"본사 주소는 {gold}입니다.", True, "address in a sentence"),
                (re.sub(r"\s*\([^)]*\)$", "", gold), True, "address without the 동 in brackets")]
    if gold.isascii() is False and re.fullmatch(r"[가-힣]{2,4}", gold) and "대표자" in q:
        out += [(f"{gold} 대표이사입니다.", True, "대표이사 suffix")]
    if "회사" in q or "종목" in q:
        out += [(f"{gold}(주)", True, "(주) suffix"), (f"㈜{gold}", True, "㈜ prefix")]
    for o in [x for x in others if x != gold][:3]:
        out += [(f"ANSWER: {o}", False, "another entity"), (f"{o}입니다.", False, "another entity, copula")]
    if len(gold) >= 3 and not gold.endswith(")"):
        out.append((gold[:-1], False, "cut name"))
    out.append((f"{gold} 또는 {next((x for x in others if x != gold), '모름')}", False, "hedge"))
    return out


def _list_answers(gold: str, check: dict[str, Any], rng: random.Random) -> list[Answer]:
    items = [x.strip() for x in gold.split(",")]
    shuffled = items[:]
    rng.shuffle(shuffled)
    ordered = check.get("type") != "set"
    base = items if ordered else shuffled
    num = all(x.isdigit() for x in items)
    unit = "번" if num else ""
    out: list[Answer] = [
        (f"ANSWER: {', '.join(base)}", True, "list commas"),
        (" / ".join(f"{x}{unit}" for x in base), True, "list slashes with counters"),
        (", ".join(f"{x}{unit}" for x in base[:-1]) + f"과 {base[-1]}{unit}입니다.", True, "list 과"),
        ("The routes are " + ", ".join(base[:-1]) + f" and {base[-1]}.", True, "list English"),
    ]
    out += [(f"ANSWER: {', '.join(items[:-1])}", False, "list item missing"),
            (f"ANSWER: {', '.join([*items, '999'])}", False, "list extra item")]
    return out


def natural_answers(question: str, gold: str, check: dict[str, Any], others: list[str],
                    rng: random.Random) -> list[Answer]:
    """Right and wrong final messages for one task (``others``: other golds of its template)."""
    if check.get("type") == "numeric" or (_NUMERIC.fullmatch(gold) and not re.fullmatch(r"\d{8}", gold)):
        if check.get("type") != "numeric" and ("번호" in question):
            n = gold
            return [(f"ANSWER: {n}", True, "code marker"), (f"{n}번입니다.", True, "code 번"),
                    (f"공포번호는 제{n}호입니다.", True, "code 제…호") if "공포" in question else
                    (f"노선번호는 {n}번입니다.", True, "route number"),
                    (f"The number is {n}.", True, "code English"),
                    (f"ANSWER: {int(n) + 1}", False, "code off by one"),
                    (f"{int(n) - 1}번", False, "code off by minus one")]
        return _number_answers(question, gold, check, rng)
    if re.fullmatch(r"(19|20)\d{6}", gold):
        return _date_answers(gold)
    if "," in gold:
        return _list_answers(gold, check, rng)
    return _name_answers(question, gold, others, rng)


def task_answers(rows: list[dict[str, Any]], seed: int = 0) -> list[tuple[str, str, str, dict[str, Any], Answer]]:
    """(task id, question, gold, check, answer) for every row {id, q, gold, check, template}."""
    rng = random.Random(seed)
    by_t: dict[str, list[str]] = {}
    for r in rows:
        by_t.setdefault(r["template"], []).append(r["gold"])
    out = []
    for r in rows:
        others = [g for g in by_t[r["template"]] if g != r["gold"]]
        for a in natural_answers(r["q"], r["gold"], r["check"], others, rng):
            out.append((r["id"], r["q"], r["gold"], r["check"], a))
    return out


if __name__ == "__main__":  # pragma: no cover - a measurement script
    import json
    import sys
    from collections import Counter

    from bench.kopa.checkers import check_answer
    from bench.kopa.tasks import Check

    if len(sys.argv) > 1:
        rows = json.loads(open(sys.argv[1], encoding="utf-8").read())
    else:
        from simulator import Store
        from bench.kopa.env import World
        from bench.kopa.tasks import gold_run, load_tasks

        from bench.kopa import BENCH_VERSION

        world = World(Store().open("kopa", BENCH_VERSION))
        rows = [{"id": t.id, "q": t.question, "gold": gold_run(t, world).answer,
                 "check": t.check.model_dump(), "template": t.template} for t in load_tasks()]
    right = wrong = right_ok = wrong_ok = 0
    misses: Counter[str] = Counter()
    examples: list[str] = []
    for tid, q, gold, chk, (ans, expect, why) in task_answers(rows):
        got = check_answer(ans, gold, Check(**chk), q)
        if expect:
            right += 1
            right_ok += got
        else:
            wrong += 1
            wrong_ok += not got
        if got != expect:
            misses[why] += 1
            if len(examples) < 60:
                examples.append(f"{tid} gold={gold!r} expect={expect} {ans!r} ({why})")
    print(f"right accepted {right_ok}/{right} ({100 * right_ok / right:.1f} %); "
          f"wrong rejected {wrong_ok}/{wrong} ({100 * wrong_ok / wrong:.1f} %)")
    for why, n in misses.most_common():
        print(f"  {n:4d}  {why}")
    if "-v" in sys.argv:
        print("\n".join(examples))
