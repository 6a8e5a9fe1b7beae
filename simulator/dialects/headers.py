"""Native response headers declared per endpoint (option ``response_headers``).

Clients read more than the body: dart-fss saves ``corpCode.xml`` under the file name of its
``Content-Disposition: attachment; filename=CORPCODE.zip`` and refuses an answer without one.
An endpoint (or platform) declares such headers by the format of the body they go with::

    options:
      response_headers:
        zip: {content-disposition: "attachment; filename=CORPCODE.zip"}
        json: {content-type: "application/json;charset=UTF-8"}

A declared header replaces the dialect's (so ``content-type`` can be set per endpoint too);
error bodies (XML instead of the ZIP) get only what their own format declares.
"""

from __future__ import annotations

from ..catalog import Endpoint
from ..request import SimResponse

__all__ = ["native_headers", "sniff_format"]


def sniff_format(body: bytes) -> str:
    r"""``json``, ``xml``, ``zip`` or ``text``, from the body itself (errors ignore the flag).

    >>> sniff_format(b"\xef\xbb\xbf<response/>")
    'xml'
    """
    if body[:4] == b"PK\x03\x04":
        return "zip"
    head = body.lstrip(b"\xef\xbb\xbf \r\n\t")[:1]
    if head in (b"{", b"["):
        return "json"
    if head == b"<":
        return "xml"
    return "text"


def native_headers(ep: Endpoint, resp: SimResponse) -> SimResponse:
    """``resp`` with the headers ``ep`` declares for its body's format (in place)."""
    declared = ep.opt("response_headers")
    if not declared:
        return resp
    for name, value in (declared.get(sniff_format(resp.body)) or {}).items():
        resp.set_header(str(name).lower(), str(value))
    return resp
