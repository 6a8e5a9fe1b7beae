"""Real estate (MOLIT RTMS): apartment complexes, trades and rents per district-month."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from ._core import pools
from ._dates import TODAY, TRADE_MONTHS
from ._names import _stem, comma
from ._regions import District, RegionsMixin

__all__ = ["RealEstateMixin"]


class RealEstateMixin(RegionsMixin):
    """Apartments and their RTMS deals, priced by district and month."""

    def apartments(self, lawd_cd: str) -> list[dict[str, Any]]:
        """Apartment complexes of a district (``aptNm``, ``umdNm``, ``buildYear``, …)."""
        return self.cached(("apartments", lawd_cd), lambda: self._build_apartments(lawd_cd))

    def _build_apartments(self, lawd_cd: str) -> list[dict[str, Any]]:
        d = self.district(lawd_cd)
        if d is None or not d.dongs:
            return []
        rng = self.rng("apartments", lawd_cd)
        p = pools()
        dongs = [r for r in d.dongs if r.leaf.endswith(("동", "가", "읍", "로"))] or d.dongs
        n = int(15 + d.activity * 110)
        out = []
        seen: set[str] = set()
        road_base = rng.randrange(3_000_000, 4_900_000)
        for i in range(n):
            dong = rng.choice(dongs)
            for _ in range(10):
                brand = rng.choice(p["apt_brands"])
                style = rng.random()
                stem = _stem(dong.leaf)
                if style < 0.45:
                    nm = f"{stem}{brand}{rng.choice(p['apt_suffixes'])}"
                elif style < 0.75:
                    nm = f"{brand}{rng.choice(['', stem])}{rng.choice(p['apt_suffixes'])}"
                else:
                    nm = f"{stem}{rng.choice(['주공', '현대', '삼익', '우성', '한양', '신동아', '상록'])}{rng.randint(1, 12)}단지"
                if nm not in seen:
                    break
            seen.add(nm)
            year = rng.choice([rng.randint(1978, 1999), rng.randint(2000, 2015), rng.randint(2010, 2024)])
            areas = sorted(rng.sample(p["apt_areas"], rng.randint(2, 4)))
            bonbun = rng.randint(1, 999)
            out.append({
                "aptNm": nm, "aptSeq": f"{lawd_cd}-{i + 1}", "umdNm": dong.leaf, "umdCd": dong.code[5:10],
                "dongCode": dong.code, "jibun": str(bonbun) if rng.random() < 0.7 else f"{bonbun}-{rng.randint(1, 30)}",
                "bonbun": f"{bonbun:04d}", "bubun": "0000", "buildYear": str(year), "areas": areas,
                "roadNm": f"{_stem(dong.leaf)}{rng.choice(['로', '대로', '길'])}" + (f"{rng.randint(1, 40)}길" if rng.random() < 0.5 else ""),
                "roadNmBonbun": f"{rng.randint(1, 500):05d}", "roadNmCd": str(road_base + i * 7),
                "households": rng.randint(80, 3000), "price_factor": rng.uniform(0.6, 1.6),
                "dongs": rng.randint(1, 30),
            })
        return out

    def _price_per_m2(self, d: District) -> float:
        """만원 per m² (Gangnam ≈ 2,300; a rural 군 ≈ 250)."""
        rng = self.rng("ppm2", d.lawd_cd)
        top = {"11650": 2600, "11680": 2500, "11710": 1900, "11170": 1800, "11440": 1500, "11200": 1400}
        if d.lawd_cd in top:
            return top[d.lawd_cd] * rng.uniform(0.95, 1.05)
        sido = d.sido.sido_cd
        base = {"11": 1100, "41": 600, "28": 450, "26": 450, "27": 400, "30": 400, "29": 350, "31": 350, "36": 450}.get(sido, 250)
        return base * rng.uniform(0.6, 1.4)

    def _deal_count(self, d: District, ym: str, kind: str) -> int:
        rng = self.rng("deals", kind, d.lawd_cd, ym)
        month = int(ym[4:])
        season = 1.0 + 0.25 * (month in (3, 4, 5, 10)) - 0.2 * (month in (1, 8, 12))
        trend = 1.0 + 0.15 * (ym >= "202503")
        factor = 1.0 if kind == "trade" else 1.4
        return max(0, int(250 * d.activity * season * trend * factor * rng.uniform(0.8, 1.2)))

    def apt_trades(self, lawd_cd: str, ym: str) -> list[dict[str, str]]:
        """RTMS apartment trades of one district-month (empty outside ``TRADE_MONTHS``)."""
        return self.cached(("apt_trades", lawd_cd, ym), lambda: self._build_deals(lawd_cd, ym, "trade"))

    def apt_rents(self, lawd_cd: str, ym: str) -> list[dict[str, str]]:
        """RTMS apartment rents (전월세) of one district-month."""
        return self.cached(("apt_rents", lawd_cd, ym), lambda: self._build_deals(lawd_cd, ym, "rent"))

    def _build_deals(self, lawd_cd: str, ym: str, kind: str) -> list[dict[str, str]]:
        d = self.district(lawd_cd)
        if d is None or ym not in TRADE_MONTHS:
            return []
        apts = self.apartments(lawd_cd)
        if not apts:
            return []
        rng = self.rng(kind, lawd_cd, ym)
        n = self._deal_count(d, ym, kind)
        year, month = int(ym[:4]), int(ym[4:])
        last = (date(year + (month == 12), month % 12 + 1, 1) - timedelta(1)).day
        ppm2 = self._price_per_m2(d) * (1 + 0.004 * (TRADE_MONTHS.index(ym)))
        short = f"{self.sido_short(d.sido.sido_cd)} {d.name.split(' ')[0]}"
        weights = [a["households"] for a in apts]
        out = []
        for _ in range(n):
            a = rng.choices(apts, weights)[0]
            area = rng.choice(a["areas"])
            age = max(0, year - int(a["buildYear"]))
            price = ppm2 * area * a["price_factor"] * (1.25 if age > 35 else 1.0 - 0.006 * min(age, 30))
            price *= rng.uniform(0.9, 1.1)
            floor = rng.randint(1, 25) if rng.random() > 0.02 else -1
            day = rng.randint(1, last)
            rec: dict[str, str] = {
                "aptDong": str(rng.randint(101, 100 + a["dongs"])) if rng.random() < 0.4 else " ",
                "aptNm": a["aptNm"], "aptSeq": a["aptSeq"], "bonbun": a["bonbun"], "bubun": a["bubun"],
                "buildYear": a["buildYear"],
            }
            if kind == "trade":
                cancelled = rng.random() < 0.03
                amount = max(3000, int(round(price / 50.0)) * 50)
                reg = date(year, month, day) + timedelta(rng.randint(5, 40))
                rec.update({
                    "buyerGbn": rng.choice(["개인", "개인", "개인", "법인", "기타"]),
                    "cdealDay": f"{(month % 12) + 1:02d}.{rng.randint(1, 28):02d}" if cancelled else " ",
                    "cdealType": "O" if cancelled else " ",
                    "dealAmount": comma(amount),
                    "dealDay": str(day), "dealMonth": str(month), "dealYear": str(year),
                    "dealingGbn": "중개거래" if rng.random() < 0.88 else "직거래",
                    "estateAgentSggNm": short if rng.random() < 0.88 else " ",
                    "excluUseAr": f"{area:g}", "floor": str(floor), "jibun": a["jibun"],
                    "landCd": "1", "landLeaseholdGbn": "N",
                    "rgstDate": reg.strftime("%y.%m.%d") if reg <= TODAY and rng.random() < 0.7 else " ",
                    "roadNm": a["roadNm"], "roadNmBonbun": a["roadNmBonbun"], "roadNmBubun": "00000",
                    "roadNmCd": a["roadNmCd"], "roadNmSeq": "01", "roadNmSggCd": lawd_cd, "roadNmbCd": "0",
                    "sggCd": lawd_cd, "slerGbn": rng.choice(["개인", "개인", "개인", "법인"]),
                    "umdCd": a["umdCd"], "umdNm": a["umdNm"],
                })
            else:
                monthly = rng.random() < 0.45
                deposit = int(price * (0.25 if monthly else 0.6) * rng.uniform(0.8, 1.2) / 100) * 100
                rent = int(price * 0.0025 * rng.uniform(0.6, 1.4)) if monthly else 0
                renewed = rng.random() < 0.3
                start = date(year, month, 1)
                rec.update({
                    "contractTerm": f"{start.strftime('%y.%m')}~{(start.year + 2) % 100:02d}.{start.month:02d}",
                    "contractType": "갱신" if renewed else ("신규" if rng.random() < 0.8 else " "),
                    "dealDay": str(day), "dealMonth": str(month), "dealYear": str(year),
                    "deposit": comma(max(500, deposit)), "excluUseAr": f"{area:g}", "floor": str(max(1, floor)),
                    "jibun": a["jibun"], "monthlyRent": str(rent),
                    "preDeposit": comma(int(deposit * 0.95)) if renewed else " ",
                    "preMonthlyRent": str(int(rent * 0.95)) if renewed else " ",
                    "roadnm": a["roadNm"], "roadnmbonbun": a["roadNmBonbun"], "roadnmbubun": "00000",
                    "roadnmcd": a["roadNmCd"], "roadnmseq": "01", "roadnmsggcd": lawd_cd, "roadnmbcd": "0",
                    "sggCd": lawd_cd, "umdNm": a["umdNm"], "useRRRight": "사용" if renewed and rng.random() < 0.5 else " ",
                })
            out.append(rec)
        out.sort(key=lambda r: (r["umdNm"], r["aptNm"], int(r["dealDay"])))
        return out
