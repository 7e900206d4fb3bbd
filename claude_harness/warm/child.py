"""The forked child: become the client's process (environment, working directory, standard
streams, argv), then run the CLI exactly as a cold start would.

What it leaves behind from the server: its sockets and signal handlers (closed and reset here).
What it keeps: every imported module, which is the point. Until the client says "go", nothing
of the run has happened, so a client that gave up can run cold without the run happening twice.
"""

from __future__ import annotations

import io
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from claude_harness.warm import wire

if TYPE_CHECKING:
    from claude_harness.warm.server import Server

GO_TIMEOUT_SECONDS = 5.0


def become_child(conn: socket.socket, server: Server, run: Callable[[list[str]], int],
                 accepts: Callable[[list[str]], bool]) -> int:
    """Serve the connection's run in this forked child; never returns once the run began."""
    _leave_server(conn, server)
    conn.settimeout(GO_TIMEOUT_SECONDS)
    try:
        request, fds = wire.receive_request(conn)
    except (OSError, ValueError):
        os._exit(0)
    argv = request.get("argv")
    env = request.get("env")
    if (request.get("key") != server.key or not isinstance(argv, list) or not argv
            or not isinstance(env, dict)):
        _decline(conn, "another version")
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in env.items()})
    os.fchdir(fds[3])
    os.close(fds[3])
    args = [str(a) for a in argv[1:]]
    if not accepts(args):
        _decline(conn, "not a headless run")
    reader = wire.LineReader(conn)
    try:
        wire.send_line(conn, {"ready": os.getpid()})
        go = reader.next()
    except OSError:
        go = None
    if not go or go.get("go") is not True:
        os._exit(0)  # the client runs cold (or is gone): this run never started here
    conn.settimeout(None)
    _take_streams(fds[:3])
    sys.argv = [str(argv[0]), *args]
    threading.Thread(target=_watch_client, args=(reader,), name="warm-client-watch",
                     daemon=True).start()
    try:
        code = run(args)
    except SystemExit as exc:
        code = _exit_status(exc.code)
    except KeyboardInterrupt:
        raise  # the interpreter's own ending (it reports the signal)
    except BaseException as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
        code = 1
    _exit_without_teardown(code)


def _exit_status(code: object) -> int:
    """What the interpreter makes of `sys.exit(code)`."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")
    return 1


def _exit_without_teardown(code: int) -> NoReturn:
    """End as the interpreter does (non-daemon threads joined, atexit handlers run, the
    standard streams flushed, status 120 when stdout cannot be), without tearing down the
    modules and objects the warm process loaded: that teardown is ~60 ms of every run's wall
    time and nothing of the run depends on it (the transcript is written through plain
    descriptors, and weakref finalizers run as atexit handlers)."""
    import atexit

    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout and code == 0:
                code = 120
    os._exit(code)


def _leave_server(conn: socket.socket, server: Server) -> None:
    """Close what belongs to the server; signals back to what a fresh interpreter has."""
    signal.set_wakeup_fd(-1)
    for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if server.listener is not None:
        server.listener.close()
    for fd in (server.wake_r, server.wake_w, server.lock_fd):
        os.close(fd)
    for other in server.children.values():
        if other is not conn:
            other.close()
    server.children.clear()
    os.setsid()


def _decline(conn: socket.socket, why: str) -> NoReturn:
    try:
        wire.send_line(conn, {"cold": why})
    except OSError:
        pass
    os._exit(0)


def _take_streams(fds: list[int]) -> None:
    """The client's stdin, stdout and stderr as ours, as the interpreter opens them."""
    for old in (sys.stdout, sys.stderr):
        try:
            old.flush()
        except (OSError, ValueError):
            pass
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    sys.stdin = sys.__stdin__ = _text_stream(0, "r", sys.stdin)
    sys.stdout = sys.__stdout__ = _text_stream(1, "w", sys.stdout)
    sys.stderr = sys.__stderr__ = _text_stream(2, "w", sys.stderr)


def _text_stream(fd: int, mode: str, like: io.TextIOWrapper | object) -> io.TextIOWrapper:
    """As CPython's create_stdio: buffered, line-buffered on a terminal (stderr always), the
    server's encoding and error handler (same interpreter settings: they are in the key)."""
    raw = io.FileIO(fd, mode, closefd=False)
    interactive = raw.isatty()
    buffered: io.BufferedIOBase = (io.BufferedReader(raw) if mode == "r"
                                   else io.BufferedWriter(raw))
    encoding = getattr(like, "encoding", None) or "utf-8"
    errors = getattr(like, "errors", None) or "strict"
    unbuffered = mode == "w" and getattr(like, "write_through", False)  # python -u
    return io.TextIOWrapper(buffered, encoding=encoding, errors=errors,
                            line_buffering=mode == "w" and (interactive or fd == 2),
                            write_through=bool(unbuffered))


def _watch_client(reader: wire.LineReader) -> None:
    """The client's signals become ours; when it is gone (exited, `kill -9`), so are we."""
    while True:
        try:
            message = reader.next()
        except OSError:
            message = None
        if message is None:
            os.kill(os.getpid(), signal.SIGKILL)
            return
        sig = message.get("signal")
        if isinstance(sig, int) and 0 < sig < signal.NSIG:
            os.kill(os.getpid(), sig)
