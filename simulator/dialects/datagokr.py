"""The data.go.kr gateway family (apis.md §0.1, §0.3, §3, §11, §12.1, §12.3).

Every service behind ``apis.data.go.kr`` shares one skeleton — ``pageNo``/``numOfRows``
paging, a ``resultCode``/``resultMsg`` header, ``items``/``totalCount`` in a body and the
gateway's ``OpenAPI_ServiceResponse`` errors — but each provider varies the details. The
variants are endpoint ``options`` (data, not code); each family's (AirKorea, KMA, RTMS, …) live
once in ``datagokr_families.yaml`` and reach every endpoint of its path prefix when the catalog
loads (:mod:`simulator.catalog.datagokr_families`):

``envelope``        ``response`` (default) ``{"response":{"header":…,"body":…}}``;
                    ``bare``: RTMS JSON without the ``response`` wrapper (XML keeps it);
                    ``population``: MOIS ``{"Response":{"head":{…},"items":…}}``;
                    ``head_row``: StanReginCd ``{"StanReginCd":[{"head":[…]},{"row":[…]}]}``
``success``         ``[resultCode, resultMsg]`` of a normal answer
                    (default ``["00", "NORMAL SERVICE."]``)
``header_keys``     header (``head``) keys in order; may hold the count keys (population)
``body_keys``       body keys in order: ``items``, ``numOfRows``, ``pageNo``, ``totalCount``,
                    ``dataType`` (the format in upper case, KMA), or ``item``: the one record
                    straight in the body (``{"body":{"item":{…}}}``, K-apt's basis info)
``json_header_last``  JSON puts ``body`` before ``header`` (AirKorea)
``counts``          ``number`` or ``string``: JSON type of ``numOfRows``/``pageNo``
``total_type``      JSON type of ``totalCount`` (default: ``counts``)
``num_of_rows``     ``requested`` (echo the window size) or ``returned`` (rows on the page, NEC)
``items``           ``wrapped`` (``items.item``) or ``bare`` (``items`` is the array: G2B, AirKorea)
``single_item``     ``list`` or ``object``: one row as ``"item":{…}`` (TAGO, TourAPI, KASI)
``empty_items``     JSON value of ``items`` on an empty page (default ``""``; ``[]`` when bare)
``escape_slash``    JSON writes ``/`` as ``\\/`` (TAGO)
``coerce_numbers``  XML→JSON turns numeric strings into numbers unless that loses characters
                    (old TourAPI: ``"zipcode":"04628"`` stays a string)
``xml_decl``        the XML declaration (``encoding="utf-8"`` on RTMS, ``UTF-8`` elsewhere)
``service_name``    root name of the ``head_row`` envelope (default: the service path segment)
``gateway``         ``json`` (JSON gateway errors, XML to XML requests) or ``legacy_xml``
                    (always the legacy XML ``SERVICE ERROR`` form, TourAPI, StanReginCd)
``gateway_legacy_status``  HTTP status of legacy gateway errors (default 200)
``errors``          ErrorKind → native error spec (replaces the default spec of that kind):
                    ``{via: gateway, status, code, name, text}`` gateway envelope;
                    ``{via: header, code, msg}`` in-band header without a body (HTTP 200);
                    ``{via: result, code, msg}`` bare ``{"RESULT":{…}}`` (StanReginCd);
                    ``{via: text, status, body}`` plain text (RTMS ``Unauthorized``);
                    ``{via: empty}`` the success-shaped empty page (``no_data`` default)
                    (an endpoint's ``errors`` replaces its platform's: options merge shallowly)
``content_type``    ``{json: …, xml: …}`` Content-Type per format
``format_param``    the name of the query parameter choosing JSON or XML, for a family whose
                    catalog entries published none (MOIS 행정안전통계연보: ``type``)
``late_family``     ``{name, edition}``: a family served from a later world edition
                    (``from_edition`` in the family table); the endpoint keeps the generic
                    options, ``served_endpoint`` gives the sandbox the family's view from that
                    edition on, ``parse`` reads either shape (a family body's envelope names the
                    family) and ``render`` writes the family's shape for what was read in it

``parse`` reads every form above (and the body-only / header-only captures clients make);
``render`` writes the form the options describe.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, cast

from ..cache import BoundedCache
from ..catalog import Endpoint
from ..errors import DialectError
from ..request import SimResponse
from ._wire import field_types, flat_text
from .base import BaseDialect, ErrorKind, Parsed, Split, json_bytes, xml_escape

__all__ = ["DEFAULT_ERRORS", "DIALECT", "DataGoKrDialect"]

#: Native error of each kind, for services that do not say otherwise (data.go.kr code table,
#: apis.md §3): gateway errors for keys and unknown operations, in-band header codes for the rest.
DEFAULT_ERRORS: dict[str, dict[str, Any]] = {
    "no_data": {"via": "empty"},
    "invalid_key": {
        "via": "gateway",
        "status": 403,
        "code": "30",
        "name": "SERVICE_KEY_IS_NOT_REGISTERED_ERROR",
        "text": "등록되지 않은 서비스키",
    },
    "missing_key": {
        "via": "gateway",
        "status": 401,
        "code": "20",
        "name": "SERVICE_KEY_IS_NULL",
        "text": "서비스 접근거부",
    },
    "unknown_operation": {
        "via": "gateway",
        "status": 400,
        "code": "12",
        "name": "NO_OPENAPI_SERVICE_ERROR",
        "text": "해당 오픈API서비스가 없거나 폐기됨",
    },
    "bad_param": {"via": "header", "code": "10", "msg": "INVALID_REQUEST_PARAMETER_ERROR"},
    "page_too_large": {"via": "header", "code": "10", "msg": "INVALID_REQUEST_PARAMETER_ERROR"},
    "missing_param": {
        "via": "header",
        "code": "11",
        "msg": "NO_MANDATORY_REQUEST_PARAMETERS_ERROR",
    },
    "quota_exceeded": {
        "via": "header",
        "code": "22",
        "msg": "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR",
    },
    "rate_limited": {
        "via": "header",
        "code": "23",
        "msg": "LIMITED_NUMBER_OF_SERVICE_REQUESTS_PER_SECOND_EXCEEDS_ERROR",
    },
    "server_error": {"via": "header", "code": "01", "msg": "APPLICATION_ERROR"},
}

#: The data.go.kr result-code table (apis.md §3): the kind of a code no spec of the service
#: names, so an in-band answer such as MOLIT's ``<header><resultCode>30</resultCode>…
#: <body></body>`` reads as the error it is (a bad key), never as an empty success page.
CODE_KINDS: dict[str, ErrorKind] = {
    "01": "server_error", "02": "server_error", "03": "no_data", "04": "server_error",
    "05": "server_error", "10": "bad_param", "11": "missing_param", "12": "unknown_operation",
    "20": "invalid_key", "21": "invalid_key", "22": "quota_exceeded", "23": "rate_limited",
    "29": "invalid_key", "30": "invalid_key", "31": "invalid_key", "32": "invalid_key",
    "33": "invalid_key", "99": "server_error",
    # Providers on the eGov software behind the gateway (NEC 9760000: apis.md §11.3, the
    # guide's table): their own codes in the same header.
    "INFO-03": "no_data", "ERROR-03": "no_data", "ERROR-300": "missing_param",
    "ERROR-301": "bad_param", "ERROR-310": "unknown_operation", "ERROR-331": "bad_param",
    "ERROR-332": "bad_param", "ERROR-333": "bad_param", "ERROR-334": "bad_param",
    "ERROR-336": "page_too_large", "ERROR-337": "quota_exceeded", "ERROR-340": "missing_param",
    "ERROR-500": "server_error", "ERROR-600": "server_error", "ERROR-601": "server_error",
}

_DEFAULT_HEADER = ["resultCode", "resultMsg"]
_BOM = b"\xef\xbb\xbf"
_DEFAULT_BODY = ["items", "numOfRows", "pageNo", "totalCount"]
_POPULATION_HEAD = ["pageNo", "resultCode", "totalCount", "numOfRows", "resultMsg"]
_DEFAULT_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_CONTENT_TYPES = {
    "json": "application/json;charset=UTF-8",
    "xml": "text/xml;charset=UTF-8",
    "text": "text/plain;charset=UTF-8",
}
_INT_RE = re.compile(r"-?(0|[1-9]\d*)")
_NUM_RE = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?")


# ---- value conversion ------------------------------------------------------------------
def _to_int(value: Any) -> int | None:
    if value is None or value == "":
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise DialectError(f"count={value!r} is not an integer") from None


def _coerce_number(text: str) -> Any:
    """A number when writing it back gives the same text (old TourAPI JSON), else the text."""
    if _INT_RE.fullmatch(text):
        return int(text)
    if _NUM_RE.fullmatch(text):
        f = float(text)
        if repr(f) == text:
            return f
    return text


def _json_value(value: Any, ftype: str | None, coerce: bool) -> Any:
    """A record value for JSON: XML strings become the field's JSON type where they parse."""
    if not isinstance(value, str):
        return value
    if ftype == "integer" and _INT_RE.fullmatch(value):
        return int(value)
    if ftype == "number" and _NUM_RE.fullmatch(value):
        return int(value) if _INT_RE.fullmatch(value) else float(value)
    if ftype == "boolean" and value in ("true", "false"):
        return value == "true"
    if coerce:
        return _coerce_number(value)
    return value


def _el(tag: str, value: Any) -> str:
    text = flat_text(value)
    if text == "":
        return f"<{tag}/>"
    return f"<{tag}>{xml_escape(text)}</{tag}>"


def _xml_record(tag: str, record: dict[str, Any]) -> str:
    return f"<{tag}>" + "".join(_el(k, v) for k, v in record.items()) + f"</{tag}>"


def _element_text(el: ET.Element) -> str:
    text = el.text or ""
    # Pretty-printing whitespace (TourAPI's newline + indent) is no value; RTMS's " " is.
    if text.strip() == "" and "\n" in text:
        return ""
    return text


def _xml_rows(parent: ET.Element | None, tag: str) -> list[dict[str, Any]]:
    if parent is None:
        return []
    return [{c.tag: _element_text(c) for c in row} for row in parent if row.tag == tag]


def _json_records(items: Any) -> list[dict[str, Any]]:
    """Records of a JSON ``items``: ``""``, ``{"item":[…]}``, ``{"item":{…}}`` or ``[…]``."""
    if items is None or items == "":
        return []
    if isinstance(items, dict):
        if "item" not in items:
            return [items] if items else []
        items = items["item"]
        if items is None or items == "":
            return []
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list) or not all(isinstance(r, dict) for r in items):
        raise DialectError(f"items={str(items)[:80]!r} is not a list of records")
    return list(items)


_RowPlan = tuple[dict[str, str], tuple[tuple[str, str], ...], bool]


def _row_plan(ep: Endpoint) -> _RowPlan:
    """What ``_json_rows`` needs of ``ep``: its field types, the (name, type) of fields
    ``_json_value`` may convert, and ``coerce_numbers``. Without ``coerce_numbers`` only
    integer, number and boolean fields can change (every other value is written as read)."""
    types = field_types(ep)
    typed = tuple((k, t) for k, t in types.items() if t in ("integer", "number", "boolean"))
    return types, typed, bool(ep.opt("coerce_numbers", False))


class DataGoKrDialect(BaseDialect):
    """The data.go.kr gateway family; see the module docstring for the variant options."""

    name = "datagokr"

    def __init__(self) -> None:
        # Row plans per endpoint, by id; each entry holds its endpoint, so an id is never
        # reused while it is kept.
        self._row_plans: BoundedCache[int, tuple[Endpoint, _RowPlan]] = BoundedCache(4096)
        # Each endpoint's view in its ``late_family`` (by id, holding the endpoint): built once,
        # so a view is one object and its row plan is cached like any endpoint's.
        self._views: dict[int, tuple[Endpoint, Endpoint]] = {}

    def _row_plan(self, ep: Endpoint) -> _RowPlan:
        hit = self._row_plans.get(id(ep))
        if hit is None or hit[0] is not ep:
            hit = (ep, _row_plan(ep))
            self._row_plans.put(id(ep), hit)
        return hit[1]

    # ---- a family served from a later world edition (option ``late_family``) ---------
    def family_view(self, ep: Endpoint) -> Endpoint | None:
        """``ep`` as its ``late_family`` serves it: the family's envelope options over the
        endpoint's, and the family's ``format_param`` where the endpoint has no format
        parameter (None: no late family)."""
        late = ep.opt("late_family")
        if not late:
            return None
        hit = self._views.get(id(ep))
        if hit is not None and hit[0] is ep:
            return hit[1]
        from ..catalog.datagokr_families import family_named

        fam = family_named(str(late["name"]))
        raw = ep.model_dump(by_alias=True)
        raw["options"] = {**ep.options, **fam.options, "family": fam.name}
        fparam = fam.options.get("format_param")
        if fparam and not ep.params_with_role("format") and ep.param(str(fparam)) is None:
            raw["params"].append({
                "name": str(fparam), "role": "format", "default": "xml",
                "description": "호출문서(xml, json)", "description_en": "answer format (json or xml)",
            })
        view = Endpoint.model_validate(raw)
        self._views[id(ep)] = (ep, view)
        return view

    def served_endpoint(self, ep: Endpoint, edition: int) -> Endpoint:
        """The endpoint the sandbox's world ``edition`` serves for ``ep``: its ``late_family``
        view from the family's edition on, else ``ep`` itself (the bytes older editions served)."""
        late = ep.opt("late_family")
        if not late or edition < int(late["edition"]):
            return ep
        return self.family_view(ep) or ep

    def _family_shaped(self, text: str, fmt: str) -> bool:
        """Whether ``text`` is in the head/row family shape or its bare ``RESULT`` (not the
        generic ``response`` envelope, the population ``Response`` or a gateway error)."""
        try:
            if fmt == "json":
                obj = json.loads(text)
                return isinstance(obj, dict) and (
                    set(obj) == {"RESULT"}
                    or (len(obj) == 1 and isinstance(next(iter(obj.values())), list)))
            if fmt == "xml":
                root = ET.fromstring(text.strip().encode("utf-8"))
                return root.tag == "RESULT" or (
                    root.tag not in ("response", "Response", "OpenAPI_ServiceResponse")
                    and root.find("head") is not None)
        except (json.JSONDecodeError, ET.ParseError):
            return False
        return False

    # ---- options ---------------------------------------------------------------------
    def errors(self, ep: Endpoint) -> dict[str, dict[str, Any]]:
        """The endpoint's ErrorKind → native error spec table (defaults + ``errors`` option)."""
        table = dict(DEFAULT_ERRORS)
        table.update(ep.opt("errors", {}) or {})
        return table

    def _success(self, ep: Endpoint) -> tuple[str, str]:
        code, msg = ep.opt("success", ["00", "NORMAL SERVICE."])
        return str(code), str(msg)

    def _envelope(self, ep: Endpoint) -> str:
        return str(ep.opt("envelope", "response"))

    def _service_name(self, ep: Endpoint) -> str:
        name = ep.opt("service_name")
        if name:
            return str(name)
        parts = [p for p in ep.path.split("/") if p]
        return parts[-2] if len(parts) >= 2 else parts[0]

    def _fmt(self, ep: Endpoint, fmt: str) -> str:
        return fmt if fmt in ("json", "xml") else str(ep.opt("default_format", "xml"))

    def _response(self, ep: Endpoint, status: int, fmt: str, body: bytes) -> SimResponse:
        types = {**_CONTENT_TYPES, **(ep.opt("content_type", {}) or {})}
        return SimResponse(status, [("content-type", types.get(fmt, types["text"]))], body)

    def _decl(self, ep: Endpoint) -> str:
        return str(ep.opt("xml_decl", _DEFAULT_DECL))

    def _dump(self, ep: Endpoint, obj: Any) -> bytes:
        return json_bytes(obj, escape_slash=bool(ep.opt("escape_slash", False)))

    def _kind_of(self, ep: Endpoint, via: str, code: str) -> ErrorKind | None:
        """The first ErrorKind with a ``via`` spec of ``code`` (endpoint table, then defaults)."""
        for table in (self.errors(ep), DEFAULT_ERRORS):
            for kind, spec in table.items():
                if spec.get("via") == via and str(spec.get("code")) == code:
                    return cast(ErrorKind, kind)
        return CODE_KINDS.get(code)

    # ---- parsing ---------------------------------------------------------------------
    def parse(self, endpoint: Endpoint, body: bytes, fmt: str) -> Parsed:
        if endpoint.opt("late_family") and not endpoint.opt("family"):
            # A body its late family served (from the family's world edition on) is read as
            # the family's and says so, so it renders back in that shape.
            view = self.family_view(endpoint)
            if view is not None and self._family_shaped(body.decode("utf-8-sig", "replace"), fmt):
                parsed = self.parse(view, body, fmt)
                parsed.envelope = {**parsed.envelope, "family": view.opt("family")}
                return parsed
        parsed = self._parse(endpoint, body, fmt)
        if body.startswith(_BOM) and parsed.outcome == "ok":
            parsed.envelope = {**parsed.envelope, "bom": True}  # rendered back as recorded
        return parsed

    def _parse(self, endpoint: Endpoint, body: bytes, fmt: str) -> Parsed:
        try:
            text = body.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise DialectError(f"endpoint={endpoint.id!r}: body is not UTF-8: {exc}") from None
        if fmt == "json":
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise DialectError(f"endpoint={endpoint.id!r}: body is not JSON: {exc}") from None
            return self._parse_json(endpoint, obj)
        if fmt == "xml":
            try:
                root = ET.fromstring(text.strip().encode("utf-8"))
            except ET.ParseError as exc:
                raise DialectError(f"endpoint={endpoint.id!r}: body is not XML: {exc}") from None
            return self._parse_xml(endpoint, root)
        return self._parse_text(endpoint, text)

    def _parse_text(self, ep: Endpoint, text: str) -> Parsed:
        stripped = text.strip()
        for kind, spec in self.errors(ep).items():
            if spec.get("via") == "text" and str(spec.get("body", "")).strip() == stripped:
                return Parsed([], None, outcome="error", code=stripped, kind=cast(ErrorKind, kind))
        if stripped == "Unauthorized":  # the gateway's plain 401 (RTMS)
            return Parsed([], None, outcome="error", code=stripped, kind="missing_key")
        raise DialectError(
            f"endpoint={ep.id!r}: body {stripped[:60]!r} is neither JSON nor XML nor a known "
            "gateway text"
        )

    def _status(
        self, ep: Endpoint, via: str, code: str, recorded: dict[str, Any] | None = None
    ) -> Parsed:
        """Parsed form of a non-success answer (``via`` says where its code was found).

        ``recorded`` is the shape of an in-band header answer (code, message, body as sent),
        kept in the envelope so ``render_recorded_error`` writes back what was recorded.
        """
        kind = self._kind_of(ep, via, code)
        env = {"error": recorded} if recorded is not None else {}
        if kind == "no_data":
            return Parsed([], 0, env, outcome="empty", code=code, kind=kind)
        return Parsed([], None, env, outcome="error", code=code, kind=kind)

    def _page(self, records: list[dict[str, Any]], total: int | None) -> Parsed:
        if not records and not total:
            return Parsed(records, total, outcome="empty")
        return Parsed(records, total, outcome="ok")

    def _parse_json(self, ep: Endpoint, obj: Any) -> Parsed:
        if not isinstance(obj, dict):
            raise DialectError(
                f"endpoint={ep.id!r}: JSON body is a {type(obj).__name__}, not an object"
            )
        if "OpenAPI_ServiceResponse" in obj:
            head = (obj["OpenAPI_ServiceResponse"] or {}).get("cmmMsgHeader") or {}
            return self._status(ep, "gateway", str(head.get("returnReasonCode", "")))
        if set(obj) == {"RESULT"}:
            result = obj["RESULT"] or {}
            return self._status(ep, "result", str(result.get("resultCode", "")))
        if len(obj) == 1 and isinstance(next(iter(obj.values())), list):
            return self._parse_head_row_json(ep, next(iter(obj.values())))
        if "Response" in obj:
            resp = obj["Response"] or {}
            head = resp.get("head") or {}
            code = str(head.get("resultCode", ""))
            if code != self._success(ep)[0]:
                return self._status(ep, "header", code)
            return self._page(_json_records(resp.get("items")), _to_int(head.get("totalCount")))
        root = obj.get("response", obj)
        if not isinstance(root, dict):
            raise DialectError(f"endpoint={ep.id!r}: 'response' is not an object")
        header = root.get("header")
        body = root.get("body")
        if header is None and body is None and "items" in root:
            body = root  # a body-only capture (G2B sample)
        if header is None and body is None:
            raise DialectError(
                f"endpoint={ep.id!r}: JSON has neither header nor body (keys {list(root)[:6]})"
            )
        if header is not None:
            code = str(header.get("resultCode", ""))
            if code != self._success(ep)[0]:
                shape = {"code": code, "msg": str(header.get("resultMsg", "")), "wrapped": "response" in obj}
                if body is not None:
                    shape["body"] = body
                return self._status(ep, "header", code, {"via": "header", **shape})
        if not isinstance(body, dict):
            return self._page([], None)
        if "items" not in body and "item" in body:  # one record straight in the body (K-apt)
            return self._page(_json_records({"item": body["item"]}), _to_int(body.get("totalCount")))
        return self._page(_json_records(body.get("items")), _to_int(body.get("totalCount")))

    def _parse_head_row_json(self, ep: Endpoint, parts: list[Any]) -> Parsed:
        head: dict[str, Any] = {}
        rows: list[dict[str, Any]] = []
        for part in parts:
            if not isinstance(part, dict):
                raise DialectError(
                    f"endpoint={ep.id!r}: head/row part {part!r:.60} is not an object"
                )
            for entry in part.get("head", []):
                head.update(entry)
            if "row" in part:
                rows = _json_records(part["row"])
        result = head.get("RESULT") or {}
        code = str(result.get("resultCode", ""))
        if code != self._success(ep)[0]:
            return self._status(ep, "result", code)
        return self._page(rows, _to_int(head.get("totalCount")))

    def _parse_xml(self, ep: Endpoint, root: ET.Element) -> Parsed:
        tag = root.tag
        if tag == "OpenAPI_ServiceResponse":
            return self._status(
                ep, "gateway", root.findtext("cmmMsgHeader/returnReasonCode", "").strip()
            )
        if tag == "RESULT":
            return self._status(ep, "result", root.findtext("resultCode", "").strip())
        if tag == "Response":
            head = root.find("head")
            code = (head.findtext("resultCode", "") if head is not None else "").strip()
            if code != self._success(ep)[0]:
                return self._status(ep, "header", code)
            total = _to_int(head.findtext("totalCount") if head is not None else None)
            return self._page(_xml_rows(root.find("items"), "item"), total)
        if tag == "response":
            header_code = root.findtext("header/resultCode")
            if header_code is not None and header_code.strip() != self._success(ep)[0]:
                shape = {"code": header_code.strip(), "msg": root.findtext("header/resultMsg", "")}
                if root.find("body") is not None:
                    shape["body"] = {}  # ``<body></body>``: no records, nothing else
                return self._status(ep, "header", header_code.strip(), {"via": "header", **shape})
            body = root.find("body")
            if body is None:
                return self._page([], None)
            if body.find("items") is None and body.find("item") is not None:  # one record in the body
                return self._page(_xml_rows(body, "item"), _to_int(body.findtext("totalCount")))
            return self._page(
                _xml_rows(body.find("items"), "item"), _to_int(body.findtext("totalCount"))
            )
        # head/row hybrid: <StanReginCd><head>…<RESULT>…</RESULT></head><row>…</row>…
        head_el = root.find("head")
        if head_el is None:
            raise DialectError(f"endpoint={ep.id!r}: unknown XML root <{tag}>")
        code = head_el.findtext("RESULT/resultCode", "").strip()
        if code != self._success(ep)[0]:
            return self._status(ep, "result", code)
        return self._page(_xml_rows(root, "row"), _to_int(head_el.findtext("totalCount")))

    # ---- rendering -------------------------------------------------------------------
    def render(
        self,
        split: Split,
        records: Sequence[dict[str, Any]],
        total: int,
        envelope: dict[str, Any],
    ) -> SimResponse:
        ep = split.endpoint
        if envelope.get("family") and not ep.opt("family"):  # read in its late family's shape
            ep = self.family_view(ep) or ep
            split = replace(split, endpoint=ep)
        fmt = self._fmt(ep, split.fmt)
        if not records and total == 0 and self.errors(ep)["no_data"].get("via") != "empty":
            return self.render_error(ep, "no_data", fmt)
        page = self._render_page(
            ep, fmt, list(records), total, split.window.page, split.window.size
        )
        if envelope.get("bom"):  # a version recorded from a service that sends one
            page.body = _BOM + page.body
        return page

    def _render_page(
        self,
        ep: Endpoint,
        fmt: str,
        records: list[dict[str, Any]],
        total: int,
        page: int,
        size: int,
    ) -> SimResponse:
        code, msg = self._success(ep)
        rows = len(records) if ep.opt("num_of_rows", "requested") == "returned" else size
        counts = {"numOfRows": rows, "pageNo": page, "totalCount": total}
        env = self._envelope(ep)

        def value(key: str) -> Any:
            if key == "resultCode":
                return code
            if key == "resultMsg":
                return msg
            if key in ("dataType", "type"):
                return fmt.upper()
            if key in counts:
                if fmt == "xml":
                    return str(counts[key])
                kind = ep.opt("counts", "number")
                if key == "totalCount":
                    kind = ep.opt("total_type", kind)
                return str(counts[key]) if kind == "string" else counts[key]
            raise DialectError(f"endpoint={ep.id!r}: unknown envelope key={key!r} in options")

        if env == "head_row":
            body = self._head_row(ep, fmt, records, value)
        elif env == "population":
            body = self._population(ep, fmt, records, value)
        else:
            body = self._standard(ep, fmt, records, value)
        return self._response(ep, 200, fmt, body)

    def _json_rows(self, ep: Endpoint, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        types, typed, coerce = self._row_plan(ep)
        if coerce:
            return [{k: _json_value(v, types.get(k), True) for k, v in r.items()} for r in records]
        if not typed:
            # Every value of every record stays as it is (string fields, no coercion).
            return records
        out = []
        for r in records:
            row = r
            for k, ftype in typed:
                v = r.get(k)
                if isinstance(v, str):
                    nv = _json_value(v, ftype, False)
                    if nv is not v:
                        if row is r:
                            row = dict(r)
                        row[k] = nv
            out.append(row)
        return out

    def _json_items(self, ep: Endpoint, records: list[dict[str, Any]]) -> Any:
        bare = ep.opt("items", "wrapped") == "bare"
        if not records:
            return ep.opt("empty_items", [] if bare else "")
        rows = self._json_rows(ep, records)
        if bare:
            return rows
        if len(rows) == 1 and ep.opt("single_item", "list") == "object":
            return {"item": rows[0]}
        return {"item": rows}

    def _xml_items(self, records: list[dict[str, Any]]) -> str:
        if not records:
            return "<items/>"
        return "<items>" + "".join(_xml_record("item", r) for r in records) + "</items>"

    def _standard(self, ep: Endpoint, fmt: str, records: list[dict[str, Any]], value: Any) -> bytes:
        header_keys = ep.opt("header_keys", _DEFAULT_HEADER)
        body_keys = ep.opt("body_keys", _DEFAULT_BODY)
        if fmt == "xml":
            header = "".join(_el(k, value(k)) for k in header_keys)
            parts = [
                self._xml_items(records) if k == "items"
                else ("".join(_xml_record("item", r) for r in records[:1]) if k == "item" else _el(k, value(k)))
                for k in body_keys
            ]
            xml = f"<response><header>{header}</header><body>{''.join(parts)}</body></response>"
            return (self._decl(ep) + xml).encode("utf-8")
        header_obj = {k: value(k) for k in header_keys}
        body_obj = {
            k: self._json_items(ep, records) if k == "items"
            else ((self._json_rows(ep, records[:1]) or [""])[0] if k == "item" else value(k))
            for k in body_keys
        }
        sections = [("header", header_obj), ("body", body_obj)]
        if ep.opt("json_header_last", False):
            sections.reverse()
        inner = dict(sections)
        obj = inner if self._envelope(ep) == "bare" else {"response": inner}
        return self._dump(ep, obj)

    def _population(
        self, ep: Endpoint, fmt: str, records: list[dict[str, Any]], value: Any
    ) -> bytes:
        head_keys = ep.opt("header_keys", _POPULATION_HEAD)
        if fmt == "xml":
            head = "".join(_el(k, value(k)) for k in head_keys)
            xml = f"<Response><head>{head}</head>{self._xml_items(records)}</Response>"
            return (self._decl(ep) + xml).encode("utf-8")
        obj = {
            "Response": {
                "head": {k: value(k) for k in head_keys},
                "items": self._json_items(ep, records),
            }
        }
        return self._dump(ep, obj)

    def _head_row(self, ep: Endpoint, fmt: str, records: list[dict[str, Any]], value: Any) -> bytes:
        name = self._service_name(ep)
        code, msg = self._success(ep)
        if fmt == "xml":
            head = "".join(_el(k, value(k)) for k in ("totalCount", "numOfRows", "pageNo", "type"))
            result = f"<RESULT>{_el('resultCode', code)}{_el('resultMsg', msg)}</RESULT>"
            rows = "".join(_xml_record("row", r) for r in records)
            xml = f"<{name}><head>{head}{result}</head>{rows}</{name}>"
            return (self._decl(ep) + xml).encode("utf-8")
        head_list = [
            {"totalCount": value("totalCount")},
            {"numOfRows": value("numOfRows"), "pageNo": value("pageNo"), "type": value("type")},
            {"RESULT": {"resultCode": code, "resultMsg": msg}},
        ]
        obj = {name: [{"head": head_list}, {"row": self._json_rows(ep, records)}]}
        return self._dump(ep, obj)

    # ---- errors ----------------------------------------------------------------------
    def render_error(
        self, endpoint: Endpoint, kind: ErrorKind, fmt: str, detail: str = ""
    ) -> SimResponse:
        ep = endpoint
        spec = self.errors(ep).get(kind)
        if spec is None:
            raise DialectError(f"endpoint={ep.id!r}: no native error for kind={kind!r}")
        via = spec.get("via")
        fmt = self._fmt(ep, fmt)
        if via == "empty":
            return self._render_page(ep, fmt, [], 0, 1, ep.default_page_size)
        if via == "text":
            body = str(spec.get("body", "")).encode("utf-8")
            return self._response(ep, int(spec.get("status", 401)), "text", body)
        if via == "gateway":
            return self._gateway(ep, spec, fmt)
        code, msg = str(spec.get("code", "")), str(spec.get("msg", ""))
        if via == "result":
            if fmt == "xml":
                xml = f"<RESULT>{_el('resultCode', code)}{_el('resultMsg', msg)}</RESULT>"
                return self._response(ep, 200, fmt, (self._decl(ep) + xml).encode("utf-8"))
            obj: Any = {"RESULT": {"resultCode": code, "resultMsg": msg}}
            return self._response(ep, 200, fmt, self._dump(ep, obj))
        if via == "header":
            return self._header_only(ep, fmt, code, msg)
        raise DialectError(
            f"endpoint={ep.id!r}: errors.{kind}.via={via!r} is not one of "
            "gateway, header, result, text, empty"
        )

    def render_recorded_error(self, ep: Endpoint, parsed: Parsed, fmt: str) -> SimResponse | None:
        """The in-band error ``parsed`` was read from, as recorded (None: no such shape).

        A version recorded when a service answered a bad key in-band (MOLIT's
        ``<header><resultCode>30</resultCode>…</header><body></body>``) keeps that shape,
        even where the catalog's ``invalid_key`` is today's gateway 403.
        """
        if parsed.envelope.get("family") and parsed.kind is not None and not ep.opt("family"):
            view = self.family_view(ep)  # read in its late family's shape: rendered in it
            if view is not None:
                return self.render_error(view, parsed.kind, fmt)
        shape = parsed.envelope.get("error")
        if not shape or shape.get("via") != "header":
            return None
        return self._header_only(
            ep, self._fmt(ep, fmt), str(shape["code"]), str(shape["msg"]), shape.get("body"),
            wrapped=shape.get("wrapped"),
        )

    def _header_only(
        self, ep: Endpoint, fmt: str, code: str, msg: str, body: Any = None,
        *, wrapped: bool | None = None,
    ) -> SimResponse:
        """An in-band error: the header (``head``) with no body, HTTP 200 (KMA ``03 NO_DATA``);
        ``body`` (an empty ``{}``) adds the empty body element some services send, ``wrapped``
        overrides whether JSON sits in ``{"response": …}`` (as recorded)."""
        env = self._envelope(ep)
        keys = [
            k for k in ep.opt("header_keys", _DEFAULT_HEADER) if k in ("resultCode", "resultMsg")
        ]
        keys = keys or ["resultCode", "resultMsg"]
        values = {"resultCode": code, "resultMsg": msg}
        section = "head" if env == "population" else "header"
        root = "Response" if env == "population" else "response"
        if fmt == "xml":
            inner = "".join(_el(k, values[k]) for k in keys)
            tail = "<body></body>" if body is not None else ""
            xml = f"<{root}><{section}>{inner}</{section}>{tail}</{root}>"
            return self._response(ep, 200, fmt, (self._decl(ep) + xml).encode("utf-8"))
        head: dict[str, Any] = {section: {k: values[k] for k in keys}}
        if body is not None:
            head["body"] = body
        bare = env == "bare" if wrapped is None else not wrapped
        obj = head if bare else {root: head}
        return self._response(ep, 200, fmt, self._dump(ep, obj))

    def _gateway(self, ep: Endpoint, spec: dict[str, Any], fmt: str) -> SimResponse:
        """``OpenAPI_ServiceResponse/cmmMsgHeader``: new JSON/XML form or the legacy XML form."""
        code, name = str(spec.get("code", "")), str(spec.get("name", ""))
        if ep.opt("gateway", "json") == "legacy_xml":
            head = {"errMsg": "SERVICE ERROR", "returnAuthMsg": name, "returnReasonCode": code}
            status = int(ep.opt("gateway_legacy_status", 200))
            fmt = "xml"
        else:
            head = {
                "errMsg": name,
                "returnAuthMsg": str(spec.get("text", "")),
                "returnReasonCode": code,
            }
            status = int(spec.get("status", 403))
        if fmt == "xml":
            inner = "".join(_el(k, v) for k, v in head.items())
            xml = (
                f"<OpenAPI_ServiceResponse><cmmMsgHeader>{inner}</cmmMsgHeader>"
                "</OpenAPI_ServiceResponse>"
            )
            return self._response(ep, status, "xml", xml.encode("utf-8"))
        obj = {"OpenAPI_ServiceResponse": {"cmmMsgHeader": head}}
        return self._response(ep, status, "json", json_bytes(obj))


DIALECT = DataGoKrDialect()
