"""The spine end to end: the real binary, the real SDK, HTTP + SSE to the scripted server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.support import conversation, ndjson, run_cli


def scenario(proj: Path) -> list[dict[str, Any]]:
    app = str(proj / "src" / "app.py")
    return [
        {"content": [{"type": "text", "text": "Let me read the app."},
                     {"type": "tool_use", "name": "Read", "input": {"file_path": app}}]},
        {"content": [{"type": "tool_use", "name": "Grep", "input": {"pattern": "def "}},
                     {"type": "tool_use", "name": "Glob", "input": {"pattern": "**/*.py"}}]},
        {"content": [{"type": "tool_use", "name": "Bash",
                      "input": {"command": "echo from-bash && ls src"}}]},
        {"content": [{"type": "tool_use", "name": "Edit",
                      "input": {"file_path": app, "old_string": "'hello ' + name",
                                "new_string": "f'hello {name}!'"}}]},
        {"content": [{"type": "text", "text": "Done: greet now uses an f-string."}]},
    ]


def tool_results(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in message["content"] if b.get("type") == "tool_result"]


def test_scripted_session_in_stream_json(project: Path, api: Any) -> None:
    server = api(scenario(project))
    proc = run_cli(["-p", "tidy up greet", "--output-format", "stream-json",
                    "--allowedTools", "Edit"], project)
    assert proc.returncode == 0, proc.stderr
    lines = ndjson(proc.stdout)

    init = lines[0]
    assert init["type"] == "system" and init["subtype"] == "init"
    assert init["cwd"] == str(project) and init["permissionMode"] == "default"
    assert {"Bash", "Read", "Edit", "Grep", "Glob"} <= set(init["tools"])
    assert init["session_id"] and init["model"]

    result = lines[-1]
    assert result["type"] == "result" and result["subtype"] == "success"
    assert result["is_error"] is False
    assert result["result"] == "Done: greet now uses an f-string."
    assert result["num_turns"] == 5 and result["permission_denials"] == []
    for key in ("session_id", "duration_ms", "duration_api_ms", "total_cost_usd", "usage"):
        assert key in result

    # As Claude Code writes them: one user line per tool result, with its tool_use_result.
    kinds = [line["type"] for line in lines[1:-1]]
    assert kinds == ["assistant", "user", "assistant", "user", "user"] + [
        "assistant", "user"] * 2 + ["assistant"]
    users = [line for line in lines if line["type"] == "user"]
    assert all(len(tool_results(u["message"])) == 1 and "tool_use_result" in u for u in users)
    read_result, grep_result, glob_result, bash_result, edit_result = (
        tool_results(u["message"])[0] for u in users)
    assert "1\tdef greet(name):" in read_result["content"]
    assert grep_result["tool_use_id"] != glob_result["tool_use_id"]  # answered together
    assert "from-bash" in bash_result["content"] and not bash_result.get("is_error")
    assert not edit_result.get("is_error"), edit_result

    # The edit is on disk.
    assert "f'hello {name}!'" in (project / "src" / "app.py").read_text()

    # What the client sent: both parallel results in ONE user message, right after their uses.
    third = server.requests[2]
    last = third["messages"][-1]
    assert last["role"] == "user"
    ids = {b["tool_use_id"] for b in last["content"] if b["type"] == "tool_result"}
    uses = {b["id"] for b in third["messages"][-2]["content"] if b["type"] == "tool_use"}
    assert ids == uses and len(ids) == 2
    assert len(server.requests) == 5


def test_json_output_and_text_output(project: Path, api: Any) -> None:
    api([{"content": [{"type": "text", "text": "Just an answer."}]}])
    proc = run_cli(["-p", "hi", "--output-format", "json"], project)
    assert proc.returncode == 0, proc.stderr
    (result,) = ndjson(proc.stdout)
    assert result["subtype"] == "success" and result["result"] == "Just an answer."

    api([{"content": [{"type": "text", "text": "Plain text answer."}]}])
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Plain text answer.\n"


def test_piped_stdin_is_appended_to_the_prompt(project: Path, api: Any) -> None:
    server = api([{"content": [{"type": "text", "text": "ok"}]}])
    proc = run_cli(["-p", "summarise this:"], project, stdin="line one\nline two\n")
    assert proc.returncode == 0, proc.stderr
    sent = server.requests[0]["messages"][0]["content"][0]["text"]
    assert sent.startswith("summarise this:") and "line two" in sent


def test_invalid_key_ends_with_clear_message_and_exit_1(project: Path, api: Any,
                                                        monkeypatch: Any) -> None:
    api([{"content": [{"type": "text", "text": "never"}]}], api_key="right-key")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "wrong-key")
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 1
    assert "Authentication failed (401)" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_missing_key_is_explained(project: Path, home: Path, monkeypatch: Any) -> None:
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 1
    assert "ANTHROPIC_API_KEY" in proc.stderr and "ANTHROPIC_BASE_URL" in proc.stderr


def test_denied_call_is_listed_in_permission_denials(project: Path, api: Any) -> None:
    api([
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "touch pwned"}}]},
        {"content": [{"type": "text", "text": "I could not."}]},
    ])
    proc = run_cli(["-p", "make a file", "--output-format", "json"], project)
    assert proc.returncode == 0, proc.stderr
    (result,) = ndjson(proc.stdout)
    assert result["subtype"] == "success"
    assert [d["tool_name"] for d in result["permission_denials"]] == ["Bash"]
    assert result["permission_denials"][0]["tool_input"] == {"command": "touch pwned"}
    assert not (project / "pwned").exists()


def test_version_and_help() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "claude_harness", "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert "claude-harness" in out
    out = subprocess.run([sys.executable, "-m", "claude_harness", "--help"],
                         capture_output=True, text=True, check=True).stdout
    for flag in ("--output-format", "--permission-mode", "--allowedTools", "--max-turns",
                 "--resume", "--continue", "--session-id"):
        assert flag in out


def test_continue_and_resume_carry_the_conversation(project: Path, api: Any) -> None:
    server = api([{"content": [{"type": "text", "text": "first answer"}]},
                  {"content": [{"type": "text", "text": "second answer"}]},
                  {"content": [{"type": "text", "text": "third answer"}]}])
    first = run_cli(["-p", "remember 42", "--output-format", "json"], project)
    assert first.returncode == 0, first.stderr
    session_id = ndjson(first.stdout)[0]["session_id"]

    second = run_cli(["-p", "what number?", "-c", "--output-format", "json"], project)
    assert second.returncode == 0, second.stderr
    assert ndjson(second.stdout)[0]["session_id"] == session_id
    sent = conversation(server.requests[1])
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert sent[0]["content"][0]["text"] == "remember 42"

    third = run_cli(["-p", "and now?", "--resume", session_id], project)
    assert third.returncode == 0, third.stderr
    assert len(conversation(server.requests[2])) == 5

    missing = run_cli(["-p", "x", "--resume", "00000000-0000-0000-0000-000000000000"], project)
    assert missing.returncode == 1 and "No conversation found" in missing.stderr


def test_tools_flag_restricts_and_disallowed_tools_removes(project: Path, api: Any) -> None:
    api([{"content": [{"type": "text", "text": "ok"}]}])
    proc = run_cli(["-p", "hi", "--output-format", "stream-json", "--tools", "Read,Grep",
                    "--disallowedTools", "Grep"], project)
    assert proc.returncode == 0, proc.stderr
    assert ndjson(proc.stdout)[0]["tools"] == ["Read"]


def test_max_turns_gives_error_max_turns(project: Path, api: Any) -> None:
    app = str(project / "src" / "app.py")
    read = {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": app}}]}
    api([read, read, read])
    proc = run_cli(["-p", "loop", "--max-turns", "1", "--output-format", "json"], project)
    (result,) = ndjson(proc.stdout)
    assert result["subtype"] == "error_max_turns" and result["is_error"] is True
    assert result["num_turns"] == 1 and proc.returncode == 1


def test_allow_rule_cannot_be_talked_past_with_a_compound_command(project: Path, api: Any) -> None:
    import subprocess

    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    api([
        {"content": [{"type": "tool_use", "name": "Bash",
                      "input": {"command": "git status && touch pwned"}}]},
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "git status"}}]},
        {"content": [{"type": "text", "text": "done"}]},
    ])
    proc = run_cli(["-p", "go", "--output-format", "stream-json", "--permission-mode", "default",
                    "--allowedTools", "Bash(git *)"], project)
    assert proc.returncode == 0, proc.stderr
    lines = ndjson(proc.stdout)
    result = lines[-1]
    assert not (project / "pwned").exists()
    assert [d["tool_input"]["command"] for d in result["permission_denials"]] == [
        "git status && touch pwned"]
    users = [line["message"] for line in lines if line["type"] == "user"]
    denied, allowed = users[0]["content"][0], users[1]["content"][0]
    assert denied["is_error"] is True
    assert not allowed.get("is_error") and "branch" in allowed["content"].lower()


def test_stream_json_input_runs_each_user_message(project: Path, api: Any) -> None:
    import json

    server = api([{"content": [{"type": "text", "text": "one"}]},
                  {"content": [{"type": "text", "text": "two"}]}])
    stdin = "\n".join(json.dumps({"type": "user", "message": {"role": "user", "content": c}})
                      for c in ("first", [{"type": "text", "text": "second"}])) + "\n"
    proc = run_cli(["-p", "--input-format", "stream-json", "--output-format", "json"], project,
                   stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    assert ndjson(proc.stdout)[0]["result"] == "two"
    assert [m["role"] for m in conversation(server.requests[1])] == ["user", "assistant",
                                                                  "user"]

    bad = run_cli(["-p", "--input-format", "stream-json"], project, stdin="not json\n")
    assert bad.returncode == 1 and "line 1 is not JSON" in bad.stderr
