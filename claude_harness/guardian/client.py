"""The harness's side of the guardian (see main.py): start it, ask it to spawn commands,
learn how they exited.

One guardian per harness process, started on first use (or ahead with `prestart()`, so the first
Bash call does not pay its ~20 ms start-up). If it cannot run here (not Linux, no subreaper) or
dies, `start_guarded()` returns None with a reason and callers spawn directly, as before.

Why the commands are its children and not ours: only a subreaper *ancestor* inherits the orphans
a command leaves behind, and only a process that outlives us can kill them after a `kill -9`.
The cost is one round trip on a local socket per command (well under a millisecond); the
commands see the same process tree, `ps`, `kill` and `sudo` as before (no namespaces).
"""

from __future__ import annotations

import array
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

READY_TIMEOUT_SECONDS = 10.0
REPLY_TIMEOUT_SECONDS = 10.0
_PROGRAM = str(Path(__file__).with_name("main.py"))


class GuardedChild:
    """A command the guardian started: the subset of Popen that ShellProcess uses."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._exited = threading.Event()
        self._callbacks: list[Callable[[int], None]] = []
        self._callbacks_lock = threading.Lock()

    def add_exit_callback(self, callback: Callable[[int], None]) -> None:
        """Call `callback(returncode)` once the child has exited (at once if it has; otherwise
        from the guardian's reader thread)."""
        with self._callbacks_lock:
            if self.returncode is None:
                self._callbacks.append(callback)
                return
        callback(self.returncode)

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._exited.wait(timeout):
            raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
        assert self.returncode is not None
        return self.returncode

    def _set_exit(self, returncode: int) -> None:
        with self._callbacks_lock:
            if self.returncode is None:
                self.returncode = returncode
            callbacks, self._callbacks = self._callbacks, []
        self._exited.set()
        for callback in callbacks:
            callback(self.returncode)


class _Reply:
    def __init__(self) -> None:
        self.event = threading.Event()
        self.message: dict = {}


class Guardian:
    """A running guardian process and the thread that reads its messages."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._sock = ours
        self._send_lock = threading.Lock()
        self._state_lock = threading.Lock()
        greeting = _Reply()
        self._replies: dict[int, _Reply] = {0: greeting}  # 0: the "ready" greeting
        self._children: dict[int, GuardedChild] = {}
        self._early_exits: dict[int, int] = {}
        self._next_id = 1
        self._open = True
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", _PROGRAM, str(theirs.fileno())],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            )
        finally:
            theirs.close()
        self._reader = threading.Thread(target=self._read, name="bash-guardian", daemon=True)
        self._reader.start()
        if not greeting.event.wait(READY_TIMEOUT_SECONDS) or greeting.message.get("op") != "ready":
            self.close()
            raise OSError("the process guardian did not start")

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def alive(self) -> bool:
        """Running and reachable (a guardian that exited is seen at once, before our reader
        thread reads the end of its socket)."""
        return self._open and self._process.poll() is None

    # -- requests ------------------------------------------------------------------------

    def spawn(self, argv: Sequence[str], cwd: Path, env: Mapping[str, str],
              stdout_fd: int, stderr_fd: int, stdin_fd: int | None = None) -> GuardedChild:
        """Start `argv` (argv[0] an absolute path) in its own session, its stdin from
        `stdin_fd` (/dev/null when None); raises OSError."""
        payload = json.dumps({"argv": list(argv), "cwd": str(cwd), "env": dict(env)})
        memfd = os.memfd_create("claude-harness-spawn", os.MFD_CLOEXEC)
        devnull: int | None = None
        if stdin_fd is None:
            stdin_fd = devnull = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        try:
            os.write(memfd, payload.encode("utf-8", "surrogateescape"))
            reply = self._request({"op": "spawn"}, [memfd, stdin_fd, stdout_fd, stderr_fd])
        finally:
            os.close(memfd)
            if devnull is not None:
                os.close(devnull)
        if reply.get("op") != "spawned":
            code = int(reply.get("errno") or 0)
            raise OSError(code, f"could not start {argv[0]}: {os.strerror(code)}")
        child = GuardedChild(int(reply["pid"]))
        with self._state_lock:
            early = self._early_exits.pop(child.pid, None)
            if early is None:
                self._children[child.pid] = child
        if early is not None:
            child._set_exit(early)
        return child

    def kill_all(self, *, wait: bool = True) -> None:
        """Have the guardian SIGKILL every descendant. Without `wait`, only send the request,
        and only if no other thread is sending (safe from a signal handler)."""
        if not self.alive:
            return
        if wait:
            with contextlib.suppress(OSError):
                self._request({"op": "kill_all"}, [])
            return
        if self._send_lock.acquire(blocking=False):
            try:
                with contextlib.suppress(OSError):
                    self._sock.send(json.dumps({"op": "kill_all", "id": -1}).encode())
            finally:
                self._send_lock.release()

    def _request(self, message: dict, fds: list[int]) -> dict:
        if not self.alive:
            raise OSError("the process guardian is not running")
        reply = _Reply()
        with self._send_lock:
            request_id = self._next_id
            self._next_id += 1
            self._replies[request_id] = reply
            data = json.dumps({**message, "id": request_id}).encode()
            ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
            try:
                self._sock.sendmsg([data], ancillary)
            except OSError as exc:  # no errno: a guardian fault, not the command's
                self._replies.pop(request_id, None)
                raise OSError(f"the process guardian is gone ({exc})") from exc
        if not reply.event.wait(REPLY_TIMEOUT_SECONDS):
            self._replies.pop(request_id, None)
            raise OSError("the process guardian did not answer")
        if not reply.message:
            raise OSError("the process guardian stopped")
        return reply.message

    # -- the reader thread ---------------------------------------------------------------

    def _read(self) -> None:
        try:
            while True:
                data = self._sock.recv(65_536)
                if not data:
                    return
                self._dispatch(json.loads(data))
        except OSError:
            return
        finally:
            self._on_guardian_gone()

    def _dispatch(self, message: dict) -> None:
        op = message.get("op")
        if op == "closing":
            self._open = False
            return
        if op == "exit":
            pid, returncode = int(message["pid"]), os.waitstatus_to_exitcode(message["status"])
            with self._state_lock:
                child = self._children.pop(pid, None)
                if child is None:
                    self._early_exits[pid] = returncode
            if child is not None:
                child._set_exit(returncode)
            return
        reply = self._replies.pop(0 if op == "ready" else int(message.get("id", -1)), None)
        if reply is not None:
            reply.message = message
            reply.event.set()

    def _on_guardian_gone(self) -> None:
        """The guardian died: nobody is left to report the commands' exits, so kill what is
        left of their groups (it normally killed them itself) and count them as killed."""
        self._open = False
        with self._state_lock:
            children, self._children = list(self._children.values()), {}
        for child in children:
            with contextlib.suppress(OSError):
                os.killpg(child.pid, signal.SIGKILL)
            child._set_exit(-signal.SIGKILL)
        for reply in list(self._replies.values()):
            reply.event.set()
        with contextlib.suppress(Exception):
            self._process.wait(timeout=5)

    def close(self) -> None:
        """Close our end: the guardian kills every descendant and exits."""
        self._open = False
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()


_lock = threading.Lock()
_guardian: Guardian | None = None
_unavailable: str | None = None


def unavailable_reason() -> str | None:
    """Why commands run without the guardian here (None while it is in use or not tried)."""
    return _unavailable


def start_guarded() -> Guardian | None:
    """The running guardian, started if needed; None (see `unavailable_reason`) where it cannot
    run. A guardian that died is replaced."""
    global _guardian, _unavailable
    current = _guardian
    if current is not None and current.alive:
        return current
    with _lock:
        if _guardian is not None and _guardian.alive:
            return _guardian
        if not sys.platform.startswith("linux"):
            _unavailable = "the process guardian needs Linux (a child subreaper)"
            return None
        try:
            _guardian = Guardian()
        except OSError as exc:
            _unavailable = f"the process guardian could not start: {exc}"
            return None
        _unavailable = None
        return _guardian


def prestart() -> None:
    """Start the guardian in the background now, so the first command finds it ready (a
    failure here is only remembered: the first command tries again, or spawns directly)."""
    threading.Thread(target=_start_quietly, name="bash-guardian-start", daemon=True).start()


def _start_quietly() -> None:
    global _unavailable
    try:
        start_guarded()
    except Exception as exc:  # never a traceback on the user's terminal from a helper thread
        _unavailable = f"the process guardian could not start: {exc}"


def current() -> Guardian | None:
    """The guardian if one is running (never starts one)."""
    return _guardian if _guardian is not None and _guardian.alive else None
