"""The HTTP half of WebFetch: one GET, redirects on the same host only, a size cap, a deadline.

A redirect to another host (or scheme, or port) is not followed: the model gets the new address
and decides (the user approved a domain, not wherever it sends us). A same-host hop is decided
again: a deny or ask rule covering the new URL hands it back to the model the same way, and its
address is resolved and checked again. http is upgraded to https, except when the checked
address is on the local machine or network, where test and dev servers speak plain http.

Each request goes to the address target.py checked: the URL's host is replaced by that address,
the `Host` header and (for https) the TLS server name keep the real name, so the certificate is
checked against the name and DNS is asked once per hop.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit, urlunsplit

from claude_harness.protocol.tool import ToolError
from claude_harness.sandbox.hosts import ip_literal
from claude_harness.tools.web_fetch.target import FetchUrl, checked_target, parse_url, upgraded

if TYPE_CHECKING:
    import httpx2  # imported by the fetch itself, on the first WebFetch

MAX_BYTES = 10 * 1024 * 1024
MAX_REDIRECTS = 10
DEFAULT_TIMEOUT_MS = 30_000
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
    """A checked absolute http(s) URL, rebuilt around its canonical host (target.py)."""
    return parse_url(url).url


def same_host(a: str, b: str) -> bool:
    """Both URLs name the same scheme, host and port (a leading www. does not count)."""
    try:
        return parse_url(a).origin == parse_url(b).origin
    except ToolError:
        return False


@dataclass(frozen=True)
class Consent:
    """What the permission decision settled for this call: whether internal addresses may be
    reached (an allow rule names the host), and which hop URLs a deny/ask rule covers (those
    go back to the model as redirects, to be decided as calls of their own)."""

    internal_allowed: bool = False
    hop_refused: Callable[[str], bool] = lambda url: False


async def fetch(url: str, timeout: float | None = None,
                consent: Consent | None = None) -> Fetched | Redirected:
    """GET `url` within `timeout` seconds in all; errors become ToolErrors the model can read."""
    import httpx2  # imported when a fetch happens: it is not needed to start

    timeout = timeout_seconds() if timeout is None else timeout
    try:
        async with asyncio.timeout(timeout):
            async with httpx2.AsyncClient(follow_redirects=False, timeout=timeout,
                                          headers={"User-Agent": USER_AGENT,
                                                   "Accept": "text/html, text/markdown, "
                                                             "text/plain, */*;q=0.8"}) as client:
                return await _follow(client, url, consent or Consent())
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


async def _follow(client: httpx2.AsyncClient, url: str,
                  consent: Consent) -> Fetched | Redirected:
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        response, current = await _send_pinned(client, parse_url(current), consent)
        try:
            if response.is_redirect and "location" in response.headers:
                location = urljoin(current, response.headers["location"])
                if not same_host(current, location) or consent.hop_refused(
                        normalise_url(location)):
                    return Redirected(current, location, response.status_code)
                current = normalise_url(location)
                continue
            if response.status_code >= 400:
                raise ToolError(f"{current} answered HTTP {response.status_code} "
                                f"{response.reason_phrase}.", code=f"http_{response.status_code}")
            body, truncated = await _read_capped(response)
            return Fetched(current, response.status_code, response.reason_phrase,
                           response.headers.get("content-type", ""), body, truncated)
        finally:
            await response.aclose()
    raise ToolError(f"Too many redirects (more than {MAX_REDIRECTS}) fetching {url}.",
                    code="too_many_redirects")


async def _send_pinned(client: httpx2.AsyncClient, target: FetchUrl,
                       consent: Consent) -> tuple[httpx2.Response, str]:
    """GET `target` at one of the addresses target.py checked (tried in the order DNS gave
    them), carrying the real name in the Host header and TLS SNI: (the response, the URL as
    requested, http upgraded to https unless the address is local)."""
    import httpx2

    resolved = await checked_target(target, internal_allowed=consent.internal_allowed)
    if not resolved.internal:
        target = upgraded(target)
    parts = urlsplit(target.url)
    named = target.scheme == "https" and ip_literal(target.host) is None
    extensions = {"sni_hostname": target.host} if named else {}
    failure: Exception | None = None
    for address in resolved.addresses:
        shown = f"[{address}]" if address.version == 6 else str(address)
        pinned_url = urlunsplit((parts.scheme, f"{shown}:{target.port}", parts.path or "/",
                                 parts.query, ""))
        request = client.build_request(
            "GET", pinned_url, headers={"Host": parts.netloc}, extensions=extensions)
        try:
            return await client.send(request, stream=True), target.url
        except httpx2.ConnectError as exc:
            failure = exc
    assert failure is not None
    raise failure


async def _read_capped(response: httpx2.Response) -> tuple[bytes, bool]:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size >= MAX_BYTES:
            return b"".join(chunks)[:MAX_BYTES], True
    return b"".join(chunks), False
