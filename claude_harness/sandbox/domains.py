"""Which hosts sandboxed commands may reach: `sandbox.network.allowedDomains` / `deniedDomains`.

Patterns as Claude Code writes them: `example.com` (that host only), `*.example.com` (its
subdomains, not the domain itself), `localhost`, or a literal IP address. Matching ignores case
and a trailing dot. A denied pattern wins over an allowed one.
"""

from __future__ import annotations

from dataclasses import dataclass


def _normal(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):  # an IPv6 literal as written in a URL
        host = host[1:-1]
    return host


def matches(pattern: str, host: str) -> bool:
    pattern, host = _normal(pattern), _normal(host)
    if pattern.startswith("*."):
        return host.endswith(pattern[1:]) and len(host) > len(pattern) - 1
    return host == pattern


@dataclass(frozen=True)
class DomainPolicy:
    allowed: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()

    @property
    def any_allowed(self) -> bool:
        return bool(self.allowed)

    def allows(self, host: str) -> bool:
        if not host or any(matches(p, host) for p in self.denied):
            return False
        return any(matches(p, host) for p in self.allowed)

    def refusal(self, host: str) -> str:
        """Why `host` is refused, in words a model can act on."""
        if any(matches(p, host) for p in self.denied):
            return f"{host} is listed in sandbox.network.deniedDomains"
        return (f"{host} is not in sandbox.network.allowedDomains "
                f"(allowed: {', '.join(self.allowed) or 'none'})")
