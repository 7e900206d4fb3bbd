"""The one clock the widgets read for spinners and elapsed times.

Spinner frames are derived from elapsed time rather than counted ticks, so pinning `now` in a
test makes every frame and every "1.2s" label deterministic (snapshot tests).
"""

from __future__ import annotations

import time
from collections.abc import Callable

now: Callable[[], float] = time.monotonic


def frame(started: float, count: int, per_second: float = 10.0) -> int:
    return int((now() - started) * per_second) % count
