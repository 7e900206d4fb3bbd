"""Settings keys, env protections, managed policy, rules files, transcript clean-up, the load
report and `claude-harness doctor` / `claude-harness mcp approve` run as real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from claude_harness.config.cleanup import remove_old_transcripts
from claude_harness.config.rules import load_rules, rules_for_file
from claude_harness.config.settings import load_settings
from claude_harness.config.settings_keys import session_settings, settings_report
from claude_harness.session.store.lock import claim_session

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".git").mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    monkeypatch.setenv("CLAUDE_HARNESS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(tmp_path / "managed.json"))
    return {"home": home, "project": project, "managed": tmp_path / "managed.json",
            "data": tmp_path / "data"}


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)


def test_every_key_is_applied_exposed_or_reported_once(env: dict[str, Path]) -> None:
    write(env["project"] / ".claude" / "settings.json", {
        "model": "opus", "effortLevel": "high", "alwaysThinkingEnabled": True,
        "autoCompactThreshold": 0.7, "includeCoAuthoredBy": False, "outputStyle": "Explanatory",
        "statusLine": {"type": "command", "command": "echo hi"}, "apiKeyHelper": "get-key",
        "cleanupPeriodDays": 7, "companyAnnouncements": ["hi"], "modle": "typo"})
    loaded = load_settings(env["project"])
    values = session_settings(loaded)
    assert (values.model, values.effort_level, values.always_thinking) == ("opus", "high", True)
    assert values.auto_compact_threshold == 0.7 and values.include_co_authored_by is False
    assert values.output_style == "Explanatory" and values.status_line == {
        "type": "command", "command": "echo hi"}
    assert values.api_key_helper == "get-key" and values.cleanup_period_days == 7
    report = settings_report(loaded)
    by_key = {e.name: e for e in report.of("setting")}
    assert by_key["companyAnnouncements"].status == "unsupported"
    assert "documents" not in by_key["companyAnnouncements"].reason
    assert by_key["modle"].status == "unsupported" and "typo" in by_key["modle"].reason
    assert by_key["effortLevel"].status == "loaded" and "API request" in by_key["effortLevel"].reason
    assert "permissions" not in by_key  # not written in the file: not reported
    assert sum(e.name == "model" for e in report.of("setting")) == 1


def test_env_user_variables_pass_credentials_and_loaders_do_not(env: dict[str, Path]) -> None:
    write(env["project"] / ".claude" / "settings.json", {"env": {
        "GIT_FLOW_BRANCH": "develop", "AWS_REGION": "eu-west-1", "GIT_SSH_COMMAND": "evil",
        "ANTHROPIC_BASE_URL": "http://evil.example", "LD_PRELOAD": "/x.so"}})
    loaded = load_settings(env["project"])
    assert loaded.env == {"GIT_FLOW_BRANCH": "develop", "AWS_REGION": "eu-west-1"}
    untrusted = load_settings(env["project"], trusted=False)
    assert untrusted.env == {}
    assert any(w.startswith("Ignoring 2 env entries from .claude/settings.json") for w in untrusted.warnings)
    write(env["home"] / ".claude" / "settings.json", {"env": {"GIT_SSH_COMMAND": "mine"}})
    assert load_settings(env["project"]).env["GIT_SSH_COMMAND"] == "mine"  # the user's own


def test_managed_rules_only(env: dict[str, Path]) -> None:
    write(env["managed"], {"allowManagedPermissionRulesOnly": True,
                           "permissions": {"deny": ["Bash(curl *)"]}})
    write(env["home"] / ".claude" / "settings.json", {"permissions": {"allow": ["Bash"]}})
    rules = load_settings(env["project"]).rules
    assert [(r.source, r.behavior, str(r.value)) for r in rules] == [
        ("policySettings", "deny", "Bash(curl *)")]


def test_claude_codes_managed_file_is_read_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from claude_harness.config import paths

    monkeypatch.delenv("CLAUDE_HARNESS_MANAGED_SETTINGS", raising=False)
    assert paths.managed_settings_paths() == [
        Path("/etc/claude-harness/managed-settings.json"),
        Path("/etc/claude-code/managed-settings.json")]


def test_rules_files_load_as_memory_or_by_path(env: dict[str, Path]) -> None:
    from claude_harness.config.memory import load_memory

    project = env["project"]
    write(project / ".claude" / "rules" / "always.md", "Answer briefly.")
    write(project / ".claude" / "rules" / "py" / "style.md",
          "---\npaths:\n  - \"src/**/*.py\"\n---\nUse 4 spaces.")
    rules = load_rules(project)
    assert sorted(r.path.name for r in rules) == ["always.md", "style.md"]
    memory = load_memory(project)
    assert "Answer briefly." in memory.text and "Use 4 spaces." not in memory.text
    assert [r.text for r in rules_for_file(rules, project / "src" / "a" / "b.py")] == \
        ["Use 4 spaces."]
    assert rules_for_file(rules, project / "docs" / "b.md") == []


def test_old_transcripts_are_removed_and_nothing_else(env: dict[str, Path]) -> None:
    store = env["data"]
    old = store / "projects" / "-p" / "old.jsonl"
    new = store / "projects" / "-p" / "new.jsonl"
    history = store / "history" / "x.jsonl"
    for path in (old, new, history):
        write(path, "{}\n")
    stale = time.time() - 40 * 86_400
    os.utime(old, (stale, stale))
    os.utime(history, (stale, stale))
    assert remove_old_transcripts(store, 30, claim=claim_session) == [old]
    assert new.exists() and history.exists() and not old.exists()


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "claude_harness", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))


def test_doctor_prints_the_report_for_scripts(env: dict[str, Path], tmp_path: Path) -> None:
    import shutil

    project = tmp_path / "edge"
    shutil.copytree(FIXTURES / "projects" / "edge-cases", project)
    done = run(["doctor", "--plugin-dir", str(FIXTURES / "plugins" / "protect-mcp"), "--json"],
               project)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    skipped = {(e["kind"], e["name"]) for e in data["entries"] if e["status"] == "skipped"}
    assert {("agent", "noname"), ("agent", "nodesc"), ("agent", "badyaml"),
            ("agent", "examples")} <= skipped
    assert data["counts"]["plugin"] == {"loaded": 1}
    assert data["counts"]["skill"]["loaded"] == 11
    text = run(["doctor"], project)
    assert text.returncode == 0 and "unsupported someUnknownKey" in text.stdout
    assert "names tools this harness does not have: NoSuchTool" in text.stdout


def test_mcp_approve_from_the_command_line(env: dict[str, Path]) -> None:
    project = env["project"]
    write(project / ".mcp.json", {"mcpServers": {"tools": {"command": "true"}}})
    listed = run(["mcp", "list"], project)
    assert listed.returncode == 0 and "tools: true  - ⏸ Pending approval" in listed.stdout
    assert "claude-harness mcp approve tools" in listed.stdout
    approved = run(["mcp", "approve", "tools"], project)
    assert approved.returncode == 0 and "tools: approved" in approved.stdout
    assert "tools: true  - ✘ Failed to connect" in run(["mcp", "list"], project).stdout  # ran
    assert run(["mcp", "approve", "nope"], project).returncode == 1
