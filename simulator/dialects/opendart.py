"""OpenDART (금융감독원 전자공시 Open API): ``status``/``message`` envelopes (apis.md §1).

Shapes, chosen per endpoint by ``kind`` and the ``envelope`` option:

* ``list`` (default)  ``{"status","message",[page_no,page_count,total_count,total_page,]"list":[…]}``;
  the paging members appear only on endpoints with ``page``/``page_size`` params (list.json).
* ``object`` (``kind: object``)  one flat record after ``status``/``message`` (company.json).
* ``group`` (``envelope: group``)  ``{"status","message","group":[{"title","list":[…]},…]}``
  (DS006 estkRs.json). Records are the rows of every group, in order, each carrying its
  group's title in the synthetic first field ``group_title``; the envelope keeps the list of
  titles so groups (also empty ones) come back in their native order.
* ``binary`` (``kind: binary``)  corpCode.xml: a ZIP holding ``CORPCODE.xml`` with one
  ``<list>`` per company. Rendering writes a deterministic ZIP (fixed timestamp and
  attributes): identical records give identical bytes.

The format is the path suffix (``/api/list.{format}``, a path param with role ``format``).
The XML form (``/api/{op}.xml``) is ``<result><status>…<message>…`` with one ``<list>``
element per row. Every error is HTTP 200 with the status code and message of the
``errors`` option (``013`` for no data, rendered whenever a window is empty); the
corp-code ZIP answers errors with the small XML ``<result>`` body instead of a ZIP.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..catalog import Endpoint, Match
from ..errors import DialectError
from ..request import SimResponse
from ._wire import field_types, flat_text, load_json_object, xml_record
from .base import BaseDialect, ErrorKind, Parsed, Split, Window, json_bytes, xml_escape

__all__ = ["DIALECT", "OpenDartDialect"]

#: Window covering a whole collection (endpoints without paging params answer everything).
_ALL = 10**9
#: Timestamp written into every ZIP member: the ZIP epoch, so bytes never depend on "now".
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_PAGING = ("page_no", "page_count", "total_count", "total_page")
_GROUP_FIELD = "group_title"

# Native status and message of each error kind; overridable per platform/endpoint with the
# ``errors`` option. Wording as observed on live calls where known (apis.md §1 for 010/013;
# public client code quoting live answers for 020, 100 and the empty-key 100).
_DEFAULT_ERRORS: dict[str, dict[str, str]] = {
    "no_data": {"status": "013", "message": "조회된 데이타가 없습니다."},
    "invalid_key": {"status": "010", "message": "등록되지 않은 인증키입니다."},
    "missing_key": {"status": "100", "message": "인증키가 누락되었습니다."},
    "bad_param": {"status": "100", "message": "필드의 부적절한 값입니다."},
    "missing_param": {"status": "100", "message": "필드의 부적절한 값입니다."},
    "page_too_large": {"status": "100", "message": "필드의 부적절한 값입니다."},
    "rate_limited": {"status": "020", "message": "요청 제한을 초과하였습니다."},
    "quota_exceeded": {"status": "020", "message": "요청 제한을 초과하였습니다."},
    "server_error": {"status": "800", "message": "시스템 점검으로 인한 서비스가 중지 중입니다."},
    "unknown_operation": {"status": "101", "message": "부적절한 접근입니다."},
}
_OK = {"status": "000", "message": "정상"}

#: The kind of each further documented status (apis.md §1, the OpenDART guide's table):
#: a body with one of them is an error of that kind, but ``render_error(kind)`` writes the
#: kind's own status above, so it renders back as recorded (``render_recorded_error``).
_OTHER_STATUS_KINDS: dict[str, str] = {
    "011": "invalid_key",      # 사용할 수 없는 키 (일시중지)
    "012": "invalid_key",      # 접근할 수 없는 IP
    "014": "no_data",          # 파일이 존재하지 않음
    "021": "bad_param",        # 조회 가능한 회사 개수 초과 (최대 100)
    "900": "server_error",     # 정의되지 않은 오류
    "901": "invalid_key",      # 사용자 계정 개인정보 보유기간 만료
}


def _errors(ep: Endpoint) -> dict[str, dict[str, str]]:
    return {**_DEFAULT_ERRORS, **ep.opt("errors", {})}


def _is_paged(ep: Endpoint) -> bool:
    return bool(ep.params_with_role("page", "page_size"))


def _envelope_shape(ep: Endpoint) -> str:
    if ep.kind == "binary":
        return "corpcode"
    if ep.kind == "object":
        return "object"
    return str(ep.opt("envelope", "list"))


def _to_json_value(value: Any, typ: str | None) -> Any:
    """Give an XML-sourced string the JSON type the catalog declares for its field."""
    if not isinstance(value, str) or typ in (None, "string"):
        return value
    try:
        if typ == "integer":
            return int(value)
        if typ == "number":
            return float(value)
    except ValueError:
        return value
    if typ == "boolean":
        return value.lower() == "true"
    return value


def _xml_fields(record: dict[str, Any]) -> str:
    return "".join(f"<{k}>{xml_escape(flat_text(v))}</{k}>" for k, v in record.items())


class OpenDartDialect(BaseDialect):
    """The OpenDART wire family (JSON/XML ``status`` envelopes and the corp-code ZIP).

    >>> OpenDartDialect().name
    'opendart'
    """

    name = "opendart"

    # ---- splitting and paging --------------------------------------------------------
    def window(self, match: Match, fmt: str) -> Window:
        """Endpoints without paging params answer their whole collection in one body."""
        if match.endpoint.kind == "collection" and not _is_paged(match.endpoint):
            return Window(offset=0, limit=_ALL, page=1, size=_ALL)
        return super().window(match, fmt)

    def page_requests(
        self, endpoint: Endpoint, filters: dict[str, str], total: int, fmt: str = "json"
    ) -> list[dict[str, str]]:
        pages = super().page_requests(endpoint, filters, total, fmt)
        # Without paging params every "page" is the same request: the whole collection.
        return pages if _is_paged(endpoint) else pages[:1]

    # ---- parsing ---------------------------------------------------------------------
    def parse(self, endpoint: Endpoint, body: bytes, fmt: str) -> Parsed:
        """Read a JSON, XML or ZIP body of ``endpoint`` (the ZIP magic wins over ``fmt``)."""
        if body[:4] == b"PK\x03\x04":
            return self._parse_zip(endpoint, body)
        text = body.decode("utf-8-sig").strip()
        if text.startswith("{"):
            return self._parse_doc(endpoint, load_json_object(endpoint, text))
        if text.startswith("<"):
            try:
                root = ET.fromstring(text.encode("utf-8"))
            except ET.ParseError as exc:
                raise DialectError(
                    f"endpoint={endpoint.id!r}: body is not valid XML: {exc}"
                ) from exc
            return self._parse_doc(endpoint, _xml_doc(root))
        raise DialectError(
            f"endpoint={endpoint.id!r}: body is neither JSON, XML nor a ZIP "
            f"(starts with {body[:16]!r})"
        )

    def _parse_doc(self, ep: Endpoint, data: dict[str, Any]) -> Parsed:
        status = str(data.get("status", ""))
        if status != _OK["status"]:
            return self._parse_error(ep, status, str(data.get("message", "")))
        shape = _envelope_shape(ep)
        envelope: dict[str, Any] = {}
        known = {"status", "message", *_PAGING, "list", "group"}
        extra = {k: v for k, v in data.items() if k not in known}
        if shape == "object":
            return Parsed([extra], 1)
        if extra:
            envelope["extra"] = extra
        if shape == "group" or "group" in data:
            records: list[dict[str, Any]] = []
            titles: list[str] = []
            for group in data.get("group") or []:
                title = str(group.get("title", ""))
                titles.append(title)
                records.extend({_GROUP_FIELD: title, **row} for row in group.get("list") or [])
            envelope["groups"] = titles
            return Parsed(records, len(records), envelope)
        rows = list(data.get("list") or [])
        total = data.get("total_count")
        return Parsed(rows, int(total) if total is not None else len(rows), envelope)

    def _parse_error(self, ep: Endpoint, status: str, message: str) -> Parsed:
        errors = _errors(ep)
        same = [k for k, v in errors.items() if v["status"] == status]
        exact = [k for k in same if errors[k]["message"] == message]
        kind = cast("ErrorKind | None", (exact or same or [_OTHER_STATUS_KINDS.get(status)])[0])
        outcome = "empty" if kind == "no_data" else "error"
        # A body render_error does not write back (011, 900, another wording) keeps what it
        # was, so that it renders as recorded; an exact one keeps nothing (recordings of a
        # 013 page stay as they were).
        envelope = {} if exact else {"error": {"status": status, "message": message}}
        return Parsed([], 0, envelope, outcome=outcome, code=status, kind=kind)

    def render_recorded_error(self, ep: Endpoint, parsed: Parsed, fmt: str) -> SimResponse | None:
        """The ``{"status","message"}`` body ``parsed`` was read from, as recorded."""
        err = parsed.envelope.get("error")
        if not err:
            return None
        return _error_body(ep, err, fmt)

    def _parse_zip(self, ep: Endpoint, body: bytes) -> Parsed:
        try:
            with zipfile.ZipFile(io.BytesIO(body)) as zf:
                names = [n for n in zf.namelist() if n.lower().endswith(".xml")]
                if not names:
                    raise DialectError(
                        f"endpoint={ep.id!r}: ZIP holds no XML member (members: {zf.namelist()})"
                    )
                member = names[0]
                xml = zf.read(member)
        except zipfile.BadZipFile as exc:
            raise DialectError(f"endpoint={ep.id!r}: body is not a valid ZIP: {exc}") from exc
        try:
            root = ET.fromstring(xml)
        except ET.ParseError as exc:
            raise DialectError(f"endpoint={ep.id!r}: {member} is not valid XML: {exc}") from exc
        # Text is kept verbatim: CORPCODE.xml's blank stock_code is one space, not "".
        records = [xml_record(el) for el in root.iter("list")]
        return Parsed(records, len(records), {"member": member})

    # ---- rendering -------------------------------------------------------------------
    def render(
        self,
        split: Split,
        records: Sequence[dict[str, Any]],
        total: int,
        envelope: dict[str, Any],
    ) -> SimResponse:
        """The native success body of ``records`` (``013`` when the window is empty)."""
        ep = split.endpoint
        shape = _envelope_shape(ep)
        if shape == "corpcode" and records:  # a download with nothing in it is the platform's 013
            return _response(200, "zip", self.corpcode_zip(records, envelope.get("member")))
        if not records:
            err = envelope.get("error")
            if err:  # an error body no kind writes back (a status the table lacks): as recorded
                return _error_body(ep, err, split.fmt)
            return self.render_error(ep, "no_data", split.fmt)
        doc: dict[str, Any] = dict(_OK)
        win = split.window
        if shape == "object":
            doc.update(records[0])
        else:
            if _is_paged(ep):
                doc["page_no"] = win.page
                doc["page_count"] = win.size
                doc["total_count"] = total
                doc["total_page"] = -(-total // win.size) if win.size else 0
            doc.update(envelope.get("extra", {}))
            if shape == "group":
                doc["group"] = _groups(records, envelope.get("groups", []))
            else:
                doc["list"] = list(records)
        if split.fmt == "xml":
            return _response(200, "xml", _xml_doc_bytes(doc))
        return _response(200, "json", json_bytes(_typed(doc, field_types(ep))))

    def render_error(
        self, endpoint: Endpoint, kind: ErrorKind, fmt: str, detail: str = ""
    ) -> SimResponse:
        """``{"status","message"}`` (HTTP 200); XML for XML requests and for the corp-code ZIP."""
        err = _errors(endpoint).get(kind) or _DEFAULT_ERRORS["server_error"]
        return _error_body(endpoint, err, fmt)

    @staticmethod
    def corpcode_zip(records: Sequence[dict[str, Any]], member: str | None = None) -> bytes:
        """A deterministic corpCode ZIP: ``CORPCODE.xml`` with one ``<list>`` per record.

        >>> z = OpenDartDialect.corpcode_zip([{"corp_code": "00434003", "stock_code": " "}])
        >>> z == OpenDartDialect.corpcode_zip([{"corp_code": "00434003", "stock_code": " "}])
        True
        """
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<result>"]
        for rec in records:
            lines.append("    <list>")
            lines.extend(f"        <{k}>{xml_escape(flat_text(v))}</{k}>" for k, v in rec.items())
            lines.append("    </list>")
        lines.append("</result>")
        xml = ("\n".join(lines) + "\n").encode("utf-8")
        info = zipfile.ZipInfo(member or "CORPCODE.xml", date_time=_ZIP_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.create_system = 0
        info.external_attr = 0o644 << 16
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr(info, xml)
        return buf.getvalue()


def _xml_doc(root: ET.Element) -> dict[str, Any]:
    """An XML ``<result>`` document as the JSON-shaped dict of the same response."""
    doc: dict[str, Any] = {}
    for child in root:
        if child.tag == "list":
            doc.setdefault("list", []).append(xml_record(child))
        elif child.tag == "group":
            title = child.findtext("title") or ""
            rows = [xml_record(el) for el in child.findall("list")]
            doc.setdefault("group", []).append({"title": title, "list": rows})
        else:
            doc[child.tag] = child.text or ""
    return doc


def _groups(records: Sequence[dict[str, Any]], titles: list[str]) -> list[dict[str, Any]]:
    order = list(titles)
    by_title: dict[str, list[dict[str, Any]]] = {t: [] for t in order}
    for rec in records:
        title = str(rec.get(_GROUP_FIELD, ""))
        if title not in by_title:
            order.append(title)
            by_title[title] = []
        by_title[title].append({k: v for k, v in rec.items() if k != _GROUP_FIELD})
    return [{"title": t, "list": by_title[t]} for t in order]


def _typed(doc: dict[str, Any], types: dict[str, str]) -> dict[str, Any]:
    """Convert the rows of ``doc`` (and a flat object's fields) to their catalog JSON types."""

    def row(r: dict[str, Any]) -> dict[str, Any]:
        return {k: _to_json_value(v, types.get(k)) for k, v in r.items()}

    out: dict[str, Any] = {}
    for k, v in doc.items():
        if k == "list":
            out[k] = [row(r) for r in v]
        elif k == "group":
            out[k] = [{"title": g["title"], "list": [row(r) for r in g["list"]]} for g in v]
        elif k in _PAGING:
            out[k] = _to_json_value(v, "integer")
        elif k in ("status", "message"):
            out[k] = v
        else:
            out[k] = _to_json_value(v, types.get(k))
    return out


def _xml_doc_bytes(doc: dict[str, Any]) -> bytes:
    parts = [_XML_DECL, "<result>"]
    for k, v in doc.items():
        if k == "list":
            parts.extend(f"<list>{_xml_fields(r)}</list>" for r in v)
        elif k == "group":
            for g in v:
                rows = "".join(f"<list>{_xml_fields(r)}</list>" for r in g["list"])
                parts.append(f"<group><title>{xml_escape(g['title'])}</title>{rows}</group>")
        else:
            parts.append(f"<{k}>{xml_escape(flat_text(v))}</{k}>")
    parts.append("</result>")
    return "".join(parts).encode("utf-8")


_CONTENT_TYPES = {
    "json": "application/json;charset=UTF-8",
    "xml": "application/xml;charset=UTF-8",
    "zip": "application/zip",
}


def _response(status: int, fmt: str, body: bytes) -> SimResponse:
    return SimResponse(status, [("content-type", _CONTENT_TYPES[fmt])], body)


DIALECT = OpenDartDialect()


def _error_body(ep: Endpoint, err: Mapping[str, str], fmt: str) -> SimResponse:
    """``{"status","message"}`` of ``err`` (HTTP 200): JSON for JSON requests, else XML (and
    for the ZIP)."""
    doc = {"status": err["status"], "message": err["message"]}
    if fmt == "json" and ep.kind != "binary":
        return _response(200, "json", json_bytes(doc))
    return _response(200, "xml", _xml_doc_bytes(doc))
