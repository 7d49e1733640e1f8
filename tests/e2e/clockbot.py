"""`python -m bot` with its wall clock moved, for tests of what happens at midnight (run as
``python -m tests.e2e.clockbot``): `time.time` gives the real time plus CLOCK_OFFSET seconds
from the environment, in the bot's process (the store's stamps, the dailies' days, the secrecy
rule). The monotonic clocks, which timeouts and rate limits follow, are left alone; so are the
drawing and search processes, which read no clock."""

from __future__ import annotations

import os
import sys
import time

_real_time = time.time
_offset = float(os.environ.get("CLOCK_OFFSET", "0"))


def _moved_time() -> float:
    return _real_time() + _offset


time.time = _moved_time  # before the bot's modules bind it as their default clock

from bot.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
