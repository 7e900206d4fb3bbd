"""Custom slash commands: discovery, namespacing, precedence, front matter, expansion."""

from __future__ import annotations

from pathlib import Path

from claude_harness.commands import expand, find_command, load_commands
from tests.commands.conftest import write

REVIEW = """---
description: Review a file for bugs
argument-hint: "<file> [focus]"
allowed-tools: Read, Grep, Bash(git diff:*)
model: haiku
---
Review $0 with a focus on $1.
Everything typed: $ARGUMENTS
"""


def test_project_user_and_namespaced_commands(repo: Path, user_dir: Path) -> None:
    write(repo / ".claude" / "commands" / "review.md", REVIEW)
    write(repo / ".claude" / "commands" / "frontend" / "component.md", "Make a component $ARGUMENTS")
    write(repo / ".claude" / "commands" / "a" / "b" / "deep.md", "deep")
    write(repo / ".claude" / "commands" / "notes.txt", "not a command")
    write(user_dir / "commands" / "mine.md", "# My helper\n\nDo the thing.")
    write(user_dir / "commands" / "review.md", "---\ndescription: the user's review\n---\nmine")

    commands = load_commands(repo)
    assert [c.name for c in commands] == ["a:b:deep", "frontend:component", "mine", "review"]
    mine = find_command(commands, "mine")
    review = find_command(commands, "review")
    # Claude Code 2.1.332 runs the user's file when both define a name (observed): so do we
    assert review is not None and review.scope == "user" and review.body == "mine"
    review = find_command(load_commands(repo, plugins=()), "review")
    (user_dir / "commands" / "review.md").unlink()
    review = find_command(load_commands(repo), "review")
    assert review is not None and review.scope == "project"
    assert review.description == "Review a file for bugs"
    assert review.argument_hint == "<file> [focus]"
    assert review.allowed_tools == ("Read", "Grep", "Bash(git diff:*)")
    assert review.model == "haiku"
    mine = find_command(commands, "mine")
    assert mine is not None and mine.scope == "user" and mine.description == "My helper"


def test_commands_from_parent_folders_up_to_the_repo_root(repo: Path, tmp_path: Path) -> None:
    write(tmp_path / ".claude" / "commands" / "outside.md", "outside the repository")
    write(repo / ".claude" / "commands" / "top.md", "from the root")
    write(repo / "pkg" / ".claude" / "commands" / "top.md", "nearer wins")
    cwd = repo / "pkg" / "src"
    cwd.mkdir(parents=True)
    commands = load_commands(cwd)
    assert [c.name for c in commands] == ["top"]
    assert commands[0].body == "nearer wins"


def test_expansion_of_arguments_positions_and_quotes(repo: Path) -> None:
    write(repo / ".claude" / "commands" / "review.md", REVIEW)
    review = load_commands(repo)[0]
    out = expand(review, 'src/app.py "error handling"')
    assert out.text == ("Review src/app.py with a focus on error handling.\n"
                        'Everything typed: src/app.py "error handling"\n')
    assert out.allowed_tools == ("Read", "Grep", "Bash(git diff:*)")
    assert out.model == "haiku"
    short = expand(review, "only.py")
    assert short.text.startswith("Review only.py with a focus on $1.")  # not given: kept


def test_indexed_named_and_environment_placeholders(repo: Path) -> None:
    write(repo / ".claude" / "commands" / "mv.md",
          "---\narguments: [old-name, new-name]\n---\n"
          "Rename $old-name to $new-name ($ARGUMENTS[1]); $HOME stays; "
          "session ${CLAUDE_SESSION_ID} in ${CLAUDE_PROJECT_DIR}")
    command = load_commands(repo)[0]
    out = expand(command, "Foo Bar", session_id="abc", project_dir=repo)
    assert out.text == f"Rename Foo to Bar (Bar); $HOME stays; session abc in {repo}"


def test_arguments_are_never_expanded_twice(repo: Path) -> None:
    write(repo / ".claude" / "commands" / "say.md", "Say: $ARGUMENTS")
    out = expand(load_commands(repo)[0], "$1 and $ARGUMENTS")
    assert out.text == "Say: $1 and $ARGUMENTS"


def test_arguments_appended_when_the_body_has_no_placeholder(repo: Path) -> None:
    write(repo / ".claude" / "commands" / "plain.md", "Summarise the project.\n")
    command = load_commands(repo)[0]
    assert expand(command, "").text == "Summarise the project.\n"
    assert expand(command, "briefly").text == "Summarise the project.\n\n\nARGUMENTS: briefly"


def test_unbalanced_quotes_fall_back_to_whitespace_split(repo: Path) -> None:
    write(repo / ".claude" / "commands" / "q.md", "[$0] [$1]")
    assert expand(load_commands(repo)[0], "it's fine").text == "[it's] [fine]"


def test_unreadable_file_is_a_warning_and_others_still_load(repo: Path) -> None:
    write(repo / ".claude" / "commands" / "good.md", "fine")
    bad = repo / ".claude" / "commands" / "bad.md"
    bad.write_bytes(b"\xff\xfe\x00not utf-8")
    warnings: list[str] = []
    commands = load_commands(repo, warnings)
    assert [c.name for c in commands] == ["good"]
    assert len(warnings) == 1 and "bad.md" in warnings[0]


def test_no_folders_means_no_commands(tmp_path: Path, user_dir: Path) -> None:
    assert load_commands(tmp_path) == []
