"""The editor's own file system and terminals: where an ACP client offers `fs/write_text_file`
and `terminal/*`, Write, Edit and Bash go through it (the buffer the person sees, the terminal
they watch); where it does not, our own writes and runner, as always. Driven by the
`agent-client-protocol` package's client side (editor_client.py acts for real on temp dirs)."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import pytest

from claude_harness.sandbox.availability import check_availability
from claude_harness.session.checkpointing.checkpoints import Checkpoints
from tests.acp.acp_client import agent
from tests.acp.editor_client import EditorClient
from tests.acp.test_acp_client import main_requests, marked, sent_text, text_of, tool_turn

pytestmark = pytest.mark.slow


def tool_results(server: Any) -> dict[str, dict[str, Any]]:
    """The tool_result blocks the model was sent, by tool_use_id."""
    found: dict[str, dict[str, Any]] = {}
    for request in main_requests(server):
        for message in request["messages"]:
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    found[block["tool_use_id"]] = block
    return found


def result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(str(b.get("text", "")) for b in content or [])


def finals(client: EditorClient) -> dict[str, Any]:
    return {u.tool_call_id: u for u in client.of("tool_call_update")
            if u.status in ("completed", "failed")}


class TypingEditor(EditorClient):
    """The person types on in the buffer after the model's Read: its next read sees more."""

    async def read_text_file(self, path: str, session_id: str, **kw: Any) -> Any:
        response = await super().read_text_file(path=path, session_id=session_id, **kw)
        self.buffers[path] = response.content + "# typed after the Read\n"
        return response


def checkpoint_store(home: Path, session_id: str) -> Checkpoints:
    [folder] = [p for p in home.rglob("checkpoints") if p.parent.name == session_id]
    return Checkpoints.open(folder)


async def test_edit_changes_the_unsaved_buffer_through_the_editor(
        project: Path, api: Any, home: Path) -> None:
    app = project / "src" / "app.py"
    on_disk = app.read_text()
    unsaved = on_disk.replace("'hello '", "'hey there '") + "# typed, not saved\n"
    server = api([tool_turn("Read", {"file_path": str(app)}, "toolu_read"),
                  tool_turn("Edit", {"file_path": str(app), "old_string": "'hey there '",
                                     "new_string": "'hi '"}, "toolu_edit"),
                  "Edited the buffer."])
    client = TypingEditor(choose=lambda options: "allow", buffers={str(app): unsaved})
    async with agent(client, fs=True, writes=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        result = await conn.prompt(session_id=new.session_id, prompt=text_of("say hi"))
    assert result.stop_reason == "end_turn"
    assert "'hey there '" in sent_text(main_requests(server)[1]), "Read showed the buffer"
    expected = unsaved.replace("'hey there '", "'hi '") + "# typed after the Read\n"
    assert client.file_reads == [str(app), str(app)], "Edit asked for the buffer again"
    assert client.writes == [(str(app), expected)], "the edit applies to what the person sees"
    assert app.read_text() == expected
    assert [call.tool_call_id for call, _ in client.asked] == ["toolu_edit"], \
        "the permission is asked first"
    assert finals(client)["toolu_edit"].status == "completed"
    assert "has been edited" in result_text(tool_results(server)["toolu_edit"])
    store = checkpoint_store(home, new.session_id)  # the checkpoint kept the file before it
    [prompt] = store.prompts()
    store.restore(prompt.prompt_id, force=True)
    assert app.read_text() == on_disk


async def test_write_goes_through_the_editor_and_creates_the_file(project: Path,
                                                                  api: Any) -> None:
    made = project / "src" / "new_module.py"
    server = api([tool_turn("Write", {"file_path": str(made), "content": "VALUE = 1\n"},
                            "toolu_write"), "Wrote it."])
    client = EditorClient(choose=lambda options: "allow")
    async with agent(client, fs=True, writes=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("make a module"))
    assert client.writes == [(str(made), "VALUE = 1\n")]
    assert made.read_text() == "VALUE = 1\n"
    assert finals(client)["toolu_write"].status == "completed"
    assert "Created new file" in result_text(tool_results(server)["toolu_write"])


async def test_an_editor_that_refuses_the_write_is_a_failed_call_and_the_disk_is_untouched(
        project: Path, api: Any) -> None:
    app = project / "src" / "app.py"
    before = app.read_text()
    server = api([tool_turn("Read", {"file_path": str(app)}, "toolu_read"),
                  tool_turn("Edit", {"file_path": str(app), "old_string": "'hello '",
                                     "new_string": "'hi '"}, "toolu_edit"),
                  "It could not be written."])
    client = EditorClient(choose=lambda options: "allow", write_errors={str(app)})
    async with agent(client, fs=True, writes=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        result = await conn.prompt(session_id=new.session_id, prompt=text_of("say hi"))
    assert result.stop_reason == "end_turn", "the turn goes on; the model is told"
    assert app.read_text() == before
    sent = tool_results(server)["toolu_edit"]
    assert sent.get("is_error") is True
    assert "The editor could not write" in result_text(sent)
    assert "is read-only" in result_text(sent) and "Nothing was written" in result_text(sent)
    failed = finals(client)["toolu_edit"]
    assert failed.status == "failed" and "could not write" in failed.content[0].content.text


async def test_bash_runs_in_the_editors_terminal_and_shows_it(project: Path, api: Any) -> None:
    server = api([tool_turn("Bash", {"command": "echo from-terminal-$((40+2)); cd src"},
                            "toolu_one"),
                  tool_turn("Bash", {"command": "pwd"}, "toolu_two"), "Done."])
    client = EditorClient(choose=lambda options: "allow")
    async with agent(client, terminal=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        result = await conn.prompt(session_id=new.session_id, prompt=text_of("run"))
    assert result.stop_reason == "end_turn"
    first = client.created[0]
    assert (first["command"], first["args"][0], first["cwd"]) == ("/bin/bash", "-c",
                                                                  str(project))
    assert "echo from-terminal-$((40+2)); cd src" in first["args"][1]
    assert first["limit"] and first["env"].get("ANTHROPIC_BASE_URL") == server.url
    assert client.methods() == ["create", "wait_for_exit", "output", "release"] * 2
    shown = [u for u in client.of("tool_call_update") if u.tool_call_id == "toolu_one"
             and u.content and u.content[0].type == "terminal"]
    assert shown and shown[0].content[0].terminal_id == "term-1"
    assert finals(client)["toolu_one"].content is None, "the terminal stays what is shown"
    assert "from-terminal-42" in result_text(tool_results(server)["toolu_one"])
    assert client.created[1]["cwd"] == str(project / "src"), "a cd carries over"
    assert result_text(tool_results(server)["toolu_two"]).strip() == str(project / "src")


async def test_a_failing_command_in_the_terminal_reports_its_exit_code(project: Path,
                                                                      api: Any) -> None:
    server = api([tool_turn("Bash", {"command": "echo broken >&2; exit 3"}, "toolu_bash"),
                  "It failed."])
    client = EditorClient(choose=lambda options: "allow")
    async with agent(client, terminal=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("run"))
    sent = tool_results(server)["toolu_bash"]
    assert sent.get("is_error") is True
    assert "Exit code 3" in result_text(sent) and "broken" in result_text(sent)
    assert finals(client)["toolu_bash"].status == "failed"


async def test_cancel_kills_the_editors_terminal(project: Path, api: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv("ACP_MARK", mark)
    started = project / "started"
    api([tool_turn("Bash", {"command": f"touch {started}; sleep 60"}, "toolu_bash"),
         "never sent"])
    client = EditorClient(choose=lambda options: "allow")
    async with agent(client, terminal=True) as (conn, proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        turn = asyncio.create_task(conn.prompt(session_id=new.session_id,
                                               prompt=text_of("run it")))
        await client.wait_for(lambda: started.exists() and marked(mark))
        await conn.cancel(session_id=new.session_id)
        result = await asyncio.wait_for(turn, 20)
        await client.wait_for(lambda: "release" in client.methods())
        assert proc.returncode is None, "the agent itself lives on"
    assert result.stop_reason == "cancelled"
    assert client.methods() == ["create", "wait_for_exit", "kill", "output", "release"]
    assert not marked(mark), "the command and its sleep are gone"
    assert client.terminals["term-1"].process.returncode == -9


async def test_the_bash_timeout_kills_the_editors_terminal(project: Path, api: Any) -> None:
    server = api([tool_turn("Bash", {"command": "echo begun; sleep 30", "timeout": 1500},
                            "toolu_bash"), "Too slow."])
    client = EditorClient(choose=lambda options: "allow")
    async with agent(client, terminal=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await asyncio.wait_for(conn.prompt(session_id=new.session_id, prompt=text_of("run")), 20)
    assert client.methods() == ["create", "wait_for_exit", "kill", "output", "release"]
    text = result_text(tool_results(server)["toolu_bash"])
    assert "timed out after" in text and "begun" in text


@pytest.mark.skipif(not check_availability().available, reason="no bubblewrap here")
async def test_a_sandboxed_command_reaches_the_terminal_inside_bubblewrap(
        project: Path, api: Any, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text('{"sandbox": {"enabled": true}}')
    server = api([tool_turn("Bash", {"command": f"touch made.txt {outside}/x"}, "toolu_bash"),
                  "Done."])
    client = EditorClient(choose=lambda options: "allow")
    async with agent(client, terminal=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("touch them"))
    [created] = client.created
    assert Path(created["command"]).name == "bwrap" and "--unshare-net" in created["args"]
    assert (project / "made.txt").exists() and not (outside / "x").exists()
    assert "Read-only file system" in result_text(tool_results(server)["toolu_bash"])


async def test_a_client_without_these_capabilities_gets_our_own_writes_and_bash(
        project: Path, api: Any) -> None:
    made = project / "notes.txt"
    server = api([tool_turn("Write", {"file_path": str(made), "content": "ours\n"},
                            "toolu_write"),
                  tool_turn("Bash", {"command": "echo own-runner-$((6*7))"}, "toolu_bash"),
                  "Done."])
    client = EditorClient(choose=lambda options: "allow")
    async with agent(client, fs=True) as (conn, _proc):  # reads only: no writes, no terminal
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("go"))
    assert made.read_text() == "ours\n" and client.writes == []
    assert client.calls == [] and client.created == []
    assert "own-runner-42" in result_text(tool_results(server)["toolu_bash"])
    final = finals(client)["toolu_bash"]
    assert final.content[0].type == "content" and "own-runner-42" in final.content[0].content.text
    assert "own-runner-42" in sent_text(main_requests(server)[-1])


async def test_an_approved_sed_edit_is_written_through_the_editor(project: Path,
                                                                 api: Any) -> None:
    app = project / "src" / "app.py"
    expected = app.read_text().replace("hello", "hi")
    api([tool_turn("Bash", {"command": "sed -i 's/hello/hi/' src/app.py"}, "toolu_sed"),
         "Done."])
    client = EditorClient(choose=lambda options: "allow")
    async with agent(client, fs=True, writes=True, terminal=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("sed it"))
    assert [call.tool_call_id for call, _ in client.asked] == ["toolu_sed"]
    assert client.writes == [(str(app), expected)] and app.read_text() == expected
    assert client.created == [], "the approved result is written, sed is not run again"


async def test_a_sed_edit_over_unsaved_changes_is_refused(project: Path, api: Any) -> None:
    app = project / "src" / "app.py"
    before = app.read_text()
    server = api([tool_turn("Bash", {"command": "sed -i 's/hello/hi/' src/app.py"},
                            "toolu_sed"), "It was refused."])
    client = EditorClient(choose=lambda options: "allow",
                          buffers={str(app): before + "# unsaved\n"})
    async with agent(client, fs=True, writes=True) as (conn, _proc):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.prompt(session_id=new.session_id, prompt=text_of("sed it"))
    assert client.writes == [] and app.read_text() == before
    sent = tool_results(server)["toolu_sed"]
    assert sent.get("is_error") is True and "unsaved changes" in result_text(sent)
