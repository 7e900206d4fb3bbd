"""`claude-harness --acp` driven by the `agent-client-protocol` package's own client, as an
editor drives it: a real subprocess, the scripted Messages API over HTTP, real files."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from acp import RequestError

from tests.acp.acp_client import RecordingClient, agent
from tests.mcp.support import SERVER, free_port
from tests.mcp.test_mcp_http import _wait_for_port

pytestmark = pytest.mark.slow
PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")).decode()


def tool_turn(name: str, tool_input: dict[str, Any], tool_id: str) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}]}


def text_of(prompt: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": prompt}]


def main_requests(server: Any) -> list[dict[str, Any]]:
    return [b for b in server.requests if isinstance(b, dict) and b.get("tools")]


def sent_text(request: dict[str, Any]) -> str:
    return json.dumps(request["messages"], ensure_ascii=False)


async def test_initialize_new_session_and_a_streamed_answer(project: Path, api: Any,
                                                            tmp_path: Path) -> None:
    api([{"content": [{"type": "thinking", "thinking": "The user greets me."},
                      "Hello from the scripted model, streamed in chunks."]}])
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "greet.md").write_text("---\ndescription: greet someone\nargument-hint: <name>\n"
                                       "---\nGreet $ARGUMENTS warmly.\n")
    client = RecordingClient()
    async with agent(client, stderr=tmp_path / "err.log") as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        assert new.modes.current_mode_id == "default"
        assert {"default", "acceptEdits", "plan"} <= {m.id for m in new.modes.available_modes}
        options = {o.id: o for o in new.config_options}
        assert options["model"].current_value and options["mode"].current_value == "default"
        result = await conn.prompt(session_id=new.session_id, prompt=text_of("hi"))
        commands = await client.wait_for(lambda: client.of("available_commands_update"))
    assert result.stop_reason == "end_turn"
    chunks = client.of("agent_message_chunk")
    assert len(chunks) > 1, "the answer streams in several chunks"
    assert client.text() == "Hello from the scripted model, streamed in chunks."
    assert client.text("agent_thought_chunk") == "The user greets me."
    [usage] = client.of("usage_update")
    assert 0 < usage.used < usage.size and usage.cost.currency == "USD"
    offered = {c.name: c for c in commands[0].available_commands}
    assert {"compact", "clear", "context", "init"} <= set(offered) and "exit" not in offered
    assert offered["greet"].description == "greet someone"
    assert offered["greet"].input.root.hint == "<name>"


async def test_a_custom_command_typed_in_the_editor_is_expanded(project: Path,
                                                               api: Any) -> None:
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "greet.md").write_text("Greet $ARGUMENTS warmly.\n")
    server = api(["Hello Ada!"])
    client = RecordingClient()
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        result = await conn.prompt(session_id=new.session_id, prompt=text_of("/greet Ada"))
        context = await conn.prompt(session_id=new.session_id, prompt=text_of("/context"))
    assert result.stop_reason == context.stop_reason == "end_turn"
    assert "Greet Ada warmly." in sent_text(main_requests(server)[0])
    assert "Hello Ada!" in client.text()
    assert "## Context Usage" in client.text() and "**Tokens:**" in client.text()
    assert len(main_requests(server)) == 1, "/context is answered by the session, not the model"


async def test_an_edit_allowed_changes_the_file_and_shows_its_diff(project: Path,
                                                                   api: Any) -> None:
    app = project / "src" / "app.py"
    api([tool_turn("Read", {"file_path": str(app)}, "toolu_read"),
         tool_turn("Edit", {"file_path": str(app), "old_string": "'hello '",
                            "new_string": "'hi '"}, "toolu_edit"),
         "Changed the greeting."])
    client = RecordingClient(choose=lambda options: "allow")
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        result = await conn.prompt(session_id=new.session_id, prompt=text_of("say hi"))
    assert result.stop_reason == "end_turn"
    assert "return 'hi ' + name" in app.read_text()
    [(call, options)] = client.asked
    assert [(o.option_id, o.kind) for o in options] == [
        ("allow", "allow_once"), ("allow_always", "allow_always"), ("reject", "reject_once")]
    assert call.tool_call_id == "toolu_edit" and call.kind == "edit"
    starts = {u.tool_call_id: u for u in client.of("tool_call")}
    edit = starts["toolu_edit"]
    assert (edit.kind, edit.title, edit.locations[0].path) == ("edit", f"Edit {app}", str(app))
    diff = edit.content[0]
    assert (diff.type, diff.path, diff.old_text, diff.new_text) == ("diff", str(app), "'hello '",
                                                                     "'hi '")
    assert starts["toolu_read"].kind == "read"
    finals = {u.tool_call_id: u.status for u in client.of("tool_call_update")
              if u.status in ("completed", "failed")}
    assert finals == {"toolu_read": "completed", "toolu_edit": "completed"}
    assert client.text() == "Changed the greeting."


async def test_an_edit_rejected_leaves_the_file_unchanged(project: Path, api: Any) -> None:
    app = project / "src" / "app.py"
    before = app.read_text()
    server = api([tool_turn("Read", {"file_path": str(app)}, "toolu_read"),
                  tool_turn("Edit", {"file_path": str(app), "old_string": "'hello '",
                                     "new_string": "'bye '"}, "toolu_edit"),
                  "Left it alone."])
    client = RecordingClient(choose=lambda options: "reject")
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        result = await conn.prompt(session_id=new.session_id, prompt=text_of("say bye"))
    assert result.stop_reason == "end_turn"
    assert app.read_text() == before
    finals = {u.tool_call_id: u.status for u in client.of("tool_call_update") if u.status}
    assert finals["toolu_edit"] == "failed"
    [edit_result] = [b for m in main_requests(server)[-1]["messages"] if m["role"] == "user"
                     for b in m["content"] if isinstance(b, dict)
                     and b.get("tool_use_id") == "toolu_edit"]
    assert edit_result.get("is_error")


async def test_always_for_an_edit_allows_edits_for_the_session(project: Path,
                                                               api: Any) -> None:
    """"Always" on an edit inside the project is the prompt's session-wide choice (acceptEdits
    for the rest of the session, as Claude Code offers), not a saved `Edit(/**)` rule."""
    app = project / "src" / "app.py"
    api([tool_turn("Read", {"file_path": str(app)}, "toolu_read"),
         tool_turn("Edit", {"file_path": str(app), "old_string": "'hello '",
                            "new_string": "'hey '"}, "toolu_edit1"),
         tool_turn("Edit", {"file_path": str(app), "old_string": "42",
                            "new_string": "43"} | {"file_path": str(project / "src" / "util.py")},
                   "toolu_edit2"),
         "Both done."])
    (project / "src" / "util.py").read_text()
    client = RecordingClient(choose=lambda options: "allow_always")
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("edit both"))
    local = project / ".claude" / "settings.local.json"
    assert not local.exists() or "Edit" not in local.read_text()
    assert "return 'hey ' + name" in app.read_text()
    asked_ids = [call.tool_call_id for call, _ in client.asked]
    assert asked_ids == ["toolu_edit1"], "the session's acceptEdits answers the second edit"


async def test_always_for_a_command_saves_the_rule_and_the_next_call_does_not_ask(
        project: Path, api: Any) -> None:
    api([tool_turn("Bash", {"command": "touch src/one.txt"}, "toolu_bash1"),
         tool_turn("Bash", {"command": "touch src/one.txt"}, "toolu_bash2"),
         "Both done."])
    client = RecordingClient(choose=lambda options: "allow_always")
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("touch it twice"))
    local = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert "Bash(touch" in json.dumps(local["permissions"]["allow"])
    assert (project / "src" / "one.txt").exists()
    asked_ids = [call.tool_call_id for call, _ in client.asked]
    assert asked_ids == ["toolu_bash1"], "the saved rule answers the second call"


def marked(mark: str, command_part: bytes = b"sleep 60") -> list[int]:
    """Live processes whose environment carries ACP_MARK=mark (as tests/faults scans) and
    whose command line holds `command_part` (the command's shell and its children, not the
    agent or its process guardian)."""
    needle = f"ACP_MARK={mark}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if state != b"Z" and needle in environ.split(b"\0") and command_part in cmdline:
            found.append(int(entry))
    return found


async def test_cancel_mid_bash_ends_the_turn_and_leaves_no_process(
        project: Path, api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv("ACP_MARK", mark)
    started = project / "started"
    api([tool_turn("Bash", {"command": f"touch {started}; echo working; sleep 60"},
                   "toolu_bash"), "never sent"])
    client = RecordingClient(choose=lambda options: "allow")
    async with agent(client) as (conn, proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        turn = asyncio.create_task(conn.prompt(session_id=new.session_id,
                                               prompt=text_of("run it")))
        await client.wait_for(lambda: started.exists() and marked(mark))
        live = await client.wait_for(lambda: [
            u for u in client.of("tool_call_update") if u.status == "in_progress"
            and u.content and "working" in u.content[0].content.text])
        assert live[0].tool_call_id == "toolu_bash", "the running command's output is shown"
        await conn.cancel(session_id=new.session_id)
        result = await asyncio.wait_for(turn, 20)
        assert result.stop_reason == "cancelled"
        await client.wait_for(lambda: not marked(mark), timeout=10)
        assert proc.returncode is None, "the agent itself lives on"
        bash = [u for u in client.of("tool_call") if u.tool_call_id == "toolu_bash"]
        assert bash[0].kind == "execute"
        # the session goes on: the next prompt is answered
        api(["Still here."])
        new2 = await conn.new_session(cwd=str(project), mcp_servers=[])
        again = await conn.prompt(session_id=new2.session_id, prompt=text_of("hello?"))
        assert again.stop_reason == "end_turn"


async def test_bash_output_is_the_tool_calls_text_content(project: Path, api: Any) -> None:
    api([tool_turn("Bash", {"command": "echo from-bash-$((40+2))"}, "toolu_bash"), "Done."])
    client = RecordingClient(choose=lambda options: "allow")
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("run"))
    [final] = [u for u in client.of("tool_call_update") if u.status == "completed"]
    assert final.content[0].type == "content"
    assert "from-bash-42" in final.content[0].content.text
    assert client.of("tool_call")[0].title == "`echo from-bash-$((40+2))`"


async def test_mode_changes_from_the_client_and_from_the_agent(project: Path,
                                                               api: Any) -> None:
    api([tool_turn("ExitPlanMode", {"plan": "1. change the greeting"}, "toolu_exit"),
         "Plan approved; out of plan mode.",
         tool_turn("EnterPlanMode", {}, "toolu_enter"), "Planning again."])
    client = RecordingClient(choose=lambda options: "allow")
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.set_session_mode(session_id=new.session_id, mode_id="plan")
        await client.wait_for(lambda: [u.current_mode_id for u in client.of(
            "current_mode_update")] == ["plan"])
        await conn.prompt(session_id=new.session_id, prompt=text_of("plan it"))
        modes = [u.current_mode_id for u in client.of("current_mode_update")]
        assert modes == ["plan", "default"], "ExitPlanMode, approved, left plan mode"
        [(call, _options)] = client.asked
        assert call.kind == "switch_mode" and "change the greeting" in json.dumps(
            call.model_dump(mode="json"))
        await conn.prompt(session_id=new.session_id, prompt=text_of("plan again"))
        assert [u.current_mode_id for u in client.of("current_mode_update")][-1] == "plan"
        with pytest.raises(RequestError, match="Unknown mode"):
            await conn.set_session_mode(session_id=new.session_id, mode_id="yolo")
        options = await conn.set_config_option(config_id="model", session_id=new.session_id,
                                               value="claude-opus-4-5")
        model = {o.id: o for o in options.config_options}["model"]
        assert model.current_value == "claude-opus-4-5"


async def test_load_replays_an_earlier_session_and_continues_it(project: Path,
                                                                api: Any) -> None:
    readme = project / "README.md"
    api([tool_turn("Read", {"file_path": str(readme)}, "toolu_read"),
         "The README says: demo project."])
    first = RecordingClient()
    async with agent(first) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("what is the readme?"))
    server = api(["Yes, I remember the README."])
    second = RecordingClient()
    async with agent(second) as (conn, _proc):
        await conn.load_session(cwd=str(project), session_id=new.session_id, mcp_servers=[])
        kinds = second.kinds()
        assert second.text("user_message_chunk") == "what is the readme?"
        assert second.text() == "The README says: demo project."
        [call] = second.of("tool_call")
        assert (call.tool_call_id, call.kind) == ("toolu_read", "read")
        assert kinds.index("user_message_chunk") < kinds.index("tool_call") < kinds.index(
            "agent_message_chunk")
        result = await conn.prompt(session_id=new.session_id,
                                   prompt=text_of("do you remember?"))
        assert result.stop_reason == "end_turn"
    assert "demo project" in sent_text(main_requests(server)[-1])
    with pytest.raises(RequestError):
        async with agent(RecordingClient()) as (conn, _proc):
            await conn.load_session(cwd=str(project), session_id=str(uuid.uuid4()),
                                    mcp_servers=[])


async def test_resources_links_and_images_are_attached(project: Path, api: Any) -> None:
    server = api(["Seen.", "Seen again."])
    client = RecordingClient()
    util = project / "src" / "util.py"
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=[
            {"type": "text", "text": "look at"},
            {"type": "resource_link", "uri": util.as_uri(), "name": "util.py"}])
        await conn.prompt(session_id=new.session_id, prompt=[
            {"type": "text", "text": "and this buffer and picture"},
            {"type": "resource", "resource": {"uri": "file:///tmp/unsaved.py",
                                              "text": "UNSAVED_BUFFER = 1"}},
            {"type": "image", "mimeType": "image/png", "data": PNG}])
    first, second = main_requests(server)[0], main_requests(server)[-1]
    assert "Called the Read tool" in sent_text(first) and "return 42" in sent_text(first)
    last = second["messages"][-1]["content"]
    assert any(b.get("type") == "image" and b["source"]["data"] == PNG for b in last)
    assert '<context ref=\\"file:///tmp/unsaved.py\\">' in sent_text(second)
    assert "UNSAVED_BUFFER = 1" in sent_text(second)


async def test_the_todo_list_is_a_plan(project: Path, api: Any) -> None:
    api([tool_turn("TodoWrite", {"todos": [
        {"content": "Read the code", "status": "completed", "activeForm": "Reading"},
        {"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing"}]},
        "toolu_todo"), "Planned."])
    client = RecordingClient()
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("plan"))
    [plan] = client.of("plan")
    assert [(e.content, e.status) for e in plan.entries] == [
        ("Read the code", "completed"), ("Fix the bug", "in_progress")]


async def test_the_clients_mcp_servers_connect_and_their_prompts_are_commands(
        project: Path, api: Any) -> None:
    demo = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"
    server = api(["Tools seen."])
    client = RecordingClient()
    stdio = {"name": "demo", "command": sys.executable, "args": [str(demo), "demo"],
             "env": []}
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[stdio])
        await client.wait_for(lambda: any(
            c.name == "mcp__demo__review" for u in client.of("available_commands_update")
            for c in u.available_commands))
        await conn.prompt(session_id=new.session_id, prompt=text_of("which tools?"))
    tools = {t["name"] for t in main_requests(server)[0]["tools"]}
    assert "mcp__demo__echo" in tools


async def test_errors_are_acp_errors(project: Path, api: Any) -> None:
    api(["ok"])
    async with agent(RecordingClient()) as (conn, _proc):
        with pytest.raises(RequestError, match="Unknown session"):
            await conn.prompt(session_id="nope", prompt=text_of("hi"))
        with pytest.raises(RequestError, match="absolute path"):
            await conn.new_session(cwd="relative/dir", mcp_servers=[])
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        with pytest.raises(RequestError, match="not supported"):
            await conn.prompt(session_id=new.session_id, prompt=[
                {"type": "audio", "mimeType": "audio/wav", "data": "AAAA"}])
        result = await conn.prompt(session_id=new.session_id, prompt=text_of("hi"))
        assert result.stop_reason == "end_turn"


async def test_without_an_api_key_new_session_says_so(project: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    async with agent(RecordingClient()) as (conn, _proc):
        with pytest.raises(RequestError, match="ANTHROPIC_API_KEY"):
            await conn.new_session(cwd=str(project), mcp_servers=[])


async def test_read_goes_through_the_editors_buffer_when_it_offers_one(project: Path,
                                                                      api: Any) -> None:
    app = project / "src" / "app.py"
    server = api([tool_turn("Read", {"file_path": str(app)}, "toolu_read"), "Read it."])
    client = RecordingClient(buffers={str(app): "UNSAVED = 'in the editor only'\n"})
    async with agent(client, fs=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("read app.py"))
    assert client.file_reads == [str(app)]
    shown = sent_text(main_requests(server)[-1])
    assert "in the editor only" in shown and "hello" not in shown
    assert "UNSAVED" not in app.read_text(), "the disk is left as it was"


async def test_ask_user_question_is_asked_with_its_choices(project: Path, api: Any) -> None:
    question = {"question": "Which greeting?", "header": "Greeting", "multiSelect": False,
                "options": [{"label": "hello", "description": "the classic"},
                            {"label": "hi", "description": "short"}]}
    server = api([tool_turn("AskUserQuestion", {"questions": [question]}, "toolu_ask"),
                  "You chose hi."])
    client = RecordingClient(choose=lambda options: options[1].option_id)
    async with agent(client) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("ask me"))
    [(call, options)] = client.asked
    assert call.tool_call_id == "toolu_ask" and call.title == "Greeting"
    assert [o.name for o in options] == ["hello", "hi", "None of these"]
    [result] = [b for b in main_requests(server)[-1]["messages"][-1]["content"]
                if b.get("tool_use_id") == "toolu_ask"]
    assert not result.get("is_error")
    assert '"Which greeting?"="hi"' in result["content"]


async def test_sigterm_mid_bash_exits_143_and_leaves_no_process(
        project: Path, api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv("ACP_MARK", mark)
    started = project / "started"
    api([tool_turn("Bash", {"command": f"touch {started}; sleep 60"}, "toolu_bash"), "never"])
    client = RecordingClient(choose=lambda options: "allow")
    async with agent(client) as (conn, proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        turn = asyncio.create_task(conn.prompt(session_id=new.session_id,
                                               prompt=text_of("run it")))
        await client.wait_for(lambda: started.exists() and marked(mark))
        proc.terminate()
        result = await asyncio.wait_for(turn, 20)
        assert result.stop_reason == "cancelled", "the prompt is answered before the exit"
        assert await asyncio.wait_for(proc.wait(), 20) == 143
    assert marked(mark) == []


async def test_an_http_mcp_server_from_the_client_connects(project: Path, api: Any) -> None:
    port = free_port()
    web = subprocess.Popen([sys.executable, SERVER, "web", "--http", str(port)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_port(port, web)
        server = api(["Tools seen."])
        client = RecordingClient()
        http = {"type": "http", "name": "web", "url": f"http://127.0.0.1:{port}/mcp",
                "headers": [{"name": "Authorization", "value": "Bearer s3cret"}]}
        async with agent(client) as (conn, _proc):
            new = await conn.new_session(cwd=str(project), mcp_servers=[http])
            await client.wait_for(lambda: any(
                c.name == "mcp__web__review" for u in client.of("available_commands_update")
                for c in u.available_commands))
            await conn.prompt(session_id=new.session_id, prompt=text_of("which tools?"))
        assert "mcp__web__whoami" in {t["name"] for t in main_requests(server)[0]["tools"]}
    finally:
        web.kill()
        web.wait(5)
