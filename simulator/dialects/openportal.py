"""The open-portal (eGov 열린데이터 portal) head/row family: NEIS and the National Assembly.

Wire form (apis.md §0.2, §8, §10)::

    {"<SERVICE>":[{"head":[{"list_total_count":N},
                           {"RESULT":{"CODE":"INFO-000","MESSAGE":"정상 처리되었습니다."}}]},
                  {"row":[{…},{…}]}]}

XML: root ``<SERVICE>``, one ``<head>`` with ``<list_total_count>`` and ``<RESULT>``, then
repeated ``<row>`` (field values in CDATA). ``row`` is always an array. Every non-success,
including INFO-200 (no data, or a page past the last), is a bare
``{"RESULT":{"CODE","MESSAGE"}}`` with HTTP 200.

This module also holds :class:`NativeDialect`, the machinery the path-range (``seoul``),
``swopenapi`` and ``juso`` families share: a native error table per variant, required
parameter checks, typed value conversion and small XML/JSON writers.

Options (endpoint or platform):

``service``          envelope key (default: the last literal path segment)
``float_format``     ``{field: ".2f"}``: write these numbers with a fixed number of decimals,
                     as the wire does (NEIS ``MLSV_FGR`` is the literal ``1411.00``)
``xml_cdata``        row values in CDATA (default true)
``keyless_rows``     NEIS: without ``KEY`` at most this many rows, ``pIndex`` fixed to 1
                     (see :meth:`OpenPortalDialect.keyless_window`)
``reject_keys``      Assembly: keys answered with ERROR-290 (``["sample"]``)
``waf_user_agent``   Assembly: a missing or ``curl/*`` User-Agent gets HTTP 400
                     ``Bad Request.`` from the edge WAF (see :meth:`OpenPortalDialect.waf_blocked`
                     and :meth:`OpenPortalDialect.render_waf`)
``errors``           ``{kind: [code, message]}`` overrides of the native error table
``messages``         ``{code: message}`` extra native codes
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..catalog import Endpoint, Match
from ..errors import DialectError
from ..request import SimResponse
from .base import BaseDialect, ErrorKind, Parsed, Split, SplitError, Window, json_bytes, xml_escape
from .compare import repair_xml

__all__ = [
    "DIALECT",
    "ERROR_KIND_ORDER",
    "JSON_TYPE",
    "WAF_BODY",
    "WAF_CODE",
    "XML_DECL",
    "XML_TYPE",
    "ErrorTable",
    "NativeDialect",
    "OpenPortalDialect",
    "cdata",
    "dump_json",
    "json_response",
    "json_value",
    "parse_json",
    "parse_xml",
    "raw_number",
    "service_name",
    "xml_elem",
    "xml_record",
    "xml_response",
    "xml_value",
]

#: Kind → (native code, native message) of one family variant.
ErrorTable = dict[str, tuple[str, str]]

JSON_TYPE = "application/json;charset=UTF-8"
XML_TYPE = "application/xml;charset=UTF-8"
XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>'

#: Order in which a native code is mapped back to an error kind (first match wins), so a
#: code shared by two kinds reads back as the more common one.
ERROR_KIND_ORDER: tuple[ErrorKind, ...] = (
    "no_data",
    "invalid_key",
    "missing_key",
    "bad_param",
    "missing_param",
    "page_too_large",
    "quota_exceeded",
    "rate_limited",
    "server_error",
    "unknown_operation",
)


# ---- small wire helpers shared by the families of this project ------------------------


def service_name(ep: Endpoint) -> str:
    """The service name of ``ep``: option ``service``, else the last literal path segment.

    >>> from simulator.catalog import Endpoint
    >>> service_name(Endpoint(id="neis_x", operation="o", summary="s", path="/hub/schoolInfo"))
    'schoolInfo'
    """
    svc = ep.opt("service")
    if svc:
        return str(svc)
    literals = [p for p in ep.path.strip("/").split("/") if p and not p.startswith("{")]
    if not literals:
        raise DialectError(f"endpoint {ep.id!r}: path has no literal segment; set option service")
    return literals[-1]


def cdata(text: str) -> str:
    """``text`` in a CDATA section (a ``]]>`` inside is split across two sections)."""
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def xml_elem(tag: str, text: str | None, *, use_cdata: bool = False) -> str:
    """One element with text content; ``None`` gives an empty element."""
    if text is None or text == "":
        return f"<{tag}></{tag}>"
    body = cdata(text) if use_cdata else xml_escape(text)
    return f"<{tag}>{body}</{tag}>"


def xml_value(value: Any, number_format: str | None = None) -> str | None:
    """A record value as XML text: numbers as the wire writes them, ``None`` as empty."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if number_format:
            return format(value, number_format)
        return str(value)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def json_value(value: Any, ftype: str | None) -> Any:
    """A record value for a JSON body: XML-sourced strings become the catalog's JSON type."""
    if not isinstance(value, str) or ftype not in ("integer", "number", "boolean"):
        return value
    text = value.strip()
    if text == "":
        return None
    try:
        if ftype == "integer":
            return int(text)
        if ftype == "number":
            return float(text.replace(",", ""))
    except ValueError:
        return value
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return value


_RAW_OPEN, _RAW_CLOSE = "\ue000", "\ue001"
_RAW_RE = re.compile('"' + _RAW_OPEN + r"([-+0-9.eE]+)" + _RAW_CLOSE + '"')


def dump_json(obj: Any, *, indent: int | None = None) -> bytes:
    """:func:`json_bytes`, with number tokens marked by :func:`raw_number` written verbatim."""
    return _RAW_RE.sub(lambda m: m.group(1), json_bytes(obj, indent=indent).decode("utf-8")).encode(
        "utf-8"
    )


def raw_number(value: float, number_format: str) -> str:
    """A marker that :func:`dump_json` writes as the bare number token ``format(value)``."""
    return f"{_RAW_OPEN}{format(value, number_format)}{_RAW_CLOSE}"


def parse_json(body: bytes) -> Any:
    """Parse a JSON body (a BOM tolerated); malformed bodies raise ``DialectError``."""
    try:
        return json.loads(body.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DialectError(f"body is not JSON: {exc}") from exc


def parse_xml(body: bytes) -> ET.Element:
    """Parse an XML body (repairing the malformed closing tags some services send)."""
    try:
        text = body.decode("utf-8-sig")
        return ET.fromstring(repair_xml(text).encode("utf-8"))
    except (UnicodeDecodeError, ET.ParseError) as exc:
        raise DialectError(f"body is not XML: {exc}") from exc


def xml_record(el: ET.Element) -> dict[str, Any]:
    """A record from an element whose children are fields (text kept as is; empty → "")."""
    return {child.tag: child.text or "" for child in el}


# ---- the shared base ------------------------------------------------------------------


class NativeDialect(BaseDialect):
    """:class:`BaseDialect` plus native error tables and required-parameter checks.

    Subclasses set ``ERRORS`` (variant → kind → ``(code, message)``) and ``MESSAGES``
    (variant → further native codes → message), and implement ``parse``, ``render_page``
    (a window of records) and ``render_code`` (the body of one native code).

    Parsing an error body gives ``Parsed.kind`` only when ``render_error(kind)`` gives the
    same code and message back; otherwise ``kind`` is None and ``envelope["error"]`` keeps
    what ``render`` needs to reproduce it (a code no kind stands for, such as Seoul
    ERROR-335, or the Assembly WAF page).
    """

    ERRORS: ClassVar[dict[str, ErrorTable]] = {}
    MESSAGES: ClassVar[dict[str, dict[str, str]]] = {}

    def variant(self, ep: Endpoint) -> str:
        """The family variant of ``ep`` (option ``variant``; default: the first table)."""
        v = str(ep.opt("variant", next(iter(self.ERRORS), "default")))
        if v not in self.ERRORS:
            raise DialectError(
                f"endpoint {ep.id!r}: option variant={v!r} is unknown to dialect {self.name!r}; "
                f"known: {', '.join(self.ERRORS)}"
            )
        return v

    def error_table(self, ep: Endpoint) -> ErrorTable:
        """Kind → (code, message) for ``ep`` (family variant, then option ``errors``)."""
        table = dict(self.ERRORS[self.variant(ep)])
        for kind, pair in (ep.opt("errors") or {}).items():
            table[str(kind)] = (str(pair[0]), str(pair[1]))
        return table

    def message_of(self, ep: Endpoint, code: str) -> str | None:
        """The native message of ``code`` (error table, family extras, option ``messages``)."""
        extra = ep.opt("messages") or {}
        if code in extra:
            return str(extra[code])
        for c, m in self.error_table(ep).values():
            if c == code:
                return m
        return self.MESSAGES.get(self.variant(ep), {}).get(code)

    def native_error(self, ep: Endpoint, kind: ErrorKind, detail: str = "") -> tuple[str, str]:
        """The (code, message) of ``kind``; a ``detail`` naming a known native code wins."""
        if detail:
            msg = self.message_of(ep, detail)
            if msg is not None:
                return detail, msg
        table = self.error_table(ep)
        if kind not in table:
            raise DialectError(f"dialect {self.name!r} has no native error for kind={kind!r}")
        return table[kind]

    def kind_of(self, ep: Endpoint, code: str, message: str) -> ErrorKind | None:
        """The kind whose native error is exactly (code, message), or None."""
        table = self.error_table(ep)
        for kind in ERROR_KIND_ORDER:
            if table.get(kind) == (code, message):
                return kind
        return None

    def is_no_data(self, ep: Endpoint, code: str) -> bool:
        """Whether ``code`` is the family's no-data answer (``Parsed.outcome == "empty"``)."""
        pair = self.error_table(ep).get("no_data")
        return pair is not None and pair[0] == code

    def error_parsed(
        self, ep: Endpoint, code: str, message: str, *, exact: bool = True, **extra: Any
    ) -> Parsed:
        """A ``Parsed`` for a native error body.

        ``kind`` is set when ``render_error(kind)`` reproduces the body (``exact`` says the
        body's shape is the one ``render_error`` writes); otherwise the envelope keeps
        ``{"error": {code, message, **extra}}`` for ``render`` to reproduce it.
        """
        kind = self.kind_of(ep, code, message) if exact else None
        empty = self.is_no_data(ep, code)
        env: dict[str, Any] = {}
        if kind is None:
            env["error"] = {"code": code, "message": message, **extra}
        return Parsed([], 0 if empty else None, env, "empty" if empty else "error", code, kind)

    # ---- splitting -------------------------------------------------------------------
    def check_required(self, match: Match, fmt: str) -> None:
        """Raise the native error for a missing required parameter (or key)."""
        for p in match.endpoint.params:
            if p.required and not match.params.get(p.name):
                kind: ErrorKind = "missing_key" if p.role == "auth" else "missing_param"
                raise SplitError(kind, fmt, f"{p.name} is required")

    def split(self, match: Match) -> Split:
        """:meth:`BaseDialect.split` after the required-parameter check."""
        self.check_required(match, self.request_format(match.endpoint, match.params))
        return super().split(match)

    def auth_value(self, match: Match) -> str | None:
        """The key the request carries (never log it)."""
        for p in match.endpoint.params_with_role("auth"):
            v = match.params.get(p.name)
            if v:
                return v
        return None

    # ---- rendering -------------------------------------------------------------------
    def render(
        self,
        split: Split,
        records: Sequence[dict[str, Any]],
        total: int,
        envelope: dict[str, Any],
    ) -> SimResponse:
        """The window in the native envelope, or the native error ``parse`` kept."""
        err = envelope.get("error")
        if err:
            return self.render_native(split.endpoint, err, split.fmt)
        return self.render_page(split, records, total, envelope)

    def render_native(self, ep: Endpoint, err: Mapping[str, Any], fmt: str) -> SimResponse:
        """Render a native error kept by ``parse`` in ``envelope["error"]``."""
        return self.render_code(ep, str(err["code"]), str(err["message"]), fmt)

    def render_error(
        self, endpoint: Endpoint, kind: ErrorKind, fmt: str, detail: str = ""
    ) -> SimResponse:
        """The native body of ``kind`` (``detail`` may name a specific native code)."""
        code, message = self.native_error(endpoint, kind, detail)
        return self.render_code(endpoint, code, message, fmt)

    def render_page(
        self,
        split: Split,
        records: Sequence[dict[str, Any]],
        total: int,
        envelope: dict[str, Any],
    ) -> SimResponse:
        """A window of records in the family's success envelope (subclasses)."""
        raise NotImplementedError

    def render_code(self, ep: Endpoint, code: str, message: str, fmt: str) -> SimResponse:
        """The body of one native code (subclasses)."""
        raise NotImplementedError

    # ---- responses -------------------------------------------------------------------
    def json_out(self, ep: Endpoint, obj: Any) -> SimResponse:
        """A JSON response with the platform's content type (option ``content_types.json``)."""
        types = ep.opt("content_types") or {}
        return json_response(obj, content_type=str(types.get("json", JSON_TYPE)))

    def xml_out(self, ep: Endpoint, text: str) -> SimResponse:
        """An XML response with the platform's content type (option ``content_types.xml``)."""
        types = ep.opt("content_types") or {}
        return xml_response(text, content_type=str(types.get("xml", XML_TYPE)))

    # ---- values ----------------------------------------------------------------------
    @staticmethod
    def field_types(ep: Endpoint) -> dict[str, str]:
        """Field name → catalog JSON type."""
        return {f.name: f.type for f in ep.fields}

    def json_records(self, ep: Endpoint, records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Records for a JSON body: catalog types applied, fixed-decimal numbers marked."""
        types = self.field_types(ep)
        floats: dict[str, str] = dict(ep.opt("float_format") or {})
        out = []
        for rec in records:
            row: dict[str, Any] = {}
            for k, v in rec.items():
                v = json_value(v, types.get(k))
                if k in floats and isinstance(v, (int, float)) and not isinstance(v, bool):
                    v = raw_number(v, floats[k])
                row[k] = v
            out.append(row)
        return out

    def xml_fields(self, ep: Endpoint, rec: Mapping[str, Any], *, use_cdata: bool) -> str:
        """A record's fields as XML elements, in record order."""
        floats: dict[str, str] = dict(ep.opt("float_format") or {})
        return "".join(
            xml_elem(k, xml_value(v, floats.get(k)), use_cdata=use_cdata) for k, v in rec.items()
        )


def json_response(obj: Any, status: int = 200, content_type: str = JSON_TYPE) -> SimResponse:
    """A JSON response written with :func:`dump_json`."""
    return SimResponse(status, [("content-type", content_type)], dump_json(obj))


def xml_response(text: str, status: int = 200, content_type: str = XML_TYPE) -> SimResponse:
    """An XML response (UTF-8)."""
    return SimResponse(status, [("content-type", content_type)], text.encode("utf-8"))


# ---- the open-portal family -----------------------------------------------------------

_OPENPORTAL_ERRORS: ErrorTable = {
    "no_data": ("INFO-200", "해당하는 데이터가 없습니다."),
    "invalid_key": (
        "ERROR-290",
        "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.",
    ),
    "missing_key": (
        "ERROR-290",
        "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.",
    ),
    "bad_param": (
        "ERROR-333",
        "요청위치 값의 타입이 유효하지 않습니다.요청위치 값은 정수를 입력하세요.",
    ),
    "missing_param": ("ERROR-300", "필수 값이 누락되어 있습니다. 요청인자를 참고 하십시오."),
    "page_too_large": ("ERROR-336", "데이터요청은 한번에 최대 1,000건을 넘을 수 없습니다."),
    "quota_exceeded": (
        "ERROR-337",
        "일별 트래픽 제한을 넘은 호출입니다. 오늘은 더이상 호출할 수 없습니다.",
    ),
    # No per-second limit is documented for the family; the daily-limit code is its only
    # traffic error.
    "rate_limited": (
        "ERROR-337",
        "일별 트래픽 제한을 넘은 호출입니다. 오늘은 더이상 호출할 수 없습니다.",
    ),
    "server_error": (
        "ERROR-500",
        "서버 오류입니다. 지속적으로 발생시 홈페이지로 문의(Q&A) 바랍니다.",
    ),
    "unknown_operation": (
        "ERROR-310",
        "해당하는 서비스를 찾을 수 없습니다. 요청인자 중 SERVICE를 확인하십시오.",
    ),
}

#: Pseudo-code of the Assembly edge WAF answer (HTTP 400, plain text ``Bad Request.``):
#: ``render_error(ep, "bad_param", fmt, detail=WAF_CODE)`` renders it.
WAF_CODE = "HTTP-400"
WAF_BODY = b"Bad Request."

_OPENPORTAL_MESSAGES: dict[str, str] = {
    WAF_CODE: WAF_BODY.decode(),
    "INFO-300": "관리자에 의해 인증키 사용이 제한되었습니다.",
    "ERROR-600": "데이터베이스 연결 오류입니다. 지속적으로 발생시 홈페이지로 문의(Q&A) 바랍니다.",
    "ERROR-601": "SQL 문장 오류 입니다. 지속적으로 발생시 홈페이지로 문의(Q&A) 바랍니다.",
}


class OpenPortalDialect(NativeDialect):
    """NEIS and 열린국회정보 (head/row envelope, bare RESULT errors)."""

    name = "openportal"
    ERRORS: ClassVar[dict[str, ErrorTable]] = {"default": _OPENPORTAL_ERRORS}
    MESSAGES: ClassVar[dict[str, dict[str, str]]] = {"default": _OPENPORTAL_MESSAGES}
    SUCCESS = ("INFO-000", "정상 처리되었습니다.")

    # ---- parsing ---------------------------------------------------------------------
    def parse(self, endpoint: Endpoint, body: bytes, fmt: str) -> Parsed:
        if fmt == "text":
            if body.strip() == WAF_BODY:
                return self.error_parsed(endpoint, WAF_CODE, WAF_BODY.decode(), status=400)
            raise DialectError(f"endpoint {endpoint.id!r}: unexpected text body {body[:60]!r}")
        if fmt == "xml":
            return self._parse_xml(endpoint, body)
        return self._parse_json(endpoint, body)

    def _parse_json(self, ep: Endpoint, body: bytes) -> Parsed:
        obj = parse_json(body)
        svc = service_name(ep)
        if not isinstance(obj, dict):
            raise DialectError(f"endpoint {ep.id!r}: JSON body is not an object")
        if svc not in obj:
            result = obj.get("RESULT")
            if isinstance(result, dict) and "CODE" in result:
                return self.error_parsed(ep, str(result["CODE"]), str(result.get("MESSAGE", "")))
            raise DialectError(
                f"endpoint {ep.id!r}: JSON body has neither {svc!r} nor RESULT (keys {list(obj)})"
            )
        parts = obj[svc]
        try:
            head = parts[0]["head"]
            total = int(head[0]["list_total_count"])
            result = head[1]["RESULT"]
            rows = parts[1]["row"] if len(parts) > 1 else []
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise DialectError(f"endpoint {ep.id!r}: malformed head/row envelope: {exc!r}") from exc
        code, message = str(result.get("CODE", "")), str(result.get("MESSAGE", ""))
        if code != self.SUCCESS[0]:
            return self.error_parsed(ep, code, message)
        if isinstance(rows, dict):  # defensive: clients say the server never does this
            rows = [rows]
        return Parsed(list(rows), total)

    def _parse_xml(self, ep: Endpoint, body: bytes) -> Parsed:
        root = parse_xml(body)
        if root.tag == "RESULT":
            return self.error_parsed(
                ep, (root.findtext("CODE") or "").strip(), (root.findtext("MESSAGE") or "").strip()
            )
        head = root.find("head")
        if head is None:
            raise DialectError(f"endpoint {ep.id!r}: XML root <{root.tag}> has no <head>")
        code = (head.findtext("RESULT/CODE") or "").strip()
        message = (head.findtext("RESULT/MESSAGE") or "").strip()
        if code != self.SUCCESS[0]:
            return self.error_parsed(ep, code, message)
        try:
            total = int((head.findtext("list_total_count") or "").strip())
        except ValueError as exc:
            raise DialectError(f"endpoint {ep.id!r}: list_total_count is not an integer") from exc
        return Parsed([xml_record(r) for r in root.findall("row")], total)

    # ---- rendering -------------------------------------------------------------------
    def render_page(
        self,
        split: Split,
        records: Sequence[dict[str, Any]],
        total: int,
        envelope: dict[str, Any],
    ) -> SimResponse:
        ep = split.endpoint
        if not records:  # no data, or a page past the last: the bare INFO-200
            return self.render_error(ep, "no_data", split.fmt)
        svc = service_name(ep)
        code, message = self.SUCCESS
        if split.fmt == "xml":
            use_cdata = bool(ep.opt("xml_cdata", True))
            rows = "".join(
                f"<row>{self.xml_fields(ep, r, use_cdata=use_cdata)}</row>" for r in records
            )
            text = (
                f"{XML_DECL}<{svc}><head><list_total_count>{total}</list_total_count>"
                f"<RESULT><CODE>{code}</CODE><MESSAGE>{xml_escape(message)}</MESSAGE></RESULT>"
                f"</head>{rows}</{svc}>"
            )
            return self.xml_out(ep, text)
        obj = {
            svc: [
                {
                    "head": [
                        {"list_total_count": total},
                        {"RESULT": {"CODE": code, "MESSAGE": message}},
                    ]
                },
                {"row": self.json_records(ep, records)},
            ]
        }
        return self.json_out(ep, obj)

    def render_code(self, ep: Endpoint, code: str, message: str, fmt: str) -> SimResponse:
        if code == WAF_CODE:
            return self.render_waf(ep)
        if fmt == "xml":
            return self.xml_out(
                ep,
                f"{XML_DECL}<RESULT><CODE>{code}</CODE>"
                f"<MESSAGE>{xml_escape(message)}</MESSAGE></RESULT>",
            )
        return self.json_out(ep, {"RESULT": {"CODE": code, "MESSAGE": message}})

    # ---- key-dependent behaviour (kept out of split: replay drops keys) ---------------
    def check_key(self, match: Match) -> SplitError | None:
        """The native error a request's key value earns, if any (Assembly ``KEY=sample``).

        Not part of ``split``: replay never sees keys, so a key rule applies only where the
        caller holds the real key (the sandbox, a live-like server).
        """
        key = self.auth_value(match)
        fmt = self.request_format(match.endpoint, match.params)
        if key is not None and key in (match.endpoint.opt("reject_keys") or []):
            return SplitError("invalid_key", fmt, "this key is not accepted")
        return None

    def keyless_window(self, match: Match, window: Window) -> Window:
        """NEIS without ``KEY``: the sample-key window (at most ``keyless_rows``, page 1)."""
        rows = match.endpoint.opt("keyless_rows")
        if rows is None or self.auth_value(match) is not None:
            return window
        n = int(rows)
        return Window(offset=0, limit=min(window.limit, n), page=1, size=n)

    @staticmethod
    def waf_blocked(ep: Endpoint, user_agent: str | None) -> bool:
        """Whether the Assembly edge WAF refuses this User-Agent (missing or ``curl/*``)."""
        if not ep.opt("waf_user_agent", False):
            return False
        ua = (user_agent or "").strip()
        return ua == "" or ua.lower().startswith("curl/")

    @staticmethod
    def render_waf(ep: Endpoint) -> SimResponse:
        """The WAF's answer: HTTP 400, the 12-byte plain text ``Bad Request.``."""
        return SimResponse(400, [("content-type", "text/plain")], WAF_BODY)


DIALECT = OpenPortalDialect()
