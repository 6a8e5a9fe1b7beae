"""Tool retrieval: find the catalog tools a question needs, by their names and descriptions.

The full tool list of the default catalog is 2,696 tools and about 2 MB of JSON schema, far
beyond any model's context. A retrieval step puts the whole catalog in reach without putting
it in the prompt: the agent searches, the matching tools' schemas join its tool list, and it
calls them. Scoring is Okapi BM25 over each tool's name words and description (counted
three times) and its parameter descriptions; Korean text is read as character bigrams (so 정류소 matches 버스정류소 and a
particle does not hide a word), Latin text as lower-cased words. Ties keep the catalog's
order, so the same query always returns the same tools.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["DOMAIN_TERMS", "EXPANSION_WEIGHT", "LOOKUP_SHARE", "SEARCH_TOOL", "ToolIndex", "expand", "tokens"]

_HANGUL = re.compile(r"[\uac00-\ud7a3]+")
_WORD = re.compile(r"[a-z0-9]+")

#: The retrieval step as a tool an agent calls (OpenAI function format).
SEARCH_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "search_tools",
        "description": (
            "공공데이터 API 도구 검색: 필요한 데이터를 설명하는 검색어로 도구를 찾습니다. "
            "찾은 도구는 다음 차례부터 호출할 수 있습니다. — Search the catalog of public-data "
            "API tools; the tools found become callable from the next turn."),
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "찾는 데이터 (예: 버스 정류소 도착 정보)"},
                "k": {"type": "integer", "description": "돌려받을 도구 수 (기본 8, 최대 20)",
                      "minimum": 1, "maximum": 20},
            },
            "required": ["query"],
        },
    },
}


def tokens(text: str) -> list[str]:
    """Search terms of ``text``: Hangul character bigrams (a lone syllable as itself) and
    lower-cased Latin words and numbers."""
    out: list[str] = []
    for run in _HANGUL.findall(text):
        out.extend([run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)])
    out.extend(_WORD.findall(text.lower()))
    return out


#: How much more a term counts in a tool's name and description than in its parameters'
#: descriptions (which repeat the same few inputs, 법정동코드 or 페이지 번호, across hundreds of tools).
TITLE_WEIGHT = 3


#: A platform's code-lookup tool (:func:`_is_lookup`) that the query touches at all ranks at
#: least this share of the platform's best score: the lookup comes with the tool it feeds.
LOOKUP_SHARE = 0.8
#: How much a word :data:`DOMAIN_TERMS` adds counts against a word of the query itself.
EXPANSION_WEIGHT = 1.0
_LOOKUP = re.compile(r"(?:코드|고유번호)[^—]*(?:목록|검색|전체)|(?:목록|검색)[^—]*(?:코드|고유번호)")


def _is_lookup(tool: Mapping[str, Any]) -> bool:
    """A tool that lists or searches codes (선거코드 목록, 법정동코드 검색, 고유번호 전체 목록)."""
    fn = tool.get("function", tool)
    return bool(_LOOKUP.search(str(fn.get("description", "")).split(" — ")[0]))
#: Domain words of a question and the lookup words they imply: the code a question about them
#: needs first, which the question itself never names (an election's 선거코드, a district's
#: 법정동코드, a city's TAGO 도시코드, a company's 고유번호).
DOMAIN_TERMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"선거|당선|후보|투표|공약"), "선거코드 목록 선거 ID"),
    (re.compile(r"[가-힣]+(?:구|군)(?:[의에을를은는이가,\s(]|$)"), "법정동코드 검색 주소명"),
    (re.compile(r"버스|정류소|정류장|노선"), "도시코드 목록 TAGO 버스정보"),
    (re.compile(r"공시|매출|재무|자본|대표자|본사|시가총액|상장|종목|주식|회사"),
     "공시대상회사 고유번호 기업개황 단일회사 주요계정 주식시세"),
    (re.compile(r"법률|법」|시행령|소관|조문|「"), "법령 검색 법령 본문"),
    (re.compile(r"위원회|의원|국회|법률안|발의"), "국회의원 위원회 위원 명단"),
    (re.compile(r"지하철|역(?:[의에을를은는이가,\s]|$)|승차"), "지하철 역 승하차 인원"),
)


def expand(query: str) -> str:
    """``query`` with the lookup words its domain words imply (:data:`DOMAIN_TERMS`).

    >>> expand("대전 버스 정류소").endswith("도시코드 목록 TAGO 버스정보")
    True
    """
    extra = [words for pat, words in DOMAIN_TERMS if pat.search(query)]
    return " ".join([query, *extra])


def _terms_of(tool: Mapping[str, Any]) -> Counter[str]:
    fn = tool.get("function", tool)
    params = (fn.get("parameters") or {}).get("properties") or {}
    title = tokens(str(fn.get("name", "")).replace("_", " ") + " " + str(fn.get("description", "")))
    c: Counter[str] = Counter({t: n * TITLE_WEIGHT for t, n in Counter(title).items()})
    c.update(tokens(" ".join(f"{name} {spec.get('description', '')}" for name, spec in params.items())))
    return c


class ToolIndex:
    """BM25 over a list of tools (OpenAI function schemas), built once, searched often.

    Args:
        tools: the tools, in the order ties are broken by (the catalog's).
        k1, b: BM25's term-frequency saturation and length normalisation.
    """

    def __init__(self, tools: Sequence[Mapping[str, Any]], *, k1: float = 1.2, b: float = 0.75) -> None:
        self.tools = list(tools)
        self.names = [str(t.get("function", t).get("name", "")) for t in self.tools]
        self._by_name = {n: i for i, n in enumerate(self.names)}
        self._tf = [_terms_of(t) for t in self.tools]
        self._len = [sum(c.values()) for c in self._tf]
        avg = sum(self._len) / len(self._len) if self._len else 1.0
        df: Counter[str] = Counter()
        for c in self._tf:
            df.update(c.keys())
        n = len(self.tools)
        self._idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        self._norm = [k1 * (1 - b + b * ln / (avg or 1.0)) for ln in self._len]
        self._k1 = k1
        # a tool's platform: its name's first word (nec_winners → nec)
        self._group = [n.split("_", 1)[0] for n in self.names]
        self._lookup = [_is_lookup(t) for t in self.tools]
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for i, c in enumerate(self._tf):
            for term, f in c.items():
                self._postings.setdefault(term, []).append((i, f))

    def scores(self, query: str) -> list[float]:
        """The BM25 score of every tool for ``query`` (in the tools' order)."""
        out = [0.0] * len(self.tools)
        for term in sorted(set(tokens(query))):  # sorted: the same float sums every run
            idf = self._idf.get(term, 0.0)
            for i, f in self._postings.get(term, ()):
                out[i] += idf * f * (self._k1 + 1) / (f + self._norm[i])
        return out

    def search(self, query: str, k: int = 8) -> list[str]:
        """The names of the ``k`` best tools for ``query`` (none when nothing matches).

        The query is read with its domain words (:data:`DOMAIN_TERMS`: an election question
        also asks for 선거코드, a district's trades for 법정동코드), and a platform's code-lookup
        tool that the query touches at all ranks at least :data:`LOOKUP_SHARE` of the best
        score among its platform's tools, so the lookup, whose description names no word of
        the question, comes with the tool it feeds.
        """
        sc = self.scores(query)
        extra = expand(query)[len(query):]
        if extra:
            sc = [s + EXPANSION_WEIGHT * x for s, x in zip(sc, self.scores(extra))]
        best: dict[str, float] = {}
        for i, s in enumerate(sc):
            g = self._group[i]
            if s > best.get(g, 0.0):
                best[g] = s
        sc = [max(s, LOOKUP_SHARE * best[self._group[i]]) if s > 0 and self._lookup[i] else s
              for i, s in enumerate(sc)]
        ranked = sorted((i for i, s in enumerate(sc) if s > 0), key=lambda i: (-sc[i], i))
        return [self.names[i] for i in ranked[:max(0, k)]]

    def tool(self, name: str) -> Mapping[str, Any]:
        """The schema of the tool called ``name`` (``KeyError`` if the index lacks it)."""
        return self.tools[self._by_name[name]]
