"""A loopback stand-in upstream for endpoints the catalog does not list (tests only).

It serves ``/{host}/{path}`` like the sandbox: an uncatalogued MOLIT service (inferred from
its platform, rendered in MOLIT's own envelope by the datagokr dialect) and, for any host
that is not a catalog platform's, a small JSON document.
"""

from __future__ import annotations

import json
from typing import Any

from simulator.catalog import load_catalog
from simulator.dialects import get_dialect
from simulator.request import SimRequest

#: A MOLIT-shaped service path that no catalog tier lists (not even ``--catalog all``; the
#: real 분양권 전매 service is a generated endpoint now), so it must be inferred.
SILV = "https://apis.data.go.kr/1613000/RTMSDataSvcKopaProbeTrade/getRTMSDataSvcKopaProbeTrade"
ROWS = [{"aptNm": f"단지{i:02d}", "dealAmount": f"{50_000 + i * 250:,}", "umdNm": "역삼동"} for i in range(23)]


class StandIn:
    """ASGI app: the uncatalogued service's 23 rows, paged natively; other hosts echo JSON."""

    def __init__(self) -> None:
        self.catalog = load_catalog()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        host, _, path = scope["path"].lstrip("/").partition("/")
        req = SimRequest.from_url(f"https://{host}/{path}?{scope['query_string'].decode()}")
        match = self.catalog.infer(req)
        if match is None:
            status, headers, body = 200, [("content-type", "application/json")], json.dumps(
                {"host": host, "path": "/" + path, "query": dict(req.query)}, sort_keys=True
            ).encode()
        else:
            dialect = get_dialect(match.endpoint.dialect)
            split = dialect.split(match)
            w = split.window
            resp = dialect.render(split, ROWS[w.offset : w.offset + w.limit], len(ROWS), {})
            status, headers, body = resp.status, resp.headers, resp.body
        await send({"type": "http.response.start", "status": status,
                    "headers": [(k.encode(), v.encode()) for k, v in headers]})
        await send({"type": "http.response.body", "body": body})
