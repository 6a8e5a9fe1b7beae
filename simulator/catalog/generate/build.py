"""Turn extracted facts into catalog platforms (the generated tier).

Pure and deterministic: the same facts files give the same platforms, byte for byte.
Each generated endpoint carries ``fidelity: partial`` and a ``provenance`` mapping that says
which source gave its URL, params and fields and what was assumed (paging limits, envelope
options). Wire details that facts do not state (the dialect, the key param, envelope
options) are taken from the curated platform of the same family, so a generated endpoint
renders like its curated neighbours.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Iterable

import yaml

from ..files import DATA_DIR, SAFE_LOADER
from .extract import read_facts
from .words import english_words, summary_en

__all__ = [
    "AGENCIES",
    "PAPER_AGENCIES",
    "BuildReport",
    "build_platforms",
]

#: data.go.kr agency code → (platform suffix, Korean name, English name, domain).
AGENCIES: dict[str, tuple[str, str, str, str]] = {
    "9760000": ("nec", "중앙선거관리위원회", "National Election Commission", "politics"),
    "1160100": ("fsc", "금융위원회", "Financial Services Commission", "finance"),
    "1613000": ("molit", "국토교통부", "Ministry of Land, Infrastructure and Transport", "district"),
    "1611000": ("molit", "국토교통부", "Ministry of Land, Infrastructure and Transport", "district"),
    "1741000": ("mois", "행정안전부", "Ministry of the Interior and Safety", "district"),
    "1360000": ("kma", "기상청", "Korea Meteorological Administration", "district"),
    "B552584": ("airkorea", "한국환경공단 에어코리아", "Korea Environment Corporation (AirKorea)", "district"),
    "1230000": ("pps", "조달청", "Public Procurement Service", "finance"),
    "B090041": ("kasi", "한국천문연구원", "Korea Astronomy and Space Science Institute", "district"),
}
#: The agencies of the paper's six domains (the default generated tier).
PAPER_AGENCIES = tuple(AGENCIES)
#: MOLIT services that belong to TAGO (국가대중교통정보센터), the traffic domain.
TAGO_SERVICES = frozenset({
    "ArvlInfoInqireService", "BusLcInfoInqireService", "BusRouteInfoInqireService",
    "BusSttnInfoInqireService", "DmstcFlightNvgInfo", "DmstcShipNvgInfo", "ExpBusArrInfo",
    "ExpBusInfo", "SuburbsBusInfo", "SubwayInfo", "TrainInfo",
})
#: The wire names data.go.kr services use for the response-format switch, and their values.
_FORMAT_PARAMS = {
    "_type": {"json": "json", "xml": "xml"},
    "type": {"json": "json", "xml": "xml"},
    "resultType": {"json": "json", "xml": "xml"},
    "returnType": {"json": "json", "xml": "xml"},
    "dataType": {"JSON": "json", "XML": "xml"},
}
#: A request parameter name as the portals spell them (``cond[BPLC_NM::LIKE]`` included).
_WIRE_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_\[\]:.\-]*")
#: A name usable as a record field (and an XML element).
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: The portal's ``cond[FIELD::OP]`` filter params (they name a record field). Generated
#: endpoints declare no query semantics: nothing measured says a full collection filtered
#: equals the filtered answer, so filters stay part of the collection key.
_COND_RE = re.compile(r"cond\[(\w+)::(\w+)\]")
#: Field-name endings that mark an entity code (EDGE hint, and the sandbox draws them).
_CODE_RE = re.compile(r"(?i)(cd|code|_id|Id|No|num|sn)$")


@dataclass
class BuildReport:
    """What a build made and what it left out (curated endpoints always win)."""

    generated: dict[str, int] = field(default_factory=dict)
    #: (generated id, curated id) pairs dropped because a curated endpoint serves that URL.
    shadowed: list[tuple[str, str]] = field(default_factory=list)


def _curated_headers() -> dict[str, dict[str, Any]]:
    out = {}
    for f in sorted(DATA_DIR.glob("*.yaml")):
        raw = yaml.load(f.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
        out[raw["id"]] = raw
    return out


def _snake(name: str) -> str:
    s = re.sub(r"[^0-9A-Za-z]+", "_", name)
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", s)
    return re.sub(r"_+", "_", s).strip("_").lower()


def _ident(prefix: str, *parts: str) -> str:
    base = "_".join([prefix, *(p for p in (_snake(x) for x in parts) if p)])
    if len(base) <= 64:
        return base
    digest = hashlib.sha1(base.encode()).hexdigest()[:6]
    return base[:57].rstrip("_") + "_" + digest


def _key(host: str, path: str, match: dict[str, str]) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    return host.lower(), path, tuple(sorted((k, v.lower()) for k, v in match.items()))


def _field(name: str, ftype: str, label: str, source: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if ftype != "string":
        out["type"] = ftype
    if label:
        out["description"] = label
    if _CODE_RE.search(name):
        out["code"] = True
    if source:
        out["source"] = source
    return out


#: The world edition whose sandbox serves the fields added since ``kopa@v0005`` (editions
#: 2–4 keep answering with the fields each version was recorded with, in their order).
FIELDS_EDITION = 5
#: ``source`` of a field no publication names (a fallback the generator assumed).
ASSUMED = "assumed"


def _extra_fields() -> dict[str, tuple[str, list[list[str]]]]:
    """Operation key → (source, ``[name, type, label]``) from ``facts/fields_extra.json``
    (fields published beside the main source: real bodies and ``shared/apis.md``) and
    ``facts/fields_guides.json`` (the response items of the portal's guides) and
    ``facts/kpubdata_fields.json`` (kpubdata's catalogue) and ``facts/measured_fields.json``
    (kloud80/datagokr-mcp's measured schemas)."""
    out = {}
    # the portal guides' response items (facts/fields_guides.json, scripts/extract_guide_fields.py)
    for name in ("measured_fields", "kpubdata_fields", "fields_guides", "fields_extra"):  # later files win
        for op in read_facts(name)["operations"]:
            out[op["url"]] = (op["source"], op["fields"])
    return out


#: The world edition that serves the fields of ``facts/fields_edition6.json`` (``kopa@v0007``).
LATE_EDITION = 6


def _edition6_fields() -> dict[str, tuple[str, list[list[str]]]]:
    """Operation key → (source, ``[name, type, label]``) of ``facts/fields_edition6.json``: fields
    published for an operation that world edition 6 serves (option ``late_fields``), so the
    versions recorded from editions 2–5 keep re-recording byte for byte."""
    return {op["url"]: (op["source"], op["fields"]) for op in read_facts("fields_edition6")["operations"]}


def _merge_extra(fields: list[dict[str, Any]], key: str, extra: dict[str, tuple[str, list[list[str]]]],
                 ) -> tuple[list[dict[str, Any]], str]:
    """``fields`` with the extra source's fields of operation ``key`` (types from the extra
    source where the main one only said string); the provenance words for what was added."""
    if key not in extra:
        return fields, ""
    source, more = extra[key]
    have = {f["name"]: f for f in fields}
    added = 0
    out = list(fields)
    for name, ftype, label in more:
        if name in have:
            f = have[name]
            if ftype != "string" and "type" not in f:
                f["type"] = ftype
            continue
        out.append(_field(name, ftype, label, source))
        added += 1
    return out, f"; {added} more from {source}" if added else ""


def _settle_editions(plats: list[dict[str, Any]]) -> None:
    """Keep every shipped version replaying and re-recordable: an endpoint whose fields differ
    from the ones ``kopa@v0005`` was recorded with (``facts/edition4_fields.json.gz``) gets
    option ``early_fields`` (what world editions before :data:`FIELDS_EDITION` serve, in
    their order); a field of that list the new facts no longer give stays declared (the
    declared fields are a superset of every version's) under option ``retired_fields``
    (not served from edition 5 on)."""
    early_of: dict[str, list[str]] = read_facts("edition4_fields")["endpoints"]
    for plat in plats:
        for ep in plat["endpoints"]:
            early = early_of.get(ep["id"])
            names = [f["name"] for f in ep["fields"]]
            if early is None or early == names:
                continue
            retired = [n for n in early if n not in names]
            for n in retired:
                label = dict(_DART_LEADING).get(n, n if re.search("[가-힣]", n) else "")
                ep["fields"].append(_field(n, "string", label, ASSUMED))
            options = dict(ep.get("options") or {})
            options["early_fields"] = list(early)
            if retired:
                options["retired_fields"] = retired
                ep["provenance"]["fields"] += (f"; {len(retired)} assumed field(s) kopa@v0005 and earlier hold kept "
                                               f"declared, not served from world edition {FIELDS_EDITION}: {', '.join(retired)}")
            ep["options"] = options


#: The world edition whose sandbox serves the fields measured on live answers
#: (``facts/datagokr_mcp_fields.json``, kloud80/datagokr-mcp): an endpoint gains them as
#: option ``late_fields`` ``{name: 6}``, and the fields the generator had assumed for it that
#: the measured schema lacks go as option ``dropped_fields`` ``{name: 6}`` (served before
#: edition 6 only). Editions 2–5 serve what they served before, so every shipped version
#: replays and re-records byte for byte.
MEASURED_EDITION = 6


def _add_measured(plats: list[dict[str, Any]]) -> None:
    """Add the measured response fields (``facts/datagokr_mcp_fields.json``) to the generated
    data.go.kr endpoints whose URL they were measured on, from :data:`MEASURED_EDITION` on."""
    measured = {op["url"]: op for op in read_facts("datagokr_mcp_fields")["operations"]}
    if not measured:
        return
    for plat in plats:
        if plat.get("host") != "apis.data.go.kr":
            continue
        for ep in plat["endpoints"]:
            entry = measured.get("https://apis.data.go.kr" + ep["path"])
            if entry is None:
                continue
            _merge_late_fields(
                ep, [(name, ftype, label) for name, ftype, label, _kind in entry["fields"]], entry["source"],
                MEASURED_EDITION, ok=_IDENT_RE.fullmatch, drop_known=False,
                whence=f"measured on live answers (dataset {entry['dataset']})",
                schema="the measured answer", small=f"in the answer measured on live answers (dataset {entry['dataset']})")


def _merge_late_fields(ep: dict[str, Any], rows: list[tuple[str, str, str]], source: str, edition: int, *,
                       ok: Callable[[str], Any], drop_known: bool, whence: str, schema: str, small: str) -> None:
    """Add the record fields ``rows`` (name, type, label) of one source to a generated endpoint,
    served from world edition ``edition`` on (option ``late_fields``), and serve no more from that
    edition the fields the generator had assumed that the source lacks (option ``dropped_fields``);
    its provenance says so, and re-reads whether it is thin. ``drop_known``: an edition may
    already drop some fields (an earlier source's ``dropped_fields``), which stay as they are."""
    have = {f["name"] for f in ep["fields"]}
    names = {row[0] for row in rows}
    added = []
    for name, ftype, label in rows:
        if name in have or name in _ENVELOPE or not ok(name):
            continue
        ep["fields"].append(_field(name, ftype, label, source))
        have.add(name)
        added.append(name)
    if not added:
        return
    options = dict(ep.get("options") or {})
    retired = set(options.get("retired_fields") or ())
    gone = retired | set(options.get("dropped_fields") or {}) if drop_known else retired
    dropped = [f["name"] for f in ep["fields"] if f.get("source") == ASSUMED and f["name"] not in names
               and f["name"] not in gone]
    options["late_fields"] = {**(options.get("late_fields") or {}), **{n: edition for n in added}}
    if dropped:
        options["dropped_fields"] = {**((options.get("dropped_fields") or {}) if drop_known else {}),
                                     **{n: edition for n in dropped}}
    ep["options"] = options
    prov = ep["provenance"]
    prov["fields"] += f"; {len(added)} more {whence}, served from world edition {edition}"
    if dropped:
        prov["fields"] += (f"; assumed {', '.join(dropped)} not served from world edition "
                           f"{edition} ({schema} has no such field)")
    served = [f for f in ep["fields"] if f["name"] not in gone and f["name"] not in dropped]
    if "thin" in prov:
        prov[f"thin_before_edition_{edition}"] = prov.pop("thin")
        if len(served) <= 3:  # the source's answer itself is small
            prov["thin"] = f"only {len(served)} record field(s) {small}; the real API may answer only these"


#: The world edition whose sandbox serves the fields of ``facts/fields_edition7.json``
#: (published response schemas read since ``kopa@v0007``: the portal's own swagger documents
#: as kept by a public mirror, a client's parsed law.go.kr elements, …; each operation names
#: its source): an endpoint gains them as option ``late_fields`` ``{name: 7}``, and the fields
#: the generator had assumed (a data.go.kr filter echo or ``seq``, law.go.kr's generic
#: ``일련번호``/``명칭``/``일자``) that the published schema lacks go as option
#: ``dropped_fields`` ``{name: 7}``. Editions 2–6 serve what they
#: served before, so every shipped version replays and re-records byte for byte.
PUBLISHED_EDITION = 7


#: The world edition whose sandbox serves the fields of ``facts/fields_edition8.json``
#: (published response-field lists read since ``kopa@v0008``: an MCP server's field lists
#: collected from live answers, client libraries' typed records, …; each operation names its
#: source), through the same merge as :data:`PUBLISHED_EDITION` (options ``late_fields`` and
#: ``dropped_fields`` ``{name: 8}``). Editions 2–7 serve what they served before.
PUBLISHED8_EDITION = 8

#: The world edition whose sandbox serves the fields of ``facts/fields_edition9.json``
#: (published response-field lists read since ``kopa@v0009``, written by
#: ``scripts/extract_fields9.py``; each operation names its source), through the same merge
#: (options ``late_fields`` and ``dropped_fields`` ``{name: 9}``). Editions 2–8 serve what they
#: served before.
PUBLISHED9_EDITION = 9

#: Facts file → the world edition from which its fields are served.
_PUBLISHED_FACTS = (("fields_edition7", PUBLISHED_EDITION), ("fields_edition8", PUBLISHED8_EDITION),
                    ("fields_edition9", PUBLISHED9_EDITION))


def _add_published(plats: list[dict[str, Any]]) -> None:
    """Add the fields of ``facts/fields_edition7.json`` (from :data:`PUBLISHED_EDITION` on),
    ``facts/fields_edition8.json`` (from :data:`PUBLISHED8_EDITION` on) and
    ``facts/fields_edition9.json`` (from :data:`PUBLISHED9_EDITION` on) to the generated
    endpoints they were published for (a data.go.kr operation by URL, a law.go.kr target by
    service and target)."""
    for name, edition in _PUBLISHED_FACTS:
        _add_published_from(plats, read_facts(name)["operations"], edition)


def _add_published_from(plats: list[dict[str, Any]], ops: list[dict[str, Any]], edition: int) -> None:
    by_url = {op["url"]: op for op in ops if "url" in op}
    by_target = {(op["service"], op["target"]): op for op in ops if "target" in op}
    if not ops:
        return
    for plat in plats:
        datagokr = plat.get("host") == "apis.data.go.kr"
        for ep in plat["endpoints"]:
            if datagokr:
                entry = by_url.get("https://apis.data.go.kr" + ep["path"])
            elif plat["id"] == "gen_lawgokr":
                service = ep["path"].rsplit("/", 1)[-1].removesuffix(".do")
                entry = by_target.get((service, (ep.get("match") or {}).get("target", "")))
            else:
                entry = None
            if entry is None:
                continue
            ok = _IDENT_RE.fullmatch if datagokr else partial(re.fullmatch, r"\w+")  # law.go.kr: Korean
            _merge_late_fields(
                ep, [tuple(row) for row in entry["fields"]], entry["source"], edition, ok=ok,
                drop_known=True, whence=f"from {entry['source']}", schema="the published schema",
                small=f"published for it ({entry['source']})")
            if entry.get("complete"):
                _small_by_publication(ep, entry)


def _small_by_publication(ep: dict[str, Any], entry: dict[str, Any]) -> None:
    """An endpoint whose source shows its whole field table (``"complete": true``) and serves
    three or fewer fields is thin because the real API answers only these: its provenance's
    ``thin`` says so (no field changes, so no world edition serves other bytes)."""
    prov = ep["provenance"]
    names = {row[0] for row in entry["fields"]}
    fields = [f["name"] for f in ep["fields"]]
    if "thin" not in prov or len(fields) > 3 or not set(fields) <= names:
        return
    prov["thin"] = (f"only {len(fields)} record field(s) published for it ({entry['source']}, its whole "
                    "table); the real API may answer only these")


def _add_head_fields(plats: list[dict[str, Any]]) -> None:
    """A record field that is a member of the head a later family serves (the 2021 MOIS
    행정안전통계연보 pages list ``type`` 수신 문서양식 among their rows; from the family's edition
    the head/row envelope carries it in ``head``) is not served in the records from that edition
    on (option ``dropped_fields``); editions before it serve what they served."""
    from ..datagokr_families import family_for

    whole = {op["url"] for op in read_facts("fields_edition9")["operations"] if op.get("complete")}
    for plat in plats:
        if plat.get("host") != "apis.data.go.kr":
            continue
        for ep in plat["endpoints"]:
            fam = family_for("apis.data.go.kr", ep["path"])
            if fam is None or fam.from_edition is None or fam.options.get("envelope") != "head_row":
                continue
            names = [f["name"] for f in ep["fields"] if f["name"] == "type" and "문서양식" in f.get("description", "")]
            if not names:
                continue
            options = dict(ep.get("options") or {})
            options["dropped_fields"] = {**(options.get("dropped_fields") or {}), "type": fam.from_edition}
            ep["options"] = options
            prov = ep["provenance"]
            prov["fields"] += (f"; type (수신 문서양식) not served in the records from world edition "
                               f"{fam.from_edition}: family {fam.name}'s head carries it")
            served = [f for f in ep["fields"] if f["name"] != "type"
                      and f["name"] not in (options.get("retired_fields") or ())
                      and f["name"] not in (options.get("dropped_fields") or {})]
            if len(served) <= 3 and "thin" not in prov:  # (editions before serve more: not thin there)
                prov["thin"] = (f"only {len(served)} record field(s) from world edition {fam.from_edition}, where "
                                f"family {fam.name}'s head carries type: the published table's other rows are "
                                "the envelope's")
                if "https://apis.data.go.kr" + ep["path"] in whole:  # the page shows its whole table
                    prov["thin"] += "; the real API may answer only these"


#: The world edition whose sandbox serves the root and item element names published for a
#: law.go.kr search target (``facts/lawgokr_roots.json``): the target gains option
#: ``published_root`` ``{root, item, edition}``; editions before it keep serving the assumed
#: ``{target}Search`` / ``{target}`` the versions up to ``kopa@v0008`` were recorded with.
ROOTS_EDITION = 8


def _add_roots(plats: list[dict[str, Any]]) -> None:
    """Give each generated law.go.kr search target whose envelope names are published
    (``facts/lawgokr_roots.json``) option ``published_root``, served from
    :data:`ROOTS_EDITION` on; its provenance names the sources and what stays assumed."""
    facts = read_facts("lawgokr_roots")
    sources: dict[str, str] = facts["sources"]
    for plat in plats:
        if plat["id"] != "gen_lawgokr":
            continue
        for ep in plat["endpoints"]:
            target = (ep.get("match") or {}).get("target", "")
            opts = ep.get("options") or {}
            if not ep["path"].endswith("/lawSearch.do") or "root" not in opts:
                continue
            prov = ep["provenance"]
            old = f"envelope root {opts['root']} / item {opts['item']}"
            fact = facts["targets"].get(target)
            if fact is None:
                why = facts["unknown"].get(target, "no source")
                prov["assumed"] = prov["assumed"].replace(old, f"{old} (no published name: {why})")
                continue
            item = fact["item"] or opts["item"]
            opts["published_root"] = {"root": fact["root"], "item": item, "edition": ROOTS_EDITION}
            said = "; ".join(sources[s] for s in fact["sources"])
            prov["envelope"] = (f"root {fact['root']}" + (f" / item {item}" if fact["item"] else "")
                                + f" served from world edition {ROOTS_EDITION} ({said})")
            if fact.get("item_sources"):
                prov["envelope"] += f"; item {item} from {'; '.join(sources[s] for s in fact['item_sources'])}"
            if fact.get("note"):
                prov["envelope"] += f"; {fact['note']}"
            rest = f"{old} served before world edition {ROOTS_EDITION}"
            if not fact["item"]:
                rest += f"; item {item} (no published name)"
            prov["assumed"] = prov["assumed"].replace(old, rest)


#: Generated endpoints whose rows world edition 8 builds from published shapes, not from the
#: field list alone: provenance ``values`` says what (the sandbox's module names the sources).
_VALUES_FROM_EDITION_8 = {
    "kma_ultra_srt_ncst": "from world edition 8 one row per category (PTY REH RN1 T1H UUU VEC VVV WSD), each value "
                          "in its category's unit or code as the KMA guide gives them (simulator/sandbox/gen/kma_values.py); "
                          "the values are invented",
    "kma_ultra_srt_fcst": "from world edition 8 ten categories (LGT PTY RN1 SKY T1H REH UUU VVV VEC WSD) for the six "
                          "hours after the announcement, each value in its category's unit, code or class string "
                          "(simulator/sandbox/gen/kma_values.py); the values are invented",
    "dart_fnltt_singl_indx": "from world edition 8 one row per index of the class asked, names and order as real answers "
                             "list them, idx_cl_nm of the code; idx_code published for the first index only (M211100), "
                             "the rest assumed; values computed from the company's statements or drawn "
                             "(simulator/sandbox/gen/dart_indx.py)",
    "dart_fnltt_cmpny_indx": "from world edition 8 as fnlttSinglIndx, for each company of corp_code "
                             "(simulator/sandbox/gen/dart_indx.py)",
    "airkorea_msrstn_accto_rltm_mesure_dnsty": "from world edition 8 the named station's hourly rows over dataTerm, "
                                               "with the fields of the ver asked (AirKorea's ver notes; "
                                               "simulator/sandbox/gen/datagokr_misc.py); no station named: generic rows",
}


def _add_values(plats: list[dict[str, Any]]) -> None:
    for plat in plats:
        for ep in plat["endpoints"]:
            if ep["id"] in _VALUES_FROM_EDITION_8:
                ep["provenance"]["values"] = _VALUES_FROM_EDITION_8[ep["id"]]


#: Envelope members some sources list among the record fields.
_ENVELOPE = frozenset({"resultCode", "resultMsg", "numOfRows", "pageNo", "totalCount", "dataType",
                       "items", "item", "header", "body", "response", "status", "message"})


def _fields(facts: Iterable[tuple[str, str, str]], source: str = "") -> list[dict[str, Any]]:
    """Record fields from facts: envelope members and repeats dropped, names kept as published."""
    out, seen = [], set()
    for name, ftype, label in facts:
        if name in _ENVELOPE or name in seen or not _IDENT_RE.fullmatch(name):
            continue
        seen.add(name)
        out.append(_field(name, ftype, label, source))
    return out


def _param(name: str, ptype: str, required: bool, label: str, role: str = "filter") -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "role": role}
    if ptype != "string":
        out["type"] = ptype
    if required:
        out["required"] = True
    if label:
        out["description"] = label
    return out


def _platform(pid: str, base: dict[str, Any], name: str, name_ko: str, domain: str,
              endpoints: list[dict[str, Any]], *, keep_options: bool = True) -> dict[str, Any]:
    return {
        "format": 1,
        "id": pid,
        "name": name,
        "name_ko": name_ko,
        "domain": domain,
        "dialect": base["dialect"],
        "host": base["host"],
        "scheme": base.get("scheme", "https"),
        "key_env": base["key_env"],
        "docs": base.get("docs", ""),
        "options": dict(base.get("options", {})) if keep_options else {},
        "common_params": list(base.get("common_params", [])),
        "endpoints": endpoints,
    }


# ---- data.go.kr -------------------------------------------------------------------------
#: The sources read for a data.go.kr operation's response fields (named in a thin endpoint's
#: provenance: none of them names more fields for it).
_DATAGOKR_CHECKED = ("data-go-kr-client 4.16.0's method docs, kpubdata 0.10.0's catalogue, the FSC guides' "
                     "response items, shared/apis.md and the real bodies of shared/samples")

_DATAGOKR_COMMON = [
    {"name": "serviceKey", "role": "auth", "required": True, "aliases": ["ServiceKey"],
     "description": "공공데이터포털에서 발급받은 인증키 (Decoding 키)", "description_en": "data.go.kr service key (decoded form)"},
    {"name": "pageNo", "type": "integer", "role": "page", "default": "1", "pattern": "^[1-9][0-9]*$",
     "example": "1", "description": "페이지 번호", "description_en": "page number (1-based)"},
    {"name": "numOfRows", "type": "integer", "role": "page_size", "default": "10", "pattern": "^[1-9][0-9]*$",
     "example": "10", "description": "한 페이지 결과 수", "description_en": "rows per page"},
]


def _datagokr_endpoint(op: dict[str, Any], prefix: str, agency_ko: str, used: set[str],
                       source: str, extra: dict[str, tuple[str, list[list[str]]]] | None = None) -> dict[str, Any]:
    # a published URL may carry a byte-order mark (data.go.kr's GetCMStckLnbInfoService page:
    # ``/1160100/\ufeffservice/…``); the real path has none, and no client sends one
    url = op["url"].replace("\ufeff", "")
    path = url.split("apis.data.go.kr", 1)[1]
    parts = path.strip("/").split("/")
    service, operation = "/".join(parts[1:-1]), parts[-1]
    short = re.sub(r"^get", "", operation) or operation
    eid = _ident(prefix, short)
    if eid in used:
        eid = _ident(prefix, service, short)
    n = 2
    while eid in used:
        eid = _ident(prefix, service, short, str(n))
        n += 1
    used.add(eid)
    params: list[dict[str, Any]] = []
    options: dict[str, Any] = {}
    names = set()
    for name, ptype, required, label in op["params"]:
        if name in ("pageNo", "numOfRows", "serviceKey", "ServiceKey") or name in names:
            continue
        if not _WIRE_RE.fullmatch(name):
            continue
        names.add(name)
        if name in _FORMAT_PARAMS and not options:
            values = _FORMAT_PARAMS[name]
            options["format_values"] = dict(values)
            params.append({"name": name, "role": "format", "enum": sorted(values, key=lambda v: values[v]),
                           "default": next(k for k, v in values.items() if v == "xml"),
                           "description": label or "응답 형식", "description_en": "response format"})
            continue
        params.append(_param(name, ptype, bool(required), label))
    fields = _fields(((n, t, lab) for n, t, lab in op["fields"]), source)
    published = len(fields)
    fields_from = f"{len(fields)} published fields (the source lists at most 8 per operation)"
    fields, more = _merge_extra(fields, op["url"], extra or {})
    fields_from += more
    late = _edition6_fields()
    if op["url"] in late:  # fields world edition 6 serves (kopa@v0007); editions 2–5 answer without them
        before = {f["name"] for f in fields}
        fields, more6 = _merge_extra(fields, op["url"], late)
        fields_from += more6
        more = more or more6
        options_late = {f["name"]: LATE_EDITION for f in fields if f["name"] not in before}
    else:
        options_late = {}
    field_names = {f["name"] for f in fields}
    for p in params:
        if p["role"] != "filter":
            continue
        m = _COND_RE.fullmatch(p["name"])
        fname = m.group(1) if m else p["name"]
        if not _IDENT_RE.fullmatch(fname):
            continue  # a published name that is no record field (``cond[X::LT]]``)
        if fname not in field_names and (m or not fields):
            # The portal's cond[FIELD::OP] filters name record fields; an operation without
            # published fields echoes its filters (assumed, said in provenance).
            fields.append(_field(fname, "string", p.get("description", ""), ASSUMED))
            field_names.add(fname)
    if any(f.get("source") == ASSUMED for f in fields):
        fields_from += "; fields named by filter params added"
    if not fields:
        fields = [_field("seq", "integer", "순번", ASSUMED)]
        fields_from = "none published; a sequence field assumed"
    cut = len(op["fields"]) >= 8  # the client's cut: the operation may answer more
    if more:
        thin = ""
    elif cut:
        thin = (f"only {published} record field(s) published: the source lists the first 8 fields of each "
                "operation, envelope members (resultCode, numOfRows, …) among them; the real API answers more")
    elif published == 0:
        thin = ("no record field published for this operation by the sources on hand (" + _DATAGOKR_CHECKED
                + "): the real API answers fields no source here names")
    elif published <= 3:
        thin = (f"only {published} record field(s) published for this operation, and no source on hand names "
                f"more ({_DATAGOKR_CHECKED}); the real API may answer only these")
    else:
        thin = ""
    label = op["label"] or short
    return {
        "id": eid,
        "operation": f"{service}/{operation}",
        "summary": f"{label} ({agency_ko} {service})",
        "summary_en": summary_en(operation, service),
        "path": path,
        "record_path": "response.body.items.item",
        "default_page_size": 10,
        "max_page_size": 1000,
        "fields": fields,
        "params": params,
        "options": {**options, **({"late_fields": options_late} if options_late else {})},
        "fidelity": "partial",
        "provenance": {
            "source": source,
            "url": "published operation URL",
            "params": f"{len(params)} published params (names, types, required flags, Korean labels)",
            "fields": fields_from,
            "assumed": "max_page_size 1000; response.body.items.item envelope; success 00",
            **({"thin": thin} if thin and (cut or published <= 3) else {}),
        },
    }


def _datagokr(agencies: Iterable[str], headers: dict[str, dict[str, Any]], facts_names: list[str],
              ) -> list[dict[str, Any]]:
    base = headers["datagokr_misc"]
    by_platform: dict[str, list[dict[str, Any]]] = {}
    meta: dict[str, tuple[str, str, str]] = {}
    used: dict[str, set[str]] = {}
    wanted = set(agencies)
    extra = _extra_fields()
    for facts_name in facts_names:
        facts = read_facts(facts_name)
        for op in facts["operations"]:
            code = op["url"].split("/")[3]
            if code not in wanted:
                continue
            service = op["url"].split("/")[4] if op["url"].count("/") > 4 else ""
            if code in AGENCIES:
                suffix, ko, en, domain = AGENCIES[code]
                if suffix == "molit" and service in TAGO_SERVICES:
                    suffix, ko, en, domain = "tago", "국토교통부 국가대중교통정보센터", "MOLIT TAGO public transport", "traffic"
            else:
                suffix, ko, en, domain = f"org_{code.lower()}", f"공공데이터포털 기관 {code}", f"data.go.kr agency {code}", "district"
            pid = f"gen_{suffix}"
            meta[pid] = (ko, en, domain)
            ep = _datagokr_endpoint(op, suffix, ko, used.setdefault(pid, set()), facts["source"], extra)
            by_platform.setdefault(pid, []).append(ep)
    out = []
    for pid in sorted(by_platform):
        ko, en, domain = meta[pid]
        plat = _platform(pid, base, f"{en} (data.go.kr, generated)", f"{ko} (공공데이터포털, 생성)", domain,
                         by_platform[pid], keep_options=False)
        plat["options"] = {"default_format": "xml", "format_values": {"json": "json", "xml": "xml"},
                           "counts": "number", "oversize": "clamp"}
        plat["common_params"] = [dict(p) for p in _DATAGOKR_COMMON]
        out.append(plat)
    return out


# ---- OpenDART ---------------------------------------------------------------------------
#: OpenDART request params by name: (Korean label, English words, pattern, example). Written
#: here, from the guide's parameter names; descriptions are kopa-sim's own.
_DART_PARAMS: dict[str, tuple[str, str, str | None, str | None]] = {
    "corp_code": ("고유번호 (8자리)", "8-digit corp code", "^[0-9]{8}$", "00126380"),
    "bsns_year": ("사업연도 (YYYY)", "business year", "^[0-9]{4}$", "2023"),
    "reprt_code": ("보고서 코드 (11013 1분기, 11012 반기, 11014 3분기, 11011 사업)", "report code", "^1101[1-4]$", "11011"),
    "bgn_de": ("검색시작 접수일자 (YYYYMMDD)", "first receipt date", "^[0-9]{8}$", "20240101"),
    "end_de": ("검색종료 접수일자 (YYYYMMDD)", "last receipt date", "^[0-9]{8}$", "20241231"),
    "fs_div": ("개별/연결구분 (OFS, CFS)", "separate or consolidated statements", None, "CFS"),
    "idx_cl_code": ("지표분류코드", "indicator class code", None, "M210000"),
    "sj_div": ("재무제표구분", "statement kind", None, "BS1"),
    "rcept_no": ("접수번호 (14자리)", "receipt number", "^[0-9]{14}$", None),
    "corp_name": ("회사명", "company name", None, None),
}
#: The params the OpenDART guide marks required of every operation that takes them, and those
#: required of one operation only (fs_div of fnlttSinglAcntAll — fnlttMultiAcnt takes none —,
#: idx_cl_code of the index operations, sj_div of xbrlTaxonomy): a real request always carries
#: them, and kopa@v0008 records them with their real values.
_DART_REQUIRED = ("corp_code", "bsns_year", "reprt_code", "rcept_no")
_DART_REQUIRED_OF = {"fnlttSinglAcntAll": ("fs_div",), "fnlttSinglIndx": ("idx_cl_code",),
                     "fnlttCmpnyIndx": ("idx_cl_code",), "xbrlTaxonomy": ("sj_div",)}
_DART_GROUP_PARAMS = {
    "DS002": ["corp_code", "bsns_year", "reprt_code"],
    "DS003": ["corp_code", "bsns_year", "reprt_code"],
    "DS004": ["corp_code"],
    "DS005": ["corp_code", "bgn_de", "end_de"],
    "DS006": ["corp_code", "bgn_de", "end_de"],
}
#: The fields every OpenDART company list starts with (receipt number, market, company).
_DART_LEADING = [("rcept_no", "접수번호"), ("corp_cls", "법인구분"), ("corp_code", "고유번호"),
                 ("corp_name", "회사명")]
_DART_GROUPS = {"DS001": "공시정보", "DS002": "정기보고서 주요정보", "DS003": "정기보고서 재무정보",
                "DS004": "지분공시 종합정보", "DS005": "주요사항보고서 주요정보", "DS006": "증권신고서 주요정보"}


def _opendart(headers: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    facts = read_facts("opendart")
    base = headers["opendart"]
    fmt_param = {"name": "format", "in": "path", "role": "format", "required": True, "enum": ["json", "xml"],
                 "default": "json", "description": "응답 형식 (경로 접미사 .json / .xml)",
                 "description_en": "response format, the path suffix (.json or .xml)"}
    eps = []
    for op in facts["operations"]:
        name, group = op["op"], op["group"]
        binary = bool(op.get("binary")) or name in ("corpCode", "document", "fnlttXbrl")
        pnames = op["params"] or _DART_GROUP_PARAMS.get(group, [])
        params = [] if binary else [dict(fmt_param)]
        for p in pnames:
            ko, en, pattern, example = _DART_PARAMS.get(p, (p, english_words(p), None, None))
            entry: dict[str, Any] = {"name": p, "role": "filter", "required": p in _DART_REQUIRED + _DART_REQUIRED_OF.get(name, ()),
                                     "description": ko, "description_en": en}
            if pattern:
                entry["pattern"] = pattern
            if example:
                entry["example"] = example
            params.append(entry)
        fields = _fields(((n, "string", lab) for n, lab in op["fields"]), facts["source"].split(" + ")[-1])
        fields_from = f"{len(fields)} published fields with Korean names (the guide's response structure)"
        thin = ""
        if not fields and not binary:
            fields = [_field(n, "string", lab, ASSUMED) for n, lab in _DART_LEADING]
            fields_from = "none published; the leading fields every OpenDART list shares assumed"
            thin = ("no record field published for this operation (the guide's structure lists none): "
                    "4 assumed; the real API answers more")
        label = op["label"] or name
        eps.append({
            "id": _ident("dart", name),
            "operation": f"{name}.xml" if binary else f"{name}.{{format}}",
            "summary": f"{label} (OpenDART {_DART_GROUPS.get(group, group)})",
            "summary_en": summary_en(name, f"OpenDART {group}"),
            "path": f"/api/{name}.xml" if binary else f"/api/{name}.{{format}}",
            "kind": "binary" if binary else "collection",
            "record_path": "list",
            "default_page_size": 100,
            "max_page_size": 100,
            "fields": fields,
            "params": params,
            "fidelity": "partial",
            "provenance": {
                "source": facts["source"],
                "url": f"operation {name} in group {group}" + (f", guide {op['guide']}" if op["guide"] else ""),
                "params": "published param names" if op["params"] else f"the {group} group's params (assumed)",
                "fields": fields_from,
                "assumed": "one page holds every row (max 100)",
                **({"thin": thin} if thin else {}),
            },
        })
    return [_platform("gen_opendart", base, "OpenDART (generated)", "금융감독원 전자공시 오픈API (생성)",
                      "finance", eps)]


# ---- law.go.kr --------------------------------------------------------------------------
def _lawgokr(headers: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    facts = read_facts("lawgokr")
    published = read_facts("lawgokr_fields")
    names_of = {(o["service"], o["target"]): o["fields"] for o in published["operations"]}
    base = headers["lawgokr"]
    eps = []
    for op in facts["operations"]:
        target, service = op["target"], op["service"]
        search = service == "lawSearch"
        params = []
        for name, ptype, required in op["params"]:
            role = {"display": "page_size", "page": "page"}.get(name, "filter") if search else "filter"
            entry = _param(name, ptype, required, "", role)
            entry["description"] = {"query": "검색어", "display": "검색 결과 개수", "page": "검색 결과 페이지"}.get(name, name)
            params.append(entry)
        kind = "search" if search else "detail"
        ep: dict[str, Any] = {
            "id": _ident("law", target, kind),
            "operation": f"{service}.do?target={target}",
            "summary": f"법령정보 {target} {'목록 검색' if search else '본문 조회'} (국가법령정보 DRF)",
            "summary_en": f"law.go.kr DRF target {target}: {'search list' if search else 'full text by id'}",
            "path": f"/DRF/{service}.do",
            "match": {"target": target},
            "params": params,
            "fidelity": "partial",
            "provenance": {
                "source": facts["source"],
                "url": f"target {target} of {service}.do",
                "params": f"{len(params)} published param names and required flags",
                "fields": "none published; generic fields (일련번호, 명칭, 일자) assumed",
                "thin": "no record field published for this target (the guide layout read lists request "
                        "params only): 3 generic fields assumed; the real API answers more",
                "assumed": f"envelope root {target}Search / item {target}" if search else f"detail root {target}",
            },
        }
        paged = {p["role"] for p in params} >= {"page", "page_size"}
        if search and not paged:
            # No paging params published: the target is taken to answer every row at once.
            ep["provenance"]["assumed"] += "; no paging params published: one page of up to 100 rows"
        names = names_of.get((service, target))
        if names:
            ep["provenance"]["fields"] = (f"{len(names)} response field names from the guide's output table "
                                          f"({published['source']})")
            del ep["provenance"]["thin"]
        if search:
            ep.update({"record_path": f"{target}Search.{target}", "default_page_size": 20 if paged else 100,
                       "max_page_size": 100,
                       "options": {"root": f"{target}Search", "item": target, "section": "명칭"},
                       "fields": [_field("일련번호", "string", "일련번호", ASSUMED),
                                  _field("명칭", "string", "명칭", ASSUMED),
                                  _field("일자", "string", "일자 (YYYYMMDD)", ASSUMED)]})
        else:
            ep.update({"kind": "object", "record_path": target, "options": {"detail_root": target},
                       "fields": [_field("일련번호", "string", "일련번호", ASSUMED),
                                  _field("명칭", "string", "명칭", ASSUMED), _field("본문", "string", "본문", ASSUMED)]})
        if names:  # the names are the labels (the guide's Korean element names); its prose is not read
            ep["fields"] = [_field(n, "string", n, "law.go.kr guide output table") for n in names]
        eps.append(ep)
    return [_platform("gen_lawgokr", base, "law.go.kr DRF (generated)", "국가법령정보 공동활용 (생성)", "law", eps)]


# ---- the open-portal family (NEIS, National Assembly) ----------------------------------
def _openportal(eid: str, operation: str, path: str, fields: list[dict[str, Any]], params: list[dict[str, Any]],
                *, summary: str, summary_en: str, provenance: dict[str, str]) -> dict[str, Any]:
    """One generated endpoint of the head/row portals (record path ``<service>[1].row``)."""
    return {
        "id": eid,
        "operation": operation,
        "summary": summary,
        "summary_en": summary_en,
        "path": path,
        "record_path": f"{operation}[1].row",
        "default_page_size": 100,
        "max_page_size": 1000,
        "fields": fields,
        "params": params,
        "fidelity": "partial",
        "provenance": provenance,
    }


# ---- NEIS -------------------------------------------------------------------------------
def _neis(headers: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    facts = read_facts("neis")
    base = headers["neis"]
    eps = []
    for op in facts["operations"]:
        service = op["service"]
        own = {n for n, _lab in op["fields"]}
        common = [c for c in op.get("common", []) if c[0] not in own]
        # every row leads with its office (and school) and ends with LOAD_DTM, as the hub writes it
        head, tail = [c for c in common if c[0] != "LOAD_DTM"], [c for c in common if c[0] == "LOAD_DTM"]
        fields = _fields(((n, "string", lab) for n, lab in [*head, *op["fields"], *tail]), facts["source"])
        params = [_param("ATPT_OFCDC_SC_CODE", "string", False, "시도교육청코드")]
        if "SD_SCHUL_CODE" in own:  # from the service's own fields, as kopa@v0003's tools had them
            params.append(_param("SD_SCHUL_CODE", "string", False, "행정표준코드 (학교)"))
        envelope = op.get("envelope")
        provenance = {
            "source": facts["source"],
            "url": f"hub service {service}",
            "params": "office and school codes (the hub's common filters)",
            "fields": f"{len(fields)} published row fields with Korean labels",
            "assumed": "other filters of the service",
        }
        if envelope:  # a past-year archive of a timetable: per school and year (neispy's TimetableParams)
            if len(params) == 1:
                params.append(_param("SD_SCHUL_CODE", "string", False, "행정표준코드 (학교)"))
            params.append(_param("AY", "string", False, "학년도"))
            provenance["params"] = "office and school codes and AY, the year it archives (neispy's timetable params)"
            provenance["envelope"] = f"answered under {envelope} (the current-year service's key)"
        ep = _openportal(
            _ident("neis", service), service, f"/hub/{service}", fields, params,
            summary=f"나이스 {service} 조회 (교육정보 개방 포털)", summary_en=summary_en(service, "NEIS hub"),
            provenance=provenance,
        )
        if envelope:
            ep["record_path"] = f"{envelope}[1].row"
            ep["options"] = {"service": envelope}
        elif common:
            # kopa@v0003 recorded these services without the common fields (world editions
            # 2 and 3 answer so); the sandbox serves them from world edition 4 on
            ep["options"] = {"late_fields": {n: 4 for n, _lab in common}}
        eps.append(ep)
    return [_platform("gen_neis", base, "NEIS (generated)", "나이스 교육정보 개방 포털 (생성)", "education", eps)]


# ---- National Assembly ------------------------------------------------------------------
def _assembly(headers: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    facts = read_facts("assembly")
    base = headers["assembly"]
    eps = []
    used: set[str] = set()
    for op in facts["operations"]:
        code, label = op["code"], op["label"]
        fields = _fields(((n, "string", lab) for n, lab in op["fields"]), facts["source"].split(" + ")[0])
        params = [_param(n, "string", False, lab) for n, lab in op["params"]
                  if _IDENT_RE.fullmatch(n) and n not in ("KEY", "Type", "pIndex", "pSize")]
        eid = _ident("assembly", code)
        if eid in used:
            eid = _ident("assembly", code, op["infId"])
        used.add(eid)
        eps.append(_openportal(
            eid, code, f"/portal/openapi/{code}", fields, params,
            summary=f"{label} (열린국회정보 {op['infId']})",
            summary_en=f"National Assembly open API {code} (infId {op['infId']})",
            provenance={
                "source": facts["source"],
                "url": f"endpoint code {code} of infId {op['infId']} (the infId → code table was read "
                       "through a read-only file tool and checked against 39 codes another fork lists)",
                "params": f"{len(params)} published request params with Korean labels",
                "fields": f"{len(fields)} published response fields with Korean labels",
                "assumed": "required flags (none marked); page size limit 1000 as the curated endpoints",
                **({"thin": f"only {len(fields)} response field(s) published for this infId: assembly-api-client's "
                            "model lists no more, and no other source on hand (shared/apis.md §10, the real "
                            "bodies of shared/samples) names more"} if len(fields) <= 3 else {}),
            },
        ))
    return [_platform("gen_assembly", base, "National Assembly open API (generated)", "열린국회정보 (생성)",
                      "politics", eps)]


def build_platforms(*, everything: bool = False) -> tuple[list[dict[str, Any]], BuildReport]:
    """Every generated platform (raw dicts in the catalog file schema) and a report.

    ``everything``: also every other data.go.kr agency the facts know (≈ 10,900 operations
    on ``apis.data.go.kr``), not only the paper's.
    """
    headers = _curated_headers()
    plats = _opendart(headers) + _lawgokr(headers) + _neis(headers) + _assembly(headers)
    if everything:
        codes = sorted({op["url"].split("/")[3] for n in ("datagokr_client", "datagokr_client_other")
                        for op in read_facts(n)["operations"]})
        plats += _datagokr(codes, headers, ["datagokr_client", "datagokr_client_other"])
    else:
        plats += _datagokr(PAPER_AGENCIES, headers, ["datagokr_client"])
    _settle_editions(plats)
    _add_measured(plats)
    _add_published(plats)
    _add_head_fields(plats)
    _add_roots(plats)
    _add_values(plats)
    return _drop_shadowed(plats, headers)


def _drop_shadowed(plats: list[dict[str, Any]], headers: dict[str, dict[str, Any]],
                   ) -> tuple[list[dict[str, Any]], BuildReport]:
    """Remove generated endpoints whose URL a curated endpoint serves (curated wins)."""
    curated: dict[tuple[str, str, tuple[tuple[str, str], ...]], str] = {}
    for raw in headers.values():
        for ep in raw.get("endpoints", []):
            curated[_key(ep.get("host") or raw["host"], ep["path"], ep.get("match", {}))] = ep["id"]
    report = BuildReport()
    for plat in plats:
        kept = []
        for ep in plat["endpoints"]:
            hit = curated.get(_key(plat["host"], ep["path"], ep.get("match", {})))
            if hit is not None:
                report.shadowed.append((ep["id"], hit))
            else:
                kept.append(ep)
        plat["endpoints"] = kept
        report.generated[plat["id"]] = len(kept)
    return [p for p in plats if p["endpoints"]], report
