"""Record mode's network guard refuses before the kernel (issue 31 §7).

Inner pytester sessions record against the sandbox on a loopback port. No packet ever
leaves: the inner conftest replaces the socket functions the guard sits in front of
(``socket.socket.sendto``/``sendmsg``, ``socket.getaddrinfo``, ``gethostbyname`` …) with
spies that note the call and raise, never touching the network; a guarded call must be
refused with ``KopaNetworkBlocked`` before its spy is reached.

* UDP ``sendto``/``sendmsg`` to a public resolver (and ``connect`` on a UDP socket) from a
  marked test;
* DNS lookups (``getaddrinfo``, ``gethostbyname``, ``gethostbyname_ex``) from an unmarked
  test of the same record session;
* an IPv6 URL through ``requests`` in a marked test: answered by the sandbox like any other
  host, and the plugin's teardown keeps the session going (no error).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.loopback import serve_in_thread
from tests.simulator.plugin.test_plugin import FAST

pytest_plugins = ["pytester"]

SPIES = '''
import socket

from simulator.request import is_loopback

REACHED = []


def _spy(name, real, where):
    def spy(*args, **kwargs):
        if is_loopback(where(args)):
            return real(*args, **kwargs)  # loopback (the sandbox): the real call
        REACHED.append(name)
        raise OSError(f"spy {name}: the guard let this through (nothing was sent)")
    return spy


# Installed before the plugin's guard wraps them: the guard's "real" function is the spy,
# which passes loopback through and never sends or resolves anything else.
socket.socket.sendto = _spy("sendto", socket.socket.sendto, lambda a: a[-1][0])
socket.socket.sendmsg = _spy("sendmsg", socket.socket.sendmsg, lambda a: a[-1][0] if len(a) > 4 else None)
socket.getaddrinfo = _spy("getaddrinfo", socket.getaddrinfo, lambda a: a[0])
socket.gethostbyname = _spy("gethostbyname", socket.gethostbyname, lambda a: a[0])
socket.gethostbyname_ex = _spy("gethostbyname_ex", socket.gethostbyname_ex, lambda a: a[0])
'''

TESTS = '''
import socket

import pytest
import requests

from simulator.pytest_plugin import KopaNetworkBlocked

import conftest

RESOLVER = ("8.8.8.8", 53)
QUERY = b"\\x12\\x34\\x01\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x07example\\x03com\\x00\\x00\\x01\\x00\\x01"


@pytest.mark.kopa
def test_udp_from_a_marked_test_is_refused():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        with pytest.raises(KopaNetworkBlocked, match="8.8.8.8"):
            s.sendto(QUERY, RESOLVER)
        with pytest.raises(KopaNetworkBlocked, match="8.8.8.8"):
            s.sendto(QUERY, 0, RESOLVER)
        with pytest.raises(KopaNetworkBlocked, match="8.8.8.8"):
            s.sendmsg([QUERY], [], 0, RESOLVER)
        with pytest.raises(KopaNetworkBlocked, match="8.8.8.8"):
            s.connect(RESOLVER)
    with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as s6:
        with pytest.raises(KopaNetworkBlocked, match="2001:4860:4860::8888"):
            s6.sendto(QUERY, ("2001:4860:4860::8888", 53, 0, 0))
    assert conftest.REACHED == []


def test_an_unmarked_test_does_no_real_dns_lookup():
    for lookup in (lambda: socket.getaddrinfo("example.com", 443),
                   lambda: socket.gethostbyname("example.com"),
                   lambda: socket.gethostbyname_ex("example.com")):
        with pytest.raises(KopaNetworkBlocked, match="example.com"):
            lookup()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        with pytest.raises(KopaNetworkBlocked, match="8.8.8.8"):
            s.sendto(QUERY, RESOLVER)
    assert conftest.REACHED == []


@pytest.mark.kopa
def test_an_ipv6_url_through_requests():
    r = requests.get("http://[2001:db8::1]:8080/some/path?x=1")
    assert r.status_code == 404  # the sandbox answers every remote host; it knows none of these
    assert conftest.REACHED == []


@pytest.mark.kopa
def test_loopback_stays_reachable():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        assert s.sendto(b"x", s.getsockname()) == 1
        assert s.recv(1) == b"x"
    assert socket.getaddrinfo("localhost", 80)
    assert conftest.REACHED == []
'''


@pytest.fixture
def sandbox() -> object:
    from simulator.sandbox import create_app

    with serve_in_thread(create_app(seed=0), health="/_sandbox/health") as base:
        yield base


@pytest.mark.integration
def test_record_mode_refuses_udp_dns_and_survives_ipv6(pytester: pytest.Pytester, tmp_path: Path,
                                                       sandbox: str) -> None:
    pytester.makeconftest(SPIES)
    pytester.makepyfile(test_network=TESTS)
    result = pytester.runpytest_subprocess(
        "-q", *FAST, "-p", "no:randomly", "--kopa-record-mode=all", f"--kopa-cassettes={tmp_path / 'cass'}",
        "--kopa-set=mine", f"--kopa-upstream={sandbox}",
    )
    result.assert_outcomes(passed=4, errors=0)  # no teardown error
    # the IPv6 exchange reached the plugin's bookkeeping as its own host (a 404, not published)
    assert any("2001:db8::1" in line and "HTTP 404" in line for line in result.stdout.lines), result.stdout.str()
