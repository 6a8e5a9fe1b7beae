"""One-line messages for the operating-system errors a store meets (disk full, read-only,
permission, a directory where a file should be), each naming the path and the fix."""

from __future__ import annotations

import errno
from pathlib import Path

__all__ = ["as_os_error", "os_error_message"]

_FIXES = {
    errno.ENOSPC: ("the disk is full", "free space there (or `simulator cache clean`, `simulator prune --keep N`)"),
    errno.EDQUOT: ("the disk quota is exceeded", "free space there or raise the quota"),
    errno.EROFS: ("the file system is read-only", "point --cassettes / KOPA_CACHE at a writable folder"),
    errno.EACCES: ("permission denied", "fix its permissions, or point --cassettes / KOPA_CACHE elsewhere"),
    errno.EPERM: ("operation not permitted", "fix its permissions, or point --cassettes / KOPA_CACHE elsewhere"),
    errno.EISDIR: ("a directory is where a file should be", "remove that directory"),
    errno.ENOTDIR: ("a file is where a directory should be", "remove that file"),
}


def os_error_message(exc: OSError, action: str, where: Path | str) -> str:
    """``cannot <action>: <what> at '<path>'; <fix>`` for an ``OSError``.

    >>> import errno
    >>> os_error_message(OSError(errno.ENOSPC, "No space left", "/c/x.tmp"), "publish", "/c")
    "cannot publish: the disk is full at '/c/x.tmp'; free space there (or `simulator cache clean`, `simulator prune --keep N`)"
    """
    path = exc.filename or where
    what, fix = _FIXES.get(exc.errno or 0, (exc.strerror or str(exc), "check the path and try again"))
    return f"cannot {action}: {what} at {str(path)!r}; {fix}"


def as_os_error(exc: Exception, path: Path | str) -> OSError | None:
    """The ``OSError`` a ``sqlite3`` error stands for (disk full, read-only, cannot open)."""
    text = str(exc).lower()
    for words, code in (("full", errno.ENOSPC), ("readonly", errno.EROFS), ("read-only", errno.EROFS),
                        ("unable to open", errno.EACCES), ("disk i/o", errno.EIO)):
        if words in text:
            return OSError(code, str(exc), str(path))
    return None
