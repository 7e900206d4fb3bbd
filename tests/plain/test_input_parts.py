"""Completion, permission choice parsing, history location and slash commands, without a
terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from claude_harness.frontends.plain.choice import options_for, parse_typed_choice
from claude_harness.frontends.plain.completion import PlainCompleter
from claude_harness.frontends.plain.previews import permission_body
from claude_harness.session.services.shell_escape import run_shell_escape as run_shell


def complete(completer: PlainCompleter, text: str) -> list[str]:
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]


def test_slash_completion_offers_matching_commands_only_at_the_start(tmp_path: Path) -> None:
    completer = PlainCompleter(tmp_path)
    assert complete(completer, "/c") == ["/clear", "/compact", "/config", "/cost", "/context",
                                         "/copy"]
    assert "/exit" in complete(completer, "/")
    assert complete(completer, "say /c") == []


def test_at_mentions_search_fuzzily_and_absolute_paths_go_one_level_at_a_time(
        tmp_path: Path) -> None:
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "main.py").write_text("")
    (tmp_path / "src" / "pkg" / "mod.py").write_text("")
    (tmp_path / "setup.cfg").write_text("")
    (tmp_path / ".hidden").write_text("")
    completer = PlainCompleter(tmp_path, recent=lambda: ["src/pkg/mod.py"])
    assert complete(completer, "look at @") == ["src/pkg/mod.py", "src/", "setup.cfg"]
    assert completer._index.wait_ready()  # rg's listing, built in a thread
    assert complete(completer, "look at @smai") == ["src/main.py"]  # a subsequence
    assert complete(completer, "@mod")[0] == "src/pkg/mod.py"  # the base name hit first
    assert complete(completer, "@pkg")[0] == "src/pkg/"
    assert complete(completer, "@zzz") == []
    assert complete(completer, f"@{tmp_path}/src/") == [f"{tmp_path}/src/main.py",
                                                      f"{tmp_path}/src/pkg/"]
    assert complete(completer, "@./src/m") == ["./src/main.py"]


def test_typed_choices_follow_the_numbering_of_the_options() -> None:
    with_rule = options_for("Bash(npm test *)")
    assert [c for c, _ in with_rule] == ["yes", "always", "no"]
    assert "Bash(npm test *)" in with_rule[1][1]
    assert parse_typed_choice("1", with_rule) == "yes"
    assert parse_typed_choice(" 2 ", with_rule) == "always"
    assert parse_typed_choice("n", with_rule) == "no"
    assert parse_typed_choice("maybe", with_rule) is None
    without_rule = options_for(None)
    assert parse_typed_choice("2", without_rule) == "no"  # numbered as shown: 1. Yes, 2. No
    assert parse_typed_choice("3", without_rule) == "no"  # and 3 stays "No" as with a rule


def test_history_is_the_projects_shared_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain REPL reads and writes the same per-project history file as the Textual app."""
    from claude_harness.frontends.plain.input import SharedHistory
    from claude_harness.frontends.shared.prompt_history import PromptHistory, history_path

    monkeypatch.setenv("CLAUDE_HARNESS_DATA_DIR", str(tmp_path / "data"))
    project = tmp_path / "my proj.v2"
    project.mkdir()
    PromptHistory.for_project(project).add("typed in the app")
    shared = SharedHistory(PromptHistory.for_project(project))
    assert list(shared.load_history_strings()) == ["typed in the app"]
    shared.store_string("typed in the plain REPL")
    assert PromptHistory.for_project(project).entries == ["typed in the app",
                                                          "typed in the plain REPL"]
    assert history_path(project).parent == tmp_path / "data" / "history"


def test_permission_body_shows_the_exact_command_or_diff() -> None:
    assert permission_body("Bash", {"command": "rm -rf build\necho done"}, None) == [
        "rm -rf build", "echo done"]
    body = permission_body("Edit", {"file_path": "/a.py", "old_string": "a", "new_string": "b"},
                           None)
    assert body[0] == "/a.py" and "-a" in body and "+b" in body
    assert permission_body("Bash", {"command": "sed -i s/a/b/ f"}, "--- f\n+++ f\n-a\n+b") == [
        "--- f", "+++ f", "-a", "+b"]


async def test_bang_shell_keeps_stdout_stderr_and_exit_code(tmp_path: Path) -> None:
    result = await run_shell("echo out; echo err >&2; exit 3", tmp_path)
    assert result.stdout == "out\n" and result.stderr == "err\n" and result.returncode == 3
    context = result.context_text()
    assert "<bash-input>echo out; echo err >&2; exit 3</bash-input>" in context
    assert "<bash-exit-code>3</bash-exit-code>" in context
    assert result.display_lines()[-1] == "(exit 3)"


async def test_bang_shell_runs_in_the_given_folder_and_times_out(tmp_path: Path) -> None:
    assert (await run_shell("pwd", tmp_path)).stdout.strip() == str(tmp_path)
    slow = await run_shell("sleep 20", tmp_path, timeout=0.3)
    assert slow.returncode is None
    assert slow.display_lines()[-1] == "(timed out)"


def test_keys_typed_during_a_turn() -> None:
    from claude_harness.frontends.plain.turnkeys import TurnKeys

    calls: list[str] = []
    keys = TurnKeys(lambda: calls.append("esc"), lambda: calls.append("backtab"))
    keys.feed("fix the tests")
    keys.feed("\x7f\x7fts")  # backspace twice, then retype
    keys.feed("\x1b[A")  # an arrow: ignored mid-turn
    keys.feed("\x1b[Z")
    keys.feed("\x1b")
    assert calls == ["backtab", "esc"]
    assert keys.take_typeahead() == "fix the tests"
    assert keys.take_typeahead() == ""


@pytest.mark.parametrize("sequence", ["\x1b[27;2;13~", "\x1b[13;2u"])
def test_reported_shift_enter_arrives_as_one_key(sequence: str) -> None:
    """One key, not Alt+Enter's (Escape, Enter): vim's INSERT would leave on the Escape."""
    from prompt_toolkit.input.vt100_parser import Vt100Parser
    from prompt_toolkit.keys import Keys

    from claude_harness.frontends.plain.keys import SHIFT_ENTER, enable_shift_enter

    enable_shift_enter()
    keys: list[object] = []
    parser = Vt100Parser(lambda press: keys.append(press.key))
    parser.feed(sequence)
    parser.flush()
    assert keys == [SHIFT_ENTER] and SHIFT_ENTER not in (Keys.Escape, Keys.ControlM)
