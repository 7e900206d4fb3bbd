"""The HTTP half of WebFetch: one GET, redirects on the same host only, a size cap, a deadline.

A redirect to another host is not followed: the model gets the new address and decides (the
user approved a domain, not wherever it sends us). http is upgraded to https, except for the
local machine, where test servers and dev servers speak plain http.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

from claude_harness.protocol.tool import ToolError

MAX_BYTES = 10 * 1024 * 1024
MAX_REDIRECTS = 10
DEFAULT_TIMEOUT_MS = 30_000
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
USER_AGENT = "claude-harness WebFetch (+https://github.com/anthropics/claude-code compatible)"


@dataclass(frozen=True)
class Fetched:
    """A final response: its URL after same-host redirects, status, type and (capped) body."""

    url: str
    status: int
    reason: str
    content_type: str
    body: bytes
    truncated: bool


@dataclass(frozen=True)
class Redirected:
    """The server sent us to another host; not followed."""

    url: str
    location: str
    status: int


def timeout_seconds() -> float:
    raw = os.environ.get("CLAUDE_HARNESS_WEBFETCH_TIMEOUT_MS", "")
    try:
        return max(int(raw), 1) / 1000 if raw.strip() else DEFAULT_TIMEOUT_MS / 1000
    except ValueError:
        return DEFAULT_TIMEOUT_MS / 1000


def normalise_url(url: str) -> str:
    """A checked absolute http(s) URL, upgraded to https unless it names the local machine."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
    except ValueError as exc:
        raise ToolError(f"Invalid URL {url!r}: {exc}", code="invalid_url") from exc
    if parts.scheme not in ("http", "https") or not host:
        raise ToolError(f"Invalid URL {url!r}: a full http:// or https:// URL is needed.",
                        code="invalid_url")
    if parts.scheme == "http" and host.lower() not in LOCAL_HOSTS:
        parts = parts._replace(scheme="https")
    return urlunsplit(parts)


def _site(url: str) -> tuple[str, int | None]:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    return host, parts.port


def same_host(a: str, b: str) -> bool:
    """Both URLs name the same host and port (a leading www. does not count)."""
    return _site(a) == _site(b)


async def fetch(url: str, timeout: float | None = None) -> Fetched | Redirected:
    """GET `url` within `timeout` seconds in all; errors become ToolErrors the model can read."""
    import httpx2  # imported when a fetch happens: it is not needed to start

    timeout = timeout_seconds() if timeout is None else timeout
    try:
        async with asyncio.timeout(timeout):
            async with httpx2.AsyncClient(follow_redirects=False, timeout=timeout,
                                          headers={"User-Agent": USER_AGENT,
                                                   "Accept": "text/html, text/markdown, "
                                                             "text/plain, */*;q=0.8"}) as client:
                return await _follow(client, url)
    except TimeoutError as exc:
        raise ToolError(f"Timed out after {timeout:g} s fetching {url}.", code="timeout") from exc
    except httpx2.TimeoutException as exc:
        raise ToolError(f"Timed out after {timeout:g} s fetching {url}.", code="timeout") from exc
    except httpx2.ConnectError as exc:
        raise ToolError(f"Could not connect to {urlsplit(url).netloc}: {exc}",
                        code="connect_error") from exc
    except httpx2.HTTPError as exc:
        raise ToolError(f"Fetching {url} failed: {type(exc).__name__}: {exc}",
                        code="fetch_error") from exc


async def _follow(client: object, url: str) -> Fetched | Redirected:
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        async with client.stream("GET", current) as response:  # type: ignore[attr-defined]
            if response.is_redirect and "location" in response.headers:
                target = urljoin(current, response.headers["location"])
                if not same_host(current, target):
                    return Redirected(current, target, response.status_code)
                current = target
                continue
            if response.status_code >= 400:
                raise ToolError(f"{current} answered HTTP {response.status_code} "
                                f"{response.reason_phrase}.", code=f"http_{response.status_code}")
            body, truncated = await _read_capped(response)
            return Fetched(current, response.status_code, response.reason_phrase,
                           response.headers.get("content-type", ""), body, truncated)
    raise ToolError(f"Too many redirects (more than {MAX_REDIRECTS}) fetching {url}.",
                    code="too_many_redirects")


async def _read_capped(response: object) -> tuple[bytes, bool]:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():  # type: ignore[attr-defined]
        chunks.append(chunk)
        size += len(chunk)
        if size >= MAX_BYTES:
            return b"".join(chunks)[:MAX_BYTES], True
    return b"".join(chunks), False
