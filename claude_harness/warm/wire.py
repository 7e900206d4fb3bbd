"""The messages between the thin client and the warm process, on one unix stream socket.

client -> server  one request: a 4-byte length and a JSON object (argv, environment, key),
                  with the client's stdin, stdout, stderr and working directory as file
                  descriptors (SCM_RIGHTS) on its first bytes
server -> client  JSON lines: {"ready": pid} or {"cold": why} from the forked child, then
                  {"status": code, "maxrss_kb": n} from the server once the child is reaped
client -> child   JSON lines: {"go": true} (only then does the child start: a client that
                  gave up waiting and ran cold can never have the run happen twice), then
                  {"signal": n} for each signal the client receives

Why the child waits for "go" and watches the socket: the run is the client's, so it must not
outlive it. When the client's end closes (it exited, or `kill -9`), the child dies at once, as
a cold process would have.
"""

from __future__ import annotations

import json
import os
import socket
import struct
from typing import Any

REQUEST_FDS = 4  # stdin, stdout, stderr, the working directory
MAX_REQUEST_BYTES = 16 * 1024 * 1024
_LENGTH = struct.Struct("!I")


def send_request(sock: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
    body = json.dumps(request).encode("utf-8", "surrogateescape")
    data = _LENGTH.pack(len(body)) + body
    sent = socket.send_fds(sock, [data], fds)  # the descriptors ride on the first bytes
    if sent < len(data):
        sock.sendall(data[sent:])


def receive_request(sock: socket.socket) -> tuple[dict[str, Any], list[int]]:
    """The request and the descriptors it brought; raises ValueError for anything else (the
    descriptors received are closed then)."""
    data, fds, _flags, _addr = socket.recv_fds(sock, 65_536, REQUEST_FDS)
    try:
        if len(fds) != REQUEST_FDS or len(data) < _LENGTH.size:
            raise ValueError("a request without its descriptors")
        (length,) = _LENGTH.unpack_from(data)
        if length > MAX_REQUEST_BYTES:
            raise ValueError("a request too large")
        body = bytearray(data[_LENGTH.size:])
        while len(body) < length:
            chunk = sock.recv(min(1 << 20, length - len(body)))
            if not chunk:
                raise ValueError("a request cut short")
            body += chunk
        request = json.loads(body.decode("utf-8", "surrogateescape"))
        if not isinstance(request, dict):
            raise ValueError("a request that is not an object")
        return request, fds
    except Exception:
        for fd in fds:
            _close(fd)
        raise


def send_line(sock: socket.socket, message: dict[str, Any]) -> None:
    sock.sendall(json.dumps(message).encode() + b"\n")


class LineReader:
    """JSON lines from a socket; `next()` is None at the end of the stream."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._buffer = b""

    def next(self) -> dict[str, Any] | None:
        while b"\n" not in self._buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            message = json.loads(line)
        except ValueError:
            return None
        return message if isinstance(message, dict) else None


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass
