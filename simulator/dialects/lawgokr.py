"""law.go.kr DRF (국가법령정보 공동활용): ``lawSearch.do`` search and ``lawService.do`` detail.

apis.md §2. The ``target`` query param picks the endpoint (catalog ``match``), ``type``
the format (``XML`` by default, ``JSON``). Two shapes:

* **search** (``kind: collection``): XML ``<LawSearch><target>…<키워드>…<section>…
  <totalCnt>…<page>…<numOfRows>…<resultCode>00<resultMsg>success<law id="1">…</law>…``;
  the root and item element come from the ``root``/``item`` options (the item element is
  ``<law>`` even under ``<OrdinSearch>``; ``<prec>`` under ``<PrecSearch>``). Some fields are
  CDATA (``cdata_fields``); the ``ftc`` target writes ``</사건번호 >`` (``malformed_close``),
  which parsing repairs and rendering reproduces. JSON ``{"LawSearch":{…}}`` has string
  totals, **no item key** on 0 hits and a **single object** for exactly one hit.
  ``numOfRows`` echoes the rows returned (``"0"`` on 0 hits), ``id`` numbers the rows.
* **detail** (``kind: object``): the document under one root (``{"법령":{…}}``,
  ``<PrecService>…``), kept as one nested record (XML attributes as ``@name`` keys,
  repeated elements as lists). Not found: ``{"Law":"일치하는 법령이 없습니다.  …"}``.

Errors are HTTP 200: ``<Response><result>사용자 정보 검증에 실패하였습니다.</result><msg>…``
(JSON ``{"result","msg"}``), or a 0-byte body (unknown target, a JSON miss on some targets).

Links such as ``법령상세링크`` embed the caller's ``OC``; parsing and rendering replace its
value with the ``oc_placeholder`` option (default ``test``, the guide's demo id), so no key
ever reaches a record or a rendered body.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from ..catalog import Endpoint
from ..errors import DialectError
from ..request import SimResponse
from ._wire import cdata, load_json_object, plain_text, xml_record
from .base import BaseDialect, ErrorKind, Parsed, Split, json_bytes, xml_escape
from .compare import fix_entities, html_entities_in, keep_entities, repair_xml

__all__ = ["DIALECT", "LawGoKrDialect", "scrub_key"]

_DEFAULT_DECL = '<?xml version="1.0" encoding="UTF-8"?>'
_DEFAULT_HEADER = [
    "target",
    "키워드",
    "section",
    "totalCnt",
    "page",
    "numOfRows",
    "resultCode",
    "resultMsg",
]
# Member order of the JSON search object as the server writes it (hash order; apis.md §2).
_DEFAULT_JSON_ORDER = [
    "resultMsg",
    "키워드",
    "page",
    "resultCode",
    "target",
    "totalCnt",
    "section",
    "numOfRows",
]
_AUTH_FAILED = "사용자 정보 검증에 실패하였습니다."
_DEFAULT_ERRORS: dict[str, dict[str, str]] = {
    "invalid_key": {
        "result": _AUTH_FAILED,
        "msg": "OPEN API 호출 시 사용자 검증을 위하여 정확한 서버장비의 IP주소 및 "
        "도메인주소를 등록해 주세요.",
    },
    "missing_key": {
        "result": "필수입력요소 검증에 실패하였습니다.",
        "msg": "필수 입력값이 존재하지 않습니다.",
    },
}
# Situations the server answers with an empty body: HTTP 200 for bad input (as for an unknown
# target), 404 for provider failures (the transient 404s clients retry on).
_EMPTY_STATUS: dict[str, int] = {
    "bad_param": 200,
    "missing_param": 200,
    "page_too_large": 200,
    "unknown_operation": 200,
    "server_error": 404,
    "rate_limited": 404,
    "quota_exceeded": 404,
}
_OC_VALUE = re.compile(r"(?<=[?&]OC=)[^&#\s]*")
_MALFORMED_CLOSE = re.compile(r"</([^>\s]+)\s+>")
_CDATA_OPEN = re.compile(r"<([^\s>/!?]+)(?:\s[^>]*)?>\s*<!\[CDATA\[")
_XML_DECL = re.compile(r"\s*(<\?xml[^>]*\?>)")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")


def scrub_key(value: Any, placeholder: str = "test") -> Any:
    """Replace the ``OC=`` value of every link inside ``value`` (nested) with ``placeholder``.

    >>> scrub_key({"링크": "/DRF/lawService.do?OC=secret&target=law&MST=1"})
    {'링크': '/DRF/lawService.do?OC=test&target=law&MST=1'}
    """
    if isinstance(value, str):
        return _OC_VALUE.sub(placeholder, value) if "OC=" in value else value
    if isinstance(value, dict):
        return {k: scrub_key(v, placeholder) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_key(v, placeholder) for v in value]
    return value


def _attr_escape(text: str) -> str:
    return xml_escape(text).replace('"', "&quot;")


def _el_value(el: ET.Element) -> Any:
    """An element as a value: text for a plain leaf, else a dict (``@attr``, children, ``#text``)."""
    children = list(el)
    attrs: dict[str, Any] = {f"@{k}": v for k, v in el.attrib.items()}
    if not children:
        if not attrs:
            return el.text or ""
        attrs["#text"] = el.text or ""
        return attrs
    out = attrs
    text = (el.text or "").strip()
    if text:
        out["#text"] = text
    dupes = _repeated(el)
    for child in children:
        value = _el_value(child)
        if child.tag in dupes:
            out.setdefault(child.tag, []).append(value)
        else:
            out[child.tag] = value
    return out


def _repeated(el: ET.Element) -> set[str]:
    seen: set[str] = set()
    dupes: set[str] = set()
    for c in el:
        (dupes if c.tag in seen else seen).add(c.tag)
    return dupes


def _json_value(value: Any) -> Any:
    """A record value for JSON: XML attribute keys lose their ``@``."""
    if isinstance(value, dict):
        return {k.removeprefix("@"): _json_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    return value


class _XmlWriter:
    """Writes records the way DRF does: CDATA fields, attribute keys, malformed close tags."""

    def __init__(self, cdata_tags: set[str], malformed: set[str], attrs: set[str]) -> None:
        self.cdata = cdata_tags
        self.malformed = malformed
        self.attrs = attrs

    def close(self, tag: str) -> str:
        return f"</{tag} >" if tag in self.malformed else f"</{tag}>"

    def leaf(self, tag: str, value: Any) -> str:
        text = plain_text(value)
        body = cdata(text) if tag in self.cdata else xml_escape(text)
        return f"<{tag}>{body}{self.close(tag)}"

    def element(self, tag: str, value: Any) -> str:
        """``value`` as element(s) ``tag``: lists repeat it, dicts nest (``@`` keys: attributes)."""
        if isinstance(value, list):
            return "".join(self.element(tag, v) for v in value)
        if not isinstance(value, dict):
            return self.leaf(tag, value)
        attrs = ""
        inner: list[str] = []
        for k, v in value.items():
            if k.startswith("@") or (k in self.attrs and not isinstance(v, (dict, list))):
                name = k.lstrip("@")
                attrs += f' {name}="{_attr_escape(plain_text(v))}"'
            elif k == "#text":
                text = plain_text(v)
                inner.append(cdata(text) if tag in self.cdata else xml_escape(text))
            else:
                inner.append(self.element(k, v))
        return f"<{tag}{attrs}>{''.join(inner)}{self.close(tag)}"


class LawGoKrDialect(BaseDialect):
    """The law.go.kr DRF wire family (search and detail, XML and JSON).

    >>> LawGoKrDialect().name
    'lawgokr'
    """

    name = "lawgokr"

    # ---- parsing ---------------------------------------------------------------------
    def parse(self, endpoint: Endpoint, body: bytes, fmt: str) -> Parsed:
        """Read a DRF body: search page, detail document, error, or a 0-byte miss."""
        text = body.decode("utf-8-sig")
        head = text.lstrip()[:64].lower()
        if not head:
            if endpoint.kind == "collection":
                return Parsed([], 0, {"empty_body": True}, outcome="empty")
            return Parsed([], 0, {}, outcome="empty", kind="no_data")
        if head.startswith(("<!doctype", "<html")):
            return Parsed([], 0, {}, outcome="error", code="html", kind="server_error")
        if head.startswith("{"):
            return self._parse_json(endpoint, load_json_object(endpoint, text))
        if head.startswith("<"):
            return self._parse_xml(endpoint, text)
        raise DialectError(
            f"endpoint={endpoint.id!r}: body is neither JSON nor XML (starts with {text[:20]!r})"
        )

    @staticmethod
    def _items(ep: Endpoint) -> list[str]:
        """The item element names a search answer of ``ep`` may hold: the catalog's ``item``
        and, where option ``published_root`` names another, that one (the versions recorded
        from world edition 8 on hold it)."""
        names = [str(ep.opt("item", "law"))]
        published = ep.opt("published_root") or {}
        if published.get("item") and published["item"] not in names:
            names.append(str(published["item"]))
        return names

    def _item(self, ep: Endpoint, present: list[str]) -> str:
        return present[0] if present else self._items(ep)[0]

    def served_envelope(self, ep: Endpoint, edition: int) -> dict[str, Any]:
        """What the sandbox's world ``edition`` names a search answer's root and item element:
        option ``published_root`` (``{root, item, edition}``) from its edition on, else the
        catalog's ``root`` / ``item`` (empty: the renderer's defaults)."""
        published = ep.opt("published_root")
        if ep.kind != "collection" or not published or edition < int(published["edition"]):
            return {}
        return {"root": str(published["root"]), "item": str(published["item"])}

    def _placeholder(self, ep: Endpoint) -> str:
        return str(ep.opt("oc_placeholder", "test"))

    def _error(self, result: str) -> Parsed:
        kind: ErrorKind = "server_error"
        if "사용자 정보" in result:
            kind = "invalid_key"
        elif "필수입력요소" in result:
            kind = "missing_key"
        return Parsed([], 0, {}, outcome="error", code=result, kind=kind)

    def _parse_json(self, ep: Endpoint, data: dict[str, Any]) -> Parsed:
        if "result" in data and "msg" in data:
            return self._error(str(data["result"]))
        if isinstance(data.get("Law"), str):
            return Parsed([], 0, {}, outcome="empty", code=data["Law"], kind="no_data")
        root = next((k for k, v in data.items() if isinstance(v, dict)), None)
        if root is None:
            raise DialectError(
                f"endpoint={ep.id!r}: JSON body has no document object: {list(data)}"
            )
        extra = {k: v for k, v in data.items() if k != root}
        envelope: dict[str, Any] = {"source": "json", "root": root}
        if extra:
            envelope["extra_top"] = extra
        inner = data[root]
        placeholder = self._placeholder(ep)
        if ep.kind != "collection":
            return Parsed([scrub_key(inner, placeholder)], 1, envelope)
        item = self._item(ep, [k for k in inner if k in self._items(ep)])
        if item != ep.opt("item", "law"):
            envelope["item"] = item
        raw_items = inner.get(item)
        items = [raw_items] if isinstance(raw_items, dict) else list(raw_items or [])
        if any("id" in it for it in items):
            envelope["json_item_id"] = True
        records = [
            scrub_key({k: v for k, v in it.items() if k != "id"}, placeholder) for it in items
        ]
        header: list[list[Any]] = []
        for i, (k, v) in enumerate(inner.items()):
            if k == item:
                envelope["item_at"] = i
            else:
                header.append([k, v])
        envelope["header"] = header
        keyword = inner.get("키워드")
        if isinstance(keyword, str) and _PERCENT.search(keyword):
            envelope["keyword_encoding"] = "euc-kr-percent"
        total = _int(inner.get("totalCnt"), len(records))
        return Parsed(records, total, envelope, outcome="ok" if records else "empty")

    def _parse_xml(self, ep: Endpoint, text: str) -> Parsed:
        malformed = sorted(set(_MALFORMED_CLOSE.findall(text)))
        cdata_tags = sorted(set(_CDATA_OPEN.findall(text)))
        decl = _XML_DECL.match(text)
        try:
            root = ET.fromstring(fix_entities(repair_xml(text)).encode("utf-8"))
        except ET.ParseError as exc:
            raise DialectError(f"endpoint={ep.id!r}: body is not valid XML: {exc}") from exc
        if root.tag == "Response":
            return self._error(root.findtext("result") or "")
        if root.tag == "Law" and len(root) == 0:
            return Parsed(
                [], 0, {}, outcome="empty", code=(root.text or "").strip(), kind="no_data"
            )
        if root.tag == "Law" and root.find("resultMsg") is not None:
            return self._error(root.findtext("resultMsg") or "")
        envelope: dict[str, Any] = {"source": "xml", "root": root.tag}
        envelope["decl"] = decl.group(1) if decl else ""
        if cdata_tags:
            envelope["cdata"] = cdata_tags
        if malformed:
            envelope["malformed_close"] = malformed
        entities = html_entities_in(text)
        if entities:
            envelope["entities"] = entities  # rendered back as recorded (``&middot;``)
        placeholder = self._placeholder(ep)
        if ep.kind != "collection":
            return Parsed([scrub_key(_el_value(root), placeholder)], 1, envelope)
        item = self._item(ep, [c.tag for c in root if c.tag in self._items(ep)])
        if item != ep.opt("item", "law"):
            envelope["item"] = item
        records: list[dict[str, Any]] = []
        header: list[list[Any]] = []
        for child in root:
            if child.tag == item and (len(child) or "id" in child.attrib):
                records.append(scrub_key(xml_record(child), placeholder))
            else:
                header.append([child.tag, child.text or ""])
        envelope["header"] = header
        total = _int(root.findtext("totalCnt"), len(records))
        return Parsed(records, total, envelope, outcome="ok" if records else "empty")

    # ---- rendering -------------------------------------------------------------------
    def render(
        self,
        split: Split,
        records: Sequence[dict[str, Any]],
        total: int,
        envelope: dict[str, Any],
    ) -> SimResponse:
        """A search page (the window's rows, reported total) or a detail document."""
        ep = split.endpoint
        if ep.kind != "collection":
            if not records:
                return self.render_error(ep, "no_data", split.fmt)
            return self._render_detail(ep, split.fmt, records[0], envelope)
        return self._render_search(
            ep,
            split.fmt,
            records,
            total,
            envelope,
            page=split.window.page,
            offset=split.window.offset,
            query=split.filters.get("query"),
        )

    def _writer(self, ep: Endpoint, envelope: dict[str, Any]) -> _XmlWriter:
        return _XmlWriter(
            set(ep.opt("cdata_fields", [])) | set(envelope.get("cdata", [])),
            set(ep.opt("malformed_close", [])) | set(envelope.get("malformed_close", [])),
            set(ep.opt("xml_attrs", [])),
        )

    def _render_search(
        self,
        ep: Endpoint,
        fmt: str,
        records: Sequence[dict[str, Any]],
        total: int,
        envelope: dict[str, Any],
        *,
        page: int,
        offset: int,
        query: str | None,
    ) -> SimResponse:
        placeholder = self._placeholder(ep)
        item = str(envelope.get("item") or ep.opt("item", "law"))
        rows = [scrub_key(dict(r), placeholder) for r in records]
        if not rows and (
            envelope.get("empty_body") or (fmt == "json" and ep.opt("empty_json_search"))
        ):
            return _response(200, "json", b"")
        root = str(envelope.get("root") or ep.opt("root", "LawSearch"))
        derived = {"totalCnt": str(total), "page": str(page), "numOfRows": str(len(rows))}
        if query is not None:
            derived["키워드"] = query
        defaults = {
            "target": ep.match.get("target", ""),
            "키워드": "",
            "section": str(ep.opt("section", "")),
            "resultCode": "00",
            "resultMsg": "success",
        }
        names = [h[0] for h in envelope.get("header", [])] or list(
            ep.opt("header", _DEFAULT_HEADER)
        )
        recorded = {h[0]: h[1] for h in envelope.get("header", [])}
        same_source = envelope.get("source") == fmt

        def value(name: str) -> Any:
            if name in derived:
                return derived[name]
            if name in recorded:
                return recorded[name]
            return defaults.get(name, "")

        if fmt == "json":
            order = (
                names if same_source else _reorder(names, ep.opt("json_order", _DEFAULT_JSON_ORDER))
            )
            encoding = envelope.get("keyword_encoding") or ep.opt("json_keyword_encoding")
            with_id = bool(envelope.get("json_item_id") or ep.opt("json_item_id", False))
            items = [
                ({"id": str(offset + i + 1), **r} if with_id else r) for i, r in enumerate(rows)
            ]
            inner: dict[str, Any] = {}
            item_at = envelope.get("item_at", len(order)) if same_source else len(order)
            for i, name in enumerate(order):
                if i == item_at and items:
                    inner[item] = items[0] if len(items) == 1 else items
                v = value(name)
                if name == "키워드" and encoding == "euc-kr-percent" and "키워드" in derived:
                    v = _euc_kr_percent(str(v))
                inner[name] = v
            if items and item not in inner:
                inner[item] = items[0] if len(items) == 1 else items
            doc = {root: inner, **envelope.get("extra_top", {})}
            return _response(200, "json", json_bytes(doc))
        order = names if same_source else _reorder(names, ep.opt("header", _DEFAULT_HEADER))
        writer = self._writer(ep, envelope)
        decl = (
            envelope["decl"]
            if "decl" in envelope
            else str(ep.opt("xml_declaration", _DEFAULT_DECL))
        )
        parts = [decl, f"<{root}>"]
        parts.extend(f"<{n}>{xml_escape(plain_text(value(n)))}</{n}>" for n in order)
        for i, r in enumerate(rows):
            fields = "".join(writer.leaf(k, v) for k, v in r.items())
            parts.append(f'<{item} id="{offset + i + 1}">{fields}</{item}>')
        parts.append(f"</{root}>")
        text = keep_entities("".join(parts), envelope.get("entities", []))
        return _response(200, "xml", text.encode("utf-8"))

    def _render_detail(
        self, ep: Endpoint, fmt: str, record: dict[str, Any], envelope: dict[str, Any]
    ) -> SimResponse:
        rec = scrub_key(record, self._placeholder(ep))
        root = str(envelope.get("root") or ep.opt("detail_root", "법령"))
        if fmt == "json":
            doc = {root: _json_value(rec), **envelope.get("extra_top", {})}
            return _response(200, "json", json_bytes(doc))
        decl = (
            envelope["decl"]
            if "decl" in envelope
            else str(ep.opt("xml_declaration", _DEFAULT_DECL))
        )
        xml = decl + self._writer(ep, envelope).element(root, rec)
        xml = keep_entities(xml, envelope.get("entities", []))
        return _response(200, "xml", xml.encode("utf-8"))

    def render_error(
        self, endpoint: Endpoint, kind: ErrorKind, fmt: str, detail: str = ""
    ) -> SimResponse:
        """DRF's own bodies: ``<Response>`` auth failures, ``<Law>`` misses, empty bodies."""
        ep = endpoint
        if kind == "no_data":
            if ep.kind == "collection":
                return self._render_search(ep, fmt, [], 0, {}, page=1, offset=0, query=None)
            message = str(
                ep.opt("not_found", "일치하는 법령이 없습니다.  법령명을 확인하여 주십시오.")
            )
            if fmt == "json":
                return _response(200, "json", json_bytes({"Law": message}))
            return _response(200, "xml", f"<Law>{xml_escape(message)}</Law>".encode())
        errors = {**_DEFAULT_ERRORS, **ep.opt("errors", {})}
        if kind in errors:
            err = errors[kind]
            if fmt == "json":
                return _response(
                    200, "json", json_bytes({"result": err["result"], "msg": err["msg"]})
                )
            xml = (
                f"<Response>\n  <result>{xml_escape(err['result'])}</result>\n"
                f"  <msg>{xml_escape(err['msg'])}</msg>\n</Response>\n"
            )
            return _response(200, "xml", xml.encode("utf-8"))
        return SimResponse(_EMPTY_STATUS.get(kind, 200), [], b"")


def _int(value: Any, default: int) -> int:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


def _reorder(names: list[str], preferred: list[str]) -> list[str]:
    rank = {n: i for i, n in enumerate(preferred)}
    return sorted(names, key=lambda n: (rank.get(n, len(rank)), names.index(n)))


def _euc_kr_percent(text: str) -> str:
    """The keyword echo of JSON searches seen in the wild: EUC-KR, lowercase %-escapes."""
    if _PERCENT.search(text):
        return text  # already encoded (a recorded echo)
    try:
        encoded = quote(text.encode("euc-kr"), safe="")
    except UnicodeEncodeError:
        return text
    return _PERCENT.sub(lambda m: m.group(0).lower(), encoded)


_CONTENT_TYPES = {"json": "application/json;charset=UTF-8", "xml": "text/xml;charset=UTF-8"}


def _response(status: int, fmt: str, body: bytes) -> SimResponse:
    headers = [("content-type", _CONTENT_TYPES[fmt])] if body else []
    return SimResponse(status, headers, body)


DIALECT = LawGoKrDialect()
