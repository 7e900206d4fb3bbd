"""The sandbox settings block as Claude Code users write it, and what /sandbox says about it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_harness.config.settings import load_settings
from claude_harness.sandbox.availability import Availability, check_availability
from claude_harness.sandbox.domains import DomainPolicy
from claude_harness.sandbox.runtime import SandboxRuntime, runtime_from_settings
from claude_harness.sandbox.settings import SandboxSettings


def _write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_scalars_come_from_the_highest_source_and_lists_merge(
    home: Path, tmp_path: Path
) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    _write(home / ".claude" / "settings.json", {"sandbox": {
        "enabled": True, "autoAllowBashIfSandboxed": False,
        "network": {"allowedDomains": ["github.com"]},
        "filesystem": {"allowWrite": ["~/.kube", "//opt/cache"]}}})
    _write(proj / ".claude" / "settings.json", {"sandbox": {
        "autoAllowBashIfSandboxed": True, "excludedCommands": ["docker"],
        "network": {"allowedDomains": ["*.npmjs.org"], "deniedDomains": ["evil.npmjs.org"]},
        "filesystem": {"allowWrite": ["build/out"], "denyRead": ["./secrets"]},
        "someNewerKey": {"kept": True}}})
    _write(proj / ".claude" / "settings.local.json", {"sandbox": {"enabled": False}})

    runtime, warnings = runtime_from_settings(load_settings(proj))
    s = runtime.settings
    assert warnings == [] and s.enabled is False  # local beats project beats user
    assert s.auto_allow_bash is True and s.excluded_commands == ["docker"]
    assert s.allowed_domains == ["*.npmjs.org", "github.com"]
    assert s.denied_domains == ["evil.npmjs.org"]
    assert s.allow_write == [proj / "build" / "out", home / ".kube", Path("/opt/cache")]
    assert s.deny_read == [proj / "secrets"]


def test_a_malformed_block_is_skipped_with_a_warning_naming_its_file(
    home: Path, tmp_path: Path
) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    _write(proj / ".claude" / "settings.json", {"sandbox": {"enabled": "yes please"}})
    _write(home / ".claude" / "settings.json", {"sandbox": {"enabled": True}})
    runtime, warnings = runtime_from_settings(load_settings(proj))
    assert runtime.settings.enabled is True
    assert any("settings.json" in w and "'sandbox' ignored" in w for w in warnings)


def test_unavailable_sandbox_says_why_and_never_runs_silently_unsandboxed(
    tmp_path: Path,
) -> None:
    missing = SandboxSettings(enabled=True, bwrap_path=str(tmp_path / "no-bwrap"))
    runtime = SandboxRuntime(missing, tmp_path)
    assert not runtime.availability.available
    assert "could not be run" in runtime.availability.reason
    decision = runtime.decide("ls")
    assert not decision.sandboxed and not decision.auto_allow
    assert decision.reason.startswith("the sandbox cannot run here: bubblewrap")
    assert "Sandbox enabled but unavailable: bubblewrap" in runtime.startup_notice()
    assert "cannot run here" in "\n".join(runtime.status().lines())

    strict = SandboxRuntime(SandboxSettings(enabled=True, fail_if_unavailable=True,
                                            bwrap_path=str(tmp_path / "no-bwrap")), tmp_path)
    assert "failIfUnavailable" in strict.decide("ls").refusal
    assert "will not run" in strict.startup_notice()


def test_no_bwrap_on_path_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    check_availability.cache_clear()
    try:
        found = check_availability()
    finally:
        check_availability.cache_clear()
    assert not found.available and "bubblewrap (bwrap) is not installed" in found.reason


def test_decisions_for_the_resolver(tmp_path: Path) -> None:
    ok = Availability(True, "", "/usr/bin/bwrap", "/usr/bin/socat")
    runtime = SandboxRuntime(SandboxSettings(enabled=True, excluded_commands=["docker",
                                                                                "npm run:*"]),
                             tmp_path, ok)
    assert runtime.decide("make test").sandboxed and runtime.decide("make test").auto_allow
    assert not runtime.decide("cd x && docker ps").sandboxed
    assert not runtime.decide("npm run build").sandboxed
    assert runtime.decide("npm test").sandboxed
    unsafe = runtime.decide("ls", disable_sandbox=True)
    assert not unsafe.sandboxed and unsafe.must_ask and not unsafe.refusal
    runtime.set_enabled(False)
    assert runtime.decide("ls").reason == "the sandbox is off"
    regular = SandboxRuntime(SandboxSettings(enabled=True, auto_allow_bash=False), tmp_path, ok)
    assert regular.decide("ls").sandboxed and not regular.decide("ls").auto_allow


def test_domain_patterns() -> None:
    policy = DomainPolicy(("github.com", "*.npmjs.org", "localhost"), ("evil.npmjs.org",))
    assert policy.allows("github.com") and policy.allows("GitHub.com.")
    assert not policy.allows("api.github.com")
    assert policy.allows("registry.npmjs.org") and not policy.allows("npmjs.org")
    assert not policy.allows("evil.npmjs.org") and "deniedDomains" in policy.refusal(
        "evil.npmjs.org")
    assert not policy.allows("notnpmjs.org") and not policy.allows("127.0.0.1")


def test_the_sandbox_toggle_is_saved_in_local_settings_keeping_other_keys(
    home: Path, tmp_path: Path
) -> None:
    from claude_harness.config.sandbox_choice import save_sandbox_enabled

    proj = tmp_path / "proj"
    _write(proj / ".claude" / "settings.local.json",
           {"permissions": {"allow": ["Bash(make *)"]}, "sandbox": {"excludedCommands": ["x"]}})
    save_sandbox_enabled(proj, True)
    runtime, _ = runtime_from_settings(load_settings(proj))
    assert runtime.enabled and runtime.settings.excluded_commands == ["x"]
    data = json.loads((proj / ".claude" / "settings.local.json").read_text())
    assert data["permissions"] == {"allow": ["Bash(make *)"]}
