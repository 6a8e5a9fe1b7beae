"""An exclusive lock per cassette set, held while recording and publishing.

``<set>/.lock`` is locked with ``flock`` (released by the kernel when the holder exits, even
on ``kill -9``, so a crash never leaves a stale lock) and holds the holder's pid, host and
purpose, which a refused caller names. The lock is re-entrant within a process (a recorder
holds it while its builder publishes).

>>> from pathlib import Path; import tempfile
>>> d = Path(tempfile.mkdtemp())
>>> with set_lock(d, "demo", purpose="publishing"):
...     (d / ".lock").exists()
True
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import StoreError
from .oserrors import os_error_message

__all__ = ["SetLocked", "set_lock"]

LOCK = ".lock"
_held: dict[tuple[str, int], int] = {}
_held_lock = threading.RLock()


class SetLocked(StoreError):
    """Another process records or publishes into the same cassette set."""


def _holder(path: Path) -> str:
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        return f"pid {info.get('pid')} on host {info.get('host')!r} ({info.get('purpose')})"
    except (OSError, ValueError, AttributeError):
        return "another process"


@contextmanager
def set_lock(set_dir: Path, set_name: str, *, purpose: str, wait: float = 0.0) -> Iterator[None]:
    """Hold the set's exclusive lock; wait up to ``wait`` seconds, then raise ``SetLocked``
    naming the holder (pid, host, what it is doing)."""
    key = (str(set_dir.resolve()), threading.get_ident())
    with _held_lock:
        depth = _held.get(key, 0)
        if depth:
            _held[key] = depth + 1
    if depth:
        try:
            yield
        finally:
            with _held_lock:
                _held[key] -= 1
        return
    try:
        set_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(set_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreError(os_error_message(exc, f"lock cassette set={set_name!r}", set_dir)) from None
    try:
        deadline = time.monotonic() + max(wait, 0.0)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise StoreError(os_error_message(exc, f"lock cassette set={set_name!r}", set_dir)) from None
                if time.monotonic() >= deadline:
                    raise SetLocked(
                        f"cassette set={set_name!r} is locked by {_holder(set_dir / LOCK)}: "
                        f"wait for it to finish, or pass --wait SECONDS (lock file "
                        f"{str(set_dir / LOCK)!r})"
                    ) from None
                time.sleep(0.05)
        info = {"pid": os.getpid(), "host": socket.gethostname(), "purpose": purpose}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode() + b"\n", 0)
        with _held_lock:
            _held[key] = 1
        try:
            yield
        finally:
            with _held_lock:
                _held.pop(key, None)
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # closing the descriptor releases the flock
