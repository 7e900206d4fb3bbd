"""The one lock helper: an exclusive flock on a lock file, with a timeout instead of a hang.

The kernel drops a flock when its holder dies, so a crashed process never leaves a stale
lock. The lock is polled non-blocking (a back-off from 2 ms to 50 ms), so a holder that is
stuck turns into a clear LockTimeout, not a frozen session.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
from collections.abc import Iterator

POLL_SECONDS = 0.002
POLL_MAX_SECONDS = 0.05


class LockTimeout(OSError):
    """Another process held the lock for longer than the timeout."""


def try_flock(fd: int, *, shared: bool = False) -> bool:
    """Take a flock on `fd` without waiting: True when taken, False when another process holds
    it. Any other failure (a file system without flock) raises its OSError."""
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


@contextlib.contextmanager
def exclusive_lock(lock_path: str | os.PathLike[str], timeout: float = 30.0) -> Iterator[int]:
    """Hold an exclusive flock on `lock_path` (created 0600) for the block; yields its fd.
    Released when the block ends or the process dies."""
    fd = os.open(os.fspath(lock_path), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + timeout
        pause = POLL_SECONDS
        while not try_flock(fd):
            if time.monotonic() > deadline:
                raise LockTimeout(errno.ETIMEDOUT,
                                  f"{os.fspath(lock_path)} stayed locked by another process")
            time.sleep(pause)
            pause = min(pause * 2, POLL_MAX_SECONDS)
        yield fd
    finally:
        os.close(fd)  # closing the descriptor releases the lock
