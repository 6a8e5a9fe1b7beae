"""law.go.kr DRF: law / precedent / ordinance search and detail, and FTC decisions.

Detail links carry the placeholder ``{OC}`` where the real API echoes the caller's key.
"""

from __future__ import annotations

from typing import Any

from ..world import World
from ..world._names import has_final_consonant
from ._common import shape

__all__ = ["GENERATORS", "ORDINANCE_TEXT_EDITION", "ordinance_article"]

#: The world edition from which an ordinance's articles read in the formulae real ones use
#: (``ordinance_article``); before it, "이 조례은 … 조례에 관하여 정의을 정한다." (particles that
#: do not agree, the title repeated).
ORDINANCE_TEXT_EDITION = 9


def _eun(word: str) -> str:
    return word + ("은" if has_final_consonant(word) else "는")


def _head(org: str) -> str:
    """The head of a local government, by its name's last word: 군수, 구청장, 시장, 도지사."""
    last = org.split(" ")[-1]
    if last.endswith("군"):
        return "군수"
    if last.endswith("구"):
        return "구청장"
    if last.endswith("도"):
        return "도지사"
    return "교육감" if last.endswith("교육청") else "시장"


def ordinance_article(o: dict[str, str], n: int, title: str) -> str:
    """Article ``n`` (``title``) of ordinance ``o`` in the formulae real 조례 and 규칙 use (edition 9).

    >>> o = {"자치법규명": "강원특별자치도 고성군 장애인 복지 증진에 관한 조례", "지자체기관명": "강원특별자치도 고성군",
    ...      "자치법규종류": "조례"}
    >>> ordinance_article(o, 1, "목적")
    '제1조(목적) 이 조례는 강원특별자치도 고성군의 장애인 복지 증진에 관하여 필요한 사항을 규정함을 목적으로 한다.'
    >>> ordinance_article(o, 5, "지원")
    '제5조(지원) 군수는 장애인 복지 증진에 필요한 경비를 예산의 범위에서 지원할 수 있다.'
    """
    kind, org = o["자치법규종류"], o["지자체기관명"]
    topic = o["자치법규명"].replace(org, "").strip()
    for tail in (" 조례 시행규칙", "에 관한 조례", "에 관한 규칙", " 조례", " 규칙"):
        if topic.endswith(tail) and len(topic) > len(tail):
            topic = topic[: -len(tail)]
            break
    this, head = f"이 {kind}", _head(org)
    if title == "목적":
        return f"제{n}조(목적) {_eun(this)} {org}의 {topic}에 관하여 필요한 사항을 규정함을 목적으로 한다."
    if title == "정의":
        return f"제{n}조(정의) {this}에서 사용하는 용어의 뜻은 다음과 같다."
    if title == "적용범위":
        return (f"제{n}조(적용범위) {topic}에 관하여 다른 {kind}에 특별한 규정이 있는 경우를 제외하고는 "
                f"{this}에서 정하는 바에 따른다.")
    if title.endswith("책무"):
        return f"제{n}조({title}) {_eun(head)} {topic}에 필요한 시책을 마련하여야 한다."
    if title == "지원":
        return f"제{n}조(지원) {_eun(head)} {topic}에 필요한 경비를 예산의 범위에서 지원할 수 있다."
    if kind == "조례":
        return f"제{n}조({title}) {this}의 시행에 필요한 사항은 규칙으로 정한다."
    return f"제{n}조({title}) {this}의 시행에 필요한 사항은 {head}{'이' if has_final_consonant(head) else '가'} 정한다."


def law_search(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("lawgokr_law_search", world.laws())


def law_detail(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    law = next((x for x in world.laws() if (f.get("MST") and x["법령일련번호"] == f["MST"]) or
                (f.get("ID") and x["법령ID"] == f["ID"])), None)
    if law is None:
        return []
    arts = world.law_articles(law["법령일련번호"])
    if f.get("JO"):
        n = int(f["JO"][:4]) if f["JO"][:4].isdigit() else -1
        arts = [a for a in arts if a["조문번호"] == str(n)]
    basic = {"법령ID": law["법령ID"], "공포일자": law["공포일자"], "공포번호": law["공포번호"], "언어": "한글",
             "법종구분": {"법종구분코드": "A0002", "content": law["법령구분명"]}, "법령명_한글": law["법령명한글"],
             "법령명_한자": "", "법령명약칭": law["법령약칭명"], "제명변경여부": "N", "한글법령여부": "Y",
             "편장절관": "", "소관부처": {"소관부처코드": law["소관부처코드"], "content": law["소관부처명"]},
             "시행일자": law["시행일자"], "제개정구분": law["제개정구분명"], "공포법령여부": "Y"}
    units = [{"조문키": f"{int(a['조문번호']):04d}001", "조문번호": a["조문번호"], "조문여부": a["조문여부"], "조문제목": a["조문제목"],
              "조문시행일자": a["조문시행일자"], "조문이동이전": "", "조문이동이후": "", "조문변경여부": "N", "조문내용": a["조문내용"]}
             for a in arts]
    record = {"법령키": f"{law['법령ID']}{law['공포일자']}{law['공포번호']}", "기본정보": basic, "조문": {"조문단위": units},
              "부칙": {"부칙단위": [{"부칙키": f"{law['공포일자']}{law['공포번호']}", "부칙공포일자": law["공포일자"],
                                      "부칙공포번호": law["공포번호"], "부칙내용": f"부칙 <제{law['공포번호']}호,{law['공포일자'][:4]}.>\n이 법은 공포 후 6개월이 경과한 날부터 시행한다."}]},
              "개정문": {"개정문내용": f"{law['법령명한글']} 일부를 다음과 같이 개정한다."},
              "제개정이유": {"제개정이유내용": f"{law['법령명한글']}의 운영상 나타난 일부 미비점을 개선ㆍ보완하려는 것임."}}
    return [record]


def prec_search(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("lawgokr_prec_search", world.precedents())


def prec_detail(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    p = next((x for x in world.precedents() if x["판례일련번호"] == f.get("ID")), None)
    if p is None:
        return []
    articles, cases = world.precedent_citations(p)
    row = {**p, "판례정보일련번호": p["판례일련번호"], "참조조문": articles, "참조판례": cases,
           "판례내용": f"【원고, 피상고인】 원고\n【피고, 상고인】 피고\n【주    문】\n상고를 기각한다.\n【이    유】\n{p['판결요지']}"}
    return shape("lawgokr_prec_detail", [row])


def ordin_search(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("lawgokr_ordin_search", [{**o, "참조데이터구분": ""} for o in world.ordinances()])


def ordin_detail(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    o = next((x for x in world.ordinances() if (f.get("MST") and x["자치법규일련번호"] == f["MST"]) or
              (f.get("ID") and x["자치법규ID"] == f["ID"])), None)
    if o is None:
        return []
    topic = o["자치법규명"].replace(o["지자체기관명"], "").strip()
    titles = ["목적", "정의", "적용범위", "시장등의 책무", "지원", "위임"]
    if world.edition >= ORDINANCE_TEXT_EDITION:
        titles[3] = _head(o["지자체기관명"]) + "의 책무"  # 군수의 책무, 구청장의 책무, …
        texts = [ordinance_article(o, n, t) for n, t in enumerate(titles, start=1)]
    else:
        texts = [f"제{n}조({t}) 이 {o['자치법규종류']}은 {topic}에 관하여 {t}을 정한다." for n, t in enumerate(titles, start=1)]
    arts = [{"조문번호": f"{n:06d}", "조문여부": "Y", "조제목": t, "조내용": text}
            for n, (t, text) in enumerate(zip(titles, texts), start=1)]
    record = {"자치법규기본정보": {"자치법규ID": o["자치법규ID"], "자치법규일련번호": o["자치법규일련번호"], "자치법규명": o["자치법규명"],
                                  "공포일자": o["공포일자"], "공포번호": o["공포번호"], "시행일자": o["시행일자"],
                                  "자치법규종류": o["자치법규종류"], "지자체기관명": o["지자체기관명"], "제개정정보": o["제개정구분명"]},
              "조문": {"조": arts}, "부칙": {"부칙공포일자": o["공포일자"], "부칙공포번호": o["공포번호"], "부칙내용": "이 조례는 공포한 날부터 시행한다."}}
    return [record]


def ftc_search(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    def build() -> list[dict[str, Any]]:
        rng = world.rng("ftc")
        cos = world.listed_companies()
        rows = []
        for i in range(600):
            c = rng.choice(cos)
            y = rng.randint(2015, 2025)
            act = rng.choice(["부당한 공동행위", "불공정거래행위", "시장지배적지위 남용행위", "하도급법 위반행위", "표시광고법 위반행위"])
            rows.append({"결정문일련번호": str(10000 + i * 3), "사건명": f"{c['corp_name']}의 {act}에 대한 건",
                         "사건번호": f"{y}{rng.choice(['카르', '서경', '제조', '소비'])}{rng.randint(1000, 9999)}",
                         "문서유형": "의결서", "회의종류": rng.choice(["전원회의", "소회의"]), "결정번호": f"{y}-{rng.randint(1, 350):03d}",
                         "결정일자": f"{y}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}",
                         "결정문상세링크": f"/DRF/lawService.do?OC={{OC}}&target=ftc&ID={10000 + i * 3}&type=HTML"})
        rows.sort(key=lambda r: r["결정일자"], reverse=True)
        return rows
    return shape("lawgokr_ftc_search", world.cached(("ftc",), build))


GENERATORS = {
    "lawgokr_law_search": law_search,
    "lawgokr_law_detail": law_detail,
    "lawgokr_prec_search": prec_search,
    "lawgokr_prec_detail": prec_detail,
    "lawgokr_ordin_search": ordin_search,
    "lawgokr_ordin_detail": ordin_detail,
    "lawgokr_ftc_search": ftc_search,
}

