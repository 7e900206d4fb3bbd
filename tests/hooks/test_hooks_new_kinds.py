"""Hooks as Claude Code 2.1.332 runs them: the `if` filter, `Task` matching Agent calls, the
environment (CLAUDECODE, CLAUDE_ENV_FILE, CLAUDE_PLUGIN_ROOT), async hooks, and the http,
prompt and agent types. Real processes and a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from claude_harness.hooks import HookConfig, HookRunner
from claude_harness.hooks.config import hook_config_from_settings
from claude_harness.hooks.env_file import bash_prelude, read_exports, session_env_dir
from tests.hooks.hook_helpers import MakeRunner, group


def bash(command: str) -> dict[str, Any]:
    return {"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t"}


async def test_if_filter_runs_the_hook_only_for_matching_calls(
        make_runner: MakeRunner, tmp_path: Path) -> None:
    log = tmp_path / "ran.log"
    runner = make_runner({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "if": "Bash(git *)",
         "command": f"python3 -c 'import json,sys; print(json.load(sys.stdin)[\"tool_input\"]"
                    f"[\"command\"])' >> {log}"}]}]})
    for command in ("ls", "git log -1", "ls && git status", "echo \"$HOME\"", "echo '$x'", "gitk"):
        await runner.run("PreToolUse", bash(command))
    # compound commands match per part; a command that cannot be analysed runs the hook
    assert log.read_text().splitlines() == ["git log -1", "ls && git status", "echo \"$HOME\""]


async def test_if_filter_on_file_tools_uses_path_rules(make_runner: MakeRunner, project: Path,
                                                       tmp_path: Path) -> None:
    log = tmp_path / "ran.log"
    runner = make_runner({"PreToolUse": [{"matcher": "Edit|Write", "hooks": [
        {"type": "command", "if": "Edit(src/**/*.py)", "command": f"echo hit >> {log}"}]}]})
    await runner.run("PreToolUse", {"tool_name": "Write", "tool_input": {
        "file_path": str(project / "src" / "a" / "b.py")}})
    await runner.run("PreToolUse", {"tool_name": "Write", "tool_input": {
        "file_path": str(project / "docs" / "b.md")}})
    assert log.read_text().splitlines() == ["hit"]


def test_a_bad_if_rule_skips_the_hook_with_a_warning() -> None:
    config = HookConfig.from_sources([("userSettings", None, {"PreToolUse": [{"hooks": [
        {"type": "command", "if": "Bash(git *", "command": "x"}]}]})])
    assert config.entries == () and "if:" in config.warnings[0]


async def test_task_matcher_also_matches_agent_calls(make_runner: MakeRunner,
                                                     tmp_path: Path) -> None:
    log = tmp_path / "ran.log"
    runner = make_runner({"PreToolUse": [group(f"echo task >> {log}", matcher="Task"),
                                         group(f"echo agent >> {log}", matcher="Agent")]})
    await runner.run("PreToolUse", {"tool_name": "Agent", "tool_input": {"prompt": "p"}})
    await runner.run("PreToolUse", {"tool_name": "Task", "tool_input": {"prompt": "p"}})
    assert sorted(log.read_text().split()) == ["agent", "agent", "task", "task"]


async def test_environment_and_env_file_reach_later_commands(project: Path,
                                                             tmp_path: Path) -> None:
    env_dir = session_env_dir(tmp_path / "data", "sess-1")
    dump = tmp_path / "env.txt"
    hooks = {"SessionStart": [group(
        f'echo "export GIT_FLOW_BRANCH=develop" >> "$CLAUDE_ENV_FILE"; '
        f'echo "export QUOTED=\'a b\'" >> "$CLAUDE_ENV_FILE"; '
        f'env | grep -E "^(CLAUDECODE|CLAUDE_PROJECT_DIR|CLAUDE_ENV_FILE)=" | sort > {dump}')]}
    runner = HookRunner(HookConfig.from_sources([("userSettings", None, hooks)]),
                        project_dir=project, session_id="sess-1", transcript_path="",
                        get_permission_mode=lambda: "default", env_dir=env_dir)
    await runner.run("SessionStart", {"source": "startup"})
    env = dict(line.split("=", 1) for line in dump.read_text().splitlines())
    assert env["CLAUDECODE"] == "1" and env["CLAUDE_PROJECT_DIR"] == str(project)
    assert env["CLAUDE_ENV_FILE"].startswith(str(env_dir))
    assert read_exports(env_dir) == {"GIT_FLOW_BRANCH": "develop", "QUOTED": "a b"}
    import subprocess

    shown = subprocess.run(["bash", "-c", bash_prelude(env_dir) + 'echo "$GIT_FLOW_BRANCH"'],
                           capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "develop"


async def test_plugin_hooks_get_their_root(project: Path, tmp_path: Path) -> None:
    hooks_file = tmp_path / "plug" / "hooks" / "hooks.json"
    out = tmp_path / "root.txt"
    config = HookConfig.from_sources(
        [("pluginHooks", hooks_file, {"Stop": [group(f'printf %s "$CLAUDE_PLUGIN_ROOT" > {out}')]})],
        plugin_roots={hooks_file: tmp_path / "plug"})
    runner = HookRunner(config, project_dir=project, session_id="s", transcript_path="",
                        get_permission_mode=lambda: "default")
    await runner.run("Stop", {"stop_hook_active": False})
    assert out.read_text() == str(tmp_path / "plug")


async def test_async_hook_does_not_block_and_reports_later(make_runner: MakeRunner) -> None:
    runner = make_runner({"PostToolUse": [{"hooks": [
        {"type": "command", "async": True, "command":
         "sleep 0.3; echo '{\"systemMessage\": \"lint done\", \"hookSpecificOutput\": "
         "{\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"2 warnings\"}}'"}]}]})
    outcome = await runner.run("PostToolUse", {"tool_name": "Edit", "tool_input": {}})
    assert not outcome.ran and runner.take_async_outcomes() == []
    await runner.wait_async(timeout=10)
    (later,) = runner.take_async_outcomes()
    assert later.system_messages == ["lint done"] and later.additional_context == ["2 warnings"]


class _Hook(BaseHTTPRequestHandler):
    answers: list[tuple[int, str]] = []
    seen: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Hook.seen.append({"body": json.loads(body), "auth": self.headers.get("Authorization"),
                           "other": self.headers.get("X-Other")})
        status, text = _Hook.answers.pop(0)
        self.send_response(status)
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text.encode())

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def hook_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Hook.seen, _Hook.answers = [], []
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()
    server.server_close()


async def test_http_hook_posts_the_payload_and_its_answer_decides(
        make_runner: MakeRunner, hook_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "s3cret")
    monkeypatch.setenv("OTHER_SECRET", "leak")
    runner = make_runner({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "http", "url": hook_server, "allowedEnvVars": ["HOOK_TOKEN"],
         "headers": {"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "${OTHER_SECRET}"}}]}]})
    _Hook.answers = [(200, json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no rm here"}})), (500, "boom")]
    denied = await runner.run("PreToolUse", bash("rm -rf build"))
    assert denied.permission_decision is not None
    assert denied.permission_decision.behavior == "deny"
    assert denied.permission_decision.reason == "no rm here"
    sent = _Hook.seen[0]
    assert sent["body"]["tool_input"] == {"command": "rm -rf build"}
    assert sent["body"]["hook_event_name"] == "PreToolUse"
    assert sent["auth"] == "Bearer s3cret" and sent["other"] == ""  # not allowed: not sent
    failed = await runner.run("PreToolUse", bash("ls"))
    assert failed.permission_decision is None and "HTTP 500" in failed.errors[0]


async def test_unreachable_http_hook_is_a_visible_non_blocking_error(
        make_runner: MakeRunner) -> None:
    runner = make_runner({"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/x",
                                               "timeout": 2}]}]})
    outcome = await runner.run("Stop", {"stop_hook_active": False})
    assert not outcome.blocked and "could not be reached" in outcome.errors[0]


async def test_prompt_and_agent_hooks_ask_the_callbacks(project: Path) -> None:
    asked: list[tuple[str, str | None]] = []

    async def small_model(prompt: str, model: str | None, timeout: float) -> str:
        asked.append((prompt, model))
        return 'Sure. {"ok": false, "reason": "tests are still failing"}'

    async def sub_agent(prompt: str, model: str | None, timeout: float) -> str:
        return '{"ok": true}'

    hooks = {"Stop": [{"hooks": [{"type": "prompt", "model": "haiku",
                                  "prompt": "Is the work finished? Context: $ARGUMENTS"}]}],
             "PreToolUse": [{"hooks": [{"type": "agent", "prompt": "Check the command."}]}]}
    runner = HookRunner(HookConfig.from_sources([("userSettings", None, hooks)]),
                        project_dir=project, session_id="s", transcript_path="",
                        get_permission_mode=lambda: "default",
                        prompt_evaluator=small_model, agent_evaluator=sub_agent)
    stop = await runner.run("Stop", {"stop_hook_active": False, "last_assistant_message": "hi"})
    assert stop.blocked and stop.block_reason == "tests are still failing"
    prompt, model = asked[0]
    assert model == "haiku" and '"last_assistant_message": "hi"' in prompt
    pre = await runner.run("PreToolUse", bash("ls"))
    assert not pre.blocked and pre.permission_decision is None and pre.errors == []
    without = HookRunner(HookConfig.from_sources([("userSettings", None, hooks)]),
                         project_dir=project, session_id="s", transcript_path="",
                         get_permission_mode=lambda: "default")
    missing = await without.run("Stop", {"stop_hook_active": False})
    assert not missing.blocked and "need the model" in missing.errors[0]


def _loaded(tmp_path: Path, policy: dict[str, Any], user: dict[str, Any]) -> Any:
    from claude_harness.config.settings import load_settings

    managed = tmp_path / "managed.json"
    managed.write_text(json.dumps(policy))
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / "settings.json").write_text(json.dumps(user))
    mp = pytest.MonkeyPatch()
    mp.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(managed))
    mp.setenv("CLAUDE_CONFIG_DIR", str(home))
    try:
        return load_settings(tmp_path)
    finally:
        mp.undo()


def test_managed_only_and_disable_all(tmp_path: Path) -> None:
    policy_hooks = {"Stop": [group("echo managed")]}
    user_hooks = {"Stop": [group("echo user")]}
    loaded = _loaded(tmp_path, {"allowManagedHooksOnly": True, "hooks": policy_hooks},
                     {"hooks": user_hooks})
    config = hook_config_from_settings(
        loaded, trusted=True, plugin_sources=[("pluginHooks", None, {"Stop": [group("echo p")]})])
    assert [e.command for e in config.entries] == ["echo managed"]
    assert sorted(e.command for e in config.skipped) == ["echo p", "echo user"]
    assert all("allowManagedHooksOnly" in row.note for row in config.describe()[1:])
    loaded = _loaded(tmp_path, {"hooks": policy_hooks}, {"disableAllHooks": True,
                                                          "hooks": user_hooks})
    config = hook_config_from_settings(loaded, trusted=True)
    assert [e.command for e in config.entries] == ["echo managed"] and not config.disabled
    loaded = _loaded(tmp_path, {"disableAllHooks": True, "hooks": policy_hooks},
                     {"hooks": user_hooks})
    assert hook_config_from_settings(loaded, trusted=True).matching("Stop", None) == []


async def test_http_hook_url_and_env_allowlists_decide_what_is_sent(
        tmp_path: Path, project: Path, hook_server: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """allowedHttpHookUrls (`*` patterns, lists merged across sources) and
    httpHookAllowedEnvVars (narrows each hook's allowedEnvVars), as Claude Code applies them;
    a managed hook obeys only lists managed settings set."""
    monkeypatch.setenv("HOOK_TOKEN", "s3cret")
    monkeypatch.setenv("OTHER_SECRET", "leak")
    port = hook_server.split(":")[2].split("/")[0]
    headers = {"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "${OTHER_SECRET}"}
    user_hook = {"type": "http", "url": hook_server, "headers": headers,
                 "allowedEnvVars": ["HOOK_TOKEN", "OTHER_SECRET"]}
    elsewhere = {"type": "http", "url": f"http://127.0.0.1:{port}/other"}

    def runner(policy: dict[str, Any], user: dict[str, Any]) -> HookRunner:
        config = hook_config_from_settings(_loaded(tmp_path, policy, user), trusted=True)
        return HookRunner(config, project_dir=project, session_id="s", transcript_path="",
                          get_permission_mode=lambda: "default")

    _Hook.answers = [(200, "{}")] * 3
    # managed lists the hook path, the user list adds nothing that matches /other
    outcome = await runner(
        {"allowedHttpHookUrls": ["http://127.0.0.1:*/hook"],
         "httpHookAllowedEnvVars": ["HOOK_TOKEN"]},
        {"allowedHttpHookUrls": ["https://hooks.example.com/*"],
         "hooks": {"Stop": [{"hooks": [user_hook, elsewhere]}]}},
    ).run("Stop", {"stop_hook_active": False})
    assert len(_Hook.seen) == 1 and _Hook.seen[0]["auth"] == "Bearer s3cret"
    assert _Hook.seen[0]["other"] == ""  # the hook allows it, httpHookAllowedEnvVars does not
    assert outcome.errors == [f"Stop HTTP hook blocked: http://127.0.0.1:{port}/other does "
                              "not match any pattern in allowedHttpHookUrls"]
    # an empty list sends no HTTP hook; a managed hook is not held by a user's list
    outcome = await runner(
        {"hooks": {"Stop": [{"hooks": [elsewhere]}]}},
        {"allowedHttpHookUrls": [], "hooks": {"Stop": [{"hooks": [user_hook]}]}},
    ).run("Stop", {"stop_hook_active": False})
    assert len(_Hook.seen) == 2 and _Hook.seen[1]["auth"] is None  # /other: no headers
    assert len(outcome.errors) == 1 and "blocked" in outcome.errors[0]
    # no list anywhere: every URL and every allowed variable, as before
    await runner({}, {"hooks": {"Stop": [{"hooks": [user_hook]}]}}).run(
        "Stop", {"stop_hook_active": False})
    assert _Hook.seen[2]["other"] == "leak"
