"""DirectoryAdded, PreModelSwitch / PostModelSwitch, PreSkillShellCommand and the
InstructionsLoaded load reasons beyond the start (path_glob_match, include, compact), through
the real program (`-p` against the scripted API) with real hook commands that append their
stdin to a file: the payload Claude Code 2.1.332 documents for each, what a hook's output does
(a model switch kept, a refused !`cmd`), and what reaches the model."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from claude_harness.api.models import resolve_alias
from tests.e2e.support import run_cli


def recorder(out: Path, then: str = "") -> dict[str, str]:
    """A hook command that appends its stdin (one JSON line) to `out`, then runs `then`."""
    command = (f"{sys.executable} -c \"import sys; open({str(out)!r}, 'a').write("
               "sys.stdin.read().strip() + '\\n')\"")
    return {"type": "command", "command": f"{command}; {then}" if then else command}


def settings(home: Path, hooks: dict[str, list[dict[str, Any]]]) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))


def payloads(out: Path, event: str) -> list[dict[str, Any]]:
    if not out.exists():
        return []
    lines = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return [p for p in lines if p["hook_event_name"] == event]


def prompts(*texts: str) -> str:
    return "".join(json.dumps({"type": "user", "message": {"role": "user", "content": t}}) + "\n"
                   for t in texts)


def run_prompts(project: Path, *texts: str) -> Any:
    proc = run_cli(["-p", "--input-format", "stream-json", "--output-format", "stream-json",
                    "--verbose"], project,
                   stdin=prompts(*texts))
    assert proc.returncode == 0, proc.stderr
    return proc


def test_add_dir_and_model_switch_hooks_fire_and_reach_the_model(project: Path, api: Any,
                                                                 home: Path) -> None:
    """/add-dir fires DirectoryAdded (its systemMessage is told to the model); /model fires
    PreModelSwitch then PostModelSwitch (its stdout is told to the model) and the next request
    goes to the new model."""
    out = project.parent / "hooks.jsonl"
    other = project.parent / "other"
    other.mkdir()
    settings(home, {
        "DirectoryAdded": [{"matcher": "slash_command", "hooks": [
            recorder(out, "echo '{\"systemMessage\": \"DIR-NOTED\"}'")]}],
        "PreModelSwitch": [{"hooks": [recorder(out)]}],
        "PostModelSwitch": [{"hooks": [recorder(out, "echo AFTER-SWITCH")]}]})
    server = api(["one"])
    run_prompts(project, "/add-dir ../other", "/model opus", "hi")
    [added] = payloads(out, "DirectoryAdded")
    assert (added["directory"], added["source"]) == (str(other.resolve()), "slash_command")
    opus = resolve_alias("opus")
    [before] = payloads(out, "PreModelSwitch")
    [after] = payloads(out, "PostModelSwitch")
    for payload in (before, after):
        assert payload["to_model"] == opus and payload["requested_model"] == "opus"
        assert payload["source"] == "command" and payload["from_model"] != opus
        assert payload["context_tokens"] == 0 and payload["cache_ttl"] == "5m"
        assert {"prompt_cache_warm", "estimated_cache_write_usd", "pricing"} <= set(payload)
    [request] = server.requests
    assert request["model"] == opus
    sent = json.dumps(request["messages"])
    assert "DirectoryAdded hook: DIR-NOTED" in sent
    assert "AFTER-SWITCH" in sent


def test_pre_model_switch_exit_2_or_deny_keeps_the_model(project: Path, api: Any,
                                                         home: Path) -> None:
    """Exit 2 (stderr shown) blocks `/model opus`; a JSON deny blocks `/model haiku`; an "ask"
    blocks another id, as in a Claude Code session that cannot ask; the request still goes to
    the model the session had, and PostModelSwitch never fires."""
    out = project.parent / "hooks.jsonl"
    deny = json.dumps({"hookSpecificOutput": {"hookEventName": "PreModelSwitch",
                                              "permissionDecision": "deny",
                                              "permissionDecisionReason": "no haiku here"}})
    ask = json.dumps({"hookSpecificOutput": {"hookEventName": "PreModelSwitch",
                                             "permissionDecision": "ask"}})
    settings(home, {
        "PreModelSwitch": [
            {"matcher": resolve_alias("opus"), "hooks": [
                {"type": "command", "command": "echo 'stay on this model' >&2; exit 2"}]},
            {"matcher": resolve_alias("haiku"), "hooks": [
                {"type": "command", "command": f"echo '{deny}'"}]},
            {"matcher": "claude-sonnet-4-5", "hooks": [
                {"type": "command", "command": f"echo '{ask}'"}]}],
        "PostModelSwitch": [{"hooks": [recorder(out)]}]})
    server = api(["one"])
    proc = run_prompts(project, "/model opus", "/model haiku", "/model claude-sonnet-4-5", "hi")
    assert "Model switch blocked by a PreModelSwitch hook: stay on this model" in proc.stderr
    assert "Model switch blocked by a PreModelSwitch hook: no haiku here" in proc.stderr
    assert ("Model switch blocked by a PreModelSwitch hook: confirmation required, and this "
            "session cannot ask") in proc.stderr
    [request] = server.requests
    assert request["model"] not in (resolve_alias("opus"), resolve_alias("haiku"),
                                    "claude-sonnet-4-5")
    assert payloads(out, "PostModelSwitch") == []


def test_pre_skill_shell_command_refuses_one_inline_command(project: Path, api: Any,
                                                            home: Path) -> None:
    """A command's two !`cmd`s each ask PreSkillShellCommand; the hook refuses one (exit 2):
    it does not run, its place says why, the other runs."""
    out = project.parent / "hooks.jsonl"
    marker = project.parent / "ran"
    commands = home / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "peek.md").write_text(
        "---\nallowed-tools: Bash(echo:*), Bash(touch:*)\n---\n"
        f"First: !`touch {marker}`\nSecond: !`echo SECOND-RAN`\n")
    refuse = (f"{sys.executable} -c \"import json, sys; d = json.load(sys.stdin); "
              "sys.exit(0) if 'touch' not in d['tool_input']['command'] else "
              "(print('no touching', file=sys.stderr), sys.exit(2))\"")
    settings(home, {"PreSkillShellCommand": [{"matcher": "Bash", "hooks": [
        recorder(out), {"type": "command", "command": refuse}]}]})
    server = api(["done"])
    proc = run_cli(["-p", "/peek"], project)
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()
    sent = json.dumps(server.requests[0]["messages"])
    assert "First: [not run: blocked by hook: no touching]" in sent
    assert "Second: SECOND-RAN" in sent
    assert f"Not run in /peek: touch {marker} (blocked by hook: no touching)" in proc.stderr
    seen = payloads(out, "PreSkillShellCommand")
    assert [p["tool_input"]["command"] for p in seen] == [f"touch {marker}", "echo SECOND-RAN"]
    for payload in seen:
        assert payload["tool_name"] == "Bash" and payload["command_name"] == "peek"
        assert payload["invoked_by"] == "user" and payload["command_source"] == "userSettings"
        assert payload["tool_use_id"]


def test_instructions_loaded_for_rules_imports_and_compaction(project: Path, api: Any,
                                                             home: Path) -> None:
    """An @-import of CLAUDE.md loads with `include` (parent_file_path); a path-scoped rule
    with `path_glob_match` when a file it covers is read (globs, trigger_file_path); after
    /compact the memory files load again with `compact`."""
    out = project.parent / "hooks.jsonl"
    settings(home, {"InstructionsLoaded": [{"hooks": [recorder(out)]}]})
    (project / "CLAUDE.md").write_text("ROOT MEMORY\n@extra.md\n")
    (project / "extra.md").write_text("EXTRA MEMORY\n")
    rules = project / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "py.md").write_text("---\npaths:\n  - \"src/**/*.py\"\n---\nUse four spaces.\n")
    app = project / "src" / "app.py"
    read = {"content": [{"type": "tool_use", "id": "toolu_r", "name": "Read",
                         "input": {"file_path": str(app)}}]}
    server = api([read, "done", "<summary>S</summary>"])
    assert run_cli(["-p", "read it"], project).returncode == 0
    root, extra = (project / "CLAUDE.md").resolve(), (project / "extra.md").resolve()
    loaded = payloads(out, "InstructionsLoaded")
    by_reason = {(p["load_reason"], p["file_path"]): p for p in loaded}
    assert ("session_start", str(root)) in by_reason
    include = by_reason[("include", str(extra))]
    assert include["parent_file_path"] == str(root) and include["memory_type"] == "Project"
    rule = by_reason[("path_glob_match", str(rules / "py.md"))]
    assert rule["globs"] == ["src/**/*.py"] and rule["trigger_file_path"] == str(app.resolve())
    assert "Use four spaces." in json.dumps(server.requests[1]["messages"])
    assert run_cli(["-c", "-p", "/compact"], project).returncode == 0
    compacted = {p["file_path"] for p in payloads(out, "InstructionsLoaded")
                 if p["load_reason"] == "compact"}
    assert {str(root), str(extra)} <= compacted


async def test_model_switch_source_says_what_asked(project: Path, api: Any, home: Path) -> None:
    """Through the session's ops: the model picker's switch is `picker`, the /config Model
    row's is `command`, a program's set_model is `sdk`; switching to the model already in use
    fires nothing."""
    from claude_harness.hooks.config import HookConfig
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.protocol.ops import SetModel
    from claude_harness.protocol.panels import ChangeSetting
    from tests.e2e.support import make_engine, run_op

    out = project.parent / "hooks.jsonl"
    config = HookConfig.from_sources([("userSettings", home / "s.json", {
        "PreModelSwitch": [{"hooks": [recorder(out)]}]})])
    hooks = HookRunner(config, project_dir=project, session_id="s", transcript_path="",
                       get_permission_mode=lambda: "default")
    session = make_engine(api(["unused"]), project, hooks=hooks)
    await run_op(session, SetModel("opus", source="picker"))
    await run_op(session, SetModel("opus", source="picker"))  # the same model: no hook
    await run_op(session, ChangeSetting("model", "haiku"))
    await run_op(session, SetModel("claude-sonnet-4-5", source="sdk"))
    seen = [(p["source"], p["to_model"]) for p in payloads(out, "PreModelSwitch")]
    assert seen == [("picker", resolve_alias("opus")), ("command", resolve_alias("haiku")),
                    ("sdk", "claude-sonnet-4-5")]
    assert session.model == "claude-sonnet-4-5"
