"""Pure pieces of the app: theme files, prompt history, completion, previews, shell escapes."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_harness.frontends.shared import previews
from claude_harness.frontends.shared.prompt_history import MAX_ENTRIES, PromptHistory
from claude_harness.frontends.tui.completion import complete
from claude_harness.frontends.tui.export import conversation_markdown
from claude_harness.frontends.tui.themes import ThemeFileError, load_themes, theme_from_file
from claude_harness.session.services.shell_escape import run_shell_escape


def test_builtin_themes_load_and_include_the_three_required(home: Path) -> None:
    themes, errors = load_themes()
    names = {t.name for t in themes}
    assert {"dark", "light", "high-contrast"} <= names
    assert errors == []
    light = next(t for t in themes if t.name == "light")
    assert light.dark is False


def test_user_theme_files_are_added_and_bad_ones_reported(home: Path) -> None:
    folder = home / "data" / "themes"
    folder.mkdir(parents=True)
    (folder / "mine.toml").write_text('primary = "#112233"\ndark = true\n')
    (folder / "typo.toml").write_text('primry = "#112233"\n')
    (folder / "broken.toml").write_text('primary = \n')
    themes, errors = load_themes()
    assert "mine" in {t.name for t in themes}
    assert len(errors) == 2
    assert any("unknown keys ['primry']" in e for e in errors)
    with pytest.raises(ThemeFileError):
        theme_from_file(folder / "broken.toml")


def test_history_browses_and_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    history = PromptHistory(path)
    for text in ("one", "two", "two", "multi\nline"):
        history.add(text)
    from claude_harness.frontends.shared.prompt_history import _read

    loaded = PromptHistory(path, _read(path))
    assert loaded.entries == ["one", "two", "multi\nline"]  # consecutive duplicates dropped
    assert loaded.older("draft") == "multi\nline"
    assert loaded.older("") == "two"
    assert loaded.older("") == "one"
    assert loaded.older("") is None
    assert loaded.newer() == "two"
    assert loaded.newer() == "multi\nline"
    assert loaded.newer() == "draft"
    assert loaded.newer() is None


def test_history_file_is_trimmed(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    history = PromptHistory(path)
    for i in range(2 * MAX_ENTRIES + 1):
        history.add(f"p{i}")
    assert len(path.read_text().splitlines()) == MAX_ENTRIES
    assert history.entries[-1] == f"p{2 * MAX_ENTRIES}"


def test_history_is_per_project(home: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    PromptHistory.for_project(a).add("only in a")
    assert PromptHistory.for_project(a).entries == ["only in a"]
    assert PromptHistory.for_project(b).entries == []


def test_completion_paths_and_commands(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("")
    (tmp_path / "setup.cfg").write_text("")
    (tmp_path / ".hidden").write_text("")
    assert complete("@sr", 3, tmp_path, []) == (0, "@src/", ["src/"])
    start, text, options = complete("see @s", 6, tmp_path, [])
    assert (start, text) == (4, "@s") and options == ["setup.cfg", "src/"]
    assert complete("@src/m", 6, tmp_path, []) == (0, "@src/main.py ", ["src/main.py"])
    assert complete("@.h", 3, tmp_path, [])[1] == "@.hidden "
    assert complete("@", 1, tmp_path, [])[2] == ["setup.cfg", "src/"]  # dotfiles hidden
    assert complete("/mo", 3, tmp_path, ["model", "help"]) == (0, "/model ", ["/model"])
    assert complete("say /mo", 7, tmp_path, ["model"]) is None  # commands only at the start
    assert complete("@nothing", 8, tmp_path, []) is None


def test_previews_for_edit_write_errors_and_progress() -> None:
    diff = previews.result_lines("Edit", {"old_string": "a = 1", "new_string": "a = 2"},
                                 "ok", False)
    assert "-a = 1" in diff and "+a = 2" in diff
    assert previews.result_lines("Write", {"content": "x\ny"}, "ok", False) == ["+ x", "+ y"]
    assert previews.result_lines("Bash", {}, "<tool_use_error>boom</tool_use_error>",
                                 True) == ["boom"]
    assert previews.progress_text({"stdout": "a\nb\n", "stderr": "", "total_bytes": 4}) == ["a", "b"]
    assert previews.progress_text({"matches": 7}) == ["7 matches so far"]
    assert previews.progress_text({"agent_step": "tool", "name": "Grep", "key": "TODO"}) == \
        ["→ Grep(TODO)"]
    assert previews.progress_text({"agent_step": "result", "name": "Grep",
                                   "is_error": True}) == ["✗ Grep"]
    assert previews.header_argument("Read", {"file_path": "/x/y.py"}) == "/x/y.py"
    assert len(previews.header_argument("Bash", {"command": "x" * 500})) == 120
    assert previews.format_elapsed(75) == "1m15s"


def test_export_markdown_has_prompts_answers_and_tools() -> None:
    messages = [
        {"role": "user", "content": "hi there"},
        {"role": "assistant", "content": [{"type": "text", "text": "Hello **you**"},
                                          {"type": "tool_use", "id": "t", "name": "Bash",
                                           "input": {"command": "ls"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                      "content": "a.txt"}]},
    ]
    text = conversation_markdown(messages)
    assert "> hi there" in text and "Hello **you**" in text
    assert '**Bash** `{"command": "ls"}`' in text and "a.txt" in text


async def test_shell_escape_captures_output_exit_code_and_timeout(tmp_path: Path) -> None:
    result = await run_shell_escape("echo out; echo err >&2; exit 4", tmp_path)
    assert (result.stdout, result.stderr, result.returncode) == ("out\n", "err\n", 4)
    assert "<bash-exit-code>4</bash-exit-code>" in result.context_text()
    assert "(exit 4)" in result.display()
    slow = await run_shell_escape("sleep 10", tmp_path, timeout=0.3)
    assert slow.returncode is None and "timed out" in slow.display()
    here = await run_shell_escape("pwd", tmp_path)
    assert here.stdout.strip() == str(tmp_path)


def test_importing_the_app_pulls_in_no_engine_sdk_or_pydantic() -> None:
    """First paint must not wait for the engine, the tools, pydantic or the anthropic SDK."""
    import subprocess
    import sys

    code = ("import sys, claude_harness.cli, claude_harness.frontends.tui.app\n"
            "heavy = [m for m in ('anthropic', 'pydantic', 'claude_harness.session.core',\n"
            "         'claude_harness.session.bootstrap', 'claude_harness.tools.registry', 'httpx',\n"
            "         'textual.widgets._markdown') if m in sys.modules]\n"
            "print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
