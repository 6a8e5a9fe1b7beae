"""World edition 6: the FSC company outline joined to OpenDART's companies, and the entities of
the endpoints edition 6 adds (Seoul air and bikes, subway positions, ECOS metadata, K-apt
complexes, SEMAS stores).

The company outline (FSC 기업기본정보 ``getCorpOutline_V2``) is the route a real client takes
from a company's *name* to its OpenDART ``corp_code``: the outline row carries
``fssCorpUnqNo``, the FSS unique company number OpenDART calls ``corp_code``. Here every
company of ``companies()`` has one outline row (``corpNm`` = its ``corp_name``, ``crno`` its
법인등록번호, ``fssCorpUnqNo`` its ``corp_code``), so a name looked up at FSC leads to the
same company's OpenDART filings. The names are the world's (the 20 real listed companies of
``pools.yaml`` and the generated ones); every other value is invented, as for OpenDART.

Nothing here changes what editions 2–5 answer: the generators that read it serve from
edition 6 on (``simulator/sandbox/gen``).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from ._core import name_key, pools, real_name_stems
from ._dates import TODAY, _ymd
from ._names import _stem
from ._regions import RegionsMixin

__all__ = ["JoinedMixin", "KSIC_NAMES"]

#: KSIC (한국표준산업분류) 3-digit class names for the industry codes of ``pools.yaml``
#: (the statistics office's published names; codes without an entry here answer "").
KSIC_NAMES: dict[str, str] = {
    "201": "기초 화학물질 제조업", "202": "합성고무 및 플라스틱 물질 제조업", "212": "의약품 제조업",
    "221": "고무제품 제조업", "231": "유리 및 유리제품 제조업", "241": "1차 철강 제조업",
    "242": "1차 비철금속 제조업", "251": "구조용 금속제품, 탱크 및 증기발생기 제조업", "261": "반도체 제조업",
    "262": "전자 부품 제조업", "263": "컴퓨터 및 주변장치 제조업", "264": "통신 및 방송 장비 제조업",
    "271": "의료용 기기 제조업", "281": "전동기, 발전기 및 전기 변환 · 공급 · 제어 장치 제조업",
    "282": "일차전지 및 이차전지 제조업", "291": "일반 목적용 기계 제조업", "292": "특수 목적용 기계 제조업",
    "301": "자동차용 엔진 및 자동차 제조업", "303": "자동차 신품 부품 제조업", "351": "전기업",
    "410": "건물 건설업", "421": "토목 시설물 건설업", "451": "자동차 판매업", "464": "생활용품 도매업",
    "471": "종합 소매업", "492": "육상 여객 운송업", "501": "해상 운송업", "521": "보관 및 창고업",
    "551": "일반 및 생활 숙박시설 운영업", "582": "소프트웨어 개발 및 공급업", "591": "영화, 비디오물, 방송프로그램 제작 및 배급업",
    "612": "전기 통신업", "620": "컴퓨터 프로그래밍, 시스템 통합 및 관리업",
    "631": "자료처리, 호스팅, 포털 및 기타 인터넷 정보매개 서비스업", "649": "기타 금융업", "651": "보험업",
    "661": "금융 지원 서비스업", "701": "자연과학 및 공학 연구개발업", "711": "법무관련 서비스업",
    "715": "회사 본부 및 경영 컨설팅 서비스업", "721": "건축 기술, 엔지니어링 및 관련 기술 서비스업",
    "731": "수의업", "851": "유아 교육기관",
}
_MARKET_NAMES = {"Y": "유가증권", "K": "코스닥", "N": "코넥스", "E": "기타"}
_BANKS = ("우리은행", "신한은행", "KB국민은행", "하나은행", "NH농협은행", "IBK기업은행", "KDB산업은행", "부산은행")
_AUDITORS = ("삼일회계법인", "삼정회계법인", "한영회계법인", "안진회계법인", "대주회계법인", "신한회계법인")
#: Seoul's air-quality regions (권역) and the 25 자치구 stations in them (RealtimeCityAir's MSRRGN_NM/MSRSTE_NM).
_AIR_REGIONS = {
    "도심권": ("종로구", "중구", "용산구"),
    "서북권": ("은평구", "서대문구", "마포구"),
    "동북권": ("성동구", "광진구", "동대문구", "중랑구", "성북구", "강북구", "도봉구", "노원구"),
    "서남권": ("양천구", "강서구", "구로구", "금천구", "영등포구", "동작구", "관악구"),
    "동남권": ("서초구", "강남구", "송파구", "강동구"),
}
#: 통합대기환경지수 grades by index (the published bands: 0–50 좋음, 51–100 보통, 101–250 나쁨, 251– 매우나쁨).
_IDEX_BANDS = ((50, "좋음"), (100, "보통"), (250, "나쁨"), (10**6, "매우나쁨"))
#: 상권업종 대분류 (SEMAS's published major classes, codes and names).
SEMAS_MAJOR = (("I2", "음식"), ("G2", "소매"), ("S2", "수리·개인"), ("L1", "부동산"), ("I1", "숙박"),
               ("P1", "교육"), ("Q1", "보건의료"), ("R1", "예술·스포츠"), ("M1", "과학·기술"), ("N1", "시설관리·임대"))
_SEMAS_MINOR: dict[str, tuple[tuple[str, str, str, str], ...]] = {  # (mid cd, mid nm, small cd, small nm)
    "I2": (("I201", "한식", "I20101", "백반/한정식"), ("I202", "중식", "I20201", "중국집"), ("I212", "비알코올", "I21201", "카페")),
    "G2": (("G204", "종합 소매", "G20405", "편의점"), ("G215", "의약·화장품 소매", "G21501", "약국")),
    "S2": (("S207", "이용·미용", "S20701", "미용실"), ("S209", "세탁", "S20901", "세탁소")),
    "L1": (("L102", "부동산 서비스", "L10203", "부동산 중개/대리업"),),
    "I1": (("I101", "일반 숙박", "I10102", "여관/모텔"),),
    "P1": (("P106", "교습 학원", "P10601", "입시·교과학원"),),
    "Q1": (("Q101", "병원", "Q10102", "내과"), ("Q102", "의원", "Q10201", "치과의원")),
    "R1": (("R103", "운동 시설", "R10302", "헬스장"),),
    "M1": (("M111", "사진 촬영", "M11101", "사진촬영업"),),
    "N1": (("N109", "사업 지원", "N10901", "복사업"),),
}


class JoinedMixin(RegionsMixin):
    """Edition 6's joined company outline and the entities of the endpoints it adds."""

    # ---- FSC 기업기본정보 getCorpOutline_V2 (joined to OpenDART) -------------------------
    def corp_outlines(self) -> list[dict[str, Any]]:
        """One getCorpOutline_V2 row per company of ``companies()``, in their order (from edition 7
        the invented ones: a real company of the pool has no outline values)."""
        return self.cached(("corp_outlines",), lambda: [self._outline(c) for c in self.invented_companies()])  # type: ignore[attr-defined]

    def corp_outlines_by_name(self, name: str) -> list[dict[str, Any]]:
        idx = self.cached(("corp_outline_names",), self._outline_index)
        return idx.get(name, [])

    def _outline_index(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for row in self.corp_outlines():
            out.setdefault(row["corpNm"], []).append(row)
        return out

    def _outline(self, c: dict[str, Any]) -> dict[str, Any]:
        rng = self.rng("corp_outline", c["corp_code"])
        est = date(int(c["est_dt"][:4]), int(c["est_dt"][4:6]), int(c["est_dt"][6:]))
        listed = date(max(est.year + rng.randint(3, 25), 1975), rng.randint(1, 12), rng.randint(1, 28))
        if listed > TODAY:
            listed = TODAY - timedelta(days=rng.randint(30, 900))
        lstg = _ymd(listed) if c["market"] else ""
        cls = c["corp_cls"]
        big = c["shares"] > 20_000_000
        employees = max(5, int(c["shares"] / rng.randint(3000, 30000)))
        changed = date(2025, rng.randint(1, 12), rng.randint(1, 28))
        return {
            "crno": c["crno"], "corpNm": c["corp_name"], "corpEnsnNm": c["corp_name_eng"],
            "enpPbanCmpyNm": c["stock_name"], "enpRprFnm": c["ceo_nm"],
            "corpRegMrktDcd": cls, "corpRegMrktDcdNm": _MARKET_NAMES[cls],
            "corpDcd": "1", "corpDcdNm": "주식회사", "bzno": c["bizr_no"],
            "enpOzpno": f"{rng.randint(1000, 63644):05d}", "enpBsadr": c["adres"],
            "enpDtadr": f"{rng.randint(1, 25)}층" if rng.random() < 0.6 else "",
            "enpHmpgUrl": c["hm_url"], "enpTlno": c["phn_no"], "enpFxno": c["fax_no"],
            "sicNm": KSIC_NAMES.get(c["induty_code"], ""), "enpEstbDt": c["est_dt"], "enpStacMm": c["acc_mt"],
            "enpXchgLstgDt": lstg if cls == "Y" else "", "enpXchgLstgAbolDt": "",
            "enpKosdaqLstgDt": lstg if cls == "K" else "", "enpKosdaqLstgAbolDt": "",
            "enpKrxLstgDt": lstg if cls == "N" else "", "enpKrxLstgAbolDt": "",
            "smenpYn": "N" if big or cls == "Y" else rng.choice("YN"),
            "enpMntrBnkNm": rng.choice(_BANKS), "enpEmpeCnt": str(employees),
            "empeAvgCnwkTermCtt": f"{rng.uniform(3, 19):.1f}",
            "enpPn1AvgSlryAmt": str(rng.randint(38, 130) * 1_000_000),
            "actnAudpnNm": rng.choice(_AUDITORS), "audtRptOpnnCtt": "적정" if rng.random() < 0.97 else "한정",
            "enpMainBizNm": KSIC_NAMES.get(c["induty_code"], ""),
            "fssCorpUnqNo": c["corp_code"],
            "fssCorpChgDtm": f"{changed:%Y/%m/%d}",
            "fstOpegDt": _ymd(est + timedelta(days=rng.randint(0, 60))),
            "lastOpegDt": _ymd(changed),
        }

    # ---- Seoul RealtimeCityAir ---------------------------------------------------------
    def city_air(self) -> list[dict[str, Any]]:
        """One RealtimeCityAir row per 자치구 station (the hour ``TODAY`` 14:00), 권역 order."""
        def build() -> list[dict[str, Any]]:
            rng = self.rng("city_air")
            rows = []
            for region, gus in _AIR_REGIONS.items():
                for gu in gus:
                    pm10, pm25 = float(rng.randint(12, 95)), float(rng.randint(5, 60))
                    o3, no2 = round(rng.uniform(0.005, 0.06), 3), round(rng.uniform(0.008, 0.05), 3)
                    co, so2 = round(rng.uniform(0.2, 0.9), 1), round(rng.uniform(0.002, 0.005), 3)
                    idx = float(max(int(pm10 * 0.9), int(pm25 * 1.6), int(o3 * 1200)))
                    main = "PM-2.5" if pm25 * 1.6 >= pm10 * 0.9 else "PM-10"
                    grade = next(g for top, g in _IDEX_BANDS if idx <= top)
                    rows.append({"MSRDT": f"{_ymd(TODAY)}1400", "MSRRGN_NM": region, "MSRSTE_NM": gu,
                                 "PM10": pm10, "PM25": pm25, "O3": o3, "NO2": no2, "CO": co, "SO2": so2,
                                 "IDEX_NM": grade, "IDEX_MVL": idx, "ARPLT_MAIN": main})
            return rows
        return self.cached(("city_air",), build)

    # ---- Seoul bikeList (따릉이) -------------------------------------------------------
    def bike_stations(self) -> list[dict[str, Any]]:
        """따릉이 rental stations (bikeList rows): ST-<n> ids, named after subway stations and dongs."""
        def build() -> list[dict[str, Any]]:
            rng = self.rng("bike_stations")
            seoul = [d for d in self.districts() if d.sido.sido_cd == "11" and d.dongs]
            names: list[str] = []
            seen: set[str] = set()
            for s in self.subway_stations():  # type: ignore[attr-defined]
                if s["subwayId"].startswith("100") and s["statnNm"] not in seen:
                    seen.add(s["statnNm"])
                    names.append(f"{s['statnNm']}역 {rng.randint(1, 8)}번출구 앞")
            for d in seoul:
                for dong in d.dongs[:12]:
                    nm = f"{_stem(dong.leaf)} 주민센터 앞"
                    if nm not in seen:
                        seen.add(nm)
                        names.append(nm)
            rows = []
            for i, nm in enumerate(names[:1800]):
                rack = rng.choice((10, 12, 15, 15, 20, 20, 25, 30))
                parked = rng.randint(0, rack + 8)
                rows.append({"rackTotCnt": str(rack), "stationName": f"{101 + i}. {nm}", "parkingBikeTotCnt": str(parked),
                             "shared": str(round(parked * 100 / rack)),
                             "stationLatitude": f"{rng.uniform(37.44, 37.69):.8f}", "stationLongitude": f"{rng.uniform(126.80, 127.17):.8f}",
                             "stationId": f"ST-{rng.randint(3, 3500) if i else 4}"})
            ids: set[str] = set()
            for i, r in enumerate(rows):  # ids unique, in the service's ST-<n> form
                while r["stationId"] in ids:
                    r["stationId"] = f"ST-{3500 + i}"
                ids.add(r["stationId"])
            return rows
        return self.cached(("bike_stations",), build)

    # ---- swopenapi realtimePosition --------------------------------------------------
    def subway_positions(self, line_name: str) -> list[dict[str, Any]]:
        """realtimePosition rows of one line (``1호선`` … ``9호선``, …): its trains, a fixed snapshot."""
        def build() -> list[dict[str, Any]]:
            lines = {ln: (sid, names) for sid, ln, names in pools()["subway_lines"]}
            if line_name not in lines:
                return []
            sid, names = lines[line_name]
            stations = {s["statnNm"]: s for s in self.subway_stations() if s["subwayId"] == sid}  # type: ignore[attr-defined]
            rng = self.rng("subway_positions", line_name)
            rows = []
            for _ in range(max(4, len(names) // 3)):
                up = rng.random() < 0.5
                end = names[0] if up else names[-1]
                i = rng.randrange(1, len(names)) if up else rng.randrange(len(names) - 1)  # never at its terminus
                st = stations[names[i]]
                tst = stations[end]
                secs = rng.randint(0, 50)
                stamp = f"{TODAY:%Y-%m-%d} 14:{rng.randint(0, 59):02d}:{secs:02d}"
                rows.append({"subwayId": sid, "subwayNm": line_name, "statnId": st["statnId"], "statnNm": names[i],
                             "trainNo": f"{int(sid[-1]) if sid.startswith('100') else 9}{rng.randint(0, 999):03d}",
                             "lastRecptnDt": f"{_ymd(TODAY)}", "recptnDt": stamp, "updnLine": "0" if up else "1",
                             "statnTid": tst["statnId"], "statnTnm": end, "trainSttus": str(rng.choice((0, 1, 2, 3))),
                             "directAt": "1" if rng.random() < 0.08 else "0", "lstcarAt": "0"})
            rows.sort(key=lambda r: (r["updnLine"], r["statnId"], r["trainNo"]))
            return rows
        return self.cached(("subway_positions", line_name), build)

    # ---- ECOS StatisticMeta -----------------------------------------------------------
    def ecos_meta(self, data_name: str) -> list[dict[str, Any]]:
        """StatisticMeta rows of one statistic (by its name, e.g. ``소비자물가지수``): a small outline
        of its metadata items, level 1 headings and level 2 texts."""
        tables = {t["STAT_NAME"].split(" ", 1)[-1]: t for t in self.ecos_tables()}  # type: ignore[attr-defined]
        t = tables.get(data_name)
        if t is None:
            return []
        heads = (("1", "개요", (("11", "작성목적"), ("12", "작성기관"))), ("2", "작성방법", (("21", "작성주기"), ("22", "공표시기"))))
        texts = {"11": f"{data_name}의 변동을 파악하여 경제정책 수립과 분석의 기초자료로 제공", "12": t["ORG_NAME"],
                 "21": {"D": "일", "M": "월", "A": "연"}[t["CYCLE"]], "22": "작성 기준기간 종료 후 공표"}
        rows = []
        for code, name, children in heads:
            rows.append({"LVL": "1", "P_CONT_CODE": "", "CONT_CODE": code, "CONT_NAME": name, "META_DATA": ""})
            for c, n in children:
                rows.append({"LVL": "2", "P_CONT_CODE": code, "CONT_CODE": c, "CONT_NAME": n, "META_DATA": texts[c]})
        return rows

    # ---- K-apt 공동주택 (AptListService4 / AptBasisInfoServiceV5) ------------------------
    def apt_complexes(self, lawd_cd: str) -> list[dict[str, Any]]:
        """K-apt complexes of a district: the district's RTMS apartments (``apartments``) under a
        ``kaptCode`` (A + 8 digits), each with its basis-info fields."""
        def build() -> list[dict[str, Any]]:
            d = self.district(lawd_cd)
            if d is None:
                return []
            rng = self.rng("kapt", lawd_cd)
            sido = d.sido.name
            words = pools()["corp_words"]
            # From edition 7 an invented complex's builder is no real company (대우건설, 동아건설산업 …):
            # a word that would spell one gives way to the next one of the pool that does not.
            refused = {w for w in words if name_key(f"{w}건설") in real_name_stems()} if self.edition >= 7 else set()

            def builder(word: str) -> str:
                at = words.index(word)
                return next(w for w in words[at:] + words[:at] if w not in refused)

            out = []
            for i, a in enumerate(self.apartments(lawd_cd)):  # type: ignore[attr-defined]
                code = f"A{lawd_cd}{i + 1:03d}"  # A + 8 digits: the district, then the complex
                hh = a["households"]
                dong_name = a["umdNm"]
                top = rng.randint(5, 35 if int(a["buildYear"]) > 2000 else 15)
                area_total = round(hh * rng.uniform(95, 130), 2)
                small = rng.randint(0, hh // 2)
                mid = rng.randint(0, hh - small)
                big = rng.randint(0, hh - small - mid)
                out.append({
                    "kaptCode": code, "kaptName": a["aptNm"], "bjdCode": a["dongCode"],
                    "as1": sido, "as2": d.name, "as3": dong_name,
                    "kaptAddr": f"{d.full_name} {dong_name} {a['jibun']} {a['aptNm']}",
                    "doroJuso": f"{d.full_name} {a['roadNm']} {int(a['roadNmBonbun'])}",
                    "zipcode": f"{rng.randint(1000, 63644):05d}", "kaptdaCnt": hh, "hoCnt": hh + rng.randint(0, 12),
                    "kaptDongCnt": a["dongs"], "kaptUsedate": f"{a['buildYear']}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}",
                    "kaptTopFloor": top, "kaptBaseFloor": rng.randint(0, 3), "kaptTarea": area_total,
                    "kaptMarea": round(area_total * 0.72, 2), "privArea": round(area_total * 0.58, 2),
                    "kaptMparea60": small, "kaptMparea85": mid, "kaptMparea135": big, "kaptMparea136": hh - small - mid - big,
                    "codeSaleNm": rng.choice(("분양", "분양", "분양", "임대", "혼합")),
                    "codeHeatNm": rng.choice(("개별난방", "지역난방", "중앙난방")), "codeHallNm": rng.choice(("계단식", "복도식", "혼합식")),
                    "codeAptNm": "아파트", "codeMgrNm": rng.choice(("위탁관리", "자치관리")),
                    "kaptBcompany": f"{builder(rng.choice(words))}건설", "kaptAcompany": f"{_stem(dong_name)}지구 주택조합",
                    "kaptTel": f"02-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}" if lawd_cd.startswith("11") else
                               f"0{rng.choice((31, 32, 33, 41, 42, 43, 51, 52, 53, 54, 55, 61, 62, 63, 64))}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
                    "kaptUrl": "", "kaptdEcntp": rng.randint(1, 4) * 100,
                })
            return out
        return self.cached(("kapt", lawd_cd), build)

    def apt_complex(self, kapt_code: str) -> dict[str, Any] | None:
        """One complex by ``kaptCode`` (its district is in the code)."""
        if len(kapt_code) != 9 or not kapt_code[1:].isdigit():
            return None
        return next((c for c in self.apt_complexes(kapt_code[1:6]) if c["kaptCode"] == kapt_code), None)

    # ---- SEMAS 상가(상권)정보 sdsc2 -------------------------------------------------------
    def semas_stores(self, lawd_cd: str) -> list[dict[str, Any]]:
        """상가업소 rows of a district (storeListInDong with ``divId=signguCd``)."""
        def build() -> list[dict[str, Any]]:
            d = self.district(lawd_cd)
            if d is None or not d.dongs:
                return []
            rng = self.rng("semas", lawd_cd)
            rows = []
            n = int(60 + d.activity * 240)
            for i in range(n):
                lcls, lnm = rng.choice(SEMAS_MAJOR)
                mcd, mnm, scd, snm = rng.choice(_SEMAS_MINOR[lcls])
                dong = rng.choice(d.dongs)
                stem = _stem(dong.leaf)
                main, sub = rng.randint(1, 900), rng.choice((0, 0, rng.randint(1, 40)))
                rows.append({
                    "bizesId": f"MA0101{lawd_cd}{i + 1:04d}"[:20], "bizesNm": f"{stem}{snm.split('/')[0]}",
                    "brchNm": "", "indsLclsCd": lcls, "indsLclsNm": lnm, "indsMclsCd": mcd, "indsMclsNm": mnm,
                    "indsSclsCd": scd, "indsSclsNm": snm, "ksicCd": "", "ksicNm": "",
                    "ctprvnCd": lawd_cd[:2], "ctprvnNm": d.sido.name, "signguCd": lawd_cd, "signguNm": d.name,
                    "adongCd": dong.code[:8], "adongNm": dong.leaf, "ldongCd": dong.code, "ldongNm": dong.leaf,
                    "lnoCd": f"{dong.code}1{main:04d}{sub:04d}", "plotSctCd": "1", "plotSctNm": "대지",
                    "lnoMnno": main, "lnoSlno": sub or "", "lnoAdr": f"{dong.name} {main}" + (f"-{sub}" if sub else ""),
                    "rdnmCd": f"{lawd_cd}{rng.randint(3_000_000, 4_999_999)}", "rdnm": f"{d.full_name} {stem}로",
                    "bldMnno": rng.randint(1, 300), "bldSlno": "", "bldMngNo": f"{dong.code}1{main:04d}{sub:04d}{rng.randint(10**5, 10**6 - 1)}",
                    "bldNm": "", "rdnmAdr": f"{d.full_name} {stem}로 {rng.randint(1, 300)}",
                    "oldZipcd": f"{rng.randint(100, 999)}{rng.randint(100, 999)}", "newZipcd": f"{rng.randint(1000, 63644):05d}",
                    "dongNo": "", "flrNo": str(rng.randint(1, 5)), "hoNo": "",
                    "lon": round(rng.uniform(126.8, 127.2), 7) if lawd_cd.startswith("11") else round(rng.uniform(126.1, 129.5), 7),
                    "lat": round(rng.uniform(37.43, 37.7), 7) if lawd_cd.startswith("11") else round(rng.uniform(33.2, 38.5), 7),
                })
            return rows
        return self.cached(("semas", lawd_cd), build)

    def semas_major_classes(self) -> list[dict[str, Any]]:
        """상권업종 대분류 rows (largeUpjongList)."""
        return [{"indsLclsCd": c, "indsLclsNm": n, "stdrDt": "2025-09-30"} for c, n in SEMAS_MAJOR]
