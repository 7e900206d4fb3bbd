"""One reading of a host for the rules, WebFetch and the proxy (sandbox/hosts.py): every
spelling the HTTP client or getaddrinfo accepts for one host reads as that host here, and what
cannot be read one single way is refused. The fetches themselves are proven against a real
server in tests/e2e/test_web_fetch_targets.py and tests/sandbox/test_proxy_targets.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_harness.permissions.rules import parse_rule, rule_matches, rule_suggestion
from claude_harness.permissions.safety import internal_url_reason
from claude_harness.protocol.permission_data import PermissionRule
from claude_harness.protocol.tool import ToolError
from claude_harness.sandbox.domains import DomainPolicy
from claude_harness.sandbox.hosts import HostError, address_class, canonical_host, ip_literal
from claude_harness.tools.web_fetch.target import parse_url

LOOPBACK = ["2130706433", "0x7f.1", "127.1", "0177.0.0.1", "0x7f000001", "127.0.0.1",
            "127.000.000.001", "0x7F.0.0.1"]


@pytest.mark.parametrize("spelling", LOOPBACK)
def test_every_ipv4_spelling_is_the_dotted_quad(spelling: str) -> None:
    assert canonical_host(spelling) == "127.0.0.1"
    assert internal_url_reason(f"http://{spelling}:8000/") is not None


@pytest.mark.parametrize(("spelling", "kind"), [
    ("0", "unspecified"), ("[::]", "unspecified"), ("[::1]", "loopback"),
    ("[::ffff:127.0.0.1]", "loopback"), ("[::ffff:169.254.169.254]", "link-local"),
    ("169.254.169.254", "link-local"), ("[fe80::1]", "link-local"), ("10.1.2.3", "private"),
    ("172.16.0.1", "private"), ("192.168.1.1", "private"), ("[fd00::1]", "private"),
    ("224.0.0.1", "multicast"), ("[ff02::1]", "multicast"), ("[64:ff9b::7f00:1]", "loopback"),
    ("[2002:7f00:1::]", "loopback"), ("100.64.0.1", "not globally routable"),
])
def test_internal_ranges_are_named(spelling: str, kind: str) -> None:
    ip = ip_literal(canonical_host(spelling))
    assert ip is not None and (address_class(ip) or "").startswith(kind)
    assert internal_url_reason(f"http://{spelling}/") is not None


@pytest.mark.parametrize("public", ["8.8.8.8", "[2606:4700::1111]", "example.com"])
def test_public_hosts_are_not_internal(public: str) -> None:
    assert internal_url_reason(f"https://{public}/") is None


@pytest.mark.parametrize("spelling", ["evil\u3002test", "EVIL\uff0etest.", "evil\uff61test",
                                      "\uff45\uff56\uff49\uff4c.test", "evil.TEST.",
                                      "ev\u00adil.test"])
def test_look_alikes_are_the_host_they_look_like(spelling: str) -> None:
    assert canonical_host(spelling) == "evil.test"
    deny = PermissionRule("userSettings", "deny", parse_rule("WebFetch(domain:evil.test)"))
    assert rule_matches(deny, "WebFetch", f"https://{spelling}/x", Path("/"))
    wildcard = PermissionRule("userSettings", "deny", parse_rule("WebFetch(domain:*.test)"))
    assert rule_matches(wildcard, "WebFetch", f"https://{spelling}/x", Path("/"))
    assert DomainPolicy(("*.test",), ("evil.test",)).allows(spelling) is False
    assert parse_url(f"https://{spelling}/x").url == "https://evil.test/x"


@pytest.mark.parametrize("bad", ["%65vil.test", "evil.test..", "1.2.3.256", "a.b.300",
                                 "[fe80::1%25eth0]", "ev il.test"])
def test_hosts_with_two_readings_are_refused(bad: str) -> None:
    with pytest.raises(HostError):
        canonical_host(bad.strip("[]") if "%25" not in bad else "fe80::1%eth0")
    deny = PermissionRule("userSettings", "deny", parse_rule("WebFetch(domain:other.test)"))
    allow = PermissionRule("userSettings", "allow", parse_rule("WebFetch(domain:*)"))
    url = f"https://{bad}/"
    assert rule_matches(deny, "WebFetch", url, Path("/"))  # fails closed for a deny...
    assert not rule_matches(allow, "WebFetch", url, Path("/"))  # ...and for an allow


def test_user_names_in_urls_are_refused() -> None:
    for url in ("https://good.test@evil.test/", "https://a:b@evil.test/"):
        with pytest.raises(ToolError, match="user name or password"):
            parse_url(url)


def test_the_suggested_rule_names_the_canonical_host() -> None:
    assert rule_suggestion("WebFetch", "https://Docs\u3002Example.com./a") == \
        "WebFetch(domain:docs.example.com)"


def test_patterns_are_canonical_too() -> None:
    policy = DomainPolicy(("faß.de", "\uff45xample.com", "127.0.0.1"))
    assert policy.allows("xn--fa-hia.de") and policy.allows("EXAMPLE.com.")
    assert policy.allows("2130706433") and policy.allows_internal("0x7f.1")
    assert not DomainPolicy(("*.0.0.1",)).allows_internal("127.0.0.1")
