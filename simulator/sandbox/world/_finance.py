"""Finance: companies and filings (OpenDART), stock prices (FSC), statistics (ECOS)."""

from __future__ import annotations

import math
import random
from datetime import date, timedelta
from typing import Any, Callable

from ._core import NATURAL_NAMES_EDITION, name_key, pools, real_listed_names, real_name_stems
from ._dates import PRICE_DAYS, TODAY, _days, _next_business_day, _parse, _ymd, is_business_day
from ._names import _stem, comma, person_name, romanize
from ._regions import District, RegionsMixin

__all__ = ["IDENTITY_FIELDS", "REAL_COMPANIES_EDITION", "FinanceMixin", "contains_real_company", "isin",
           "real_stem", "spells_real_company"]

#: The edition from which a real listed company of ``pools.yaml`` keeps only its real public
#: identity (:data:`IDENTITY_FIELDS`): the world holds no other fact about it (no CEO, address,
#: filing, statement, holder, price or outline: every value-bearing endpoint answers its
#: platform's no-data result for it), invented companies are named from two word stems and a
#: kind (never spelling a real company of the pool, a group's initials or a real listed company's
#: name: ``data/real_listed_names.txt``) and take their
#: ``corp_code`` from ``09000000``–``09999999``, a range OpenDART has not assigned (its codes
#: run ``001xxxxx``–``01xxxxxx``), and one 법인등록번호 (``crno`` = ``jurir_no``). Editions before it invented every value for the 20 real
#: companies too (issue 27, item 6).
REAL_COMPANIES_EDITION = 7
#: What a real company of the pool keeps from edition 7 on: its public identity (the ISIN of its
#: common share follows from its stock code).
IDENTITY_FIELDS = ("corp_code", "corp_name", "corp_name_eng", "stock_code", "stock_name", "corp_cls", "market", "isin")
#: corp_words that spell a Latin letter (에스 = S, 케이 = K …): two of them spell a real group's
#: initials (에스케이, 엘지, 씨제이, 지에스), so edition 7's names use none.
_LETTER_WORDS = frozenset(("에스", "케이", "엘", "지", "씨", "디", "에이", "비", "제이", "엠", "티", "피"))


#: Edition 8: a company kind (``corp_kinds``) in a company's English name.
_KIND_ENG = {"전자": "ELECTRONICS", "화학": "CHEMICAL", "제약": "PHARMACEUTICAL", "바이오": "BIO", "건설": "CONSTRUCTION",
             "산업": "INDUSTRIAL", "정밀": "PRECISION", "기계": "MACHINERY", "통신": "TELECOM", "소프트": "SOFT",
             "테크": "TECH", "시스템": "SYSTEMS", "에너지": "ENERGY", "물산": "CORPORATION", "식품": "FOODS",
             "제지": "PAPER", "철강": "STEEL", "금속": "METAL", "섬유": "TEXTILE", "중공업": "HEAVY INDUSTRIES",
             "해운": "SHIPPING", "항공": "AIRLINES", "증권": "SECURITIES", "캐피탈": "CAPITAL", "홀딩스": "HOLDINGS",
             "반도체": "SEMICONDUCTOR", "디스플레이": "DISPLAY", "소재": "MATERIALS", "로보틱스": "ROBOTICS",
             "게임즈": "GAMES", "엔터테인먼트": "ENTERTAINMENT", "헬스케어": "HEALTHCARE", "바이오로직스": "BIOLOGICS",
             "이노텍": "INNOTEK", "모빌리티": "MOBILITY", "네트웍스": "NETWORKS", "인터내셔널": "INTERNATIONAL",
             "리테일": "RETAIL", "푸드": "FOOD", "케미칼": "CHEMICAL"}


def spells_real_company(name: str, stem: str = "") -> bool:
    """Whether an invented company name is a real listed company's (spaces, ``(주)`` and
    ``주식회사`` aside), or its ``stem`` (the name without its kind) is a real name or a real
    name without its kind: the world draws another name then (edition 7 on)."""
    if name_key(name) in real_listed_names():
        return True
    return bool(stem) and name_key(stem) in real_name_stems()


def contains_real_company(name: str) -> bool:
    """Whether an invented company name holds a real listed company's name of three or more
    letters (우리서울반도체 holds 서울반도체, 녹십자한솔항공 holds 녹십자): such a name reads as
    that company or its affiliate, so edition 7 renames it (:meth:`FinanceMixin._clean_name`)."""
    key = name_key(name)
    real = real_listed_names()
    return any(key[i:j] in real for i in range(len(key)) for j in range(i + 3, len(key) + 1))


def real_stem(stem: str) -> bool:
    """Whether a word stem of an invented name is itself a real listed company's name (영풍,
    풍산, 보령, 종근당, 녹십자, 동양 …): a name built on it reads as that company's affiliate."""
    return name_key(stem) in real_listed_names()


def real_names_of(p: dict[str, Any]) -> set[str]:
    """The names of the real companies of the pool (``pools.yaml`` ``companies``)."""
    return {row[2] for row in p["companies"]}


def isin(stock_code: str) -> str:
    """The ISIN of a Korean common share: ``KR7`` + code + ``00`` + check digit (Luhn)."""
    body = f"KR7{stock_code}00"
    digits = "".join(str(int(ch, 36)) for ch in body)
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2 == 0:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return body + str((10 - total % 10) % 10)


class FinanceMixin(RegionsMixin):
    """OpenDART companies, filings, accounts and holdings; FSC prices; ECOS series."""

    def companies(self) -> list[dict[str, Any]]:
        """Every company of CORPCODE.xml: the real big ones first, then generated ones."""
        return self.cached(("companies",), self._build_companies)

    def company(self, corp_code: str) -> dict[str, Any] | None:
        return self.cached(("company_index",), lambda: {c["corp_code"]: c for c in self.companies()}).get(corp_code)

    def real_company_codes(self) -> frozenset[str]:
        """From edition 7: the ``corp_code`` of every real company of the pool, which carries no
        value but its identity (before: none, the world invented values for them as for the rest)."""
        if self.edition < REAL_COMPANIES_EDITION:
            return frozenset()
        return frozenset(c[0] for c in pools()["companies"])

    def is_real_company(self, corp_code: str) -> bool:
        return corp_code in self.real_company_codes()

    def invented_companies(self) -> list[dict[str, Any]]:
        """The companies the world may attach values to: every company before edition 7, the
        invented ones from it."""
        real = self.real_company_codes()
        return self.cached(("invented",), lambda: [c for c in self.companies() if c["corp_code"] not in real])

    def company_by_stock(self, stock_code: str) -> dict[str, Any] | None:
        """The listed company (with values: invented from edition 7) of a stock code."""
        idx = self.cached(
            ("company_stock_index",),
            lambda: {c["stock_code"]: c for c in self.listed_companies()},
        )
        return idx.get(stock_code)

    def listed_companies(self) -> list[dict[str, Any]]:
        """Listed companies with values (prices, holders, …): from edition 7 the invented ones only."""
        return self.cached(("listed",), lambda: [c for c in self.invented_companies() if c["stock_code"].strip()])

    def _build_companies(self) -> list[dict[str, Any]]:
        rng = self.rng("companies")
        p = pools()
        districts = [d for d in self.entity_districts() if d.dongs]
        heavy = [d for d in districts if d.sido.sido_cd in ("11", "41")]
        out: list[dict[str, Any]] = []
        used_corp: set[str] = set()
        used_stock: set[str] = set()
        used_names: set[str] = set()
        new = self.edition >= REAL_COMPANIES_EDITION
        for corp, stock, name, eng, market, ind in p["companies"]:
            used_corp.add(corp)
            used_stock.add(stock)
            used_names.add(name)
            c = self._company(rng, corp, stock, name, eng, market, ind, heavy)
            out.append(_identity_only(c) if new else c)
        real_names = [n.upper() for n in used_names]
        stems = [w for w in p["corp_words"] if w not in _LETTER_WORDS]
        markets = ["KOSPI"] * 800 + ["KOSDAQ"] * 1480 + ["KONEX"] * 100
        rng.shuffle(markets)
        total = 6000
        for i in range(total - len(out)):
            while True:
                corp = f"{rng.randrange(9_000_000, 10_000_000) if new else rng.randrange(100_000, 1_700_000):08d}"
                if corp not in used_corp:
                    break
            used_corp.add(corp)
            while True:
                if new:
                    a, b = rng.sample(stems, 2)
                    name = a + b + rng.choice(p["corp_kinds"])
                    if any(r in name.upper() for r in real_names) or spells_real_company(name, a + b):
                        continue
                else:
                    name = rng.choice(p["corp_words"]) + rng.choice(p["corp_kinds"])
                    if rng.random() < 0.3:
                        name = rng.choice(p["corp_words"]) + name
                if name not in used_names:
                    break
            if new and (contains_real_company(name) or real_stem(a) or real_stem(b)):
                name = self._clean_name(corp, stems, p["corp_kinds"], used_names)
            used_names.add(name)
            market = markets[i] if i < len(markets) else ""
            stock = " "
            if market:
                while True:
                    stock = f"{rng.randrange(1000, 99999):05d}0"
                    if stock not in used_stock:
                        break
                used_stock.add(stock)
            ind = rng.choice(p["industries"])
            c = self._company(rng, corp, stock, name, "", market, ind, heavy if rng.random() < 0.7 else districts)
            if new:  # one 법인등록번호: company.json's jurir_no is FSC's crno, as in the real registries
                c["crno"] = c["jurir_no"]
            out.append(c)
        if self.edition >= NATURAL_NAMES_EDITION:
            self._natural_company_names(out[len(p["companies"]):], [n.upper() for n in used_names if n in real_names_of(p)])
        return out

    def _natural_company_names(self, invented: list[dict[str, Any]], pool_names: list[str]) -> None:
        """Edition 8: every invented company renamed (in place) as Korean companies are named: ONE
        stem and a kind (대영화학, 한결제약) or a coined word and a kind (네오테크), never two brand
        stems spliced (edition 7's 경동신성, 대영일양). Each name comes from the company's own random
        stream (codes and values stay edition 7's; the English name and the homepage follow the name:
        "YEONGSEONG ELECTRONICS CO., LTD."); a stem that is a real listed name or a real
        name without its kind (:func:`real_stem`, :func:`spells_real_company`), or a name that holds
        a real one (:func:`contains_real_company`), is drawn again."""
        p = pools()
        kinds = p["corp_kinds"]
        denied = set(p["corp_stems_denied"])
        stems = [a + b for a in p["corp_syllables_1"] for b in p["corp_syllables_2"] if a != b and a + b not in denied]
        coined: list[str] = list(p["corp_coined"])
        used: set[str] = set()
        for c in invented:
            rng = self.rng("company_name8", c["corp_code"])
            while True:
                stem = rng.choice(stems) if rng.random() < 0.8 else rng.choice(coined)
                name = stem + rng.choice(kinds)
                if (name not in used and not real_stem(stem) and not spells_real_company(name, stem)
                        and not contains_real_company(name) and not any(r in name.upper() for r in pool_names)):
                    break
            used.add(name)
            c["corp_name"] = c["stock_name"] = name
            kind = name[len(stem):]
            eng = f"{p['corp_coined'].get(stem) or romanize(stem).upper()} {_KIND_ENG[kind]}"
            c["corp_name_eng"] = f"{eng} CO., LTD."  # the English name and homepage follow the name
            c["hm_url"] = f"www.{eng.split(' ')[0].lower()}{_KIND_ENG[kind].split(' ')[0].lower()[:4]}.co.kr"

    def _clean_name(self, corp: str, stems: list[str], kinds: list[str], used: set[str]) -> str:
        """Another invented name for the company ``corp`` whose drawn name holds a real one, from
        its own random stream (the world's other draws, codes included, stay as they were)."""
        rng = self.rng("company_name", corp)
        while True:
            a, b = rng.sample(stems, 2)
            name = a + b + rng.choice(kinds)
            if (name not in used and not contains_real_company(name) and not spells_real_company(name, a + b)
                    and not real_stem(a) and not real_stem(b)):
                return name

    def _company(self, rng: random.Random, corp: str, stock: str, name: str, eng: str, market: str,
                 ind: str, districts: list[District]) -> dict[str, Any]:
        d = rng.choice(districts)
        dong = rng.choice(d.dongs)
        cls = {"KOSPI": "Y", "KOSDAQ": "K", "KONEX": "N"}.get(market, "E")
        est = date(rng.randint(1950, 2018), rng.randint(1, 12), rng.randint(1, 28))
        area = {"11": "02", "26": "051", "27": "053", "28": "032", "29": "062", "30": "042", "31": "052"}.get(
            d.sido.sido_cd, "031")
        slug = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 9)))
        return {
            "corp_code": corp, "corp_name": name, "corp_name_eng": eng or f"{slug.upper()} CO., LTD.",
            "stock_name": name, "stock_code": stock, "ceo_nm": person_name(rng), "corp_cls": cls,
            "market": market, "isin": isin(stock) if stock.strip() else "",
            "jurir_no": f"{rng.randrange(10**12, 10**13)}", "bizr_no": f"{rng.randrange(10**9, 10**10)}",
            "crno": f"{rng.randrange(10**12, 10**13)}",
            "adres": f"{dong.name.rsplit(' ', 1)[0]} {_stem(dong.leaf)}로 {rng.randint(1, 400)} ({dong.leaf})",
            "hm_url": f"www.{slug}.co.kr", "ir_url": "", "phn_no": f"{area}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
            "fax_no": f"{area}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}", "induty_code": ind,
            "est_dt": _ymd(est), "acc_mt": "12", "modify_date": _ymd(date(2025, rng.randint(1, 12), rng.randint(1, 28))),
            "lawd_cd": d.lawd_cd,
            "shares": rng.randint(5_000_000, 300_000_000) if stock.strip() else rng.randint(100_000, 5_000_000),
            "size": rng.lognormvariate(0, 1.2),
        }

    def _periodic(self, year: int, reprt_code: str) -> tuple[date, str]:
        """Filing date and report name of a periodic report for business year ``year``."""
        if reprt_code == "11011":
            return date(year + 1, 3, 14), f"사업보고서 ({year}.12)"
        if reprt_code == "11012":
            return date(year, 8, 14), f"반기보고서 ({year}.06)"
        if reprt_code == "11013":
            return date(year, 5, 15), f"분기보고서 ({year}.03)"
        return date(year, 11, 14), f"분기보고서 ({year}.09)"

    def filings(self, corp_code: str) -> list[dict[str, str]]:
        """list.json rows of one company, newest first (2023-01-01 … ``TODAY``)."""
        return self.cached(("filings", corp_code), lambda: self._build_filings(corp_code))

    def all_filings(self) -> list[dict[str, str]]:
        """Every filing of every company, newest first (the unfiltered list.json collection)."""
        def build() -> list[dict[str, str]]:
            rows = [f for c in self.companies() for f in self.filings(c["corp_code"])]
            rows.sort(key=lambda r: r["rcept_no"], reverse=True)
            return rows
        return self.cached(("all_filings",), build)

    def _company_index(self, corp_code: str) -> int:
        return self.cached(("company_pos",), lambda: {c["corp_code"]: i for i, c in enumerate(self.companies())})[corp_code]

    def _build_filings(self, corp_code: str) -> list[dict[str, str]]:
        c = self.company(corp_code)
        if c is None or self.is_real_company(corp_code):
            return []
        rng = self.rng("filings", corp_code)
        p = pools()
        listed = bool(c["stock_code"].strip())
        items: list[tuple[date, str, str, str]] = []  # date, report, filer, rm
        if listed:
            for year in (2022, 2023, 2024, 2025):
                for code in ("11013", "11012", "11014", "11011"):
                    when, nm = self._periodic(year, code)
                    if date(2023, 1, 1) <= when <= TODAY:
                        items.append((when, nm, c["corp_name"], "연" if code == "11011" else ""))
            n = max(3, int(12 * c["size"] * rng.uniform(0.5, 1.5)))
            for _ in range(min(n, 80)):
                when = date(2023, 1, 2) + timedelta(rng.randint(0, (TODAY - date(2023, 1, 2)).days))
                nm = rng.choice(p["report_names"][4:]).replace("{y}", str(when.year - 1))
                filer = c["corp_name"] if rng.random() < 0.75 else person_name(rng)
                items.append((when, nm, filer, rng.choice(["", "", "유", "공", "코", "정"])))
        else:
            for year in (2022, 2023, 2024):
                when = date(year + 1, 4, rng.randint(1, 14))
                items.append((when, f"감사보고서 ({year}.12)", f"{rng.choice(['삼일', '삼정', '안진', '한영', '대주'])}회계법인", "외"))
        items = [(_next_business_day(w), nm, f, rm) for w, nm, f, rm in items]
        items.sort(key=lambda t: (t[0], t[1]))
        ci = self._company_index(corp_code)
        per_day: dict[date, int] = {}
        rows = []
        for when, nm, filer, rm in items:
            k = per_day.get(when, 0)
            per_day[when] = k + 1
            serial = f"{(ci * 97 + k * 13 + 101) % 1_000_000:06d}"  # unique per day (k < 97)
            rows.append({
                "corp_code": corp_code, "corp_name": c["corp_name"], "stock_code": c["stock_code"],
                "corp_cls": c["corp_cls"], "report_nm": nm, "rcept_no": _ymd(when) + serial,
                "flr_nm": filer, "rcept_dt": _ymd(when), "rm": rm,
            })
        rows.sort(key=lambda r: r["rcept_no"], reverse=True)
        return rows

    def periodic_rcept_no(self, corp_code: str, year: int, reprt_code: str) -> str | None:
        """``rcept_no`` of a company's periodic report (what fnlttSinglAcnt rows carry)."""
        _, nm = self._periodic(year, reprt_code)
        for f in self.filings(corp_code):
            if f["report_nm"] == nm:
                return f["rcept_no"]
        return None

    def accounts(self, corp_code: str, year: int, reprt_code: str) -> list[dict[str, str]]:
        """fnlttSinglAcnt rows (CFS then OFS; BS then IS); [] when no such report was filed."""
        return self.cached(("accounts", corp_code, year, reprt_code),
                           lambda: self._build_accounts(corp_code, year, reprt_code))

    def _build_accounts(self, corp_code: str, year: int, reprt_code: str) -> list[dict[str, str]]:
        c = self.company(corp_code)
        rcept = self.periodic_rcept_no(corp_code, year, reprt_code)
        if c is None or rcept is None:
            return []
        rng = self.rng("accounts", corp_code)
        scale = int(c["size"] * 400_000_000_000)
        era = int(c["est_dt"][:4])
        growth = [rng.uniform(0.85, 1.25) for _ in range(12)]

        def level(y: int) -> float:
            v = 1.0
            for g in growth[: max(0, min(11, y - 2014))]:
                v *= g
            return v

        period = {"11013": (3, 31), "11012": (6, 30), "11014": (9, 30), "11011": (12, 31)}[reprt_code]
        frac = {"11013": 0.25, "11012": 0.5, "11014": 0.75, "11011": 1.0}[reprt_code]
        names = {"11011": "기", "11012": "반기", "11013": "분기", "11014": "분기"}
        bs = [("유동자산", 0.45), ("비유동자산", 0.55), ("자산총계", 1.0), ("유동부채", 0.2), ("비유동부채", 0.1),
              ("부채총계", 0.3), ("자본금", 0.02), ("이익잉여금", 0.6), ("자본총계", 0.7)]
        is_ = [("매출액", 0.8), ("영업이익", 0.08), ("법인세차감전 순이익", 0.09), ("당기순이익(손실)", 0.07)]
        mix = self._statement_mix(corp_code) if self.edition >= 3 else None
        out: list[dict[str, str]] = []
        for fs_div, fs_nm, k in (("CFS", "연결재무제표", 1.0), ("OFS", "재무제표", 0.72)):
            for sj_div, sj_nm, items in (("BS", "재무상태표", bs), ("IS", "손익계산서", is_)):
                for ordn, (acc, share) in enumerate(items, start=1):
                    def amt(y: int) -> str:
                        part = share if mix is None else mix(acc, y)
                        v = scale * k * part * level(y) * (frac if sj_div == "IS" else 1.0)
                        return comma(int(v) // 1_000_000 * 1_000_000)
                    term = year - era + 1
                    ym = f"{year}.{period[0]:02d}.{period[1]:02d}"
                    row = {
                        "rcept_no": rcept, "reprt_code": reprt_code, "bsns_year": str(year), "corp_code": corp_code,
                        "stock_code": c["stock_code"], "fs_div": fs_div, "fs_nm": fs_nm, "sj_div": sj_div, "sj_nm": sj_nm,
                        "account_nm": acc, "thstrm_nm": f"제 {term} {names[reprt_code]}",
                        "thstrm_dt": f"{ym} 현재" if sj_div == "BS" else f"{year}.01.01 ~ {ym}",
                        "thstrm_amount": amt(year), "frmtrm_nm": f"제 {term - 1} 기",
                        "frmtrm_dt": f"{year - 1}.12.31 현재" if sj_div == "BS" else f"{year - 1}.01.01 ~ {year - 1}.{period[0]:02d}.{period[1]:02d}",
                        "frmtrm_amount": amt(year - 1),
                        "bfefrmtrm_nm": f"제 {term - 2} 기" if reprt_code == "11011" else "",
                        "bfefrmtrm_dt": f"{year - 2}.12.31 현재" if reprt_code == "11011" else "",
                        "bfefrmtrm_amount": amt(year - 2) if reprt_code == "11011" else "",
                        "ord": str(len(out) + 1), "currency": "KRW",
                    }
                    out.append(row)
        return out

    def _statement_mix(self, corp_code: str) -> Callable[[str, int], float]:
        """Edition 3: a company's account shares by year (of ``size`` × scale), so margins,
        debt ratios and growth differ between companies and years (edition 2: one fixed mix,
        every operating margin 10 %). Drawn from its own generator: edition 2's stay as they were."""
        rng = self.rng("statement_mix", corp_code)
        sales = rng.uniform(0.35, 1.6)
        margin = rng.choice([rng.uniform(-0.12, 0.02), rng.uniform(0.0, 0.12), rng.uniform(0.0, 0.12), rng.uniform(0.08, 0.32)])
        debt, current, capital = rng.uniform(0.12, 0.72), rng.uniform(0.25, 0.7), rng.uniform(0.005, 0.06)

        def year(y: int) -> tuple[float, float, float]:
            r = self.rng("statement_mix", corp_code, y)
            m = margin + r.uniform(-0.04, 0.04)
            s_y = sales * r.uniform(0.85, 1.15)
            pre = m + r.uniform(-0.03, 0.03)
            return s_y, m, pre

        def share(acc: str, y: int) -> float:
            s_y, m, pre = year(y)
            net = pre * 0.76 if pre > 0 else pre
            return {"유동자산": current, "비유동자산": 1.0 - current, "자산총계": 1.0, "유동부채": debt * 0.6,
                    "비유동부채": debt * 0.4, "부채총계": debt, "자본금": capital, "이익잉여금": (1.0 - debt) * 0.8,
                    "자본총계": 1.0 - debt, "매출액": s_y, "영업이익": s_y * m, "법인세차감전 순이익": s_y * pre,
                    "당기순이익(손실)": s_y * net}[acc]
        return share

    def major_shareholders(self, corp_code: str) -> list[dict[str, str]]:
        """majorstock.json rows (5%+ holders' reports) of a listed company."""
        return self.cached(("majorstock", corp_code), lambda: self._build_holders(corp_code, "major"))

    def executive_holdings(self, corp_code: str) -> list[dict[str, str]]:
        """elestock.json rows (executives' and major holders' own reports)."""
        return self.cached(("elestock", corp_code), lambda: self._build_holders(corp_code, "exec"))

    def _build_holders(self, corp_code: str, kind: str) -> list[dict[str, str]]:
        c = self.company(corp_code)
        if c is None or not c["stock_code"].strip() or self.is_real_company(corp_code):
            return []
        rng = self.rng(kind, corp_code)
        out = []
        others = self.listed_companies()
        for _ in range(rng.randint(2, 12)):
            when = date(2023, 1, 2) + timedelta(rng.randint(0, (TODAY - date(2023, 1, 2)).days))
            qty = int(c["shares"] * rng.uniform(0.001, 0.25))
            delta = int(qty * rng.uniform(-0.05, 0.05))
            rate = qty / c["shares"] * 100
            rcept = _ymd(when) + f"{rng.randint(0, 999999):06d}"
            if kind == "major":
                if self.edition >= REAL_COMPANIES_EDITION:  # no real institution holds invented shares
                    holder = rng.choice(others)["corp_name"] if rng.random() < 0.5 else person_name(rng)
                else:
                    holder = rng.choice(others)["corp_name"] if rng.random() < 0.5 else rng.choice(
                        ["국민연금공단", "블랙록", "머스크", person_name(rng)])
                out.append({
                    "rcept_no": rcept, "rcept_dt": when.isoformat(), "corp_code": corp_code, "corp_name": c["corp_name"],
                    "report_tp": rng.choice(["일반", "약식"]), "repror": holder, "stkqy": comma(qty),
                    "stkqy_irds": comma(delta), "stkrt": f"{rate:.2f}", "stkrt_irds": f"{delta / c['shares'] * 100:.2f}",
                    "ctr_stkqy": comma(int(qty * 0.1)), "ctr_stkrt": f"{rate * 0.1:.2f}",
                    "report_resn": rng.choice(["특별관계자 및 보유주식수 변동", "보유목적 변경", "단순투자 목적 신규보고", "장내매수"]),
                })
            else:
                small = int(qty * 0.01)
                out.append({
                    "rcept_no": rcept, "rcept_dt": when.isoformat(), "corp_code": corp_code, "corp_name": c["corp_name"],
                    "repror": person_name(rng), "isu_exctv_rgist_at": rng.choice(["등기임원", "비등기임원"]),
                    "isu_exctv_ofcps": rng.choice(["대표이사", "사내이사", "전무", "상무", "부사장", "사외이사"]),
                    "isu_main_shrholdr": rng.choice(["-", "-", "10%이상주주"]), "sp_stock_lmp_cnt": comma(small),
                    "sp_stock_lmp_irds_cnt": comma(int(small * rng.uniform(-0.2, 0.2))),
                    "sp_stock_lmp_rate": f"{small / c['shares'] * 100:.2f}", "sp_stock_lmp_irds_rate": "0.00",
                })
        out.sort(key=lambda r: r["rcept_no"])
        return out

    def business_days(self, begin: str, end: str) -> list[str]:
        return [_ymd(d) for d in _days(_parse(begin), _parse(end)) if is_business_day(d)]

    def _stock_params(self, stock_code: str) -> tuple[float, float, float, float, float, float, int, int]:
        """(p0, drift, amp1, phase1, amp2, phase2, volume, noise key) of one stock's price path."""
        def build() -> dict[str, tuple[float, float, float, float, float, float, int, int]]:
            out = {}
            for c in self.listed_companies():
                rng = self.rng("prices", c["stock_code"])
                p0 = 53_000.0 if c["stock_code"] == "005930" else max(500.0, rng.lognormvariate(9.3, 1.1))
                out[c["stock_code"]] = (p0, rng.gauss(0, 0.0008), rng.uniform(0.02, 0.2), rng.uniform(0, 6.28),
                                        rng.uniform(0.01, 0.08), rng.uniform(0, 6.28),
                                        max(1000, int(rng.lognormvariate(11, 1.3))), rng.getrandbits(48))
            return out
        return self.cached(("stock_params",), build)[stock_code]

    def _price_row(self, c: dict[str, Any], i: int) -> dict[str, str]:
        # A closed-form path (trend + two cycles + daily noise from a counter hash), so any
        # day's price costs O(1) and needs no earlier day.
        p0, drift, a1, f1, a2, f2, vol, key = self._stock_params(c["stock_code"])

        def close(k: int) -> int:
            z = _unit(key, k) + _unit(key, k + 7919) - 1.0
            return _tick(p0 * math.exp(drift * k + a1 * math.sin(k / 40.0 + f1) + a2 * math.sin(k / 9.0 + f2) + 0.03 * z))

        cl, prev = close(i), close(i - 1)
        o = _tick(prev * (1 + 0.01 * (_unit(key, i + 104729) - 0.5)))
        h = _tick(max(o, cl) * (1 + 0.02 * _unit(key, i + 15485863)))
        lo = _tick(min(o, cl) * (1 - 0.02 * _unit(key, i + 32452843)))
        v = int(vol * (0.3 + 2.2 * _unit(key, i + 49979687)))
        vs = cl - prev
        return {
            "basDt": PRICE_DAYS[i], "srtnCd": c["stock_code"], "isinCd": c["isin"], "itmsNm": c["corp_name"],
            "mrktCtg": c["market"], "clpr": str(cl), "vs": str(vs), "fltRt": f"{vs / prev * 100:.2f}" if prev else "0",
            "mkp": str(o), "hipr": str(h), "lopr": str(lo), "trqu": str(v), "trPrc": str(v * cl),
            "lstgStCnt": str(c["shares"]), "mrktTotAmt": str(c["shares"] * cl),
        }

    def stock_prices(self, bas_dt: str) -> list[dict[str, str]]:
        """FSC getStockPriceInfo rows of every listed company on one trading day."""
        if bas_dt not in PRICE_DAYS:
            return []
        i = PRICE_DAYS.index(bas_dt)
        return self.cached(("stock_prices", bas_dt), lambda: [self._price_row(c, i) for c in self.listed_companies()])

    def stock_history(self, srtn_cd: str) -> list[dict[str, str]]:
        """FSC rows of one stock over every trading day, oldest first."""
        c = self.company_by_stock(srtn_cd)
        if c is None:
            return []
        return self.cached(("stock_history", srtn_cd), lambda: [self._price_row(c, i) for i in range(len(PRICE_DAYS))])

    # ---- statistics (ECOS) --------------------------------------------------------
    def ecos_tables(self) -> list[dict[str, str]]:
        """ECOS StatisticTableList rows (a small real-looking tree)."""
        rows = [("", "722Y001", "1.3.1. 한국은행 기준금리 및 여수신금리", "M"), ("", "731Y001", "3.1.1.1. 주요국 통화의 대원화환율", "D"),
                ("", "901Y009", "4.2.1. 소비자물가지수", "M"), ("", "200Y101", "2.1.1.1. 주요지표(연간지표)", "A"),
                ("", "817Y002", "1.3.2.2. 시장금리(일별)", "D"), ("", "901Y062", "4.3.1. 주택매매가격지수(KB)", "M")]
        return [{"P_STAT_CODE": p, "STAT_CODE": c, "STAT_NAME": n, "CYCLE": cy, "SRCH_YN": "Y", "ORG_NAME": "한국은행"}
                for p, c, n, cy in rows]

    def ecos_items(self, stat_code: str) -> list[dict[str, str]]:
        items = {"722Y001": [("0101000", "한국은행 기준금리")], "731Y001": [("0000001", "원/미국달러(매매기준율)"), ("0000002", "원/일본엔(100엔)"), ("0000003", "원/유로")],
                 "901Y009": [("0", "총지수")], "200Y101": [("10101", "국내총생산(GDP)(명목, 원화표시)")],
                 "817Y002": [("010200000", "국고채(3년)"), ("010210000", "국고채(10년)")], "901Y062": [("P63A", "전국")]}
        t = next((x for x in self.ecos_tables() if x["STAT_CODE"] == stat_code), None)
        if t is None:
            return []
        return [{"STAT_CODE": stat_code, "STAT_NAME": t["STAT_NAME"], "GRP_CODE": "Group1", "GRP_NAME": "계정항목",
                 "ITEM_CODE": c, "ITEM_NAME": n, "P_ITEM_CODE": "", "P_ITEM_NAME": "", "CYCLE": t["CYCLE"],
                 "START_TIME": {"D": "20000103", "M": "200001", "A": "2000"}[t["CYCLE"]],
                 "END_TIME": {"D": "20251230", "M": "202512", "A": "2024"}[t["CYCLE"]], "DATA_CNT": "0", "UNIT_NAME": "%", "WEIGHT": ""}
                for c, n in items.get(stat_code, [])]

    def ecos_series(self, stat_code: str, item_code: str, cycle: str) -> list[dict[str, str]]:
        """StatisticSearch rows of one item, oldest first (values as strings)."""
        def build() -> list[dict[str, str]]:
            item = next((i for i in self.ecos_items(stat_code) if i["ITEM_CODE"] == item_code), None)
            if item is None or item["CYCLE"] != cycle:
                return []
            rng = self.rng("ecos", stat_code, item_code)
            if cycle == "D":
                times = [_ymd(d) for d in _days(date(2020, 1, 2), date(2025, 12, 30)) if is_business_day(d) or d.year < 2024 and d.weekday() < 5]
            elif cycle == "M":
                times = [f"{y}{m:02d}" for y in range(2000, 2026) for m in range(1, 13)]
            else:
                times = [str(y) for y in range(2000, 2025)]
            v = {"722Y001": 3.0, "731Y001": 1150.0, "901Y009": 80.0, "200Y101": 650000.0, "817Y002": 2.0, "901Y062": 60.0}[stat_code]
            rows = []
            for t in times:
                v = max(0.25, v * (1 + rng.gauss(0.0005, 0.004 if cycle == "D" else 0.01)))
                rows.append({"STAT_CODE": stat_code, "STAT_NAME": item["STAT_NAME"], "ITEM_CODE1": item_code, "ITEM_NAME1": item["ITEM_NAME"],
                             "ITEM_CODE2": "", "ITEM_NAME2": "", "ITEM_CODE3": "", "ITEM_NAME3": "", "ITEM_CODE4": "", "ITEM_NAME4": "",
                             "UNIT_NAME": item["UNIT_NAME"], "WGT": "", "TIME": t,
                             "DATA_VALUE": f"{v:,.1f}" if v > 1000 else f"{v:.2f}"})
            return rows
        return self.cached(("ecos", stat_code, item_code, cycle), build)


def _identity_only(c: dict[str, Any]) -> dict[str, Any]:
    """A real company as edition 7 holds it: its identity, every other field empty."""
    return {k: (c[k] if k in IDENTITY_FIELDS else 0 if k == "shares" else 0.0 if k == "size" else "") for k in c}


def _unit(key: int, n: int) -> float:
    """A uniform number in [0, 1) from (key, n): splitmix64, cheap and deterministic."""
    z = (key + (n + 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return ((z ^ (z >> 31)) >> 11) / float(1 << 53)


def _tick(price: float) -> int:
    """Round a price to the KRX tick size."""
    p = int(price)
    for limit, tick in ((2000, 1), (5000, 5), (20000, 10), (50000, 50), (200000, 100), (500000, 500)):
        if p < limit:
            return max(tick, p // tick * tick)
    return p // 1000 * 1000
