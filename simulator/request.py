"""The simulator's view of a request and response, independent of any HTTP library."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl, quote, unquote, urlsplit

__all__ = ["FORM_TYPE", "SimRequest", "SimResponse", "form_params", "is_loopback", "parse_query"]


@dataclass(frozen=True)
class SimRequest:
    """A request as the resolver sees it.

    ``host`` is lowercase and without the port; ``path`` is percent-decoded; ``query`` keeps
    the order and repeats of the wire.

    >>> r = SimRequest.from_url("http://openapi.seoul.go.kr:8088/sample/json/X/1/5")
    >>> (r.host, r.port, r.path)
    ('openapi.seoul.go.kr', 8088, '/sample/json/X/1/5')
    """

    method: str
    host: str
    path: str
    query: tuple[tuple[str, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    scheme: str = "https"
    port: int | None = None

    @classmethod
    def trusted(
        cls,
        method: str,
        host: str,
        path: str,
        query: tuple[tuple[str, str], ...],
        headers: tuple[tuple[str, str], ...],
        body: bytes,
        scheme: str,
        port: int | None,
    ) -> SimRequest:
        """``SimRequest(...)`` from parts already in their final form (an adapter's hot path):
        the same object, built without the frozen dataclass's setattr per field.

        >>> SimRequest.trusted("GET", "h", "/p", (), (), b"", "https", None) == SimRequest("GET", "h", "/p")
        True
        """
        self = object.__new__(cls)
        self.__dict__.update(
            method=method, host=host, path=path, query=query, headers=headers, body=body, scheme=scheme, port=port
        )
        return self

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        method: str = "GET",
        headers: dict[str, str] | list[tuple[str, str]] | None = None,
        body: bytes = b"",
    ) -> SimRequest:
        parts = urlsplit(url)
        hdrs = list(headers.items()) if isinstance(headers, dict) else list(headers or [])
        return cls(
            method=method.upper(),
            host=(parts.hostname or "").lower(),
            path=unquote(parts.path or "/"),
            query=tuple(parse_qsl(parts.query, keep_blank_values=True)),
            headers=tuple((k.lower(), v) for k, v in hdrs),
            body=body,
            scheme=parts.scheme or "https",
            port=parts.port,
        )

    def header(self, name: str) -> str | None:
        name = name.lower()
        for k, v in self.headers:
            if k == name:
                return v
        return None

    @property
    def url(self) -> str:
        """The full URL (keys included: never log or store this; see ``secrets.redact_url``)."""
        netloc = self.host if self.port is None else f"{self.host}:{self.port}"
        qs = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in self.query)
        path = quote(self.path, safe="/:@!$&'()*+,;=-._~")
        return f"{self.scheme}://{netloc}{path}" + (f"?{qs}" if qs else "")


@dataclass
class SimResponse:
    """A response: status, headers (lowercase names, in order) and body bytes."""

    status: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""

    def header(self, name: str) -> str | None:
        name = name.lower()
        for k, v in self.headers:
            if k == name:
                return v
        return None

    def set_header(self, name: str, value: str) -> None:
        name = name.lower()
        self.headers = [(k, v) for k, v in self.headers if k != name] + [(name, value)]


#: The content type whose body holds request parameters (an HTML form, ``requests``' ``data=``).
FORM_TYPE = "application/x-www-form-urlencoded"


def form_params(req: SimRequest) -> tuple[tuple[str, str], ...]:
    """The parameters of ``req``'s body when it is an ``application/x-www-form-urlencoded``
    form (juso.go.kr documents POST beside GET; clients send ``data={"keyword": …}``), in wire
    order; ``()`` for any other body. The percent-escapes decode in the type's ``charset``
    (default UTF-8).

    >>> form_params(SimRequest.from_url("https://h/p", method="POST", body=b"a=1&b=%ED%95%9C",
    ...             headers={"Content-Type": "application/x-www-form-urlencoded"}))
    (('a', '1'), ('b', '한'))
    """
    if not req.body:
        return ()
    ctype, *options = (req.header("content-type") or "").split(";")
    if ctype.strip().lower() != FORM_TYPE:
        return ()
    charset = "utf-8"
    for opt in options:
        name, _eq, value = opt.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            charset = value.strip().strip('"')
    try:
        return tuple(parse_qsl(req.body.decode("latin-1"), keep_blank_values=True, encoding=charset, errors="replace"))
    except LookupError:  # an unknown charset name: read it as UTF-8
        return tuple(parse_qsl(req.body.decode("latin-1"), keep_blank_values=True, errors="replace"))


def parse_query(raw: str) -> tuple[tuple[str, str], ...]:
    """``tuple(parse_qsl(raw, keep_blank_values=True))``: the pairs in wire order, repeats kept.

    Without ``%`` or ``+`` there is nothing to decode: split directly (the same pairs).
    """
    if "%" in raw or "+" in raw:
        return tuple(parse_qsl(raw, keep_blank_values=True))
    out = []
    for pair in raw.split("&"):
        if pair:
            name, _eq, value = pair.partition("=")
            out.append((name, value))
    return tuple(out)


_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def is_loopback(host: object) -> bool:
    """True for loopback names and addresses (and Unix sockets, given as str paths or bytes)."""
    if host is None or host == "":
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    name = str(host).strip("[]").lower()
    if name in _LOOPBACK_NAMES:
        return True
    import ipaddress

    try:
        return ipaddress.ip_address(name.split("%", 1)[0]).is_loopback
    except ValueError:
        return False
