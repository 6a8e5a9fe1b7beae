"""The ``simulator`` console script's entry point, outside the ``simulator`` package.

Starting ``simulator`` imports the package and its command modules (a second or more on a
busy machine). A Ctrl-C in that time raised ``KeyboardInterrupt`` out of an import, so the
user saw a traceback of library internals. Nothing inside ``simulator`` can catch it (the
package's ``__init__`` is the frame being interrupted), so this module, which imports nothing
before ``main`` runs, turns it into one line and exit status 130, as the commands do.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    """Import and run ``simulator.cli.main``; a Ctrl-C while importing is one line, exit 130."""
    try:
        from simulator.cli import main as cli_main
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted while starting: nothing was done\n")
        raise SystemExit(130) from None
    cli_main()


if __name__ == "__main__":
    main()
