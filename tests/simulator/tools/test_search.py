"""Tool retrieval (``simulator.tools.search``): the default tool space of KOPA-Bench agents."""

from __future__ import annotations

from typing import Any

import pytest

from simulator import load_catalog
from simulator.tools.search import ToolIndex, tokens


def _tool(name: str, desc: str, **params: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": desc, "parameters": {
        "type": "object", "properties": {k: {"type": "string", "description": v} for k, v in params.items()}}}}


def test_tokens_read_korean_as_bigrams_and_latin_as_words() -> None:
    assert tokens("버스정류소 Bus-Stops 2024") == ["버스", "스정", "정류", "류소", "bus", "stops", "2024"]
    assert tokens("역 을") == ["역", "을"]


def test_the_name_and_description_outweigh_parameter_text_and_ties_keep_the_order() -> None:
    tools = [
        _tool("apt_trades", "아파트 매매 실거래가", LAWD_CD="법정동코드 앞 5자리"),
        _tool("legal_dong_codes", "법정동코드 검색", locatadd_nm="주소명"),
        _tool("apt_rents", "아파트 전월세", LAWD_CD="법정동코드 앞 5자리"),
        _tool("other", "전혀 다른 도구"),
    ]
    idx = ToolIndex(tools)
    assert idx.search("법정동코드")[0] == "legal_dong_codes"
    assert idx.search("아파트 전월세", 1) == ["apt_rents"]
    twins = ToolIndex([_tool("apt_y", "아파트 전세"), _tool("apt_x", "아파트 매매")])
    assert twins.search("아파트") == ["apt_y", "apt_x"]  # equal scores: the catalog's order
    assert idx.search("없는말") == [] and idx.search("아파트", 0) == []
    assert idx.tool("other")["function"]["description"] == "전혀 다른 도구"
    with pytest.raises(KeyError):
        idx.tool("nope")


def test_the_full_catalog_is_searchable_and_answers_the_same_every_time() -> None:
    tools = load_catalog().tools()
    a, b = ToolIndex(tools), ToolIndex(list(tools))
    for q in ("아파트 매매 실거래가", "기업 고유번호", "학교 기본정보", "버스 도착 정보"):
        assert a.search(q, 20) == b.search(q, 20) and len(a.search(q, 20)) == 20
    assert a.search("아파트 매매 실거래가", 3)[0] == "molit_apt_trades"
    assert "opendart_corp_codes" in a.search("기업 고유번호", 5)
    assert a.search("학교 기본정보", 1) == ["neis_school_info"]
