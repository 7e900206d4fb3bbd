"""Matcher forms: all, exact name lists, regex; and the subject each event matches on."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_harness.hooks import Matcher, MatcherError
from tests.hooks.hook_helpers import MakeRunner, group


@pytest.mark.parametrize("raw", ["", "*", None, "  "])
def test_empty_and_star_match_everything(raw: str | None) -> None:
    m = Matcher.compile(raw)
    assert m.matches_all and m.matches("Bash") and m.matches("mcp__x__y")


@pytest.mark.parametrize(
    ("raw", "value", "expected"),
    [
        ("Edit|Write", "Write", True),
        ("Edit|Write", "Edit", True),
        ("Edit|Write", "NotebookEdit", False),  # exact names, not a substring search
        ("Edit, Write", "Write", True),
        ("Edit Write", "Read", False),
        ("Bash", "Bash", True),
        ("Bash", "bash", False),
        ("mcp__my-server__query", "mcp__my-server__query", True),
        ("mcp__.*", "mcp__github__create_issue", True),
        ("mcp__.*", "Bash", False),
        ("^Notebook", "NotebookEdit", True),
        ("^Notebook", "MyNotebook", False),
        ("Edit$", "NotebookEdit", True),  # regexes search, unanchored unless the user anchors them
        ("Web(Fetch|Search)", "WebSearch", True),
    ],
)
def test_name_lists_and_regexes(raw: str, value: str, expected: bool) -> None:
    assert Matcher.compile(raw).matches(value) is expected


def test_invalid_regex_is_refused() -> None:
    with pytest.raises(MatcherError, match="invalid regex"):
        Matcher.compile("Bash(")


def test_no_subject_matches_any_matcher() -> None:
    assert Matcher.compile("Edit").matches(None)


async def fired(runner, event: str, payload: dict, log: Path) -> list[str]:
    if log.exists():
        log.unlink()
    await runner.run(event, payload)
    return sorted(log.read_text().split()) if log.exists() else []


async def test_runner_selects_hooks_by_tool_name(make_runner: MakeRunner, tmp_path: Path) -> None:
    log = tmp_path / "log"
    runner = make_runner(
        {
            "PreToolUse": [
                group(f"echo exact >> {log}", matcher="Edit|Write"),
                group(f"echo star >> {log}", matcher="*"),
                group(f"echo all >> {log}"),
                group(f"echo regex >> {log}", matcher="^mcp__github__.*"),
            ]
        }
    )
    assert await fired(runner, "PreToolUse", {"tool_name": "Write"}, log) == [
        "all",
        "exact",
        "star",
    ]
    assert await fired(runner, "PreToolUse", {"tool_name": "NotebookEdit"}, log) == ["all", "star"]
    assert await fired(runner, "PreToolUse", {"tool_name": "mcp__github__pr"}, log) == [
        "all",
        "regex",
        "star",
    ]
    # an explicit matcher_value wins over the payload's tool_name
    log.unlink(missing_ok=True)
    await runner.run("PreToolUse", {"tool_name": "Bash"}, matcher_value="Edit")
    assert sorted(log.read_text().split()) == ["all", "exact", "star"]


async def test_session_start_matches_source_and_pre_compact_trigger(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    log = tmp_path / "log"
    runner = make_runner(
        {
            "SessionStart": [
                group(f"echo resume >> {log}", matcher="resume"),
                group(f"echo fresh >> {log}", matcher="startup|clear"),
            ],
            "PreCompact": [group(f"echo auto >> {log}", matcher="auto")],
            "Notification": [group(f"echo idle >> {log}", matcher="idle_prompt")],
        }
    )
    assert await fired(runner, "SessionStart", {"source": "resume"}, log) == ["resume"]
    assert await fired(runner, "SessionStart", {"source": "clear"}, log) == ["fresh"]
    assert await fired(runner, "PreCompact", {"trigger": "manual"}, log) == []
    assert await fired(runner, "PreCompact", {"trigger": "auto"}, log) == ["auto"]
    assert (
        await fired(runner, "Notification", {"notification_type": "permission_prompt"}, log) == []
    )
    assert await fired(runner, "Notification", {"notification_type": "idle_prompt"}, log) == [
        "idle"
    ]


async def test_events_without_a_subject_ignore_the_matcher(
    make_runner: MakeRunner, tmp_path: Path
) -> None:
    log = tmp_path / "log"
    runner = make_runner({"Stop": [group(f"echo stop >> {log}", matcher="Bash")]})
    assert await fired(runner, "Stop", {"stop_hook_active": False}, log) == ["stop"]
