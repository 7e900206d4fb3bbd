"""Folder trust: where it comes from, and what an untrusted folder's settings lose in -p."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claude_harness.config.trust import TrustNotice, is_trusted, trust_folder
from claude_harness.session.bootstrap import build_session
from claude_harness.session.options import RunOptions


@pytest.fixture
def repo(home: Path) -> Path:
    """A repository whose committed and local settings try to grant themselves everything."""
    project = home.parent / "repo"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(json.dumps({
        "permissions": {"allow": ["Bash"], "deny": ["Bash(curl *)"],
                        "defaultMode": "acceptEdits", "additionalDirectories": [".."]},
        "env": {"TRUST_TEST_VAR": "from-repo"},
        "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
                                                             "command": "true"}]}]},
    }))
    (project / ".claude" / "settings.local.json").write_text(json.dumps(
        {"permissions": {"allow": ["Edit"]}}))
    return project.resolve()


def _build(project: Path, **opts: object) -> tuple[object, list[str]]:
    return build_session(RunOptions(cwd=project, print_mode=True, interactive=False, **opts))


def _allow_rules(engine: object) -> list[str]:
    return [str(r.value) for r in engine.permission.rules if r.behavior == "allow"]  # type: ignore[attr-defined]


def test_print_mode_in_an_untrusted_folder_ignores_every_grant(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUST_TEST_VAR", raising=False)
    engine, warnings = _build(repo)
    assert _allow_rules(engine) == []
    assert [str(r.value) for r in engine.permission.rules if r.behavior == "deny"] == [
        "Bash(curl *)"]  # deny rules still hold
    assert engine.permission.mode == "default" and engine.permission.additional_dirs == ()
    assert engine.config.hooks.config.entries == ()  # held back (listed by /hooks), never run
    assert [e.source for e in engine.config.hooks.config.skipped] == ["projectSettings"]
    import os

    assert "TRUST_TEST_VAR" not in os.environ
    notices = [w for w in warnings if isinstance(w, TrustNotice)]
    assert sorted(n.split(":")[0] for n in notices) == sorted([
        "Ignoring 1 permissions.allow entry from .claude/settings.local.json",
        "Ignoring 1 permissions.allow entry from .claude/settings.json",
        "Ignoring permissions.defaultMode from .claude/settings.json",
        "Ignoring 1 permissions.additionalDirectories entry from .claude/settings.json",
        "Ignoring 1 env entry from .claude/settings.json",
        "Ignoring 1 hook from .claude/settings.json",
    ])
    assert all("this workspace has not been trusted" in n and "--trust-workspace" in n
               for n in notices)


@pytest.mark.parametrize("how", ["flag", "app", "claude-code"])
def test_a_trusted_folder_keeps_its_settings(repo: Path, home: Path, how: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUST_TEST_VAR", raising=False)
    if how == "app":
        trust_folder(home / "data", repo)
    elif how == "claude-code":
        (home / ".claude").mkdir(exist_ok=True)
        (home / ".claude" / ".claude.json").write_text(json.dumps(
            {"projects": {str(repo): {"hasTrustDialogAccepted": True}}}))
    engine, warnings = _build(repo, trust_workspace=how == "flag")
    import os

    try:
        assert sorted(_allow_rules(engine)) == ["Bash", "Edit"]
        assert engine.permission.mode == "acceptEdits"
        assert len(engine.config.hooks.config.entries) == 1
        assert os.environ.get("TRUST_TEST_VAR") == "from-repo"
        assert not [w for w in warnings if isinstance(w, TrustNotice)]
    finally:
        monkeypatch.delenv("TRUST_TEST_VAR", raising=False)


def test_claude_code_trust_is_exact_and_must_be_true(repo: Path, home: Path) -> None:
    """As in Claude Code: the folder itself must be recorded (a parent does not count), with
    hasTrustDialogAccepted true; a broken file trusts nothing."""
    config = home / ".claude" / ".claude.json"
    config.parent.mkdir(exist_ok=True)
    for content in (json.dumps({"projects": {str(repo.parent): {"hasTrustDialogAccepted": True}}}),
                    json.dumps({"projects": {str(repo): {"hasTrustDialogAccepted": "yes"}}}),
                    json.dumps({"projects": [str(repo)]}), "{not json"):
        config.write_text(content)
        assert not is_trusted(home / "data", repo), content
