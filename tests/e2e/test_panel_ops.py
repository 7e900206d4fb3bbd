"""The /config, /permissions and /hooks panels' ops through the real session: what each lists,
where a change is saved (the file Claude Code saves it in), and that the running session
follows it at once: the next tool call is decided by a rule added or removed in the editor,
through the real pipeline, the SDK and the scripted server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.hooks import HookConfig, HookRunner
from claude_harness.permissions.rules import parse_rule
from claude_harness.protocol.events import Notice, PermissionRequest, ToolResultEvent
from claude_harness.protocol.ops import AddRule, RemoveRule
from claude_harness.protocol.panels import (
    ChangeSetting,
    HooksListed,
    ListHooks,
    ListPermissionRules,
    ListSettings,
    PermissionRulesListed,
    SettingChanged,
    SettingsListed,
)
from claude_harness.protocol.permission_data import PermissionRule
from claude_harness.testing.scenarios import TEXT
from claude_harness.tools.grep import ignore_files
from tests.e2e.support import make_engine, run_op, run_prompt


def bash(command: str) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]}


def one(events: list[Any], kind: type) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert found, f"no {kind.__name__} in {events}"
    return found[-1]


def read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


async def test_config_lists_each_setting_with_the_file_it_is_saved_in(
        project: Path, api: Any, home: Path) -> None:
    session = make_engine(api([]), project)
    rows = {r.key: r for r in one(await run_op(session, ListSettings()), SettingsListed).rows}
    assert rows["autoCompactEnabled"].value is True
    assert rows["autoCompactEnabled"].path == str(home / ".claude" / "settings.json")
    assert rows["respectGitignore"].path == str(home / ".claude" / ".claude.json")
    assert rows["outputStyle"].path == str(project / ".claude" / "settings.local.json")
    assert {"dark", "light"} <= set(rows["theme"].options)
    assert rows["model"].value == "claude-sonnet-5-5"
    assert rows["verbose"].note == ""
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text(json.dumps({"verbose": True}))
    rows = {r.key: r for r in one(await run_op(session, ListSettings()), SettingsListed).rows}
    assert rows["verbose"].note == (f"{project / '.claude' / 'settings.json'} overrides what "
                                    "you save here in later sessions")


async def test_config_changes_apply_now_and_land_where_claude_code_saves_them(
        project: Path, api: Any, home: Path) -> None:
    session = make_engine(api([]), project)
    user = home / ".claude" / "settings.json"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(json.dumps({"env": {"KEEP": "1"}}))
    changed = one(await run_op(session, ChangeSetting("autoCompactEnabled", False)),
                  SettingChanged)
    assert not changed.error and "Auto-compact" in changed.message
    assert read(user) == {"env": {"KEEP": "1"}, "autoCompactEnabled": False}
    assert session.config.auto_compact is False and session.params().compact_threshold is None
    await run_op(session, ChangeSetting("alwaysThinkingEnabled", "false"))
    assert read(user)["alwaysThinkingEnabled"] is False
    assert session.request_settings.thinking is False
    await run_op(session, ChangeSetting("alwaysThinkingEnabled", True))
    assert "alwaysThinkingEnabled" not in read(user)  # on is Claude Code's default: no key
    try:
        await run_op(session, ChangeSetting("respectGitignore", False))
        assert read(home / ".claude" / ".claude.json") == {"respectGitignore": False}
        assert ignore_files.ignore_args() == ("--no-ignore-vcs",)
    finally:
        ignore_files.configure(respect_gitignore=True)
    await run_op(session, ChangeSetting("outputStyle", "Explanatory"))
    assert read(project / ".claude" / "settings.local.json")["outputStyle"] == "Explanatory"
    await run_op(session, ChangeSetting("permissions.defaultMode", "plan"))
    assert read(user)["permissions"] == {"defaultMode": "plan"}
    assert session.mode == "default"  # Claude Code applies it from the next session


async def test_a_bad_value_is_refused_and_the_file_is_left_alone(
        project: Path, api: Any, home: Path) -> None:
    session = make_engine(api([]), project)
    events = await run_op(session, ChangeSetting("editorMode", "emacs-ish"))
    refused = one(events, SettingChanged)
    assert refused.error and "normal, vim" in refused.message
    assert any(isinstance(e, Notice) and e.level == "error" for e in events)
    assert not (home / ".claude" / "settings.json").exists()
    user = home / ".claude" / "settings.json"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text("{not json")
    refused = one(await run_op(session, ChangeSetting("verbose", True)), SettingChanged)
    assert refused.error and "not valid JSON" in refused.message
    assert user.read_text() == "{not json" and session.config.verbose is False


async def test_a_deny_rule_added_to_the_user_file_decides_the_next_call(
        project: Path, api: Any, home: Path) -> None:
    server = api([bash("touch made"), TEXT, bash("touch made"), TEXT])
    session = make_engine(server, project, interactive=True)
    await run_op(session, AddRule("deny", "Bash(touch *)", destination="userSettings"))
    assert read(home / ".claude" / "settings.json")["permissions"]["deny"] == ["Bash(touch *)"]
    asked: list[PermissionRequest] = []
    events = await run_prompt(session, "make it", answer=lambda r: (asked.append(r), None)[1])
    result = one(events, ToolResultEvent)
    assert not asked and result.is_error and not (project / "made").exists()
    listed = one(await run_op(session, ListPermissionRules()), PermissionRulesListed)
    row = next(r for r in listed.rules if r.rule == "Bash(touch *)")
    assert (row.behavior, row.source, row.editable) == ("deny", "userSettings", True)
    assert row.path == str(home / ".claude" / "settings.json")
    await run_op(session, RemoveRule("Bash(touch *)", "userSettings"))
    assert read(home / ".claude" / "settings.json")["permissions"]["deny"] == []
    from claude_harness.protocol.ops import AnswerPermission

    events = await run_prompt(session, "again", answer=lambda r: (
        asked.append(r), AnswerPermission(r.request_id, "yes"))[1])
    assert len(asked) == 1 and (project / "made").exists()  # asked again, then ran


async def test_an_allow_rule_in_the_project_file_lets_the_next_call_run(
        project: Path, api: Any) -> None:
    server = api([bash("touch ok"), TEXT])
    session = make_engine(server, project, interactive=True)
    await run_op(session, AddRule("allow", "Bash(touch ok)", destination="projectSettings"))
    saved = read(project / ".claude" / "settings.json")
    assert saved["permissions"]["allow"] == ["Bash(touch ok)"]
    asked: list[Any] = []
    await run_prompt(session, "go", answer=lambda r: (asked.append(r), None)[1])
    assert not asked and (project / "ok").exists()


async def test_managed_and_command_line_rules_are_read_only(project: Path, api: Any) -> None:
    session = make_engine(api([]), project, deny=("Bash(rm *)",))
    session.permission = type(session.permission)(
        mode="default", cwd=project, interactive=True, rules=(
            *session.permission.rules,
            PermissionRule("policySettings", "deny", parse_rule("WebFetch"))))
    listed = one(await run_op(session, ListPermissionRules()), PermissionRulesListed)
    assert {(r.rule, r.source, r.editable) for r in listed.rules} == {
        ("Bash(rm *)", "cliArg", False), ("WebFetch", "policySettings", False)}
    assert [d.source for d in listed.destinations] == [
        "localSettings", "projectSettings", "userSettings", "session"]
    events = await run_op(session, RemoveRule("WebFetch", "policySettings"))
    assert "cannot change" in one(events, Notice).text
    assert any(str(r.value) == "WebFetch" for r in session.permission.rules)


async def test_hooks_are_listed_by_event_with_their_command_and_source(
        project: Path, api: Any) -> None:
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./check.sh"}]}]}
    config = HookConfig.from_sources([("userSettings", project / "hooks.json", hooks)])
    runner = HookRunner(config, project_dir=project, session_id="s", transcript_path="",
                        get_permission_mode=lambda: "default")
    session = make_engine(api([]), project, hooks=runner)
    listed = one(await run_op(session, ListHooks()), HooksListed)
    assert "PreToolUse" in listed.events and "SessionStart" in listed.events
    assert [(h.event, h.matcher, h.command, h.source) for h in listed.hooks] == [
        ("PreToolUse", "Bash", "./check.sh", str(project / "hooks.json"))]


def test_respect_gitignore_saved_in_claude_json_holds_in_the_next_session(
        project: Path, api: Any, home: Path) -> None:
    """/config saves respectGitignore in ~/.claude.json (as Claude Code does); a session started
    afterwards reads it from there: Grep finds the gitignored file."""
    from tests.e2e.support import run_cli

    (project / ".git").mkdir()
    (project / ".gitignore").write_text("ignored.log\n")
    (project / "ignored.log").write_text("secret-word\n")
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / ".claude.json").write_text(json.dumps({"respectGitignore": False}))
    grep = {"content": [{"type": "tool_use", "name": "Grep", "input": {
        "pattern": "secret-word", "output_mode": "files_with_matches"}}]}
    server = api([grep, TEXT])
    proc = run_cli(["-p", "find"], project)
    assert proc.returncode == 0, proc.stderr
    assert "ignored.log" in json.dumps(server.requests[1]["messages"][-1]["content"])


async def test_model_checkpoints_and_verbose_follow_the_panel(
        project: Path, api: Any, home: Path) -> None:
    server = api([TEXT])
    session = make_engine(server, project)
    await run_op(session, ChangeSetting("model", "opus"))
    assert read(home / ".claude" / "settings.json")["model"] == "opus"
    await run_prompt(session, "hi")
    assert server.requests[0]["model"] == "claude-opus-5-5"  # the very next request
    await run_op(session, ChangeSetting("fileCheckpointingEnabled", False))
    assert session.turn_services.checkpoints.snapshots is False
    await run_op(session, ChangeSetting("verbose", True))
    assert session.config.verbose is True  # the tools' context of the next turn reads it
    await run_op(session, ChangeSetting("model", "default"))
    assert "model" not in read(home / ".claude" / "settings.json")  # Claude Code: no key
