"""Seoul real-time subway arrival (``swopenapi.seoul.go.kr``, apis.md §4.2).

::

    http://swopenapi.seoul.go.kr/api/subway/{KEY}/json/realtimeStationArrival/{start}/{end}/{statnNm}
    {"errorMessage":{"status":200,"code":"INFO-000","message":"정상 처리되었습니다.",
                     "link":"","developerMessage":"","total":5},
     "realtimeArrivalList":[{"rowNum":1,"subwayId":"1005",…}]}

No data (or an unknown station) is a top-level
``{"status":500,"code":"INFO-200","message":…,"link":"","developerMessage":"","total":0}``;
a range over 1000 rows is the shorter ``{"status":500,"code":"ERROR-336","message":…}``.
Both come with HTTP 200. Ranges start at ``range_base`` (0 in common usage).

The XML form (root ``<SERVICE>``, a ``<RESULT>`` block with the ``errorMessage`` fields in
alphabetical order, repeated ``<row>``) is not confirmed by a capture.

Options: ``service``, ``list_name`` (default ``<service>List``), ``short_error_codes``
(codes whose body has only status/code/message; default ``["ERROR-336"]``), ``errors``,
``messages``. The real-time service has its own key and quota pool: the platform's
``key_env`` is the general API's, so the endpoint names ``key_env`` in its options
(``KOPA_KEY_SEOUL_SUBWAY``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..catalog import Endpoint
from ..errors import DialectError
from ..request import SimResponse
from ._wire import (
    ErrorTable,
    NativeDialect,
    egov_errors,
    parse_json,
    parse_xml,
    service_name,
    xml_elem,
    xml_record,
    xml_value,
)
from .base import Parsed, Split

__all__ = ["DIALECT", "SwOpenApiDialect"]

_MSG_KEY = (
    "인증키가 유효하지 않습니다. "
    "인증키가 없는 경우, 열린 데이터 광장 홈페이지에서 인증키를 신청하십시오."
)

_ERRORS: ErrorTable = egov_errors(
    key=("INFO-100", _MSG_KEY),
    page_too_large=("ERROR-336", "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다."),
    server_error=(
        "ERROR-500",
        "서버 오류입니다. 지속적으로 발생시 열린 데이터 광장으로 문의(Q&A) 바랍니다.",
    ),
)

SUCCESS = ("INFO-000", "정상 처리되었습니다.")
_FULL_KEYS = ("status", "code", "message", "link", "developerMessage", "total")
_SHORT_KEYS = ("status", "code", "message")


class SwOpenApiDialect(NativeDialect):
    """``errorMessage`` + ``<service>List`` envelope; errors as a top-level status block."""

    name = "swopenapi"
    ERRORS: ClassVar[dict[str, ErrorTable]] = {"default": _ERRORS}
    MESSAGES: ClassVar[dict[str, dict[str, str]]] = {"default": {}}

    def list_name(self, ep: Endpoint) -> str:
        return str(ep.opt("list_name", f"{service_name(ep)}List"))

    def short_codes(self, ep: Endpoint) -> list[str]:
        return [str(c) for c in ep.opt("short_error_codes", ["ERROR-336"])]

    # ---- parsing ---------------------------------------------------------------------
    def parse(self, endpoint: Endpoint, body: bytes, fmt: str) -> Parsed:
        ep = endpoint
        if fmt == "xml":
            return self._parse_xml(ep, body)
        if fmt != "json":
            raise DialectError(f"endpoint {ep.id!r}: cannot parse a {fmt} body")
        obj = parse_json(body)
        if not isinstance(obj, dict):
            raise DialectError(f"endpoint {ep.id!r}: JSON body is not an object")
        head = obj.get("errorMessage")
        if isinstance(head, dict):
            code = str(head.get("code", ""))
            if code != SUCCESS[0]:
                return self.error_parsed(ep, code, str(head.get("message", "")))
            rows = obj.get(self.list_name(ep))
            if rows is None:  # another list name than the option says: take the one list
                lists = [v for k, v in obj.items() if k != "errorMessage" and isinstance(v, list)]
                rows = lists[0] if lists else []
            return Parsed(list(rows), int(head.get("total", len(rows))))
        if "code" in obj and "status" in obj:
            code, message = str(obj["code"]), str(obj.get("message", ""))
            same_shape = tuple(obj) == self._error_keys(ep, code)
            return self.error_parsed(ep, code, message, exact=same_shape, keys=list(obj))
        raise DialectError(f"endpoint {ep.id!r}: JSON body has neither errorMessage nor code")

    def _parse_xml(self, ep: Endpoint, body: bytes) -> Parsed:
        root = parse_xml(body)
        error = self.result_parsed(ep, root, "code", "message")
        if error is not None:
            return error
        code = (root.findtext("RESULT/code") or "").strip()
        if code != SUCCESS[0]:
            return self.error_parsed(ep, code, (root.findtext("RESULT/message") or "").strip())
        rows = [xml_record(r) for r in root.findall("row")]
        return Parsed(rows, self.xml_count(ep, root, "RESULT/total", str(len(rows))))

    # ---- rendering -------------------------------------------------------------------
    def _error_keys(self, ep: Endpoint, code: str) -> tuple[str, ...]:
        return _SHORT_KEYS if code in self.short_codes(ep) else _FULL_KEYS

    @staticmethod
    def _status_block(status: int, code: str, message: str, total: int) -> dict[str, Any]:
        return {
            "status": status,
            "code": code,
            "message": message,
            "link": "",
            "developerMessage": "",
            "total": total,
        }

    def render_page(
        self, split: Split, records: Sequence[dict[str, Any]], total: int
    ) -> SimResponse:
        ep = split.endpoint
        block = self._status_block(200, SUCCESS[0], SUCCESS[1], total)
        if split.fmt == "xml":
            svc = service_name(ep)
            rows = self.xml_rows(ep, records, use_cdata=False)
            return self.xml_out(ep, f"<{svc}>{_xml_block(block)}{rows}</{svc}>")
        return self.json_out(
            ep, {"errorMessage": block, self.list_name(ep): self.json_records(ep, records)}
        )

    def render_native(self, ep: Endpoint, err: Mapping[str, Any], fmt: str) -> SimResponse:
        keys = err.get("keys")
        code, message = str(err["code"]), str(err["message"])
        if not keys:
            return self.render_code(ep, code, message, fmt)
        full = self._status_block(500, code, message, 0)
        obj = {k: full.get(k, "") for k in keys}
        return self.json_out(ep, obj)

    def render_code(self, ep: Endpoint, code: str, message: str, fmt: str) -> SimResponse:
        full = self._status_block(500, code, message, 0)
        obj = {k: full[k] for k in self._error_keys(ep, code)}
        if fmt == "xml":
            return self.xml_out(ep, f"<RESULT>{_xml_fields_sorted(obj)}</RESULT>")
        return self.json_out(ep, obj)


def _xml_fields_sorted(obj: Mapping[str, Any]) -> str:
    return "".join(xml_elem(k, xml_value(obj[k])) for k in sorted(obj))


def _xml_block(block: Mapping[str, Any]) -> str:
    return f"<RESULT>{_xml_fields_sorted(block)}</RESULT>"


DIALECT = SwOpenApiDialect()
