"""Law (law.go.kr): laws and their articles, court precedents, local ordinances."""

from __future__ import annotations

import random
from datetime import date, timedelta

from ._core import NATURAL_NAMES_EDITION, pools
from ._dates import TODAY, _ymd
from ._names import has_final_consonant
from ._regions import RegionsMixin

__all__ = ["LawMixin", "statute_subject", "statute_title"]

#: Edition 3: the laws (and article ranges) precedents of each kind of case cite.
_CITED: dict[str, list[tuple[str, int, int]]] = {
    "민사": [("민법", 2, 1118), ("민법", 390, 399), ("민법", 741, 766), ("민사소송법", 202, 217), ("상법", 382, 401),
             ("주택임대차보호법", 3, 8), ("민사집행법", 276, 312)],
    "형사": [("형법", 30, 40), ("형법", 250, 372), ("형사소송법", 307, 325), ("도로교통법", 44, 148),
             ("특정경제범죄 가중처벌 등에 관한 법률", 3, 3), ("개인정보 보호법", 15, 71)],
    "일반행정": [("행정소송법", 12, 27), ("행정절차법", 21, 23), ("건축법", 11, 80), ("식품위생법", 44, 75),
                 ("국가공무원법", 56, 78)],
    "세무": [("국세기본법", 14, 81), ("부가가치세법", 3, 39), ("소득세법", 19, 94), ("법인세법", 14, 52)],
    "가사": [("민법", 840, 843), ("민법", 1000, 1118), ("가사소송법", 2, 50)],
    "특허": [("특허법", 29, 33), ("특허법", 133, 136), ("상표법", 33, 34)],
}


class LawMixin(RegionsMixin):
    """Laws, precedents and ordinances; ordinances are named after real local governments."""

    def laws(self) -> list[dict[str, str]]:
        """Laws, 시행령 and 시행규칙 (법령일련번호 = MST, 법령ID, 법령명한글, 공포일자, …)."""
        def build() -> list[dict[str, str]]:
            rng = self.rng("laws")
            rows, stems = self._statute_names7(rng)
            if self.edition >= NATURAL_NAMES_EDITION:
                rows = self._statute_names(rows, stems)
            return self._statutes(rng, rows)
        return self.cached(("laws",), build)

    def _statute_names7(self, rng: random.Random) -> tuple[list[tuple[str, str]], list[str]]:
        """Edition 7's (법령명한글, 법령구분명) rows, and the pool stem each row was made from ("" for
        the filler special acts): the stems of ``law_stems`` glued to 법, the laws of
        ``bill_topics``, each with its 시행령 and 시행규칙, then filler special acts up to 1,600 rows."""
        p = pools()
        stems = list(p["law_stems"]) + [t for t in p["bill_topics"] if t.endswith("법") or t.endswith("률")]
        rows: list[tuple[str, str]] = []
        made_of: list[str] = []
        names: set[str] = set()
        for stem in stems:
            base = _base7(stem)
            if base in names:
                continue
            for suffix, kind in (("", "법률"), (" 시행령", "대통령령"), (" 시행규칙", "총리령" if rng.random() < 0.2 else "부령")):
                names.add(base + suffix)
                rows.append((base + suffix, kind))
                made_of.append(stem)
        while len(rows) < 1600:
            region = rng.choice(self.sidos())
            nm = f"{region.leaf[:2]}{rng.choice(['지역', '권역', '광역'])} {rng.choice(p['law_stems'])} 지원에 관한 특별법"
            if nm not in names:
                names.add(nm)
                rows.append((nm, "법률"))
                made_of.append("")
        return rows, made_of

    def _statute_names(self, rows7: list[tuple[str, str]], stems: list[str]) -> list[tuple[str, str]]:
        """Edition 8: edition 7's statutes row by row (so each keeps its MST, ID, dates and ministry),
        each titled as a real one is.

        A statute of ``law_stems`` takes its real title (``law_titles``, in the same order:
        가족관계의 등록 등 → 가족관계의 등록 등에 관한 법률, where edition 7 wrote 가족관계의 등록 등법),
        its 시행령 and 시행규칙 with it; the laws of ``bill_topics`` keep theirs. Edition 7's filler
        special acts ("강원권역 수도 지원에 관한 특별법") give way, in order, to invented regional special
        acts and their 시행령 (a region and a topic of the pool: "전라남도 해양관광 진흥 및 지원에 관한
        특별법", "부산광역시 원도심 재생을 위한 특별법", "충청권 광역교통망 확충 특별법"; no sea topic for
        an inland region, no farm or village topic for a city).
        """
        p = pools()
        title_of = dict(zip(p["law_stems"], p["law_titles"], strict=True))
        acts = iter(self._special_acts())
        out = []
        for (name, kind), stem in zip(rows7, stems):
            if stem:
                base7 = _base7(stem)
                out.append((statute_title(title_of.get(stem, stem)) + name[len(base7):], kind))
            else:
                out.append(next(acts))
        return out

    def _special_acts(self) -> list[tuple[str, str]]:
        """Edition 8's invented regional special acts, some with a 시행령 (their own random stream)."""
        p = pools()
        rng = self.rng("laws", "special_acts")
        coastal, rural = set(p["special_act_coastal_topics"]), set(p["special_act_rural_topics"])
        pairs = [(r, t) for r in p["special_act_regions"] for t in p["special_act_topics"]
                 if not (t in coastal and r in p["special_act_inland"]) and not (t in rural and r in p["special_act_urban"])]
        rng.shuffle(pairs)
        rows: list[tuple[str, str]] = []
        for region, topic in pairs:
            obj = "을" if has_final_consonant(topic) else "를"
            nm = rng.choice([f"{region} {topic} 및 지원에 관한 특별법", f"{region} {topic}{obj} 위한 특별법",
                             f"{region} {topic} 특별법", f"{region} {topic}에 관한 특별법"])
            rows.append((nm, "법률"))
            if rng.random() < 0.6:
                rows.append((nm + " 시행령", "대통령령"))
        return rows

    def _statutes(self, rng: random.Random, rows: list[tuple[str, str]]) -> list[dict[str, str]]:
        """The law rows of ``(법령명한글, 법령구분명)`` names: numbers, dates and ministries drawn."""
        p = pools()
        out = []
        mst = 250000
        for i, (nm, kind) in enumerate(rows):
            mst += rng.randint(1, 60)
            prom = date(rng.randint(2015, 2025), rng.randint(1, 12), rng.randint(1, 28))
            enf = min(TODAY, prom + timedelta(rng.choice([0, 30, 90, 180, 365])))
            out.append({"법령일련번호": str(mst), "현행연혁코드": "현행", "법령명한글": nm,
                        "법령약칭명": "", "법령ID": f"{1000 + i * 3:06d}", "공포일자": _ymd(prom),
                        "공포번호": str(rng.randint(10000, 21000)), "제개정구분명": rng.choice(["일부개정", "일부개정", "타법개정", "전부개정", "제정"]),
                        "소관부처코드": str(1170000 + rng.randint(0, 999)), "소관부처명": rng.choice(p["law_ministries"]),
                        "법령구분명": kind, "공동부령정보": "", "시행일자": _ymd(enf), "자법타법여부": "",
                        "법령상세링크": f"/DRF/lawService.do?OC={{OC}}&target=law&MST={mst}&type=HTML&mobileYn=&efYd={_ymd(enf)}"})
        out.sort(key=lambda r: r["법령명한글"])
        return out

    def law_articles(self, mst: str) -> list[dict[str, str]]:
        """조문 of a law (조문번호, 조문제목, 조문내용) for lawService detail."""
        def build() -> list[dict[str, str]]:
            law = next((l for l in self.laws() if l["법령일련번호"] == mst), None)
            if law is None:
                return []
            rng = self.rng("articles", mst)
            titles = ["목적", "정의", "적용 범위", "국가 등의 책무", "다른 법률과의 관계", "기본계획의 수립", "실태조사", "위원회의 설치",
                      "신고", "허가", "지원", "보고 및 검사", "청문", "권한의 위임", "벌칙", "양벌규정", "과태료"]
            titles = titles[: rng.randint(8, len(titles))]
            if self.edition >= 3:
                titles = self._article_titles(law, len(titles))
            out = []
            for n, t in enumerate(titles, start=1):
                text = (self._article_text(law, n, t) if self.edition >= NATURAL_NAMES_EDITION else
                        f"제{n}조({t}) 이 {'법' if law['법령구분명'] == '법률' else '영'}은 {law['법령명한글'].split(' ')[0]}에 관하여 필요한 사항을 {t}에 따라 정한다.")
                out.append({"조문번호": str(n), "조문여부": "조문", "조문제목": t, "조문시행일자": law["시행일자"],
                            "조문내용": text})
            return out
        return self.cached(("articles", mst), build)

    @staticmethod
    def _article_text(law: dict[str, str], n: int, title: str) -> str:
        """Edition 8: an article's text in the usual statute formulae (제1조 states the purpose; a
        시행령's and a 시행규칙's purpose is what their law delegates; the other articles leave the
        details to the decree below)."""
        nm, kind = law["법령명한글"], law["법령구분명"]
        parent = nm.removesuffix(" 시행령").removesuffix(" 시행규칙")
        if n == 1:
            if kind == "법률":
                return f"제1조(목적) 이 법은 {statute_subject(nm)}에 관하여 필요한 사항을 규정함을 목적으로 한다."
            if kind == "대통령령":
                return f"제1조(목적) 이 영은 「{parent}」에서 위임된 사항과 그 시행에 필요한 사항을 규정함을 목적으로 한다."
            return f"제1조(목적) 이 규칙은 「{parent}」 및 같은 법 시행령에서 위임된 사항과 그 시행에 필요한 사항을 규정함을 목적으로 한다."
        below = {"법률": "대통령령", "대통령령": "총리령 또는 부령"}.get(kind)
        if below:
            return f"제{n}조({title}) {title}에 관하여 필요한 사항은 {below}으로 정한다."
        org = law["소관부처명"]
        head = org + ("장관" if org.endswith("부") else "장" if org.endswith("실") else "")
        return f"제{n}조({title}) {title}에 관한 세부 사항은 {head}{'이' if has_final_consonant(head) else '가'} 정하여 고시한다."

    def _article_titles(self, law: dict[str, str], n: int) -> list[str]:
        """Edition 3: a law's article titles, varied as real ones are (edition 2: one fixed list).

        Article 1 is 목적 (as in nearly every Korean law); then, in a law-specific order and
        selection, definitions (or not: a 시행령 often starts with its delegations), the law's
        own subjects (named after its title) and the usual closing articles.
        """
        rng = self.rng("article_titles", law["법령일련번호"])
        subject = law["법령명한글"].split(" ")[0].removesuffix("법").removesuffix("에").removesuffix("의")
        if self.edition >= NATURAL_NAMES_EDITION:  # the subject's first word, not the region's
            words = statute_subject(law["법령명한글"]).split(" ")
            if len(words) > 1 and words[0] in pools()["special_act_regions"]:
                words = words[1:]
            subject = words[0].removesuffix("의").removesuffix("법")
        decree = law["법령구분명"] != "법률"
        second = rng.choice(["정의", "정의", "정의", "적용 범위", "기본원칙", "다른 법률과의 관계"] if not decree else
                            ["정의", "적용 범위", "위임사항", f"{subject} 대상", "업무의 위탁"])
        middle = ["적용 범위", "국가 등의 책무", "다른 법률과의 관계", "기본계획의 수립", "시행계획", "실태조사", "위원회의 설치",
                  "위원회의 구성", "신고", "허가", "등록", "지원", "보고 및 검사", "청문", "수수료", "비밀 유지",
                  f"{subject} 지원센터", f"{subject}의 지정", f"{subject} 정보의 공개", f"{subject} 심의위원회", "전문인력의 양성"]
        closing = ["권한의 위임", "벌칙 적용에서 공무원 의제", "벌칙", "양벌규정", "과태료"]
        picked = [t for t in rng.sample(middle, len(middle)) if t != second][: max(0, n - 2 - 3)]
        tail = closing[rng.randint(0, 2):] if not decree else ["권한의 위임", "규제의 재검토", "과태료의 부과기준"][: rng.randint(1, 3)]
        return (["목적", second, *picked, *tail])[: max(n, 3)]

    def precedents(self) -> list[dict[str, str]]:
        """Court decisions (판례일련번호, 사건명, 사건번호, 선고일자, 법원명, …), newest first."""
        def build() -> list[dict[str, str]]:
            rng = self.rng("precedents")
            p = pools()
            out = []
            pid = 600000
            for i in range(3200):
                pid += rng.randint(1, 30)
                kind, mark = rng.choice(p["case_kinds"])
                when = date(rng.randint(2010, 2025), rng.randint(1, 12), rng.randint(1, 28))
                court = rng.choice(p["courts"])
                topic = rng.choice(p["case_topics"])
                no = f"{when.year - rng.randint(0, 2)}{mark}{rng.randint(1000, 99999)}"
                out.append({"판례일련번호": str(pid), "사건명": topic, "사건번호": no, "선고일자": _ymd(when),
                            "법원명": court, "법원종류코드": "400201" if court == "대법원" else "400202",
                            "사건종류명": kind, "사건종류코드": str(400100 + p["case_kinds"].index([kind, mark]) + 1),
                            "판결유형": "판결" if mark != "후" else "결정", "선고": "선고", "데이터출처명": "대법원",
                            "판례상세링크": f"/DRF/lawService.do?OC={{OC}}&target=prec&ID={pid}&type=HTML&mobileYn=",
                            "판시사항": f"[1] {topic}에 관한 법리 [2] 원심판단의 당부", "판결요지": f"{topic} 사건에서 원심의 판단에 법리오해의 잘못이 없다."})
            out.sort(key=lambda r: r["선고일자"], reverse=True)
            return out
        return self.cached(("precedents",), build)

    def precedent_citations(self, prec: dict[str, str]) -> tuple[str, str]:
        """(참조조문, 참조판례) of a precedent: edition 2 cites "민법 제750조" and no case
        everywhere; edition 3 cites 1–3 articles of the laws its kind of case turns on, and
        sometimes earlier decisions of the 대법원."""
        if self.edition < 3:
            return "민법 제750조", ""
        rng = self.rng("citations", prec["판례일련번호"])
        laws = _CITED[prec["사건종류명"]]
        cited = []
        for law, lo, hi in rng.sample(laws, min(len(laws), rng.choice([1, 1, 2, 2, 3]))):
            arts = sorted(rng.sample(range(lo, hi + 1), min(hi - lo + 1, rng.choice([1, 1, 2]))))
            cited.append(law + " " + ", ".join(f"제{a}조" for a in arts))
        refs = ""
        if rng.random() < 0.45:
            older = [p for p in self.precedents() if p["법원명"] == "대법원" and p["선고일자"] < prec["선고일자"]
                     and p["사건종류명"] == prec["사건종류명"]]
            pick = rng.sample(older, min(len(older), rng.randint(1, 2)))
            refs = ", ".join(f"대법원 {p['선고일자'][:4]}. {int(p['선고일자'][4:6])}. {int(p['선고일자'][6:])}. 선고 {p['사건번호']} 판결"
                             for p in pick)
        return " / ".join(cited), refs

    def ordinances(self) -> list[dict[str, str]]:
        """Local ordinances (자치법규) of every 시도 and 시군구, named after their government."""
        def build() -> list[dict[str, str]]:
            rng = self.rng("ordinances")
            p = pools()
            govs: list[tuple[str, str]] = [(s.name, s.code) for s in self.sidos()]
            for d in self.entity_districts():
                if " " in d.name or d.sido.sido_cd == "36":
                    continue
                govs.append((d.full_name, d.region.code))
            out = []
            oid = 2000000
            for gov, code in govs:
                for topic in rng.sample(p["ordin_topics"], rng.randint(12, 25)):
                    oid += rng.randint(1, 40)
                    kind = "조례" if rng.random() < 0.85 else "규칙"
                    nm = f"{gov} {topic}{'' if topic.endswith('조례') else (' ' + kind if kind == '규칙' else ' 조례')}"
                    prom = date(rng.randint(2010, 2025), rng.randint(1, 12), rng.randint(1, 28))
                    out.append({"자치법규일련번호": str(oid), "자치법규명": nm, "자치법규ID": f"{oid - 1000000:07d}",
                                "공포일자": _ymd(prom), "공포번호": str(rng.randint(100, 9000)),
                                "제개정구분명": rng.choice(["일부개정", "일부개정", "제정", "전부개정"]), "지자체기관명": gov,
                                "자치법규종류": kind, "시행일자": _ymd(min(TODAY, prom + timedelta(rng.choice([0, 0, 30, 90])))),
                                "자치법규분야명": rng.choice(["일반공공행정", "사회복지", "문화관광", "국토 및 지역개발", "교통 및 물류", "환경"]),
                                "자치법규상세링크": f"/DRF/lawService.do?OC={{OC}}&target=ordin&MST={oid}&type=HTML&mobileYn=",
                                "region_cd": code})
            out.sort(key=lambda r: r["자치법규명"])
            return out
        return self.cached(("ordinances",), build)


def _base7(stem: str) -> str:
    """Edition 7's statute title of a pool stem (stem + 법 whatever it ends in: "가족관계의 등록 등법")."""
    return stem if stem.endswith(("법", "률")) else (f"{stem} 법률" if stem.endswith("관한") else f"{stem}법")


def statute_title(stem: str) -> str:
    """A statute's title from a stem, as Korean statutes are titled (edition 8): a title stays as it
    is ("민법", "… 법률"); a stem ending in "에 관한" takes " 법률"; a phrase (spaces, "등", "및")
    takes "에 관한 법률" ("가족관계의 등록 등" → "가족관계의 등록 등에 관한 법률"); a single word
    takes "법" ("관세" → "관세법").

    >>> statute_title("가족관계의 등록 등"), statute_title("조달사업에 관한"), statute_title("관세")
    ('가족관계의 등록 등에 관한 법률', '조달사업에 관한 법률', '관세법')
    """
    stem = stem.strip()
    if stem.endswith(("법", "법률")):
        return stem
    if stem.endswith("에 관한"):
        return f"{stem} 법률"
    if " " in stem or stem.endswith("등"):
        return f"{stem}에 관한 법률"
    return f"{stem}법"


def statute_subject(title: str) -> str:
    """What a statute is about, from its title (edition 8): "가족관계의 등록 등에 관한 법률 시행령" →
    "가족관계의 등록 등", "관세법" → "관세", "충청권 광역교통망 확충 특별법" → "충청권 광역교통망 확충".

    >>> statute_subject("가족관계의 등록 등에 관한 법률 시행령"), statute_subject("관세법")
    ('가족관계의 등록 등', '관세')
    """
    t = title.removesuffix(" 시행규칙").removesuffix(" 시행령")
    for tail in ("에 관한 특별법", "을 위한 특별법", "를 위한 특별법", " 특별법", "에 관한 법률", " 법률", "법"):
        if t.endswith(tail) and len(t) > len(tail):
            return t[: -len(tail)].removesuffix(" 및 지원")
    return t
