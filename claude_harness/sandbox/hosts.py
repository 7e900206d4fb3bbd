"""Host names as the network will see them: one canonical form for rules, WebFetch and the proxy.

Why one function: a rule that compares the host as written while the HTTP client (or
getaddrinfo) rewrites it decides on one host and connects to another. `evil。test` (U+3002),
`EVIL.test.`, `ＥＶＩＬ.test` and `evil.test` are one host to the client; `2130706433`,
`0x7f.1`, `127.1` and `0177.0.0.1` are `127.0.0.1` to getaddrinfo (inet_aton's forms, which
WHATWG URLs keep). So every decision and every connection uses `canonical_host()`:

  - IPv6 literals (brackets removed) in compressed form; zone ids (`%eth0`) are refused;
  - the dot look-alikes U+3002, U+FF0E, U+FF61 become `.`, one trailing dot is dropped;
  - IPv4 in any inet_aton spelling becomes the dotted quad; a host whose last label is a
    number but that is no valid address is refused (the client would treat it as one);
  - other names: lower case, non-ASCII labels through IDNA with UTS-46 mapping (full-width
    letters, soft hyphens), ASCII labels kept when they are plain letters, digits, `-`, `_`;
  - percent-encoded or otherwise odd characters are refused: no two readings are possible.

`address_class()` says why an address is not on the public internet (loopback, link-local and
cloud metadata, private, shared, unspecified, multicast, reserved), looking through IPv6 forms
that carry an IPv4 address (mapped, NAT64, 6to4). `resolve_checked()` resolves a name once and
checks every address it gets, so the caller can connect to exactly the address it checked.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
DOT_LOOKALIKES = re.compile("[\u3002\uff0e\uff61]")
_ASCII_LABEL = re.compile(r"^[a-z0-9_-]{1,63}$")
_NUMBER = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
LOOPBACK_NAMES = ("localhost",)  # RFC 6761: localhost and *.localhost are the machine itself
INTERNAL_SUFFIXES = (".localhost", ".internal", ".local", ".home.arpa")
INTERNAL_NAMES = frozenset({"metadata.google.internal", "metadata", "instance-data"})


class HostError(ValueError):
    """A host that cannot be read one single way."""


def canonical_host(raw: str) -> str:
    """The host as the HTTP client and the resolver will use it (see the module text)."""
    host = raw.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if ":" in host:
        return _ipv6(host)
    if not host:
        raise HostError("empty host name")
    if "%" in host:
        raise HostError(f"percent-encoded host name {raw!r}")
    host = DOT_LOOKALIKES.sub(".", host)
    if host.endswith("."):
        host = host[:-1]
    labels = host.split(".")
    if any(not label for label in labels):
        raise HostError(f"host name {raw!r} has an empty label")
    if _NUMBER.match(labels[-1].lower()):
        return _ipv4(labels, raw)
    return ".".join(_label(label, raw) for label in labels)


def _ipv6(host: str) -> str:
    if "%" in host:
        raise HostError(f"IPv6 zone ids are not accepted ({host!r})")
    try:
        return ipaddress.IPv6Address(host).compressed
    except ValueError as exc:
        raise HostError(f"invalid IPv6 address {host!r}") from exc


def _ipv4(labels: list[str], raw: str) -> str:
    """inet_aton: 1 to 4 parts, each decimal, 0x-hex or 0-octal; the last fills the rest."""
    if len(labels) > 4:
        raise HostError(f"invalid IPv4 address {raw!r}")
    try:
        numbers = [_ipv4_part(label.lower()) for label in labels]
    except ValueError as exc:
        raise HostError(f"invalid IPv4 address {raw!r}") from exc
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        raise HostError(f"invalid IPv4 address {raw!r}")
    value = last
    for index, part in enumerate(head):
        value += part << (8 * (3 - index))
    return str(ipaddress.IPv4Address(value))


def _ipv4_part(text: str) -> int:
    if text.startswith("0x"):
        return int(text[2:] or "0", 16)
    if len(text) > 1 and text.startswith("0"):
        return int(text, 8)
    return int(text, 10)


def _label(label: str, raw: str) -> str:
    if label.isascii():
        lowered = label.lower()
        if not _ASCII_LABEL.match(lowered):
            raise HostError(f"host name {raw!r} has characters a host name cannot have")
        return lowered
    import idna  # only non-ASCII names need it

    try:
        encoded = idna.encode(label, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as exc:
        raise HostError(f"invalid international host name {raw!r}: {exc}") from exc
    if "." in encoded:  # a mapping that produced a dot would change the host's structure
        raise HostError(f"host name {raw!r} maps to more labels than it shows")
    return encoded


def host_or_none(raw: str) -> str | None:
    try:
        return canonical_host(raw)
    except HostError:
        return None


def ip_literal(host: str) -> IPAddress | None:
    """The address a canonical host spells, or None for a name."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def is_loopback_name(host: str) -> bool:
    return host in LOOPBACK_NAMES or host.endswith(".localhost")


def address_class(ip: IPAddress) -> str | None:
    """Why `ip` is not a public internet address (None: it is one)."""
    embedded = _embedded_ipv4(ip)
    if embedded is not None:
        return address_class(embedded)
    checks = (("unspecified", ip.is_unspecified), ("loopback", ip.is_loopback),
              ("link-local (cloud metadata lives here)", ip.is_link_local),
              ("multicast", ip.is_multicast), ("private", ip.is_private),
              ("reserved", ip.is_reserved))
    for name, hit in checks:
        if hit:
            return name
    return None if ip.is_global else "not globally routable"


def _embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    if not isinstance(ip, ipaddress.IPv6Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    return None


def internal_by_name(host: str) -> str | None:
    """Why a canonical host is internal by its spelling alone (no lookup), or None."""
    literal = ip_literal(host)
    if literal is not None:
        kind = address_class(literal)
        return f"{kind} address {host}" if kind else None
    if is_loopback_name(host) or host in INTERNAL_NAMES or host.endswith(INTERNAL_SUFFIXES):
        return f"internal host {host}"
    return None


@dataclass(frozen=True)
class Target:
    """A resolved host: every address it had, in the order to try them, and what is
    internal about them (empty when all are public)."""

    host: str
    addresses: tuple[IPAddress, ...]
    internal: tuple[str, ...]

    def describe_internal(self) -> str:
        return ", ".join(self.internal)


async def resolve_checked(host: str, port: int) -> Target:
    """Resolve a canonical host once (OSError when it does not resolve) and classify each
    address; the caller connects to those addresses, never to the name again."""
    literal = ip_literal(host)
    if literal is not None:
        addresses: tuple[IPAddress, ...] = (literal,)
    else:
        import asyncio

        infos = await asyncio.get_running_loop().getaddrinfo(host, port,
                                                             type=socket.SOCK_STREAM)
        seen: dict[str, IPAddress] = {}
        for _family, _type, _proto, _name, sockaddr in infos:
            address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
            seen.setdefault(address.compressed, address)
        addresses = tuple(seen.values())
        if not addresses:
            raise OSError(f"{host} has no address")
    internal = [f"{a} ({kind})" for a in addresses if (kind := address_class(a)) is not None]
    if is_loopback_name(host) and not internal:
        internal = [f"{host} (loopback by name)"]
    return Target(host, addresses, tuple(internal))


def canonical_pattern(pattern: str) -> str:
    """A host pattern (`example.com`, `*.example.com`, `api-*.example.com`, an address) in the
    same canonical form as the hosts it is compared with; labels holding `*` are only
    lower-cased. A pattern that cannot be read stays lower-cased as written."""
    text = DOT_LOOKALIKES.sub(".", pattern.strip()).rstrip(".")
    if "*" not in text:
        return host_or_none(text) or text.lower()
    return ".".join(label.lower() if "*" in label else _pattern_label(label)
                    for label in text.split("."))


def _pattern_label(label: str) -> str:
    try:
        return _label(label, label)
    except HostError:
        return label.lower()
