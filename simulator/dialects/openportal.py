"""The open-portal (eGov 열린데이터 portal) head/row family: NEIS and the National Assembly.

Wire form (apis.md §0.2, §8, §10)::

    {"<SERVICE>":[{"head":[{"list_total_count":N},
                           {"RESULT":{"CODE":"INFO-000","MESSAGE":"정상 처리되었습니다."}}]},
                  {"row":[{…},{…}]}]}

XML: root ``<SERVICE>``, one ``<head>`` with ``<list_total_count>`` and ``<RESULT>``, then
repeated ``<row>`` (field values in CDATA). ``row`` is always an array. Every non-success,
including INFO-200 (no data, or a page past the last), is a bare
``{"RESULT":{"CODE","MESSAGE"}}`` with HTTP 200.

The family is a :class:`~simulator.dialects._wire.NativeDialect`, like ``seoul``,
``swopenapi`` and ``juso``.

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
    parse_xml,
    recorded_types,
    result_xml,
    service_name,
    xml_record,
)
from .base import Parsed, Split, SplitError, Window

__all__ = ["DIALECT", "WAF_BODY", "WAF_CODE", "OpenPortalDialect"]


_OPENPORTAL_ERRORS: ErrorTable = egov_errors(
    key=(
        "ERROR-290",
        "인증키가 유효하지 않습니다. 인증키가 없는 경우, 홈페이지에서 인증키를 신청하십시오.",
    ),
    page_too_large=("ERROR-336", "데이터요청은 한번에 최대 1,000건을 넘을 수 없습니다."),
    server_error=(
        "ERROR-500",
        "서버 오류입니다. 지속적으로 발생시 홈페이지로 문의(Q&A) 바랍니다.",
    ),
)

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
        parts, error = self.service_json(ep, body)
        if error is not None:
            return error
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
        types = recorded_types(ep, rows)
        return Parsed(list(rows), total, {"types": types} if types else {})

    def _parse_xml(self, ep: Endpoint, body: bytes) -> Parsed:
        root = parse_xml(body)
        error = self.result_parsed(ep, root)
        if error is not None:
            return error
        head = root.find("head")
        if head is None:
            raise DialectError(f"endpoint {ep.id!r}: XML root <{root.tag}> has no <head>")
        code = (head.findtext("RESULT/CODE") or "").strip()
        message = (head.findtext("RESULT/MESSAGE") or "").strip()
        if code != self.SUCCESS[0]:
            return self.error_parsed(ep, code, message)
        total = self.xml_count(ep, head, "list_total_count")
        return Parsed([xml_record(r) for r in root.findall("row")], total)

    # ---- rendering -------------------------------------------------------------------
    def render_page(
        self, split: Split, records: Sequence[dict[str, Any]], total: int
    ) -> SimResponse:
        ep = split.endpoint
        svc = service_name(ep)
        code, message = self.SUCCESS
        if split.fmt == "xml":
            rows = self.xml_rows(ep, records, use_cdata=bool(ep.opt("xml_cdata", True)))
            text = (
                f"{XML_DECL}<{svc}><head><list_total_count>{total}</list_total_count>"
                f"{result_xml(code, message)}</head>{rows}</{svc}>"
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
        return self.render_result(ep, code, message, fmt, decl=XML_DECL)

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
