"""The thin client: hand this run to the warm process, or say that it must run cold.

It is the first thing `claude-harness` does, so it imports only the standard library's cheapest
modules and never waits long: no socket, a refusal, another version, a slow answer or any error
means "run cold", silently. Once the child has been told to go, this process only relays
signals to it and ends with its exit status (a child killed by a signal kills us with it).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from pathlib import Path

from claude_harness.warm import place, wire

HEADLESS_FLAGS = ("-p", "--print", "--output-format", "--input-format")
RELAYED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT,
                   signal.SIGUSR1, signal.SIGUSR2)
READY_TIMEOUT_SECONDS = 3.0
STATS_ENV = "CLAUDE_HARNESS_WARM_STATS"  # a file to write the child's status line to (benchmarks)
DEBUG_ENV = "CLAUDE_HARNESS_WARM_DEBUG"  # say on stderr why a run stayed cold


def _cold(why: str, *, start_server: bool = False) -> HandOff:
    if os.environ.get(DEBUG_ENV):
        sys.stderr.write(f"claude-harness: cold start: {why}\n")
    return HandOff(start_server=start_server)


class HandOff:
    """What became of the attempt: `code` is the warm run's exit status (None: run cold);
    `start_server` says a warm process should be started once the cold run is done."""

    def __init__(self, code: int | None = None, start_server: bool = False) -> None:
        self.code = code
        self.start_server = start_server


def looks_headless(args: list[str]) -> bool:
    """-p, stream-json or the SDK: the only runs handed over (the warm child checks again with
    the real parser and declines anything else)."""
    return any(a in HEADLESS_FLAGS or a.startswith(("--output-format=", "--input-format="))
               for a in args)


def hand_off(args: list[str]) -> HandOff:
    if not looks_headless(args):
        return HandOff()
    if place.disabled():
        return _cold("turned off")
    try:
        directory = place.runtime_dir(create=False)
        if directory is None:
            return _cold("no private runtime directory", start_server=True)
        key = place.install_key()
        path = place.socket_path(directory, key)
        if not os.path.exists(path):
            return _cold(f"no warm process at {path}", start_server=True)
        code = _run_warm(path, key, args)
    except (ConnectionRefusedError, FileNotFoundError):  # a socket left by a server that died
        return _cold("the warm process is gone", start_server=True)
    except Exception as exc:  # anything off: the cold path, which reports real problems itself
        return _cold(repr(exc))
    return HandOff(code=code) if code is not None else _cold("declined")


def _run_warm(path: Path, key: str, args: list[str]) -> int | None:
    """The run's exit status, or None when it was not started (then it runs cold); a refused
    connection raises (nobody serves: a new server is wanted)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(READY_TIMEOUT_SECONDS)
        sock.connect(str(path))
    except OSError:
        sock.close()
        raise
    started = False
    status = None
    try:
        cwd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            request = {"key": key, "argv": [sys.argv[0], *args], "env": dict(os.environ)}
            wire.send_request(sock, request, [0, 1, 2, cwd])
        finally:
            os.close(cwd)
        reader = wire.LineReader(sock)
        answer = reader.next()
        if answer is None or "ready" not in answer:
            return None  # declined (not a headless run, a thread alive...): run cold
        sock.settimeout(None)
        with _relaying(sock):
            wire.send_line(sock, {"go": True})
            started = True
            status = reader.next()
    except OSError:
        if not started:
            return None  # nothing was started (a child not told to go ends by itself)
    finally:
        sock.close()
    return _ending(status)


class _relaying:
    """While the child runs, our signals become its signals."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.previous: dict[int, object] = {}

    def _relay(self, signum: int, _frame: object) -> None:
        try:
            wire.send_line(self.sock, {"signal": signum})
        except OSError:
            pass

    def __enter__(self) -> _relaying:
        for sig in RELAYED_SIGNALS:
            self.previous[sig] = signal.signal(sig, self._relay)
        return self

    def __exit__(self, *_exc: object) -> None:
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]


def _ending(status: dict | None) -> int:
    """The child's exit status as ours; a child killed by a signal kills us the same way."""
    if status is None or not isinstance(status.get("status"), int):
        sys.stderr.write("claude-harness: the warm process ended without the run's status\n")
        return 1
    stats = os.environ.get(STATS_ENV)
    if stats:
        try:
            Path(stats).write_text(repr(status))
        except OSError:
            pass
    code = status["status"]
    if code < 0:
        sys.stdout.flush()
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        return 128 - code  # not reached for a deadly signal
    return code


def start_server(command: list[str]) -> None:
    """Start the warm process in the background, detached in its own session, for the next
    runs (it finds out by itself whether another one already serves)."""
    import subprocess  # only after a cold run, never on the hand-off's path

    directory = place.runtime_dir(create=True)
    if directory is None or place.disabled():
        return
    try:
        subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
                         cwd="/")
    except OSError:
        pass
