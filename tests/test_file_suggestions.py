"""The `@` popup's search on a real folder with the real ripgrep: the ranking, the folders,
and `respectGitignore`."""

from __future__ import annotations

from pathlib import Path

from claude_harness.frontends.shared.file_suggestions import (
    FileIndex,
    fuzzy_score,
    recent_files,
    suggest,
)
from claude_harness.tools.grep.ignore_files import configure
from tests.paste_support import small_repo


def test_contiguous_and_base_name_hits_rank_first() -> None:
    assert fuzzy_score("app", "src/app.py") > fuzzy_score("app", "src/a/p/p.txt")
    assert fuzzy_score("input", "a/input.py") > fuzzy_score("input", "input/a.py")  # base name
    assert fuzzy_score("mod", "lib/mod.py") > fuzzy_score("mod", "models/old/x.py")
    assert fuzzy_score("zzz", "src/app.py") is None


def test_folders_are_offered_and_ignored_files_left_out(tmp_path: Path) -> None:
    small_repo(tmp_path)
    index = FileIndex(tmp_path)
    assert index.wait_ready()
    assert suggest("widg", index)[0] == "src/widgets/"
    assert suggest("wpi", index) == ["src/widgets/prompt_input.py"]  # node_modules ignored


def test_respect_gitignore_off_lists_ignored_files(tmp_path: Path) -> None:
    small_repo(tmp_path)
    configure(respect_gitignore=False)
    try:
        index = FileIndex(tmp_path)
        assert index.wait_ready()
        assert "node_modules/pkg/wpi_ignored.js" in suggest("wpi", index)
    finally:
        configure(respect_gitignore=True)


def test_recent_files_are_the_sessions_reads_and_edits_newest_first(tmp_path: Path) -> None:
    def call(name: str, path: str) -> dict:
        return {"role": "assistant", "content": [
            {"type": "tool_use", "name": name, "input": {"file_path": str(tmp_path / path)}}]}

    messages = [call("Read", "a.py"), call("Bash", "x"), call("Edit", "b.py"), call("Read", "a.py")]
    assert recent_files(messages, tmp_path) == ["a.py", "b.py"]
