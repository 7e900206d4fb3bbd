"""In the app: vim mode (editorMode, /vim), Ctrl+S stash, and the keybindings file,
each driven by keys through the real app and checked in what the footer shows and what the
scripted server receives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.frontends.tui.widgets.status_bar import StatusBar
from tests.tui.helpers import screen_text, send, sent_texts, type_text, wait_for

FAMILY = "👩\u200d👩\u200d👧"


def footer(app: Any) -> str:
    return str(app.query_one(StatusBar).query_one("#status-mode").render())


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


async def test_vim_mode_from_settings_edits_in_normal_and_sends(
        api: Any, make_app: Any, home: Path) -> None:
    write_json(home / ".claude" / "settings.json", {"editorMode": "vim"})
    server = api(["done"])
    app = make_app(server)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        assert "-- INSERT --" in footer(app)  # the vim input starts in INSERT
        await type_text(pilot, "fix the old tests now")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "-- INSERT --" not in footer(app), what="NORMAL")
        assert not app.busy
        await pilot.press("b", "b", "d", "w")  # back two words, then delete "tests "
        assert app.prompt.text == "fix the old now"
        await pilot.press("0", "w", "c", "w")
        assert "-- INSERT --" in footer(app)
        await type_text(pilot, "a")
        await pilot.press("escape", "w", ".")  # . repeats "cw a" on "old"
        assert app.prompt.text == "fix a a now"
        await pilot.press("u")
        assert app.prompt.text == "fix a old now"
        await pilot.press("$", "x", "x", "D")
        assert app.prompt.text == "fix a old "
        await pilot.press("A")
        await type_text(pilot, "bugs")
        await pilot.press("escape", "d", "d", "u", "enter")
        await wait_for(pilot, lambda: "done" in screen_text(app), what="answer")
        assert "-- INSERT --" in footer(app)  # the next prompt is typed at once
    assert "fix a old bugs" in sent_texts(server.requests[0]["messages"][0])


async def test_vim_motions_step_over_a_zwj_emoji_as_one_character(
        api: Any, make_app: Any, home: Path) -> None:
    write_json(home / ".claude" / "settings.json", {"editorMode": "vim"})
    server = api(["ok"])
    app = make_app(server)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        app.prompt.insert(f"a{FAMILY}b{FAMILY}c")
        await pilot.press("escape", "0", "l", "l", "x")  # on the b, past one whole family
        assert app.prompt.text == f"a{FAMILY}{FAMILY}c"
        await pilot.press("h", "x")
        assert app.prompt.text == f"a{FAMILY}c"
        await pilot.press("y", "y", "p", "k", "J")
        assert app.prompt.text == f"a{FAMILY}c a{FAMILY}c"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "ok" in screen_text(app), what="answer")
    assert f"a{FAMILY}c a{FAMILY}c" in sent_texts(server.requests[0]["messages"][0])


async def test_slash_vim_switches_the_input_and_saves_editor_mode(
        api: Any, make_app: Any, home: Path) -> None:
    app = make_app(api([]))
    settings = home / ".claude" / "settings.json"
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        assert app.prompt.vim is None and "INSERT" not in footer(app)
        await send(pilot, "/vim")
        await wait_for(pilot, lambda: app.prompt.vim is not None, what="vim on")
        assert "-- INSERT --" in footer(app)
        assert json.loads(settings.read_text())["editorMode"] == "vim"
        await type_text(pilot, "abc")
        await pilot.press("escape", "x")
        assert app.prompt.text == "ab"
        await pilot.press("c", "c")
        await send(pilot, "/vim")
        await wait_for(pilot, lambda: app.prompt.vim is None, what="vim off")
        assert "INSERT" not in footer(app)
        assert json.loads(settings.read_text())["editorMode"] == "normal"
        await type_text(pilot, "xyz")
        assert app.prompt.text == "xyz"  # typed, not NORMAL-mode commands


async def test_ctrl_s_stashes_the_draft_and_it_comes_back_after_the_next_prompt(
        api: Any, make_app: Any) -> None:
    server = api(["first answer"])
    app = make_app(server)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await type_text(pilot, "a long draft to keep")
        await pilot.press("ctrl+s")
        assert app.prompt.text == ""
        await pilot.press("ctrl+s")  # an empty input brings the stash back
        assert app.prompt.text == "a long draft to keep"
        await pilot.press("ctrl+s")
        await send(pilot, "quick question")
        await wait_for(pilot, lambda: app.prompt.text == "a long draft to keep",
                       what="draft restored")
        await wait_for(pilot, lambda: "first answer" in screen_text(app), what="answer")
    texts = sent_texts(server.requests[0]["messages"][0])
    assert "quick question" in texts and not any("draft" in t for t in texts)


async def test_the_keybindings_file_rebinds_unbinds_and_chords(
        api: Any, make_app: Any, home: Path) -> None:
    write_json(home / ".claude" / "keybindings.json", {"bindings": [
        {"context": "Chat", "bindings": {"ctrl+e": "chat:stash", "ctrl+s": None,
                                         "ctrl+k ctrl+h": "command:help"}},
        {"context": "Global", "bindings": {"ctrl+y": "app:toggleTodos"}},
    ]})
    server = api(["sent"])
    app = make_app(server)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready and app.keymap is not None, what="keymap")
        await type_text(pilot, "keep me")
        await pilot.press("ctrl+s")  # unbound: nothing happens
        assert app.prompt.text == "keep me"
        await pilot.press("ctrl+e")  # chat:stash
        assert app.prompt.text == ""
        await pilot.press("ctrl+k", "ctrl+h")  # a chord running /help
        await wait_for(pilot, lambda: "/vim" in screen_text(app) and "Keys:" in
                       screen_text(app), what="help")
        assert app.prompt.text == "keep me"  # after a command too, as in Claude Code
        await pilot.press("ctrl+k", "x")  # not a chord: the k is dropped, the x typed
        assert app.prompt.text == "keep mex"
        await pilot.press("ctrl+e")
        await send(pilot, "go")
        await wait_for(pilot, lambda: app.prompt.text == "keep mex", what="restored")
        await wait_for(pilot, lambda: "sent" in screen_text(app), what="answer")
    assert "go" in sent_texts(server.requests[0]["messages"][0])


async def test_keybindings_command_creates_the_file_and_reads_it_after_the_editor(
        api: Any, make_app: Any, home: Path, tmp_path: Path, monkeypatch: Any) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import json, sys\n"
        "data = json.load(open(sys.argv[1]))\n"
        "data['bindings'].append({'context': 'Chat', 'bindings': {'ctrl+e': 'chat:stash',"
        " 'ctrl+q': 'chat:launch'}})\n"
        "json.dump(data, open(sys.argv[1], 'w'))\n", encoding="utf-8")
    monkeypatch.setenv("EDITOR", f"python3 {editor}")
    app = make_app(api([]))
    path = home / ".claude" / "keybindings.json"
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        assert app.keymap is None and not path.exists()
        await send(pilot, "/keybindings")
        await wait_for(pilot, lambda: app.keymap is not None, what="file read again")
        data = json.loads(path.read_text())
        assert data["$schema"].endswith("claude-code-keybindings.json")
        await wait_for(pilot, lambda: 'Unknown action "chat:launch"' in screen_text(app),
                       what="the bad entry reported")
        await type_text(pilot, "draft")
        await pilot.press("ctrl+e")
        assert app.prompt.text == ""


async def test_an_edited_keybindings_file_applies_from_the_next_prompt(
        api: Any, make_app: Any, home: Path) -> None:
    server = api(["one", "two"])
    app = make_app(server)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await pilot.press("ctrl+y")
        assert app.keymap is None
        write_json(home / ".claude" / "keybindings.json", {"bindings": [
            {"context": "Chat", "bindings": {"ctrl+y": "chat:stash", "ctrl+z": "chat:oops"}}]})
        await send(pilot, "first")
        await wait_for(pilot, lambda: app.keymap is not None, what="file read again")
        await wait_for(pilot, lambda: 'Unknown action "chat:oops"' in screen_text(app),
                       what="its problem shown")
        await type_text(pilot, "later")
        await pilot.press("ctrl+y")
        assert app.prompt.text == ""
        await wait_for(pilot, lambda: "one" in screen_text(app) and not app.busy, what="answer")
        await send(pilot, "second")
        await wait_for(pilot, lambda: app.prompt.text == "later", what="restored")


async def test_vim_insert_mode_remaps_leave_insert(api: Any, make_app: Any, home: Path) -> None:
    write_json(home / ".claude" / "settings.json",
               {"editorMode": "vim", "vimInsertModeRemaps": {"jj": "<Esc>", "xyz": "<Esc>"}})
    app = make_app(api([]))
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await type_text(pilot, "ja")  # a lone j stays typed
        assert app.prompt.text == "ja" and "-- INSERT --" in footer(app)
        await type_text(pilot, "bjj")
        assert app.prompt.text == "jab" and "-- INSERT --" not in footer(app)
        await pilot.press("x")  # NORMAL now: x deletes the b
        assert app.prompt.text == "ja"


async def test_a_second_stash_keeps_the_first_draft_in_the_history(
        api: Any, make_app: Any) -> None:
    app = make_app(api([]))
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await type_text(pilot, "first draft")
        await pilot.press("ctrl+s")
        await type_text(pilot, "second draft")
        await pilot.press("ctrl+s")  # replaces the stash, as in Claude Code
        await pilot.press("up")
        assert app.prompt.text == "first draft"  # not lost: Up finds it
        await pilot.press("down", "ctrl+c", "ctrl+s")
        assert app.prompt.text == "second draft"


async def test_confirmation_keys_from_the_file_answer_a_permission_prompt(
        api: Any, make_app: Any, home: Path, project: Path) -> None:
    write_json(home / ".claude" / "keybindings.json", {"bindings": [
        {"context": "Confirmation", "bindings": {"y": "confirm:yes", "n": "confirm:no"}}]})
    tool = {"type": "tool_use", "id": "toolu_1", "name": "Bash",
            "input": {"command": "touch made.txt"}}
    server = api([{"content": [tool]}, "Created."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready and app.keymap is not None, what="keymap")
        await send(pilot, "make the file")
        await wait_for(pilot, lambda: app.prompt_widget is not None, what="permission prompt")
        await pilot.press("y")  # not typed into the feedback field: confirm:yes
        await wait_for(pilot, lambda: not app.busy, what="turn end")
    assert (project / "made.txt").exists()
