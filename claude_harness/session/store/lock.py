"""Which process is writing a session: a lock file beside the transcript, held for its lifetime.

Why: two harnesses in one folder must not write the same transcript by accident. `-c` picks the
newest session that no live process holds; a session whose writer died (even by `kill -9`) is free
again at once.

How: `<session id>.lock` holds the owner's pid (for people and for file systems without locks),
and the owner keeps an exclusive `flock` on it (taken with fsutil's `try_flock`, the one lock
primitive; unlike `exclusive_lock` it is held for the session's life, never waited for). The kernel drops a flock when its process dies,
so a stale lock needs no cleanup: whoever comes next takes it over and writes its own pid. Where
flock is unsupported (some network file systems), a lock counts as held while its pid is alive.

The owner removes the file when it closes the session, while still holding the lock; a process
that opened the old file just before the removal notices (the path no longer names the inode it
locked) and tries again, so two owners never coexist.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from pathlib import Path

from claude_harness.fsutil.lock import try_flock

_LOCK_UNSUPPORTED = (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS)


def lock_path_for(transcript: Path) -> Path:
    return transcript.with_suffix(".lock")


class SessionLock:
    """An exclusive lock on one session; `release()` (or process death) frees it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, transcript: Path) -> SessionLock | int:
        """Take the session's lock: the lock, or the pid of the live process holding it.

        Raises OSError when the lock file cannot be created at all (a full or read-only disk).
        """
        path = lock_path_for(transcript)
        for _ in range(50):  # only a probe or a concurrent release makes us go round again
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                held = _try_flock(fd)
                if held is None:  # no flock here: trust the recorded pid
                    holder = _recorded_pid(fd)
                    if holder is not None and holder != os.getpid() and _pid_alive(holder):
                        os.close(fd)
                        return holder
                elif not held:
                    holder = _recorded_pid(fd)
                    os.close(fd)
                    if holder is not None and _pid_alive(holder):
                        return holder
                    time.sleep(0.002)  # a probe (lock_holder) holds it for an instant
                    continue
                if not _still_names(path, fd):
                    os.close(fd)
                    continue
                _record_pid(fd)
                return cls(path, fd)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.close(fd)
                raise
        holder = _recorded_pid_at(path)
        return holder if holder is not None else -1

    def release(self) -> None:
        """Remove the lock file (while still holding it), then let go."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            if _still_names(self.path, self._fd):
                self.path.unlink()
        with contextlib.suppress(OSError):
            os.close(self._fd)
        self._fd = None


def claim_session(transcript: Path) -> SessionLock | None:
    """The session's lock, taken, when no live process holds it (transcript cleanup deletes a
    session only while holding it); None when one does. Raises OSError as `acquire` does."""
    result = SessionLock.acquire(transcript)
    return result if isinstance(result, SessionLock) else None


def lock_holder(transcript: Path) -> int | None:
    """The pid of the live process writing this session (-1 when unknown), or None if free."""
    path = lock_path_for(transcript)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        held = _try_flock(fd, shared=True)
        if held is None:
            holder = _recorded_pid(fd)
            return holder if holder is not None and _pid_alive(holder) else None
        if held:
            return None  # we could lock it: nobody holds it (the close below lets go again)
        holder = _recorded_pid(fd)
        return holder if holder is not None else -1
    finally:
        os.close(fd)


def _try_flock(fd: int, shared: bool = False) -> bool | None:
    """True when locked, False when another process holds it, None when flock is unsupported."""
    try:
        return try_flock(fd, shared=shared)
    except OSError as exc:
        if exc.errno in _LOCK_UNSUPPORTED:
            return None
        raise


def _still_names(path: Path, fd: int) -> bool:
    try:
        on_disk = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino)


def _recorded_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _recorded_pid_at(path: Path) -> int | None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return _recorded_pid(fd)
    finally:
        os.close(fd)


def _record_pid(fd: int) -> None:
    with contextlib.suppress(OSError):  # the pid is informative; the flock is the lock
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
