"""The sandbox world: a seeded, deterministic model of linked Korean public entities.

``World(seed)`` is cheap to create; every collection is generated on first use from its own
``random.Random`` (seeded with the world seed and the collection's name and key, never the
global generator) and cached, so the same seed gives the same data in any process and in any
call order, and a different seed gives different data. The legal-dong table is real
(``data/regions.txt``, see ``data/SOURCES.txt``); everything else is synthetic but shaped
like the real APIs and linked by real-format codes.

The world's "today" is ``TODAY`` (2025-12-31): nothing reads the wall clock.

``World(seed, edition=…)``: edition 2 is the world ``kopa@v0001``/``kopa@v0002`` were
recorded from; edition 3 (``kopa@v0003``) adds the upcoming 제9회 전국동시지방선거
(20260603) with preliminary candidates registered (``preliminary_candidates``), bus cities of
thousands of stops (대전 25: 3,120, 부산 21: 5,480, 천안 34010: 1,840, 세종 12: 1,210), per
company and year financial mixes (operating margins −16 … +36 %), varied law article titles
and precedent citations (``precedent_citations``), one school per SCHUL_NM and school
휴업일 (``closed_days``: schedule rows marked 휴업일, no meals or timetable then). Edition 4
(``kopa@v0004``/``kopa@v0005``) is edition 3 with the generated NEIS services' rows carrying the
hub's common fields (ATPT_OFCDC_SC_CODE, ATPT_OFCDC_SC_NM, SD_SCHUL_CODE, SCHUL_NM, LOAD_DTM).
Edition 5 (``kopa@v0006``'s generated tier) is edition 4 with the generated endpoints' fuller
published fields, each filled with a value of its field's shape; the curated endpoints answer as
in edition 4. Edition 6 (``kopa@v0007``) is edition 5 with FSC's company outline
(``getCorpOutline_V2``) joined to OpenDART's companies (``corp_outlines``: one row per company,
``corpNm`` its name, ``fssCorpUnqNo`` its ``corp_code``) and the entities of the endpoints it
adds (``city_air``, ``bike_stations``, ``subway_positions``, ``ecos_meta``, ``apt_complexes``,
``semas_stores``; ``_joined.py``). Edition 7 (``kopa@v0008``) is edition 6 where the 20 real
listed companies of ``pools.yaml`` appear by name and code only: ``company(corp_code)`` keeps
their identity (``IDENTITY_FIELDS``) and empty strings for the rest, ``filings``, ``accounts``,
holders, prices and outlines hold nothing for them, ``listed_companies()`` and
``invented_companies()`` are the invented ones (``corp_code`` 09xxxxxx, named from two word
stems and a kind), and a generated endpoint asked about a real company answers no data.
Edition 8 (``kopa@v0009``, ``NATURAL_NAMES_EDITION``) is edition 7 with invented names that read
like real Korean ones: schools after a place or a word ("을지초등학교", "한빛고등학교"; no 구 glued
on), invented companies of one stem and a kind ("세림화학") or a coined word, statutes with real
titles or well-formed invented ones, bills titled "… 일부개정법률안" and "… 특별법안"; every other
value is edition 7's.

World API (what the per-platform generators in ``simulator.sandbox.gen`` read)
------------------------------------------------------------------------------

Records are plain dicts keyed by the native field names of the platform that serves them
(generators project them onto the catalog's fields); values are strings unless noted.

Regions (MOIS 법정동코드, real)
    ``regions()`` → every code in force (20,570 :class:`Region`: 시도, 시군구, 읍면동, 리);
    ``region(code)``; ``sidos()`` (17); ``sido_short(sido_cd)`` → "서울";
    ``districts()`` → the ~250 :class:`District` that take a ``LAWD_CD`` (자치구, 일반구, 시, 군 —
    not a city that has 일반구); ``district(lawd_cd)``; ``district_by_name(sido_cd, name)``.
Real estate (MOLIT RTMS)
    ``apartments(lawd_cd)``; ``apt_trades(lawd_cd, "YYYYMM")`` and ``apt_rents(...)`` →
    RTMS-named dicts (``dealAmount`` "164,000" 만원, blanks " "), hundreds per busy
    district-month, for ``TRADE_MONTHS`` (2024-01 … 2025-12) only.
Finance (OpenDART, FSC)
    ``companies()`` (6,000; 2,400 listed) / ``company(corp_code)`` / ``company_by_stock(code)``
    → dicts with ``corp_code`` (8 digits), ``stock_code`` (6 digits or " "), ``corp_cls``,
    ``isin``, … ; ``filings(corp_code)`` / ``all_filings()`` (list.json rows,
    ``rcept_no`` = YYYYMMDD + 6 digits); ``accounts(corp_code, year, reprt_code)``
    (fnlttSinglAcnt rows); ``major_shareholders(corp_code)``; ``executive_holdings(corp_code)``;
    ``business_days(begin, end)``; ``stock_prices(basDt)`` (every listed company that day,
    FSC-named string fields) and ``stock_history(srtn_cd)``; ``PRICE_DAYS``.
Politics (NEC, National Assembly)
    ``elections()`` (선거코드 rows); ``constituencies(sgId, sgTypecode)`` (선거구 rows, each
    with ``lawd_cds``); ``candidates(sgId, sgTypecode)``; ``winners(...)``; ``turnout(...)``;
    ``members()`` (the 300 members of the 22nd Assembly: NEC winners of 20240410 type 2 and
    7 with ``MONA_CD``, ``ORIG_NM`` = "서울 강남구갑", ``huboid``); ``member(mona_cd)``;
    ``bills()`` (AGE 22, ``BILL_ID``, ``BILL_NO``, ``PROPOSER``, ``RST_MONA_CD``);
    ``votes(bill_id)`` (~275 rows per voted bill; ``vote_choices`` for cheap tallies); ``committees()``;
    ``committee_members(dept_cd | None)``; ``election_places(sgId)`` (the 구시군 as of an
    election's date) and ``sido_name_on(sido_cd, sgId)``. From edition 8 every result carries
    an invented party (``invented_parties(sgId)`` in ``_politics``), places are named as of the
    vote date, a 재·보궐선거 fills a few seats and bills take numbers from 2290001 (from edition
    9: 2260001, ``BILL_NUMBERS_EDITION``) (``docs/catalog.md``, "Elections and the 22nd Assembly").
Education (NEIS)
    ``offices()``; ``schools()`` (~11,000, names repeat across regions) / ``school(code)``;
    ``meals(school_code, "YYYYMM")``; ``schedule(school_code, year)``;
    ``classes(school_code, year)``; ``timetable(school_code, "YYYYMMDD")`` (high schools).
Traffic (TAGO, Seoul)
    ``bus_cities()`` (real TAGO city list); ``bus_stations(citycode)``;
    ``bus_routes(citycode)``; ``route_stops(citycode, routeid)``;
    ``station_routes(citycode, nodeid)``; ``bus_arrivals(citycode, nodeid)``;
    ``subway_stations()`` (real Seoul lines/names); ``subway_arrivals(statnNm)``;
    ``public_wifi()`` (25,000+ rows).
Law (law.go.kr)
    ``laws()`` (1,500+), ``precedents()`` (3,000+), ``ordinances()`` (per local
    government, names reference regions); each row carries its detail text.
Extras
    ``addresses(lawd_cd)`` (juso rows, ``admCd`` = legal-dong code); ``population(code, ym)``
    (a region and its children, 2022-10 … 2025-12; a 행정동 code maps onto its district);
    ``ecos_tables()``, ``ecos_items(stat_code)``, ``ecos_series(stat_code, item_code, cycle)``.

Helpers: ``rng(*parts)`` (a fresh seeded ``random.Random``) and ``cached(key, build)``
(whole-world collections are kept; per-key detail collections live in a bounded LRU and are
rebuilt identically after eviction, so a long recording does not grow memory without bound).

Layout: ``World`` is one mixin per part, each in its own module of this package — ``_core``
(the seed, ``rng``, ``cached``, word pools), ``_dates`` (the calendar), ``_names``,
``_regions`` (legal-dong codes, districts, population), ``_molit``, ``_finance`` (OpenDART,
FSC, ECOS), ``_politics`` (NEC, Assembly), ``_education`` (NEIS), ``_transport`` (TAGO,
Seoul), ``_law`` and ``_address`` (juso). Every part builds on ``RegionsMixin``.
"""

from __future__ import annotations

from ._address import AddressMixin
from ._core import DATA, EDITIONS, LATEST_EDITION, NATURAL_NAMES_EDITION, pools
from ._dates import _HOLIDAYS as _HOLIDAYS
from ._dates import PRICE_DAYS, TODAY, TRADE_MONTHS, is_business_day
from ._education import EducationMixin
from ._finance import FinanceMixin, isin
from ._finance import _tick as _tick
from ._finance import _unit as _unit
from ._joined import JoinedMixin
from ._law import LawMixin
from ._molit import RealEstateMixin
from ._names import comma, hanja_name, person_name, roman_name, romanize
from ._politics import PoliticsMixin
from ._regions import District, Region
from ._transport import TransportMixin

__all__ = [
    # The areas ``World`` is composed of (one mixin per area, in ``_<area>.py``).
    "AddressMixin",
    "EducationMixin",
    "FinanceMixin",
    "JoinedMixin",
    "LawMixin",
    "PoliticsMixin",
    "RealEstateMixin",
    "TransportMixin",
    "DATA",
    "EDITIONS",
    "LATEST_EDITION",
    "NATURAL_NAMES_EDITION",
    "PRICE_DAYS",
    "TODAY",
    "TRADE_MONTHS",
    "District",
    "Region",
    "World",
    "comma",
    "hanja_name",
    "is_business_day",
    "isin",
    "person_name",
    "pools",
    "roman_name",
    "romanize",
]


class World(
    RealEstateMixin,
    FinanceMixin,
    PoliticsMixin,
    EducationMixin,
    TransportMixin,
    LawMixin,
    AddressMixin,
    JoinedMixin,
):
    """A deterministic model of linked entities; see the module docstring for the API.

    >>> w = World(seed=7)
    >>> w.region("1168000000").name
    '서울특별시 강남구'
    >>> w.district("11680").lawd_cd
    '11680'
    """
