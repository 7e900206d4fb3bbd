"""The warm process: imports once what a headless run needs, then forks a ready child per
request (dmypy, the Gradle daemon and emacsclient work the same way).

Safety, all checked here: one server per user and key (an exclusive lock next to the socket),
the socket in a private directory and mode 0600, the peer's uid checked (SO_PEERCRED), no
thread alive when forking (a lock held by a thread would stay locked forever in the child), an
idle exit, and an exit as soon as its socket is no longer the one in the directory. The server
is single-threaded: one `select` over the listening socket and a wake-up pipe for SIGCHLD.
"""

from __future__ import annotations

import fcntl
import gc
import os
import select
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from claude_harness.warm import place, wire

IDLE_EXIT_ENV = "CLAUDE_HARNESS_WARM_IDLE_SECONDS"
DEFAULT_IDLE_SECONDS = 600.0
_PEERCRED = struct.Struct("3i")  # pid, uid, gid


class _Forked(Exception):
    """Raised in the forked child to leave the server's loop (and its clean-ups) behind."""

    def __init__(self, conn: socket.socket) -> None:
        super().__init__()
        self.conn = conn


class Server:
    def __init__(self, directory: Path, key: str) -> None:
        self.key = key
        self.path = place.socket_path(directory, key)
        self.lock_path = self.path.with_suffix(".lock")
        self.children: dict[int, socket.socket] = {}
        self.listener: socket.socket | None = None
        self.wake_r, self.wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.idle_seconds = _idle_seconds()
        self.inode = 0
        self.stopping = False

    def claim(self) -> bool:
        """The lock: False when another server already serves this key."""
        self.lock_fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(self.lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.lock_fd)
            return False
        os.ftruncate(self.lock_fd, 0)
        os.write(self.lock_fd, str(os.getpid()).encode())  # who serves (to stop it by hand)
        return True

    def listen(self) -> None:
        if os.path.lexists(self.path):
            os.unlink(self.path)  # a server that died; the lock says none is alive
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_mask = os.umask(0o177)
        try:
            listener.bind(str(self.path))
        finally:
            os.umask(old_mask)
        listener.listen(64)
        self.inode = os.stat(self.path).st_ino
        self.listener = listener
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGHUP, self._stop)
        signal.set_wakeup_fd(self.wake_w, warn_on_full_buffer=False)

    def _stop(self, *_args: Any) -> None:
        self.stopping = True

    def loop(self) -> None:
        """Serve until idle, stopped or replaced; raises _Forked in a child."""
        assert self.listener is not None
        last_activity = time.monotonic()
        while not self.stopping:
            timeout = max(0.0, last_activity + self.idle_seconds - time.monotonic())
            try:
                readable, _, _ = select.select([self.listener, self.wake_r], [], [],
                                               min(timeout, 30.0))
            except InterruptedError:
                readable = []
            if self.wake_r in readable:
                _drain(self.wake_r)
            self._reap()
            if self.listener in readable:
                self._accept()
            if self.children:
                last_activity = time.monotonic()
            elif time.monotonic() - last_activity >= self.idle_seconds or not self._still_ours():
                return

    def _still_ours(self) -> bool:
        try:
            return os.stat(self.path).st_ino == self.inode
        except OSError:
            return False

    def _accept(self) -> None:
        assert self.listener is not None
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size)
        _pid, uid, _gid = _PEERCRED.unpack(creds)
        if uid != os.getuid():
            conn.close()
            return
        if threading.active_count() != 1:  # never fork with a thread alive: decline
            _answer(conn, {"cold": "a thread is alive in the warm process"})
            conn.close()
            return
        pid = os.fork()
        if pid == 0:
            raise _Forked(conn)
        self.children[pid] = conn

    def _reap(self) -> None:
        while self.children:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.children.pop(pid, None)
            if conn is not None:
                _answer(conn, {"status": os.waitstatus_to_exitcode(status),
                               "maxrss_kb": usage.ru_maxrss})
                conn.close()

    def close(self) -> None:
        if self._still_ours():
            os.unlink(self.path)
        if self.listener is not None:
            self.listener.close()
        for conn in self.children.values():
            conn.close()


def _answer(conn: socket.socket, message: dict[str, Any]) -> None:
    try:
        conn.settimeout(1.0)
        wire.send_line(conn, message)
    except OSError:
        pass


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except OSError:
        pass


def _idle_seconds() -> float:
    try:
        return max(0.1, float(os.environ.get(IDLE_EXIT_ENV, DEFAULT_IDLE_SECONDS)))
    except ValueError:
        return DEFAULT_IDLE_SECONDS


def serve(run: Callable[[list[str]], int], accepts: Callable[[list[str]], bool],
          preload: Callable[[], None]) -> int:
    """Run the warm process; in each forked child, return the run's exit status instead."""
    if place.disabled():
        return 0
    directory = place.runtime_dir(create=True)
    if directory is None:
        return 1
    server = Server(directory, place.install_key())
    if not server.claim():
        return 0
    preload()
    gc.collect()
    gc.freeze()  # what is loaded stays: no collection walks it, no page is copied for it
    if threading.active_count() != 1:
        return 1  # a preload started a thread: forking is not safe here
    server.listen()
    try:
        server.loop()
    except _Forked as forked:
        from claude_harness.warm.child import become_child

        return become_child(forked.conn, server, run, accepts)
    server.close()
    return 0
