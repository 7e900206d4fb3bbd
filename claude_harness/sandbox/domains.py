"""Which hosts sandboxed commands may reach: `sandbox.network.allowedDomains` / `deniedDomains`.

Patterns as Claude Code writes them: `example.com` (that host only), `*.example.com` (its
subdomains, not the domain itself), `localhost`, or a literal IP address. Hosts and patterns
are compared in their canonical form (sandbox/hosts.py: case, trailing dot, dot look-alikes,
IDNA, every IPv4 spelling), the form the proxy then connects with. A denied pattern wins over an
allowed one; a host that cannot be read one single way matches nothing and is refused.

Internal addresses (loopback, link-local, private...) are refused by the proxy after it
resolves the name, unless a pattern names that host exactly (`localhost`, `127.0.0.1`,
`devbox.internal`): `allows_internal()`. A wildcard never opens the machine or the LAN.
"""

from __future__ import annotations

from dataclasses import dataclass

from claude_harness.sandbox.hosts import canonical_pattern, host_or_none


def matches(pattern: str, host: str) -> bool:
    canonical = host_or_none(host)
    if canonical is None:
        return False
    pattern = canonical_pattern(pattern)
    if pattern.startswith("*."):
        return canonical.endswith(pattern[1:]) and len(canonical) > len(pattern) - 1
    return canonical == pattern


@dataclass(frozen=True)
class DomainPolicy:
    allowed: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()

    def allows(self, host: str) -> bool:
        if not host or host_or_none(host) is None or any(matches(p, host) for p in self.denied):
            return False
        return any(matches(p, host) for p in self.allowed)

    def allows_internal(self, host: str) -> bool:
        """An allowed pattern names this very host (no wildcard): the user's consent to reach
        an internal address through it."""
        canonical = host_or_none(host)
        return canonical is not None and any(
            "*" not in p and canonical_pattern(p) == canonical for p in self.allowed)

    def refusal(self, host: str) -> str:
        """Why `host` is refused, in words a model can act on."""
        if host_or_none(host) is None:
            return f"{host!r} is not a host name that can be read one single way"
        if any(matches(p, host) for p in self.denied):
            return f"{host} is listed in sandbox.network.deniedDomains"
        return (f"{host} is not in sandbox.network.allowedDomains "
                f"(allowed: {', '.join(self.allowed) or 'none'})")
