"""The guardian: a small process that starts every shell command and outlives the harness by an
instant, to kill whatever the commands left running.

Run as `python -I -S main.py FD` (standard library only: it starts in ~20 ms and never
imports the harness). FD is one end of a SOCK_SEQPACKET socket pair; the harness holds the other.

Why a separate process: when the harness dies by `kill -9`, it can do nothing, and the kernel's
parent-death signal reaches only a direct child, not the servers and `&` jobs a command started.
The guardian is a *child subreaper* (prctl PR_SET_CHILD_SUBREAPER): every orphan among the
commands' descendants (a double fork, `setsid`, `nohup`, a daemon) is re-parented to it instead
of to init, so all of them stay its descendants. When the harness's end of the socket closes, for
whatever reason, the guardian kills every descendant and exits. It runs in its own session, so a
signal to the harness's process group (Ctrl+C, a closed terminal) does not reach it first.

Protocol (one message per packet, JSON):
  harness -> guardian  {"op": "spawn", "id": N} + fds [payload, stdin, stdout, stderr]
                       payload: a memfd holding {"argv", "cwd", "env"} (no packet size limit)
                       {"op": "kill_all", "id": N}
  guardian -> harness  {"op": "spawned", "id": N, "pid": P} | {"op": "failed", "id": N, "errno": E}
                       {"op": "exit", "pid": P, "status": wait status}   (for spawned pids)
                       {"op": "killed_all", "id": N}
                       {"op": "closing"}   (it is going away: start a new one for new commands)
"""

from __future__ import annotations

import array
import ctypes
import errno
import json
import os
import selectors
import signal
import socket
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
MAX_PACKET = 65_536
KILL_ROUNDS = 100  # forks racing the kill loop are caught by the next round


def become_subreaper() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def receive(sock: socket.socket) -> tuple[dict | None, list[int]]:
    """One request and the descriptors sent with it; (None, []) when the harness is gone."""
    fds = array.array("i")
    data, ancillary, _flags, _addr = sock.recvmsg(
        MAX_PACKET, socket.CMSG_SPACE(8 * fds.itemsize), socket.MSG_CMSG_CLOEXEC
    )
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    if not data:
        for fd in fds:
            os.close(fd)
        return None, []
    return json.loads(data), list(fds)


def send(sock: socket.socket, message: dict) -> None:
    try:
        sock.send(json.dumps(message).encode())
    except OSError:
        pass  # the harness is gone; the main loop sees EOF and cleans up


def spawn(payload_fd: int, stdio: list[int]) -> int:
    """Fork and exec the command in a new session with the given stdio; its pid."""
    size = os.fstat(payload_fd).st_size
    request = json.loads(os.pread(payload_fd, size, 0))
    argv, cwd, env = request["argv"], request["cwd"], request["env"]
    error_read, error_write = os.pipe2(os.O_CLOEXEC)
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            signal.set_wakeup_fd(-1)
            for sig in (signal.SIGCHLD, signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM,
                        signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
                signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            for target, fd in enumerate(stdio):
                os.dup2(fd, target)
            os.chdir(cwd)
            os.execve(argv[0], argv, env)
        except OSError as exc:
            os.write(error_write, str(exc.errno or errno.EIO).encode())
        finally:
            os._exit(127)
    os.close(error_write)
    failure = os.read(error_read, 16)
    os.close(error_read)
    if failure:
        os.waitpid(pid, 0)
        raise OSError(int(failure), os.strerror(int(failure)))
    return pid


def descendants(root: int) -> list[int]:
    """Every live process below `root`, read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    frontier = [root]
    while frontier:
        kids = children.get(frontier.pop(), [])
        found.extend(kids)
        frontier.extend(kids)
    return found


def kill_descendants(spawned: set[int], sock: socket.socket | None) -> None:
    """SIGKILL every descendant, round after round until none is left (a fork racing the
    kill is caught by the next round); the exits of spawned commands are reported."""
    me = os.getpid()
    for _ in range(KILL_ROUNDS):
        victims = descendants(me)
        if not victims:
            return
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.005)
        reap(spawned, sock)


def reap(spawned: set[int], sock: socket.socket | None) -> None:
    """Collect every exited child; report those the harness started."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in spawned:
            spawned.discard(pid)
            if sock is not None:
                send(sock, {"op": "exit", "pid": pid, "status": status})


def serve(sock: socket.socket, spawned: set[int]) -> None:
    wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd is written
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj is sock:
                message, fds = receive(sock)
                if message is None:
                    return
                handle(sock, message, fds, spawned)
            else:
                try:
                    while os.read(wake_read, 512):
                        pass
                except BlockingIOError:
                    pass
        reap(spawned, sock)


def handle(sock: socket.socket, message: dict, fds: list[int], spawned: set[int]) -> None:
    try:
        if message["op"] == "spawn":
            try:
                pid = spawn(fds[0], fds[1:4])
            except OSError as exc:
                send(sock, {"op": "failed", "id": message["id"], "errno": exc.errno or 0})
                return
            except (ValueError, KeyError, IndexError, TypeError):  # a malformed request
                send(sock, {"op": "failed", "id": message["id"], "errno": errno.EINVAL})
                return
            spawned.add(pid)
            send(sock, {"op": "spawned", "id": message["id"], "pid": pid})
        elif message["op"] == "kill_all":
            kill_descendants(spawned, sock)
            send(sock, {"op": "killed_all", "id": message["id"]})
    finally:
        for fd in fds:
            os.close(fd)


def main() -> None:
    sock = socket.socket(fileno=int(sys.argv[1]))
    os.set_inheritable(sock.fileno(), False)
    for sig in (signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # only the harness's going away ends us
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # but a TERM still cleans up
    spawned: set[int] = set()
    try:
        become_subreaper()
        send(sock, {"op": "ready", "pid": os.getpid()})
        serve(sock, spawned)
    finally:
        send(sock, {"op": "closing"})  # before the exits it reports: the harness stops using us
        kill_descendants(spawned, sock)


if __name__ == "__main__":
    main()
