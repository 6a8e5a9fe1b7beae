"""Bank of Korea ECOS: table list → items → series, key statistics, the glossary."""

from __future__ import annotations

from typing import Any

from ..world import World
from ._common import shape

__all__ = ["GENERATORS"]


def stat_tables(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = world.ecos_tables()
    if f.get("STAT_CODE"):
        rows = [r for r in rows if r["STAT_CODE"] == f["STAT_CODE"]]
    return shape("ecos_stat_tables", rows)


def stat_items(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = []
    for it in world.ecos_items(f.get("STAT_CODE", "")):
        n = len(world.ecos_series(it["STAT_CODE"], it["ITEM_CODE"], it["CYCLE"]))
        rows.append({**it, "DATA_CNT": n})
    return shape("ecos_stat_items", rows)


def stat_search(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    code, cycle = f.get("STAT_CODE", ""), f.get("CYCLE", "")
    items = [i for i in world.ecos_items(code) if i["ITEM_CODE"] == f.get("ITEM_CODE1", i["ITEM_CODE"])]
    rows = [r for it in items for r in world.ecos_series(code, it["ITEM_CODE"], cycle)]
    return shape("ecos_stat_search", rows)


def key_stats(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = []
    for t in world.ecos_tables():
        for it in world.ecos_items(t["STAT_CODE"]):
            series = world.ecos_series(t["STAT_CODE"], it["ITEM_CODE"], it["CYCLE"])
            if series:
                rows.append({"CLASS_NAME": t["STAT_NAME"].split(" ", 1)[-1], "KEYSTAT_NAME": it["ITEM_NAME"],
                             "DATA_VALUE": series[-1]["DATA_VALUE"], "CYCLE": series[-1]["TIME"], "UNIT_NAME": it["UNIT_NAME"]})
    return shape("ecos_key_stats", rows)


_WORDS = {"기준금리": "한국은행 금융통화위원회가 결정하는 정책금리로, 금융기관과의 환매조건부증권 매매 등에 기준이 되는 금리",
          "소비자물가지수": "가구가 일상생활을 영위하기 위해 구입하는 상품과 서비스의 평균적인 가격변동을 측정한 지수",
          "국내총생산": "일정 기간 동안 한 나라 안에서 생산된 모든 최종 재화와 서비스의 시장가치",
          "환율": "한 나라 통화와 다른 나라 통화의 교환 비율"}


def stat_word(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    w = f.get("WORD", "")
    return shape("ecos_stat_word", [{"WORD": k, "CONTENT": v} for k, v in _WORDS.items() if w and w in k])


def stat_meta(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """StatisticMeta (world edition 6): the metadata outline of one statistic by name."""
    return [] if world.edition < 6 else shape("ecos_stat_meta", world.ecos_meta(f.get("DATA_NAME", "")))


GENERATORS = {
    "ecos_stat_meta": stat_meta,
    "ecos_stat_tables": stat_tables,
    "ecos_stat_items": stat_items,
    "ecos_stat_search": stat_search,
    "ecos_key_stats": key_stats,
    "ecos_stat_word": stat_word,
}
