"""Claude Code's flags and subcommands, applied: the real program (`python -m claude_harness`)
against the scripted server, the request it sends read from the server's log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.support import run_cli


def _system(request: dict[str, Any]) -> str:
    system = request["system"]
    return system if isinstance(system, str) else "".join(b["text"] for b in system)


def _tools(request: dict[str, Any]) -> set[str]:
    return {t["name"] for t in request.get("tools", [])}


def test_append_system_prompt_file_reaches_the_system_prompt(project: Path, api: Any) -> None:
    server = api(["ok"])
    extra = project.parent / "extra.md"
    extra.write_text("Always end answers with the word PINEAPPLE.\n")
    proc = run_cli(["-p", "hi", "--append-system-prompt", "FIRST LINE",
                    "--append-system-prompt-file", str(extra)], project)
    assert proc.returncode == 0, proc.stderr
    system = _system(server.requests[0])
    assert "FIRST LINE" in system and "Always end answers with the word PINEAPPLE." in system
    assert system.index("FIRST LINE") < system.index("PINEAPPLE")


def test_append_system_prompt_file_missing_is_a_clear_error(project: Path, api: Any) -> None:
    server = api(["ok"])
    proc = run_cli(["-p", "hi", "--append-system-prompt-file", "nope.md"], project)
    assert proc.returncode == 1
    assert "cannot read --append-system-prompt-file nope.md" in proc.stderr
    assert server.requests == []


def test_permission_mode_manual_is_the_default_mode(project: Path, api: Any) -> None:
    """Claude Code's `manual` is `default`: a write that needs approval is refused in -p (and
    the same run in acceptEdits writes the file, so the refusal is the mode's doing)."""
    write = {"content": [{"type": "tool_use", "name": "Write",
                          "input": {"file_path": str(project / "new.txt"), "content": "x"}}]}
    api([write, "done"])
    proc = run_cli(["-p", "write it", "--permission-mode", "manual"], project)
    assert proc.returncode == 0, proc.stderr
    assert not (project / "new.txt").exists()
    api([write, "done"])
    proc = run_cli(["-p", "write it", "--permission-mode", "acceptEdits"], project)
    assert proc.returncode == 0, proc.stderr
    assert (project / "new.txt").read_text() == "x"


def test_debug_file_gets_the_log_and_the_filter_keeps_categories(project: Path, api: Any,
                                                                 home: Path) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"UserPromptSubmit": [
        {"hooks": [{"type": "command", "command": "true"}]}]}}))
    api(["ok"])
    log = project.parent / "debug.txt"
    proc = run_cli(["-p", "hi", "--debug-file", str(log)], project)
    assert proc.returncode == 0, proc.stderr
    text = log.read_text()
    assert "[DEBUG] [config] configuration:" in text
    assert "[DEBUG] [hooks] UserPromptSubmit: running 1 hook(s)" in text
    assert "[DEBUG] [api] POST /v1/messages model=" in text
    api(["ok"])
    only_hooks = project.parent / "hooks.txt"
    proc = run_cli(["-p", "hi", "-d", "api,hooks", "--debug-file", str(only_hooks)], project)
    assert proc.returncode == 0, proc.stderr
    kept = only_hooks.read_text()
    assert "[hooks]" in kept and "[api]" in kept and "[config]" not in kept
    api(["ok"])
    not_hooks = project.parent / "nohooks.txt"
    proc = run_cli(["-p", "hi", "--debug", "!hooks", "--debug-file", str(not_hooks)], project)
    assert proc.returncode == 0, proc.stderr
    dropped = not_hooks.read_text()
    assert "[config]" in dropped and "[hooks]" not in dropped


def test_max_thinking_tokens_sets_the_budget_claude_code_sends(project: Path, api: Any) -> None:
    """Claude Code 2.1.332, `--model claude-sonnet-4-5 --max-thinking-tokens 5000`, sends
    `max_tokens: 32000, thinking: {type: enabled, budget_tokens: 5000}` (observed against the
    scripted server); 0 turns thinking off."""
    server = api(["ok"])
    proc = run_cli(["-p", "hi", "--model", "claude-sonnet-4-5", "--max-thinking-tokens", "5000"],
                   project)
    assert proc.returncode == 0, proc.stderr
    request = server.requests[0]
    assert request["max_tokens"] == 32000
    assert request["thinking"]["type"] == "enabled"
    assert request["thinking"]["budget_tokens"] == 5000
    server = api(["ok"])
    proc = run_cli(["-p", "hi", "--model", "claude-sonnet-4-5", "--max-thinking-tokens", "0"],
                   project)
    assert proc.returncode == 0, proc.stderr
    assert server.requests[0]["thinking"] == {"type": "disabled"}
    server = api(["ok"])  # a model whose thinking cannot be off: Claude Code keeps adaptive
    proc = run_cli(["-p", "hi", "--model", "claude-opus-5-5", "--max-thinking-tokens", "0"],
                   project)
    assert proc.returncode == 0, proc.stderr
    assert server.requests[0]["thinking"]["type"] == "adaptive"
    proc = run_cli(["-p", "hi", "--max-thinking-tokens", "many"], project)
    assert proc.returncode == 2 and "must be a number" in proc.stderr


def test_betas_are_sent_as_claude_code_allows_them(project: Path, api: Any) -> None:
    """Claude Code adds the betas API-key users may ask for to `anthropic-beta` and warns,
    one line each, about the others (which are not sent)."""
    server = api(["ok"])
    proc = run_cli(["-p", "hi", "--betas", "context-1m-2025-08-07", "made-up-2020-01-01"],
                   project)
    assert proc.returncode == 0, proc.stderr
    header = server.log[0]["headers"].get("anthropic-beta", "")
    assert "context-1m-2025-08-07" in header.split(",")
    assert "made-up-2020-01-01" not in header
    assert ("Warning: Beta header 'made-up-2020-01-01' is not allowed. Only the following "
            "betas are supported: context-1m-2025-08-07") in proc.stderr


def test_agent_flag_runs_the_session_as_that_agent(project: Path, api: Any) -> None:
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n"
        "model: claude-haiku-5-5\n---\nYou are the REVIEWER agent. Only review.\n")
    server = api(["ok"])
    proc = run_cli(["-p", "review", "--agent", "reviewer", "--trust-workspace"], project)
    assert proc.returncode == 0, proc.stderr
    request = server.requests[0]
    assert request["model"] == "claude-haiku-5-5"
    assert "You are the REVIEWER agent. Only review." in _system(request)
    assert {"Read", "Grep"} <= _tools(request)
    assert not _tools(request) & {"Bash", "Write", "Edit"}


def test_agent_flag_unknown_name_lists_the_agents(project: Path, api: Any) -> None:
    server = api(["ok"])
    proc = run_cli(["-p", "hi", "--agent", "nosuch"], project)
    assert proc.returncode == 1
    assert "--agent 'nosuch' not found. Available agents:" in proc.stderr
    assert "general-purpose" in proc.stderr
    assert server.requests == []


def test_name_flag_titles_the_session(project: Path, api: Any, home: Path) -> None:
    api(["ok"])
    proc = run_cli(["-p", "hi", "-n", "  my   release work ", "--output-format", "json"], project)
    assert proc.returncode == 0, proc.stderr
    session_id = json.loads(proc.stdout)["session_id"]
    transcripts = list((home / ".claude" / "projects").rglob(f"{session_id}.jsonl"))
    assert len(transcripts) == 1
    lines = [json.loads(x) for x in transcripts[0].read_text().splitlines() if x.strip()]
    titles = [x["customTitle"] for x in lines if x.get("type") == "custom-title"]
    assert titles == ["my release work"]


def test_print_resume_without_an_id_is_claude_codes_error(project: Path, api: Any) -> None:
    server = api(["ok"])
    proc = run_cli(["-p", "--resume"], project)
    assert proc.returncode == 1
    assert proc.stderr.startswith("Error: --resume requires a valid session ID or session "
                                  "title when used with --print.")
    assert server.requests == []


def test_subcommands_we_do_not_have_answer_in_one_line(project: Path, api: Any) -> None:
    server = api(["ok"])
    for word in ("update", "install", "setup-token", "auth", "migrate-installer", "upgrade"):
        proc = run_cli([word], project, timeout=30)
        assert proc.returncode == 1, word
        assert proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert f"`{word}` is not available" in proc.stderr
    assert server.requests == []  # never sent to the model as a prompt


def test_print_compact_compacts_the_continued_session(project: Path, api: Any) -> None:
    server = api(["first answer", "<summary>SUMMARY OF THE WORK</summary>", "after"])
    assert run_cli(["-p", "hello"], project).returncode == 0
    proc = run_cli(["-c", "-p", "/compact"], project)
    assert proc.returncode == 0, proc.stderr
    assert len(server.requests) == 2
    compact_request = json.dumps(server.requests[1])
    assert "first answer" in compact_request  # the conversation was what got summarised
    assert not any(m["role"] == "user" and m["content"] == "/compact"
                   for m in server.requests[1]["messages"])
    proc = run_cli(["-c", "-p", "go on"], project)
    assert proc.returncode == 0, proc.stderr
    assert "SUMMARY OF THE WORK" in json.dumps(server.requests[2]["messages"])
    assert "first answer" not in json.dumps(server.requests[2]["messages"])


def test_compact_in_stream_json_input(project: Path, api: Any) -> None:
    server = api(["first answer", "<summary>STREAMED SUMMARY</summary>", "after"])
    lines = "\n".join(json.dumps({"type": "user", "message": {"role": "user", "content": c}})
                      for c in ("hello", "/compact", "next"))
    proc = run_cli(["-p", "--input-format", "stream-json", "--output-format", "json"], project,
                   stdin=lines + "\n")
    assert proc.returncode == 0, proc.stderr
    assert len(server.requests) == 3
    assert "STREAMED SUMMARY" in json.dumps(server.requests[2]["messages"])
