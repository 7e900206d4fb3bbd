"""Where a WebFetch request really goes: one reading of the URL for the decision and the fetch.

The URL is taken apart once, its host put in canonical form (sandbox/hosts.py, the function the
permission rules and the sandbox proxy use), and rebuilt; the rebuilt URL is what the rules
match and what the client fetches, so `https://evil。test/` is `https://evil.test/` for a
`domain:evil.test` deny as much as for the client. User names and passwords in a URL are
refused (they are the classic way to make a URL read as two hosts).

Internal addresses: `resolve_checked()` resolves the host once and checks every address; the
request then goes to the checked address (the URL keeps its name for the `Host` header and TLS
SNI/certificate checks, see fetch.py), so DNS cannot answer differently the second time. A host
whose spelling is internal (localhost, an address in any spelling, `.internal`) was already
shown to the person as such by the permission check (it asks, or an allow rule naming that very
host allowed it); a public-looking name that resolves to an internal address is refused unless
an allow rule names that very host: `WebFetch(domain:devbox.test)` is the way to reach one's
own dev server by name. Plain http is upgraded to https, except when the checked address is on
the local machine or network, where dev and test servers speak plain http.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from claude_harness.protocol.tool import ToolError
from claude_harness.sandbox.hosts import (
    HostError,
    Target,
    canonical_host,
    internal_by_name,
    resolve_checked,
)


@dataclass(frozen=True)
class FetchUrl:
    """A URL read one single way: the rebuilt text and its parts."""

    url: str
    scheme: str
    host: str  # canonical
    port: int

    @property
    def origin(self) -> tuple[str, str, int]:
        return self.scheme, self.host.removeprefix("www."), self.port


def parse_url(url: str) -> FetchUrl:
    """The checked absolute http(s) URL, rebuilt around its canonical host."""
    try:
        parts = urlsplit(url.strip())
        raw_host = parts.hostname
        explicit_port = parts.port
    except ValueError as exc:
        raise ToolError(f"Invalid URL {url!r}: {exc}", code="invalid_url") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not raw_host:
        raise ToolError(f"Invalid URL {url!r}: a full http:// or https:// URL is needed.",
                        code="invalid_url")
    if parts.username is not None or parts.password is not None:
        raise ToolError(f"Invalid URL {url!r}: URLs with a user name or password are not "
                        "fetched.", code="invalid_url")
    try:
        host = canonical_host(raw_host)
    except HostError as exc:
        raise ToolError(f"Invalid URL {url!r}: {exc}.", code="invalid_url") from exc
    return _build(scheme, host, explicit_port, parts.path, parts.query, parts.fragment)


def _build(scheme: str, host: str, port: int | None, path: str, query: str,
           fragment: str) -> FetchUrl:
    default = 443 if scheme == "https" else 80
    port = port or default
    shown = f"[{host}]" if ":" in host else host
    netloc = shown if port == default else f"{shown}:{port}"
    return FetchUrl(urlunsplit((scheme, netloc, path, query, fragment)), scheme, host, port)


def upgraded(target: FetchUrl) -> FetchUrl:
    """http becomes https (port 80 becomes 443); other ports and https stay as they are."""
    if target.scheme != "http":
        return target
    parts = urlsplit(target.url)
    port = None if target.port == 80 else target.port
    return _build("https", target.host, port, parts.path, parts.query, parts.fragment)


def subject_url(url: str) -> str:
    """What permission rules match: the rebuilt URL, or the text as given when it is not one
    (validation refuses such a call before any rule is asked)."""
    try:
        return parse_url(url).url
    except ToolError:
        return url


async def checked_target(target: FetchUrl, *, internal_allowed: bool) -> Target:
    """Resolve the host once and refuse internal addresses the decision did not see."""
    try:
        resolved = await resolve_checked(target.host, target.port)
    except OSError as exc:
        raise ToolError(f"Could not resolve {target.host}: {exc}",
                        code="connect_error") from exc
    if resolved.internal and not internal_allowed and internal_by_name(target.host) is None:
        raise ToolError(
            f"Refused: {target.host} resolves to an internal address "
            f"({resolved.describe_internal()}). WebFetch reaches the local machine or network "
            f"only when an allow rule names this very host: WebFetch(domain:{target.host}).",
            code="internal_address")
    return resolved
