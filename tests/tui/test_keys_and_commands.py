"""Keys, history, shell escapes, completion and slash commands in the running app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import OptionList

from claude_harness.frontends.tui.screens.session_picker import SessionPicker
from claude_harness.frontends.tui.widgets.conversation import Conversation
from claude_harness.frontends.tui.widgets.user_prompt import UserPromptView
from tests.tui.helpers import screen_text, send, sent_texts, type_text, wait_for


async def ready_app(pilot: Any, app: Any) -> None:
    await wait_for(pilot, lambda: app.ready, what="engine ready")


async def test_newline_keys_do_not_send(api: Any, make_app: Any) -> None:
    server = api(["got it"])
    app = make_app(server)
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        await type_text(pilot, "one")
        await pilot.press("shift+enter")
        await type_text(pilot, "two\\")
        await pilot.press("enter")  # backslash + Enter: newline, not send
        await type_text(pilot, "three")
        await pilot.press("ctrl+j")
        await type_text(pilot, "four")
        assert app.prompt.text == "one\ntwo\nthree\nfour"
        assert server.requests == []
        await pilot.press("enter")
        await wait_for(pilot, lambda: "got it" in screen_text(app), what="answer")
    assert "one\ntwo\nthree\nfour" in sent_texts(server.requests[0]["messages"][0])


async def test_history_is_browsed_with_up_down_and_persists_per_project(
        api: Any, make_app: Any, project: Path, home: Path) -> None:
    server = api(["a1", "a2"])
    app = make_app(server)
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        await send(pilot, "first prompt")
        await wait_for(pilot, lambda: not app.busy and "a1" in screen_text(app), what="a1")
        await send(pilot, "second prompt")
        await wait_for(pilot, lambda: not app.busy and "a2" in screen_text(app), what="a2")
    files = list((home / "data" / "history").glob("*.jsonl"))
    assert len(files) == 1
    app2 = make_app(api([]))
    async with app2.run_test() as pilot:
        await type_text(pilot, "draft")
        await pilot.press("up")
        assert app2.prompt.text == "second prompt"
        await pilot.press("up")
        assert app2.prompt.text == "first prompt"
        await pilot.press("down", "down")
        assert app2.prompt.text == "draft"


async def test_ctrl_c_twice_on_empty_prompt_exits(api: Any, make_app: Any) -> None:
    app = make_app(api([]))
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        await type_text(pilot, "some text")
        await pilot.press("ctrl+c")  # first clears the prompt
        assert app.prompt.text == "" and app.is_running
        await pilot.press("ctrl+c")
        assert app.is_running  # once on an empty prompt only warns
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


async def test_ctrl_d_exits(api: Any, make_app: Any) -> None:
    app = make_app(api([]))
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        await pilot.press("ctrl+d")
        await pilot.pause()
    assert not app.is_running


async def test_ctrl_c_interrupts_a_running_turn(api: Any, make_app: Any) -> None:
    server = api([{"content": [{"type": "tool_use", "name": "Bash",
                                "input": {"command": "sleep 30"}}]}])
    app = make_app(server, mode="bypassPermissions", bypass=True)
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        await send(pilot, "go")
        await wait_for(pilot, lambda: app.busy and app.renderer.tools, what="tool running")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: not app.busy, timeout=20, what="interrupted")
        assert app.is_running


async def test_shell_escape_shows_output_and_feeds_the_next_prompt(
        api: Any, make_app: Any, project: Path) -> None:
    server = api(["I see the listing."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready_app(pilot, app)
        await send(pilot, "!ls src && echo done-listing")
        await wait_for(pilot, lambda: "done-listing" in screen_text(app), what="shell output")
        assert "app.py" in screen_text(app)
        assert server.requests == []  # a shell escape never calls the model by itself
        await send(pilot, "what is there?")
        await wait_for(pilot, lambda: "I see the listing." in screen_text(app), what="answer")
    content = server.requests[0]["messages"][0]["content"]
    assert "<bash-input>ls src && echo done-listing</bash-input>" in content[0]["text"]
    assert "app.py" in content[0]["text"]
    assert "what is there?" in sent_texts(server.requests[0]["messages"][0])


async def test_tab_completes_paths_and_commands(api: Any, make_app: Any, project: Path) -> None:
    (project / "src" / "helpers.py").write_text("")
    app = make_app(api([]))
    async with app.run_test() as pilot:
        await type_text(pilot, "look at @sr")
        await pilot.press("tab")
        assert app.prompt.text == "look at @src/"
        await type_text(pilot, "ap")
        await pilot.press("tab")
        assert app.prompt.text == "look at @src/app.py "
        app.prompt.clear()
        await type_text(pilot, "/he")
        await pilot.press("tab")
        assert app.prompt.text == "/help "
        app.prompt.clear()
        await type_text(pilot, "/c")
        await pilot.press("tab")  # /clear /compact /copy: the common prefix, options shown
        assert app.prompt.text == "/c"
        hint = str(app.query_one("#completion-hint").render())
        assert "/clear" in hint and "/copy" in hint


async def test_help_status_cost_model_theme(api: Any, make_app: Any) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(120, 50)) as pilot:
        await ready_app(pilot, app)
        await send(pilot, "/help")
        await wait_for(pilot, lambda: "/permissions" in screen_text(app), what="help")
        assert "Shift+Tab" in screen_text(app)
        await send(pilot, "/model claude-opus-4-5")
        await wait_for(pilot, lambda: app.view.model == "claude-opus-4-5", what="model")
        assert "claude-opus-4-5" in str(app.query_one("#status-info").render())
        await send(pilot, "/model opus")  # the alias is resolved, as in the plain REPL
        await wait_for(pilot, lambda: app.view.model == "claude-opus-5-5", what="alias")
        await send(pilot, "/status")
        await wait_for(pilot, lambda: "credentials set" in screen_text(app), what="status")
        await send(pilot, "/cost")
        await wait_for(pilot, lambda: "Total cost:             $0.0000" in screen_text(app),
                       what="cost")
        await send(pilot, "/theme light")
        await wait_for(pilot, lambda: app.theme == "light", what="theme")
        await send(pilot, "/theme high-contrast")
        await wait_for(pilot, lambda: app.theme == "high-contrast", what="theme")
        from claude_harness.config.theme_setting import settings_theme

        assert settings_theme(app.cwd) == "high-contrast"  # remembered for the next start
        await send(pilot, "/theme nope")
        await wait_for(pilot, lambda: app.theme == "dark", what="fallback theme")
        await send(pilot, "/frobnicate")
        await wait_for(pilot, lambda: "Unknown command /frobnicate" in screen_text(app),
                       what="unknown")


async def test_clear_and_export(api: Any, make_app: Any, project: Path) -> None:
    server = api(["An answer with *markdown*."])
    app = make_app(server)
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        await send(pilot, "question")
        await wait_for(pilot, lambda: not app.busy and app.view.messages, what="answer")
        await send(pilot, "/export out.md")
        await wait_for(pilot, lambda: (project / "out.md").exists(), what="export")
        exported = (project / "out.md").read_text()
        assert "> question" in exported and "An answer with *markdown*." in exported
        await send(pilot, "/clear")
        await wait_for(pilot, lambda: not app.view.messages, what="cleared")
        assert not app.query(UserPromptView)


async def test_custom_command_from_project_folder(api: Any, make_app: Any,
                                                  project: Path) -> None:
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "review.md").write_text("---\ndescription: x\n---\nReview $ARGUMENTS carefully.\n")
    server = api(["Reviewed."])
    app = make_app(server)
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        await send(pilot, "/review src/app.py")
        await wait_for(pilot, lambda: "Reviewed." in screen_text(app), what="answer")
    sent = [t.strip() for t in sent_texts(server.requests[0]["messages"][0])]
    assert "<command-name>/review</command-name>" in sent[0]
    assert "Review src/app.py carefully." in sent


async def test_permissions_command_adds_and_lists_a_rule(api: Any, make_app: Any,
                                                         project: Path) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready_app(pilot, app)
        await send(pilot, "/permissions allow Bash(npm test:*)")
        await wait_for(pilot, lambda: "Saved allow rule" in screen_text(app), what="saved")
        await send(pilot, "/permissions")
        await wait_for(pilot, lambda: "Bash(npm test:*)" in screen_text(app)
                       and "(mode default)" in screen_text(app), what="listed")
        await pilot.press("escape")  # the editor closes; the prompt is back
        await wait_for(pilot, lambda: app.prompt.display, what="prompt")
        settings = json.loads((project / ".claude" / "settings.local.json").read_text())
        assert "Bash(npm test:*)" in settings["permissions"]["allow"]
        await send(pilot, "/permissions remove Bash(npm test:*)")
        await wait_for(pilot, lambda: "Removed Bash(npm test:*)" in screen_text(app),
                       what="removed")
        assert not [r for r in app.view.rules if r[1] == "Bash(npm test:*)"]
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert settings["permissions"]["allow"] == []


async def test_resume_lists_and_loads_an_earlier_session(api: Any, make_app: Any) -> None:
    server = api(["first session answer"])
    app = make_app(server)
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        await send(pilot, "remember the word pineapple")
        await wait_for(pilot, lambda: not app.busy and len(app.view.messages) == 2, what="turn")
    app2 = make_app(api(["yes"]))
    async with app2.run_test(size=(120, 40)) as pilot:
        await ready_app(pilot, app2)
        await send(pilot, "/resume")
        picker = await wait_for(pilot, lambda: isinstance(app2.screen, SessionPicker)
                                and app2.screen, what="picker")
        assert "remember the word pineapple" in str(picker.query_one(OptionList).get_option_at_index(0).prompt)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app2.view.messages) == 2, what="loaded")
        assert "first session answer" in screen_text(app2)
        assert not isinstance(app2.screen, SessionPicker)
        await send(pilot, "/resume 1")  # by number: the same earlier session
        await wait_for(pilot, lambda: screen_text(app2).count("Resumed") == 1, what="resumed")


async def test_long_sessions_keep_the_widget_tree_bounded(api: Any, make_app: Any) -> None:
    from claude_harness.frontends.tui.widgets.assistant_text import AssistantTextView

    app = make_app(api([]))
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        conversation = app.query_one(Conversation)
        conversation.high_mark, conversation.low_mark, conversation.live_blocks = 40, 30, 4
        for i in range(60):
            await conversation.add(UserPromptView(f"q{i}"), AssistantTextView(f"answer **{i}**"))
        await pilot.pause()
        assert len(conversation.blocks()) <= 40
        assert conversation.block_count >= 120  # the older blocks are archived, not dropped
        assert len(conversation.query(AssistantTextView)) <= 4 + 3
        assert "q59" in screen_text(app)
        archived = conversation.archive._lines_at(conversation.archive.size.width)
        assert any("› q0 " in strip.text + " " for strip in archived)


async def test_theme_comes_from_settings_unless_given(api: Any, make_app: Any,
                                                      project: Path) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text('{"theme": "high-contrast"}')
    app = make_app(api([]))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.theme == "high-contrast"
    app2 = make_app(api([]), theme="light")
    async with app2.run_test() as pilot:
        await pilot.pause()
        assert app2.theme == "light"


async def test_typing_slash_lists_matching_commands(api: Any, make_app: Any) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(100, 30)) as pilot:
        await type_text(pilot, "/")
        hint = app.query_one("#completion-hint")
        assert hint.has_class("-open")
        assert "/help" in str(hint.render()) and "/theme" in str(hint.render())
        await type_text(pilot, "co")
        text = str(hint.render())
        assert "/compact" in text and "/copy" in text and "/help" not in text
        await type_text(pilot, "st ")
        assert not hint.has_class("-open")


async def test_view_follows_output_only_while_at_the_bottom(api: Any, make_app: Any) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        conversation = app.query_one(Conversation)
        for i in range(30):
            await conversation.add(UserPromptView(f"line {i}"))
        await pilot.pause()
        assert conversation.scroll_y == conversation.max_scroll_y > 0  # following
        conversation.scroll_to(y=0, animate=False)
        await pilot.pause()
        for i in range(5):
            await conversation.add(UserPromptView(f"more {i}"))
        await pilot.pause()
        assert conversation.scroll_y == 0  # the reader scrolled up: the view stays put
        conversation.scroll_end(animate=False)
        await pilot.pause()
        await conversation.add(UserPromptView("after"))
        await pilot.pause()
        assert conversation.scroll_y == conversation.max_scroll_y  # back at the bottom: follows


async def test_long_shell_escape_keeps_the_ui_live_and_esc_stops_it(
        api: Any, make_app: Any, project: Path) -> None:
    import time as _time

    app = make_app(api([]))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready_app(pilot, app)
        started = _time.monotonic()
        await send(pilot, "!sleep 30; touch never.txt")
        await wait_for(pilot, lambda: app.busy, what="shell running")
        await type_text(pilot, "typing works")  # the UI is not blocked by the command
        assert app.prompt.text == "typing works"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.busy, timeout=20, what="shell stopped")
        assert _time.monotonic() - started < 10
        assert "Stopped !sleep 30" in screen_text(app)
    assert not (project / "never.txt").exists()


async def test_resume_without_an_id_opens_the_picker_at_start(api: Any, make_app: Any,
                                                               project: Path) -> None:
    from claude_harness.frontends.tui.app import HarnessApp
    from tests.tui.conftest import make_engine

    app = make_app(api(["stored answer"]))
    async with app.run_test() as pilot:
        await ready_app(pilot, app)
        await send(pilot, "stored question")
        await wait_for(pilot, lambda: not app.busy and len(app.view.messages) == 2, what="turn")
    server = api([])
    app2 = HarnessApp(cwd=project, session_factory=lambda: make_engine(server, project),
                      preload_transport=False, pick_session=True)
    async with app2.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app2.screen, SessionPicker), what="picker")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "stored answer" in screen_text(app2), what="resumed")


async def test_page_keys_scroll_the_conversation_from_the_prompt(api: Any, make_app: Any) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready_app(pilot, app)
        conversation = app.query_one(Conversation)
        for i in range(40):
            await conversation.add(UserPromptView(f"line {i}"))
        await pilot.pause()
        bottom = conversation.scroll_y
        await pilot.press("pageup")
        await wait_for(pilot, lambda: conversation.scroll_y < bottom, what="scrolled up")
        assert app.prompt.has_focus
        await pilot.press("tab")  # Tab on an empty prompt keeps the focus where it is
        assert app.prompt.has_focus
