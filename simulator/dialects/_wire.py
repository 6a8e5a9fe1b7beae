"""Wire helpers the dialect families share, and :class:`NativeDialect`.

* value writers: :func:`plain_text`, :func:`flat_text`, :func:`xml_value`, :func:`json_value`,
  :func:`cdata`, :func:`xml_elem`, :func:`dump_json` / :func:`raw_number`;
* body readers: :func:`parse_json`, :func:`parse_xml`, :func:`load_json_object`,
  :func:`xml_record`;
* native error tables: :data:`ErrorTable`, :func:`egov_errors` (the table the eGov open-data
  portals share: open-portal, Seoul, swopenapi);
* :class:`NativeDialect`, the base of the ``openportal``, ``seoul``, ``swopenapi`` and
  ``juso`` families: a native error table per variant, required-parameter checks, typed
  value conversion, the bare ``RESULT`` error body and small XML/JSON writers.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..catalog import Endpoint, Match
from ..errors import DialectError
from ..request import SimResponse
from .base import BaseDialect, ErrorKind, Parsed, Split, SplitError, json_bytes, xml_escape
from .compare import repair_xml

__all__ = [
    "ERROR_KIND_ORDER",
    "JSON_TYPE",
    "XML_DECL",
    "XML_TYPE",
    "ErrorTable",
    "NativeDialect",
    "cdata",
    "dump_json",
    "egov_errors",
    "as_recorded",
    "field_types",
    "recorded_types",
    "flat_text",
    "json_response",
    "json_value",
    "load_json_object",
    "parse_json",
    "parse_xml",
    "plain_text",
    "raw_number",
    "result_xml",
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


def load_json_object(endpoint: Endpoint, text: str) -> dict[str, Any]:
    """``text`` as a JSON object; anything else raises ``DialectError`` naming ``endpoint``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DialectError(f"endpoint={endpoint.id!r}: body is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise DialectError(f"endpoint={endpoint.id!r}: JSON body must be an object")
    return data


def plain_text(value: Any) -> str:
    """A value as wire text: ``None`` → ``""``, booleans in lower case, else ``str``.

    >>> [plain_text(v) for v in (None, True, 301, "a")]
    ['', 'true', '301', 'a']
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def flat_text(value: Any) -> str:
    """:func:`plain_text`, with dicts and lists written as compact JSON."""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return plain_text(value)


def field_types(ep: Endpoint) -> dict[str, str]:
    """Field name → catalog JSON type."""
    return {f.name: f.type for f in ep.fields}


_PY_JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number"}


def recorded_types(ep: Endpoint, rows: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Fields whose JSON type in ``rows`` (one type throughout) is not the catalog's: a
    version keeps the types it was recorded with (NEIS ``MLSV_FGR`` is ``"967"`` in 2022
    bodies, ``1411.00`` in 2026 ones).

    >>> from simulator.catalog import Endpoint, FieldSpec
    >>> ep = Endpoint(id="demo_meal", operation="x", summary="s", path="/x",
    ...               fields=[FieldSpec(name="MLSV_FGR", type="number")])
    >>> recorded_types(ep, [{"MLSV_FGR": "967"}, {"MLSV_FGR": "440"}])
    {'MLSV_FGR': 'string'}
    """
    catalog = field_types(ep)
    seen: dict[str, set[str]] = {}
    for row in rows:
        for k, v in row.items():
            if k in catalog and v is not None:
                seen.setdefault(k, set()).add(_PY_JSON_TYPES.get(type(v), "object"))
    out = {}
    for k, kinds in seen.items():
        if len(kinds) == 1:
            (kind,) = kinds
            want = catalog[k]
            if kind != want and not (kind == "number" and want == "integer"):
                out[k] = kind
    return out


def as_recorded(ep: Endpoint, types: Mapping[str, str]) -> Endpoint:
    """``ep`` with its field types (and fixed decimals) as a version recorded them."""
    if not types:
        return ep
    fields = [f.model_copy(update={"type": types[f.name]}) if f.name in types else f for f in ep.fields]
    floats = {k: v for k, v in (ep.opt("float_format") or {}).items() if k not in types}
    return ep.model_copy(update={"fields": fields, "options": {**ep.options, "float_format": floats}})


def result_xml(code: str, message: str, *, use_cdata: bool = False) -> str:
    """The eGov ``<RESULT><CODE>…</CODE><MESSAGE>…</MESSAGE></RESULT>`` block."""
    msg = cdata(message) if use_cdata else xml_escape(message)
    return f"<RESULT><CODE>{code}</CODE><MESSAGE>{msg}</MESSAGE></RESULT>"


# ---- the eGov open-data portals' error table ---------------------------------------------

_DAILY_LIMIT = "일별 트래픽 제한을 넘은 호출입니다. 오늘은 더이상 호출할 수 없습니다."


def native_errors(family: str) -> tuple[ErrorTable, dict[str, str]]:
    """A dialect family's error table (:func:`error_table`) and its other native codes' messages,
    as ``native_errors.yaml`` beside this module lists them."""
    import yaml
    from pathlib import Path

    data = yaml.safe_load(Path(__file__).with_name("native_errors.yaml").read_text(encoding="utf-8"))
    if family not in data:
        raise DialectError(f"native_errors.yaml has no family {family!r} (families: {', '.join(sorted(data))})")
    kinds = {str(k): (str(v[0]), str(v[1])) for k, v in data[family]["errors"].items()}
    return error_table(**kinds), {str(k): str(v) for k, v in (data[family].get("messages") or {}).items()}


def error_table(
    *,
    no_data: tuple[str, str],
    key: tuple[str, str],
    bad_param: tuple[str, str],
    missing_param: tuple[str, str],
    page_too_large: tuple[str, str],
    traffic: tuple[str, str],
    server_error: tuple[str, str],
    unknown_operation: tuple[str, str] | None = None,
) -> ErrorTable:
    """A family's table of every error kind: ``key`` answers a missing and an invalid key,
    ``traffic`` the daily quota and the rate limit, ``unknown_operation`` defaults to the
    server error (the families that send one code for both)."""
    return {
        "no_data": no_data,
        "invalid_key": key,
        "missing_key": key,
        "bad_param": bad_param,
        "missing_param": missing_param,
        "page_too_large": page_too_large,
        "quota_exceeded": traffic,
        "rate_limited": traffic,
        "server_error": server_error,
        "unknown_operation": unknown_operation or server_error,
    }


def egov_errors(
    *, key: tuple[str, str], page_too_large: tuple[str, str], server_error: tuple[str, str]
) -> ErrorTable:
    """The error table of an eGov open-data portal (open-portal, Seoul, swopenapi).

    The portals run the same software and share most codes word for word; they differ in
    the key error, the range error and the server error's contact line.
    """
    return error_table(
        no_data=("INFO-200", "해당하는 데이터가 없습니다."),
        key=key,
        bad_param=(
            "ERROR-333",
            "요청위치 값의 타입이 유효하지 않습니다.요청위치 값은 정수를 입력하세요.",
        ),
        missing_param=("ERROR-300", "필수 값이 누락되어 있습니다. 요청인자를 참고 하십시오."),
        page_too_large=page_too_large,
        # No per-second limit is documented for these portals (Seoul documents no traffic
        # code at all: unconfirmed there); the daily-limit code is their only traffic error.
        traffic=("ERROR-337", _DAILY_LIMIT),
        server_error=server_error,
        unknown_operation=(
            "ERROR-310",
            "해당하는 서비스를 찾을 수 없습니다. 요청인자 중 SERVICE를 확인하십시오.",
        ),
    )


# ---- the shared base ------------------------------------------------------------------


class NativeDialect(BaseDialect):
    """:class:`BaseDialect` plus native error tables and required-parameter checks.

    Subclasses set ``ERRORS`` (variant → kind → ``(code, message)``) and ``MESSAGES``
    (variant → further native codes → message), and implement ``parse``, ``render_page``
    (a window of records) and ``render_code`` (the body of one native code). An empty
    window renders the family's ``no_data`` error unless ``EMPTY_IS_NO_DATA`` is false.

    Parsing an error body gives ``Parsed.kind``, the kind whose native code it carries (None
    for a code no kind stands for, such as Seoul ERROR-335, or the Assembly WAF page). When
    ``render_error(kind)`` does not give the same body back, ``envelope["error"]`` keeps what
    ``render`` (and ``render_recorded_error``) need to reproduce it as recorded.
    """

    ERRORS: ClassVar[dict[str, ErrorTable]] = {}
    MESSAGES: ClassVar[dict[str, dict[str, str]]] = {}
    EMPTY_IS_NO_DATA: ClassVar[bool] = True

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

    def kind_of_code(self, ep: Endpoint, code: str) -> ErrorKind | None:
        """The first kind (``ERROR_KIND_ORDER``) whose native code is ``code``, or None.

        A body with a kind's code in other words (NEIS' own ERROR-290 text, an older
        wording) is still that error: a client must see a bad key, not "no kind".
        """
        table = self.error_table(ep)
        for kind in ERROR_KIND_ORDER:
            pair = table.get(kind)
            if pair is not None and pair[0] == code:
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
            kind = self.kind_of_code(ep, code)  # its kind, rendered as recorded
        return Parsed([], 0 if empty else None, env, "empty" if empty else "error", code, kind)

    def render_recorded_error(self, ep: Endpoint, parsed: Parsed, fmt: str) -> SimResponse | None:
        """The error body ``parsed`` was read from, where ``render_error`` writes another."""
        err = parsed.envelope.get("error")
        return None if not err else self.render_native(ep, err, fmt)

    def service_json(self, ep: Endpoint, body: bytes) -> tuple[Any, Parsed | None]:
        """Read ``{"<SERVICE>":…}``: ``(its value, None)``, or ``(None, parsed)`` for a bare
        ``{"RESULT":{"CODE","MESSAGE"}}`` error."""
        obj = parse_json(body)
        svc = service_name(ep)
        if not isinstance(obj, dict):
            raise DialectError(f"endpoint {ep.id!r}: JSON body is not an object")
        if svc in obj:
            return obj[svc], None
        result = obj.get("RESULT")
        if isinstance(result, dict) and "CODE" in result:
            return None, self.error_parsed(ep, str(result["CODE"]), str(result.get("MESSAGE", "")))
        raise DialectError(
            f"endpoint {ep.id!r}: JSON body has neither {svc!r} nor RESULT (keys {list(obj)})"
        )

    def result_parsed(
        self, ep: Endpoint, root: ET.Element, code: str = "CODE", message: str = "MESSAGE"
    ) -> Parsed | None:
        """The error of a bare XML ``<RESULT>`` body (None for any other root)."""
        if root.tag != "RESULT":
            return None
        return self.error_parsed(
            ep, (root.findtext(code) or "").strip(), (root.findtext(message) or "").strip()
        )

    @staticmethod
    def xml_count(ep: Endpoint, el: ET.Element, path: str, default: str = "") -> int:
        """The integer text at ``path`` under ``el`` (``default`` when absent)."""
        try:
            return int((el.findtext(path) or default).strip())
        except ValueError as exc:
            raise DialectError(f"endpoint {ep.id!r}: {path} is not an integer") from exc

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
        if not records and self.EMPTY_IS_NO_DATA:  # no data, or a page past the last
            return self.render_error(split.endpoint, "no_data", split.fmt)
        types = envelope.get("types")
        if types and split.fmt == "json":
            split = replace(split, endpoint=as_recorded(split.endpoint, types))
        return self.render_page(split, records, total)

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
        self, split: Split, records: Sequence[dict[str, Any]], total: int
    ) -> SimResponse:
        """A window of records in the family's success envelope (subclasses)."""
        raise NotImplementedError

    def render_code(self, ep: Endpoint, code: str, message: str, fmt: str) -> SimResponse:
        """The body of one native code (subclasses)."""
        raise NotImplementedError

    def render_result(
        self,
        ep: Endpoint,
        code: str,
        message: str,
        fmt: str,
        *,
        decl: str = "",
        use_cdata: bool = False,
    ) -> SimResponse:
        """The bare ``{"RESULT":{"CODE","MESSAGE"}}`` error body (XML: ``<RESULT>``)."""
        if fmt == "xml":
            return self.xml_out(ep, decl + result_xml(code, message, use_cdata=use_cdata))
        return self.json_out(ep, {"RESULT": {"CODE": code, "MESSAGE": message}})

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
    def json_records(self, ep: Endpoint, records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Records for a JSON body: catalog types applied, fixed-decimal numbers marked."""
        types = field_types(ep)
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

    def xml_rows(self, ep: Endpoint, records: Sequence[dict[str, Any]], *, use_cdata: bool) -> str:
        """Records as repeated ``<row>`` elements."""
        return "".join(f"<row>{self.xml_fields(ep, r, use_cdata=use_cdata)}</row>" for r in records)


def json_response(obj: Any, status: int = 200, content_type: str = JSON_TYPE) -> SimResponse:
    """A JSON response written with :func:`dump_json`."""
    return SimResponse(status, [("content-type", content_type)], dump_json(obj))


def xml_response(text: str, status: int = 200, content_type: str = XML_TYPE) -> SimResponse:
    """An XML response (UTF-8)."""
    return SimResponse(status, [("content-type", content_type)], text.encode("utf-8"))


