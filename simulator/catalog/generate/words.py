"""English wording for generated entries, made from the identifiers themselves.

Korean public APIs name things with romanised or abbreviated English (``getVilageFcst``,
``BusSttnInfoInqireService``, ``LAWD_CD``). Splitting the identifier and expanding the
abbreviations every portal shares gives a plain English description of our own, instead
of copying anyone's sentences.
"""

from __future__ import annotations

import re

__all__ = ["english_words", "summary_en"]

#: Abbreviations common across data.go.kr, OpenDART and NEIS identifiers.
_ABBREV = {
    "fcst": "forecast", "vilage": "village", "ultra": "ultra", "srt": "short", "ncst": "nowcast",
    "sttn": "station", "stn": "station", "inqire": "inquiry", "arvl": "arrival", "lc": "location",
    "info": "info", "svc": "service", "cd": "code", "nm": "name", "no": "number", "dt": "date",
    "de": "date", "ymd": "date", "ym": "year-month", "yy": "year", "mm": "month", "tm": "time",
    "cnt": "count", "amt": "amount", "addr": "address", "adres": "address", "lawd": "legal district",
    "rtms": "real transaction", "apt": "apartment", "rent": "rent", "trade": "trade", "bldg": "building",
    "bld": "building", "rgst": "register", "pms": "permit", "dsps": "disposal", "acqs": "acquisition",
    "sttus": "status", "bsns": "business", "reprt": "report", "corp": "company", "stock": "stock",
    "crtfc": "certification", "pblanc": "announcement", "bid": "bid", "cntrct": "contract",
    "scsbid": "successful bid", "thng": "goods", "servc": "service", "cnstwk": "construction",
    "frgcpt": "foreign", "ctpv": "province", "sgg": "district", "emd": "town", "sido": "province",
    "atpt": "provincial", "ofcdc": "education office", "schul": "school", "sd": "standard",
    "sc": "class", "ay": "academic year", "sem": "semester", "grade": "grade", "msr": "measurement",
    "ctprvn": "province", "rltm": "real-time", "mesure": "measurement", "dnsty": "concentration",
    "sgid": "election id", "sgtypecode": "election type code", "jd": "party", "huboid": "candidate id",
    "sbs": "subsidy", "lst": "list", "dtl": "detail", "totqy": "total quantity", "alot": "dividend",
    "matter": "matters", "fnltt": "financial statement", "acnt": "account", "singl": "single",
    "indx": "index", "cmpny": "company", "hyslr": "largest shareholder", "mrhl": "minority shareholders",
    "exctv": "executive", "emp": "employee", "drctr": "director", "adt": "audit", "mendng": "remuneration",
    "decsn": "decision", "is": "issue", "isu": "issue", "ocr": "occurrence", "rs": "registration",
    "estk": "equity", "bd": "bond", "stkdp": "depositary receipts", "mg": "merger", "extr": "exchange",
    "dv": "division", "cmp": "company", "tsstk": "treasury stock", "aq": "acquisition", "dp": "disposal",
    "bnk": "bank", "mngt": "management", "lwst": "lawsuit", "ov": "overseas", "dlst": "delisting",
    "elestock": "executive stock", "majorstock": "major stock", "otr": "other", "cpr": "corporation",
    "invstmnt": "investment", "wether": "weather", "wthr": "weather", "hist": "history",
    "pnu": "parcel number", "rn": "road name", "mgm": "management", "mtn": "maintenance",
    "chk": "check", "flight": "flight", "nvg": "navigation", "dmstc": "domestic", "exp": "express",
    "bus": "bus", "suburbs": "intercity", "instt": "institution", "dminstt": "demand institution",
    "prdct": "product", "clsfc": "classification", "lrcls": "large class", "mdcls": "middle class",
    "lcrt": "lunar calendar", "spcde": "special day", "rest": "holiday", "anniversary": "anniversary",
    "rise": "rise", "set": "set", "sun": "sun", "moon": "moon", "area": "area", "lnd": "land",
    "hs": "housing", "hsmp": "housing complex", "ls": "lease", "mv": "move", "pop": "population",
    "ppltn": "population", "hh": "household", "stdg": "legal dong", "admm": "administrative",
    "regin": "region", "stan": "standard", "nrg": "commercial building", "offi": "officetel",
    "rh": "row house", "sh": "detached house", "indu": "factory and warehouse", "silv": "presale right",
}


def _split(identifier: str) -> list[str]:
    s = re.sub(r"[^0-9A-Za-z]+", " ", identifier)
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", s)
    s = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", " ", s)
    return [w.lower() for w in s.split() if w]


def english_words(identifier: str) -> str:
    """The identifier as words, with common abbreviations expanded.

    >>> english_words("getVilageFcst")
    'get village forecast'
    >>> english_words("LAWD_CD")
    'legal district code'
    """
    return " ".join(_ABBREV.get(w, w) for w in _split(identifier))


def summary_en(operation: str, service: str) -> str:
    """A one-line English summary of an operation of a service.

    >>> summary_en("getRTMSDataSvcAptTrade", "RTMSDataSvcAptTrade")
    'Get real transaction data service apartment trade (RTMSDataSvcAptTrade)'
    """
    words = english_words(operation) or operation
    return f"{words[:1].upper()}{words[1:]} ({service})"
