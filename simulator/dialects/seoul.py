"""Path-range family with the key in the path: Seoul Open Data and Bank of Korea ECOS.

Seoul (apis.md §4.1)::

    http://openapi.seoul.go.kr:8088/{KEY}/{json|xml}/{SERVICE}/{START}/{END}/{filters…}
    {"SVC":{"list_total_count":N,
            "RESULT":{"CODE":"INFO-000","MESSAGE":"정상 처리되었습니다"},"row":[…]}}

ECOS (apis.md §6), option ``variant: ecos``::

    https://ecos.bok.or.kr/api/{Service}/{KEY}/{json|xml}/{kr|en}/{start}/{end}/{params…}
    {"StatisticSearch":{"list_total_count":N,"row":[…]}}          (no RESULT on success)

Ranges are 1-based and inclusive (``range_base: 1``). Errors are a top-level
``{"RESULT":{"CODE","MESSAGE"}}`` (XML ``<RESULT><CODE/><MESSAGE><![CDATA[…]]></MESSAGE></RESULT>``)
with HTTP 200; an empty result is INFO-200. Seoul answers some codes in XML whatever
the requested type (option ``xml_error_codes``: INFO-100 invalid key, ERROR-335, ERROR-336).

Options: ``variant`` (``seoul`` | ``ecos``), ``service``, ``xml_error_codes``,
``sample_key`` / ``sample_key_rows`` / ``sample_key_mode`` (``error``: Seoul ERROR-335;
``clamp``: ECOS serves the first rows only; see :meth:`SeoulDialect.check_key`),
``success_message``, ``errors``, ``messages``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ..catalog import Endpoint, Match
from ..errors import DialectError
from ..request import SimResponse
from ._wire import (
    XML_DECL,
    ErrorTable,
    NativeDialect,
    egov_errors,
    native_errors,
    parse_xml,
    result_xml,
    service_name,
    xml_record,
)
from .base import Parsed, Split, SplitError, Window

__all__ = ["DIALECT", "SeoulDialect"]

_SEOUL_INVALID_KEY = (
    "인증키가 유효하지 않습니다.\n"
    "인증키가 없는 경우, 열린 데이터 광장 홈페이지에서 인증키를 신청하십시오."
)

_SEOUL_ERRORS: ErrorTable = egov_errors(
    key=("INFO-100", _SEOUL_INVALID_KEY),
    page_too_large=(
        "ERROR-336",
        (
            "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다."
            "요청종료위치에서 요청시작위치를 뺀 값이 1000을 넘지 않도록 수정하세요."
        ),
    ),
    server_error=(
        "ERROR-500",
        "서버 오류입니다. 지속적으로 발생시 열린 데이터 광장으로 문의(Q&A) 바랍니다.",
    ),
)

_SEOUL_MESSAGES: dict[str, str] = {
    "ERROR-301": "파일타입 값이 누락 혹은 유효하지 않습니다. 요청인자 중 TYPE을 확인하십시오.",
    "ERROR-331": "요청시작위치 값을 확인하십시오. 요청인자 중 START_INDEX를 확인하십시오.",
    "ERROR-332": "요청종료위치 값을 확인하십시오. 요청인자 중 END_INDEX를 확인하십시오.",
    "ERROR-334": (
        "요청종료위치 보다 요청시작위치가 더 큽니다. 요청시작조회건수는 정수를 입력하세요."
    ),
    # As captured (samples/seoul_openapi/ERROR-335_*); the guide's text is longer.
    "ERROR-335": "샘플데이터는 최대 5건",
    "ERROR-600": (
        "데이터베이스 연결 오류입니다. 지속적으로 발생시 열린 데이터 광장으로 문의(Q&A) 바랍니다."
    ),
    "ERROR-601": "SQL 문장 오류 입니다. 지속적으로 발생시 열린 데이터 광장으로 문의(Q&A) 바랍니다.",
}

# ECOS developer-guide texts (codes as on the wire): native_errors.yaml (family ecos).
_ECOS_ERRORS, _ECOS_MESSAGES = native_errors("ecos")

_SUCCESS_MESSAGE = {"seoul": "정상 처리되었습니다", "ecos": "정상 처리되었습니다."}


class SeoulDialect(NativeDialect):
    """Seoul Open Data general API and ECOS: ``/{start}/{end}/`` ranges, key in the path."""

    name = "seoul"
    ERRORS: ClassVar[dict[str, ErrorTable]] = {"seoul": _SEOUL_ERRORS, "ecos": _ECOS_ERRORS}
    MESSAGES: ClassVar[dict[str, dict[str, str]]] = {
        "seoul": _SEOUL_MESSAGES,
        "ecos": _ECOS_MESSAGES,
    }
    SUCCESS_CODE = "INFO-000"

    def has_result(self, ep: Endpoint) -> bool:
        """Whether a success body carries ``RESULT`` (Seoul yes, ECOS no)."""
        return bool(ep.opt("success_result", self.variant(ep) == "seoul"))

    def success_message(self, ep: Endpoint) -> str:
        return str(ep.opt("success_message", _SUCCESS_MESSAGE[self.variant(ep)]))

    # ---- parsing ---------------------------------------------------------------------
    def parse(self, endpoint: Endpoint, body: bytes, fmt: str) -> Parsed:
        if fmt == "xml":
            return self._parse_xml(endpoint, body)
        if fmt != "json":
            raise DialectError(f"endpoint {endpoint.id!r}: cannot parse a {fmt} body")
        ep = endpoint
        inner, error = self.service_json(ep, body)
        if error is not None:
            return error
        if not isinstance(inner, dict) or "list_total_count" not in inner:
            raise DialectError(f"endpoint {ep.id!r}: {service_name(ep)!r} has no list_total_count")
        result = inner.get("RESULT")
        if isinstance(result, dict) and result.get("CODE") != self.SUCCESS_CODE:
            return self.error_parsed(ep, str(result.get("CODE")), str(result.get("MESSAGE", "")))
        rows = inner.get("row") or []
        if isinstance(rows, dict):
            rows = [rows]
        return Parsed(list(rows), int(inner["list_total_count"]))

    def _parse_xml(self, ep: Endpoint, body: bytes) -> Parsed:
        root = parse_xml(body)
        error = self.result_parsed(ep, root)
        if error is not None:
            return error
        code = (root.findtext("RESULT/CODE") or self.SUCCESS_CODE).strip()
        if code != self.SUCCESS_CODE:
            return self.error_parsed(ep, code, (root.findtext("RESULT/MESSAGE") or "").strip())
        total = self.xml_count(ep, root, "list_total_count")
        return Parsed([xml_record(r) for r in root.findall("row")], total)

    # ---- rendering -------------------------------------------------------------------
    def render_page(
        self, split: Split, records: Sequence[dict[str, Any]], total: int
    ) -> SimResponse:
        ep = split.endpoint
        svc = service_name(ep)
        with_result = self.has_result(ep)
        message = self.success_message(ep)
        if split.fmt == "xml":
            result = result_xml(self.SUCCESS_CODE, message) if with_result else ""
            rows = self.xml_rows(ep, records, use_cdata=bool(ep.opt("xml_cdata", False)))
            return self.xml_out(
                ep,
                f"{XML_DECL}<{svc}><list_total_count>{total}</list_total_count>"
                f"{result}{rows}</{svc}>",
            )
        inner: dict[str, Any] = {"list_total_count": total}
        if with_result:
            inner["RESULT"] = {"CODE": self.SUCCESS_CODE, "MESSAGE": message}
        inner["row"] = self.json_records(ep, records)
        return self.json_out(ep, {svc: inner})

    def render_code(self, ep: Endpoint, code: str, message: str, fmt: str) -> SimResponse:
        if code in (ep.opt("xml_error_codes") or []):
            fmt = "xml"  # Seoul ignores the requested type for these (apis.md §0.3)
        use_cdata = bool(ep.opt("error_cdata", True))
        return self.render_result(ep, code, message, fmt, use_cdata=use_cdata)

    # ---- key-dependent behaviour (kept out of split: replay drops keys) ---------------
    def check_key(self, match: Match) -> SplitError | None:
        """The sample key's limit: Seoul ``sample`` answers ERROR-335 past row 5.

        With ``sample_key_mode: clamp`` (ECOS: ``sample`` serves 10 rows) there is no error;
        use :meth:`sample_window`.
        """
        ep = match.endpoint
        if str(ep.opt("sample_key_mode", "error")) != "error":
            return None
        limit = self._sample_limit(match)
        if limit is None:
            return None
        fmt = self.request_format(ep, match.params)
        win = self.window(match, fmt)
        if win.offset + win.limit > limit:
            return SplitError("page_too_large", fmt, "ERROR-335")
        return None

    def sample_window(self, match: Match, window: Window) -> Window:
        """The window the sample key gets in ``clamp`` mode (ECOS: the first rows only)."""
        limit = self._sample_limit(match)
        if limit is None or str(match.endpoint.opt("sample_key_mode", "error")) != "clamp":
            return window
        keep = max(0, min(window.limit, limit - window.offset))
        return Window(window.offset, keep, window.page, window.size)

    def _sample_limit(self, match: Match) -> int | None:
        ep = match.endpoint
        sample = ep.opt("sample_key")
        if not sample or self.auth_value(match) != sample:
            return None
        return int(ep.opt("sample_key_rows", 5))


DIALECT = SeoulDialect()
