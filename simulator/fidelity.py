"""Fidelity: parse a recorded native body and render it back (``simulator fidelity``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .catalog import Catalog
from .dialects import equivalent, get_dialect
from .dialects.base import SplitError
from .dialects.headers import sniff_format
from .errors import DialectError
from .request import SimRequest

__all__ = ["FidelityResult", "check_fidelity", "sniff_format"]


@dataclass
class FidelityResult:
    endpoint: str
    fmt: str
    outcome: str
    differences: list[str] = field(default_factory=list)
    rendered: bytes = b""

    @property
    def ok(self) -> bool:
        return not self.differences


def check_fidelity(catalog: Catalog, url: str, body: bytes, *, status: int = 200) -> FidelityResult:
    """Parse ``body`` (recorded for ``url``) and render it back; list the differences.

    Raises ``UnknownEndpoint`` if the catalog does not serve ``url``, and ``DialectError`` if
    ``url`` is not a request the platform answers with records (a required parameter missing):
    a body can only be rendered back for the request it answered.
    """
    req = SimRequest.from_url(url)
    match = catalog.match(req)
    ep = match.endpoint
    dialect = get_dialect(ep.dialect)
    fmt = sniff_format(body)
    parsed = dialect.parse(ep, body, fmt)
    if parsed.outcome != "ok" and parsed.kind is not None:
        rendered = dialect.render_error(ep, parsed.kind, fmt)
        # A body recorded in an older (or other) error shape of the same kind renders back
        # as recorded where the dialect kept that shape (datagokr in-band header errors).
        as_recorded = getattr(dialect, "render_recorded_error", None)
        if as_recorded is not None and (
            rendered.status != status or equivalent(body, rendered.body, fmt)
        ):
            kept = as_recorded(ep, parsed, fmt)
            if kept is not None:
                rendered = kept
    else:
        try:
            split = replace(dialect.split(match), fmt=fmt)
        except SplitError as exc:
            from .secrets import redact_url

            raise DialectError(
                f"request={redact_url(req, catalog)!r} is not one {ep.id} answers with records ({exc.kind}: {exc.detail}): "
                "pass the complete --request URL the body answered"
            ) from None
        total = parsed.total if parsed.total is not None else len(parsed.records)
        rendered = dialect.render(split, parsed.records, total, parsed.envelope)
    diffs = equivalent(body, rendered.body, fmt)
    if rendered.status != status:
        diffs.insert(0, f"status {status} != rendered {rendered.status}")
    return FidelityResult(ep.id, fmt, parsed.outcome, diffs, rendered.body)
