"""juso.go.kr road-name address APIs (``business.juso.go.kr/addrlink/*.do``, apis.md §7.1).

::

    {"results":{"common":{"errorMessage":"정상","countPerPage":"10","totalCount":"513",
                          "errorCode":"0","currentPage":"1"},
                "juso":[{"roadAddr":…,"admCd":"1165010100",…}]}}

Every count is a string. Zero hits is a success with ``"juso":[]``; an error keeps
``errorCode`` (``E0001``…) and ``errorMessage`` with ``"juso":null``, HTTP 200. The XML form is
``<results><common>…</common><juso>…</juso>…</results>``.

Searches page with ``currentPage``/``countPerPage`` (≤ 100; larger sizes are clamped, option
``oversize: clamp``) and never go past the 9,000th result: such a page is E0015
(``page_too_large``; option ``result_window``). The detail and coordinate APIs are not paged
and their ``common`` block has no paging fields.

Options: ``common_keys`` (the success ``common`` fields in wire order),
``error_common_keys`` (the error ones; default ``errorMessage, errorCode, totalCount`` as
captured), ``result_window`` (9000), ``keyword_param`` (the search word checked for the
native E0008/E0013 answers), ``errors``, ``messages``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..catalog import Endpoint, Match
from ..errors import DialectError
from ..request import SimResponse
from ._wire import (
    XML_DECL,
    ErrorTable,
    NativeDialect,
    native_errors,
    parse_json,
    parse_xml,
    plain_text,
    xml_elem,
    xml_record,
)
from .base import ErrorKind, Parsed, Split, SplitError, Window

__all__ = ["DIALECT", "JusoDialect"]

# Kind → (code, message) and the guide's other codes: native_errors.yaml (family juso).
_ERRORS, _MESSAGES = native_errors("juso")

SUCCESS = ("0", "정상")
_SEARCH_COMMON = ("errorMessage", "countPerPage", "totalCount", "errorCode", "currentPage")
_ERROR_COMMON = ("errorMessage", "errorCode", "totalCount")
_SQL_CHARS = re.compile(r"[%=><\[\]]")


class JusoDialect(NativeDialect):
    """``results.common`` (string counts) + ``juso`` list; ``null`` list on errors."""

    name = "juso"
    ERRORS: ClassVar[dict[str, ErrorTable]] = {"default": _ERRORS}
    MESSAGES: ClassVar[dict[str, dict[str, str]]] = {"default": _MESSAGES}
    EMPTY_IS_NO_DATA: ClassVar[bool] = False  # zero hits: an empty success of the window

    def common_keys(self, ep: Endpoint) -> tuple[str, ...]:
        keys = ep.opt("common_keys")
        if keys:
            return tuple(str(k) for k in keys)
        if ep.params_with_role("page", "page_size"):
            return _SEARCH_COMMON
        return _ERROR_COMMON

    def error_common_keys(self, ep: Endpoint) -> tuple[str, ...]:
        return tuple(str(k) for k in ep.opt("error_common_keys", _ERROR_COMMON))

    def is_no_data(self, ep: Endpoint, code: str) -> bool:
        return False  # zero hits is a success-shaped empty list

    # ---- splitting -------------------------------------------------------------------
    def split(self, match: Match) -> Split:
        s = super().split(match)
        ep = match.endpoint
        word_param = ep.opt("keyword_param")
        word = match.params.get(str(word_param)) if word_param else None
        if word is not None:
            if len(word.strip()) < 2:
                raise SplitError("bad_param", s.fmt, "E0008")
            if _SQL_CHARS.search(word):
                raise SplitError("bad_param", s.fmt, "E0013")
        limit = int(ep.opt("result_window", 9000))
        if ep.params_with_role("page") and s.window.offset + s.window.limit > limit:
            raise SplitError("page_too_large", s.fmt, "E0015")
        return s

    def page_requests(
        self, endpoint: Endpoint, filters: dict[str, str], total: int, fmt: str = "json"
    ) -> list[dict[str, str]]:
        """Pages of a whole result, up to the 9,000-result window the service serves."""
        pages = super().page_requests(endpoint, filters, total, fmt)
        if not endpoint.params_with_role("page"):
            return pages[:1]
        window = int(endpoint.opt("result_window", 9000))
        return pages[: max(1, window // endpoint.max_page_size)]

    # ---- parsing ---------------------------------------------------------------------
    def parse(self, endpoint: Endpoint, body: bytes, fmt: str) -> Parsed:
        ep = endpoint
        if fmt == "xml":
            root = parse_xml(body)
            common_el = root.find("common")
            if root.tag != "results" or common_el is None:
                raise DialectError(f"endpoint {ep.id!r}: XML is not <results><common>")
            common: dict[str, Any] = xml_record(common_el)
            found = root.findall("juso")
            rows: list[dict[str, Any]] | None = [xml_record(j) for j in found] if found else None
        elif fmt == "json":
            obj = parse_json(body)
            try:
                common = obj["results"]["common"]
                rows = obj["results"].get("juso")
            except (KeyError, TypeError, AttributeError) as exc:
                raise DialectError(f"endpoint {ep.id!r}: no results.common in JSON") from exc
        else:
            raise DialectError(f"endpoint {ep.id!r}: cannot parse a {fmt} body")
        code = str(common.get("errorCode", "")).strip()
        message = str(common.get("errorMessage", "")).strip()
        if code != SUCCESS[0]:
            same_shape = tuple(common) == self.error_common_keys(ep) and rows is None
            return self.error_parsed(ep, code, message, exact=same_shape, common=dict(common))
        try:
            total = int(str(common.get("totalCount", "0")).strip() or 0)
        except ValueError as exc:
            raise DialectError(f"endpoint {ep.id!r}: totalCount is not an integer") from exc
        return Parsed(list(rows or []), total)

    # ---- rendering -------------------------------------------------------------------
    def render_page(
        self, split: Split, records: Sequence[dict[str, Any]], total: int
    ) -> SimResponse:
        ep = split.endpoint
        win: Window = split.window
        values = {
            "errorMessage": SUCCESS[1],
            "countPerPage": str(win.size),
            "totalCount": str(total),
            "errorCode": SUCCESS[0],
            "currentPage": str(win.page),
        }
        common = {k: values[k] for k in self.common_keys(ep)}
        # juso values are strings on the wire, counts included.
        rows = [{k: plain_text(v) for k, v in r.items()} for r in records]
        return self._body(ep, common, rows, split.fmt)

    def render_error(
        self, endpoint: Endpoint, kind: ErrorKind, fmt: str, detail: str = ""
    ) -> SimResponse:
        if kind == "no_data":  # juso has no no-data error: zero hits is an empty success
            values = {
                "errorMessage": SUCCESS[1],
                "countPerPage": str(endpoint.default_page_size),
                "totalCount": "0",
                "errorCode": SUCCESS[0],
                "currentPage": "1",
            }
            common = {k: values[k] for k in self.common_keys(endpoint)}
            return self._body(endpoint, common, [], fmt)
        return super().render_error(endpoint, kind, fmt, detail)

    def render_native(self, ep: Endpoint, err: Mapping[str, Any], fmt: str) -> SimResponse:
        common = err.get("common")
        if isinstance(common, dict):
            return self._body(ep, dict(common), None, fmt)
        return super().render_native(ep, err, fmt)

    def render_code(self, ep: Endpoint, code: str, message: str, fmt: str) -> SimResponse:
        values = {"errorMessage": message, "errorCode": code, "totalCount": "0"}
        common = {k: values.get(k, "") for k in self.error_common_keys(ep)}
        return self._body(ep, common, None, fmt)

    def _body(
        self, ep: Endpoint, common: dict[str, Any], rows: list[dict[str, Any]] | None, fmt: str
    ) -> SimResponse:
        """``{"results":{"common":…,"juso":…}}`` or its XML form."""
        if fmt == "xml":
            head = "".join(xml_elem(k, plain_text(v)) for k, v in common.items())
            items = "".join(
                "<juso>" + "".join(xml_elem(k, plain_text(v)) for k, v in r.items()) + "</juso>"
                for r in rows or []
            )
            return self.xml_out(ep, f"{XML_DECL}<results><common>{head}</common>{items}</results>")
        return self.json_out(ep, {"results": {"common": common, "juso": rows}})


DIALECT = JusoDialect()
