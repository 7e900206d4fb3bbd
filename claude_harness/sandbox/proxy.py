"""The sandbox's only way out to the network: a small HTTP proxy that enforces the domain list.

A sandboxed command has no network of its own (a new network namespace with only loopback).
When `sandbox.network.allowedDomains` names hosts, the harness runs this proxy on a unix socket
that is visible inside the sandbox, where a relay (socat) makes it reachable as
127.0.0.1:3128 and HTTP_PROXY/HTTPS_PROXY point there. The proxy speaks:
  - `CONNECT host:port` (HTTPS and any TLS): a tunnel, if the host is allowed;
  - absolute-form plain HTTP (`GET http://host/path`): forwarded with `Connection: close`, so a
    kept-alive connection can never carry a second request to another host;
and refuses everything else (`403` naming the rule for a refused host, `400` for what is not an
HTTP proxy request).

Where a request goes is what is decided: the target's host is put in its canonical
form first (sandbox/hosts.py, the same function the permission rules and WebFetch use), checked
against the domain list, then resolved once; every address it resolves to must be public unless
an allowed pattern names that very host (`localhost`, `127.0.0.1`), and the proxy connects to
the address it checked, so a second DNS answer cannot differ. A plain HTTP request's `Host`
header must name the target it is sent to: an allowed target cannot carry a request meant for
another virtual host.

It runs on its own event loop in a daemon thread: Bash commands come from any loop (and
background shells from none), and the proxy must serve them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

from claude_harness.sandbox.domains import DomainPolicy
from claude_harness.sandbox.hosts import HostError, canonical_host, resolve_checked

HEAD_LIMIT = 65_536
HEAD_TIMEOUT_SECONDS = 30.0
CONNECT_TIMEOUT_SECONDS = 30.0
RELAY_CHUNK = 65_536
_HOP_BY_HOP = {"proxy-connection", "proxy-authorization", "connection", "keep-alive"}


class ProxyRefusal(Exception):
    def __init__(self, status: str, message: str, host: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.host = host


class DomainProxy:
    """The proxy, listening on `socket_path` once `start()` returns."""

    def __init__(self, policy: DomainPolicy, socket_path: Path) -> None:
        self.policy = policy
        self.socket_path = socket_path
        self.refused: deque[str] = deque(maxlen=20)  # recent refused hosts, for failure notes
        self.refusal_count = 0
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.AbstractServer | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="sandbox-proxy",
                                        daemon=True)

    def start(self) -> None:
        self.socket_path.unlink(missing_ok=True)
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(
            asyncio.start_unix_server(self._serve, path=str(self.socket_path), limit=HEAD_LIMIT),
            self._loop,
        ).result(timeout=10)
        self.socket_path.chmod(0o600)

    def close(self) -> None:
        if self._server is not None:
            server, self._server = self._server, None
            asyncio.run_coroutine_threadsafe(_close_server(server), self._loop).result(timeout=5)
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        self.socket_path.unlink(missing_ok=True)

    # -- one client connection ---------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_SECONDS)
            await self._forward(head, reader, writer)
        except ProxyRefusal as refusal:
            if refusal.host:
                self.refused.append(refusal.host)
                self.refusal_count += 1
            await _reply(writer, refusal.status, str(refusal))
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            await _reply(writer, "400 Bad Request", "Not an HTTP proxy request.")
        except OSError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def _forward(self, head: bytes, reader: asyncio.StreamReader,
                       writer: asyncio.StreamWriter) -> None:
        # bytes kept as they are (surrogateescape); a UTF-8 host is read as the client wrote it
        request_line, _, rest = head.decode("utf-8", "surrogateescape").partition("\r\n")
        parts = request_line.split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            raise ProxyRefusal("400 Bad Request", "Not an HTTP proxy request.")
        method, target, version = parts
        if method.upper() == "CONNECT":
            host, port = _host_port(target, 443)
            upstream_reader, upstream_writer = await self._open(host, port)
            writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        else:
            host, port = _absolute_target(target)
            _check_host_header(rest, host, port)
            upstream_reader, upstream_writer = await self._open(host, port)
            url = urlsplit(target)
            path = (url.path or "/") + (f"?{url.query}" if url.query else "")
            upstream_writer.write(_origin_form(method, path, version, rest).encode(
                "utf-8", "surrogateescape"))
        await _relay(reader, writer, upstream_reader, upstream_writer)

    async def _open(self, raw_host: str, port: int
                    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        try:
            host = canonical_host(raw_host)
        except HostError as exc:
            raise ProxyRefusal("403 Forbidden", "Blocked by the claude-harness sandbox: "
                               f"{exc}.", raw_host) from exc
        if not self.policy.allows(host):
            raise ProxyRefusal("403 Forbidden", "Blocked by the claude-harness sandbox: "
                               f"{self.policy.refusal(host)}.", host)
        try:
            checked = await asyncio.wait_for(resolve_checked(host, port), CONNECT_TIMEOUT_SECONDS)
        except (OSError, TimeoutError) as exc:
            raise ProxyRefusal("502 Bad Gateway", f"Could not resolve {host}: {exc}") from exc
        if checked.internal and not self.policy.allows_internal(host):
            raise ProxyRefusal("403 Forbidden", "Blocked by the claude-harness sandbox: "
                               f"{host} resolves to an internal address "
                               f"({checked.describe_internal()}); only an allowedDomains entry "
                               "naming this exact host opens it.", host)
        try:
            return await asyncio.wait_for(_connect_any(checked.addresses, port),
                                          CONNECT_TIMEOUT_SECONDS)
        except (OSError, TimeoutError) as exc:
            raise ProxyRefusal("502 Bad Gateway", f"Could not reach {host}:{port}: {exc}") from exc


async def _connect_any(addresses: tuple[object, ...], port: int
                       ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """The first of the checked addresses that accepts (never the name again)."""
    error: OSError = OSError("no address to connect to")
    for address in addresses:
        try:
            return await asyncio.open_connection(str(address), port)
        except OSError as exc:
            error = exc
    raise error


def _absolute_target(target: str) -> tuple[str, int]:
    """The host and port of an absolute-form `http://host[:port]/...` request target."""
    try:
        url = urlsplit(target)
        port = url.port or 80
    except ValueError as exc:
        raise ProxyRefusal("400 Bad Request", f"Not a valid URL: {target!r}.") from exc
    if url.scheme.lower() != "http" or not url.hostname:
        raise ProxyRefusal("400 Bad Request", "Only CONNECT and absolute http:// URLs "
                           "go through the sandbox proxy.")
    return url.hostname, port


def _check_host_header(header_block: str, host: str, port: int) -> None:
    """The `Host` header (when sent) names the request's own target, in canonical form."""
    values = [line.split(":", 1)[1].strip() for line in header_block.split("\r\n")
              if line.split(":", 1)[0].strip().lower() == "host" and ":" in line]
    if not values:
        return
    refused = ProxyRefusal("403 Forbidden", "Blocked by the claude-harness sandbox: the Host "
                           f"header {values[0]!r} does not name the request's target "
                           f"{host}:{port}.", host)
    if len(values) > 1:
        raise refused
    named_host, named_port = _host_port(values[0], 80)
    try:
        same = canonical_host(named_host) == canonical_host(host) and named_port == port
    except HostError:
        same = False
    if not same:
        raise refused


def _host_port(target: str, default_port: int) -> tuple[str, int]:
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        return target.strip("[]"), default_port
    return host.strip("[]"), int(port)


def _origin_form(method: str, path: str, version: str, header_block: str) -> str:
    """The request as the origin server expects it, hop-by-hop headers replaced."""
    headers = [line for line in header_block.split("\r\n") if line]
    kept = [h for h in headers if h.split(":", 1)[0].strip().lower() not in _HOP_BY_HOP]
    return "\r\n".join([f"{method} {path} {version}", *kept, "Connection: close", "", ""])


async def _reply(writer: asyncio.StreamWriter, status: str, text: str) -> None:
    body = (text + "\n").encode()
    writer.write(
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body
    )
    with contextlib.suppress(OSError):
        await writer.drain()


async def _relay(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter,
                 upstream_reader: asyncio.StreamReader,
                 upstream_writer: asyncio.StreamWriter) -> None:
    try:
        await asyncio.gather(_pipe(client_reader, upstream_writer),
                             _pipe(upstream_reader, client_writer))
    finally:
        upstream_writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while chunk := await reader.read(RELAY_CHUNK):
            writer.write(chunk)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except OSError:
        writer.close()


async def _close_server(server: asyncio.AbstractServer) -> None:
    server.close()
    await server.wait_closed()
