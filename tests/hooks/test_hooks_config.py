"""Settings parsing: warnings instead of crashes, workspace trust, dedupe, /hooks listing."""

from __future__ import annotations

from pathlib import Path

from claude_harness.hooks import DEFAULT_TIMEOUT_S, HookConfig, HookRunner
from tests.hooks.hook_helpers import group


def runner_for(config: HookConfig, project: Path) -> HookRunner:
    return HookRunner(
        config,
        project_dir=project,
        session_id="s",
        transcript_path="",
        get_permission_mode=lambda: "default",
    )


def test_valid_config_parses_with_defaults(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    config = HookConfig.from_sources(
        [
            (
                "userSettings",
                settings,
                {
                    "PreToolUse": [
                        {
                            "matcher": "Bash|Edit",
                            "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5}],
                        }
                    ],
                    "Stop": [{"hooks": [{"command": "notify-send done"}]}],
                },
            )
        ]
    )
    assert config.warnings == ()
    pre, stop = config.entries
    assert (pre.event, pre.matcher.raw, pre.command, pre.timeout) == (
        "PreToolUse",
        "Bash|Edit",
        "./check.sh",
        5.0,
    )
    assert pre.path == settings and pre.source == "userSettings"
    assert (stop.event, stop.matcher.raw, stop.timeout) == ("Stop", "", DEFAULT_TIMEOUT_S)


def test_invalid_entries_become_warnings_naming_file_and_key(tmp_path: Path) -> None:
    user = tmp_path / "user.json"
    bad = {
        "PreToolUze": [group("a")],
        "PostToolUse": {"matcher": "x"},
        "Stop": ["not an object"],
        "PreCompact": [{"matcher": "Bash(", "hooks": [{"command": "b"}]}],
        "SessionStart": [{"hooks": "c"}],
        "SessionEnd": [
            {
                "hooks": [
                    {"type": "websocket", "url": "ws://x"},
                    {"type": "command"},
                    {"command": "ok", "timeout": -3},
                ]
            }
        ],
        "Notification": [{"matcher": 5, "hooks": []}],
        "UserPromptSubmit": [{"hooks": [{"command": "good", "if": "Bash(git *)", "mystery": 1}]}],
    }
    config = HookConfig.from_sources([("userSettings", user, bad), ("cliArg", None, ["nope"])])
    text = "\n".join(config.warnings)
    assert f"{user}: hooks.PreToolUze: unknown hook event" in text
    assert f"{user}: hooks.PostToolUse: must be a list" in text
    assert f"{user}: hooks.Stop[0]: must be an object" in text
    assert f"{user}: hooks.PreCompact[0].matcher: invalid regex" in text
    assert f"{user}: hooks.SessionStart[0].hooks: must be a list" in text
    assert f"{user}: hooks.SessionEnd[0].hooks[0].type: 'websocket' is not a hook type" in text
    assert f"{user}: hooks.SessionEnd[0].hooks[1].command: must be a non-empty string" in text
    assert f"{user}: hooks.SessionEnd[0].hooks[2].timeout: must be a positive number" in text
    assert f"{user}: hooks.Notification[0].matcher: must be a string" in text
    assert f"{user}: hooks.UserPromptSubmit[0].hooks[0].mystery: unknown key" in text
    assert "cliArg: hooks: must be an object" in text
    # the valid handlers still load; a bad timeout keeps the hook with the default
    assert [(e.event, e.command, e.timeout) for e in config.entries] == [
        ("SessionEnd", "ok", DEFAULT_TIMEOUT_S),
        ("UserPromptSubmit", "good", DEFAULT_TIMEOUT_S),
    ]


def test_missing_hooks_section_is_fine() -> None:
    config = HookConfig.from_sources([("userSettings", None, None), ("projectSettings", None, {})])
    assert config.entries == () and config.warnings == () and config.skipped == ()


async def test_project_hooks_are_skipped_until_the_workspace_is_trusted(tmp_path: Path) -> None:
    project_file = tmp_path / ".claude" / "settings.json"
    local_file = tmp_path / ".claude" / "settings.local.json"
    marker = tmp_path / "ran"
    sources = [
        ("userSettings", tmp_path / "user.json", {"Stop": [group(f"echo user >> {marker}")]}),
        ("projectSettings", project_file, {"Stop": [group(f"echo project >> {marker}")]}),
        ("localSettings", local_file, {"Stop": [group(f"echo local >> {marker}")]}),
    ]
    untrusted = HookConfig.from_sources(sources)
    assert [e.source for e in untrusted.skipped] == ["projectSettings", "localSettings"]
    await runner_for(untrusted, tmp_path).run("Stop", {})
    assert marker.read_text().split() == ["user"]
    skipped = [line for line in untrusted.describe() if line.note]
    assert [(line.source, line.note) for line in skipped] == [
        (str(project_file), "skipped: workspace not trusted"),
        (str(local_file), "skipped: workspace not trusted"),
    ]

    marker.unlink()
    trusted = HookConfig.from_sources(sources, allow_project_hooks=True)
    assert trusted.skipped == ()
    await runner_for(trusted, tmp_path).run("Stop", {})
    assert sorted(marker.read_text().split()) == ["local", "project", "user"]


async def test_identical_commands_on_one_event_run_once(tmp_path: Path) -> None:
    marker = tmp_path / "count"
    command = f"echo x >> {marker}"
    config = HookConfig.from_sources(
        [
            (
                "userSettings",
                None,
                {"PreToolUse": [group(command, matcher="Bash"), group(command)]},
            ),
            ("cliArg", None, {"PreToolUse": [group([command, command])], "Stop": [group(command)]}),
        ]
    )
    outcome = await runner_for(config, tmp_path).run("PreToolUse", {"tool_name": "Bash"})
    assert len(outcome.results) == 1
    assert marker.read_text().split() == ["x"]
    await runner_for(config, tmp_path).run("Stop", {})  # another event is another run
    assert marker.read_text().split() == ["x", "x"]


async def test_disable_all_hooks(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    config = HookConfig.from_sources(
        [("userSettings", None, {"Stop": [group(f"touch {marker}")]})], disable_all=True
    )
    runner = runner_for(config, tmp_path)
    assert not runner.has_hooks("Stop")
    outcome = await runner.run("Stop", {})
    assert not outcome.ran and not marker.exists()
    assert [line.note for line in config.describe()] == ["disabled by disableAllHooks"]


def test_describe_lists_event_matcher_command_and_source(tmp_path: Path) -> None:
    user = tmp_path / "user.json"
    config = HookConfig.from_sources(
        [
            ("userSettings", user, {"PreToolUse": [group("./check.sh", matcher="Bash|Edit")]}),
            ("cliArg", None, {"Stop": [group("say done")]}),
        ]
    )
    rows = config.describe()
    assert [tuple(r[:4]) for r in rows] == [
        ("PreToolUse", "Bash|Edit", "./check.sh", str(user)),
        ("Stop", "", "say done", "cliArg"),
    ]
    assert str(rows[0]) == f"PreToolUse [Bash|Edit] ./check.sh  ({user})"
    assert str(rows[1]) == "Stop [*] say done  (cliArg)"


def test_has_hooks(tmp_path: Path) -> None:
    config = HookConfig.from_sources([("userSettings", None, {"Stop": [group("true")]})])
    assert config.has_hooks("Stop") and not config.has_hooks("PreToolUse")
