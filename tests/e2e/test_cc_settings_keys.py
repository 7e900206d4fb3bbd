"""Every settings key Claude Code 2.1.332 documents is applied or named by
`claude-harness doctor --json` as not supported, with the reason; and the keys a daily user
sets, observed through the real binary or the session (respectGitignore, autoCompactEnabled /
autoCompactWindow, availableModels, modelOverrides, fallbackModel, verbose, the managed
MCP server lists, strictKnownMarketplaces, blockedMarketplaces, deniedModels,
enforceAvailableModels and disableSkillShellExecution)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from claude_harness.api.models import DEFAULT_MODEL
from claude_harness.config.settings_keys import DOCUMENTED
from claude_harness.config.trust_rules import TOP_LEVEL
from claude_harness.protocol.events import Compaction, ModelChanged, Notice, ShellRan
from claude_harness.protocol.ops import SetModel, ShellCommand
from claude_harness.session.bootstrap import build_session
from claude_harness.session.options import RunOptions
from tests.e2e.support import ndjson, run_cli, run_op, run_prompt

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CC_KEYS = (FIXTURES / "cc_settings_keys.txt").read_text().split()
DEMO = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"
TEXT = {"content": [{"type": "text", "text": "done"}]}
TYPED = {"permissions": {"deny": ["Read(./x)"]}, "hooks": {}, "env": {"A_B": "1"},
         "model": "sonnet"}


def write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def session_for(project: Path, **opts: Any) -> Any:
    session, _ = build_session(RunOptions(cwd=project, print_mode=True, interactive=False,
                                          **opts), trusted=True)
    return session


def test_the_list_is_claude_codes_and_every_key_is_classified() -> None:
    assert len(CC_KEYS) > 150 and "respectGitignore" in CC_KEYS
    assert [k for k in CC_KEYS if k not in DOCUMENTED] == []
    assert [k for k in DOCUMENTED if k not in TOP_LEVEL] == []


def test_doctor_json_names_every_key_applied_or_unsupported_with_a_reason(
        project: Path, home: Path) -> None:
    write(home / ".claude" / "settings.json",
          {key: TYPED.get(key, True) for key in CC_KEYS})
    proc = run_cli(["doctor", "--json"], project)
    assert proc.returncode == 0, proc.stderr
    rows = {e["name"]: e for e in json.loads(proc.stdout)["entries"] if e["kind"] == "setting"}
    assert sorted(set(CC_KEYS) - set(rows)) == []
    unsupported = [rows[k] for k in CC_KEYS if rows[k]["status"] == "unsupported"]
    assert len(unsupported) > 50
    assert all(r["reason"].startswith(("not supported: ", "not yet")) and len(r["reason"]) > 30
               for r in unsupported), [r for r in unsupported if len(r["reason"]) <= 30]
    assert "typo" not in json.dumps(unsupported)
    assert "API key" in rows["forceLoginMethod"]["reason"]
    assert rows["editorMode"]["status"] == "loaded" and "vim" in rows["editorMode"]["reason"]
    write(home / ".claude" / "settings.json", {"editorMode": "vim"})
    again = json.loads(run_cli(["doctor", "--json"], project).stdout)["entries"]
    [mode] = [e for e in again if e["name"] == "editorMode"]
    assert mode["reason"].startswith("set to 'vim': ")
    for key in ("respectGitignore", "availableModels", "theme", "verbose", "autoCompactEnabled",
                "allowedMcpServers", "language", "includeGitInstructions"):
        assert rows[key]["status"] == "loaded", rows[key]


def glob_and_grep() -> list[dict[str, Any]]:
    return [{"content": [
        {"type": "tool_use", "id": "toolu_g1", "name": "Glob", "input": {"pattern": "*.log"}},
        {"type": "tool_use", "id": "toolu_g2", "name": "Grep",
         "input": {"pattern": "secret-word", "output_mode": "files_with_matches"}}]}, TEXT]


@pytest.mark.parametrize("respect", [True, False])
def test_respect_gitignore_decides_what_glob_and_grep_find(project: Path, api: Any,
                                                           respect: bool) -> None:
    (project / ".git").mkdir()
    (project / ".gitignore").write_text("ignored.log\n")
    (project / "ignored.log").write_text("secret-word\n")
    (project / "kept.log").write_text("secret-word\n")
    write(project / ".claude" / "settings.local.json", {"respectGitignore": respect})
    server = api(glob_and_grep())
    proc = run_cli(["-p", "find"], project)
    assert proc.returncode == 0, proc.stderr
    results = {b["tool_use_id"]: json.dumps(b["content"])
               for b in server.requests[1]["messages"][-1]["content"]}
    for found in results.values():
        assert "kept.log" in found
        assert ("ignored.log" in found) is (not respect)


async def test_auto_compact_enabled_false_never_compacts(project: Path, api: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    big = {"content": [{"type": "text", "text": "ok"}], "usage": {"input_tokens": 30_000}}
    write(project / ".claude" / "settings.local.json",
          {"autoCompactThreshold": 0.02, "autoCompactEnabled": False})
    api([big, TEXT, {"content": ["SUMMARY"]}, TEXT])
    session = session_for(project, model="claude-sonnet-5-5")
    await run_prompt(session, "one")
    assert not any(isinstance(e, Compaction) for e in await run_prompt(session, "two"))
    monkeypatch.setenv("DISABLE_AUTO_COMPACT", "1")  # Claude Code's variable, same effect
    write(project / ".claude" / "settings.local.json", {"autoCompactThreshold": 0.02})
    assert session_for(project).compact_threshold is None


async def test_auto_compact_window_sets_the_threshold(project: Path, api: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    write(project / ".claude" / "settings.local.json", {"autoCompactWindow": 40_000})
    big = {"content": [{"type": "text", "text": "ok"}], "usage": {"input_tokens": 35_000}}
    api([big, {"content": ["SUMMARY"]}, TEXT])
    session = session_for(project, model="claude-sonnet-5-5")
    await run_prompt(session, "one")  # 35k of a 40k window: past 85 %
    events = await run_prompt(session, "two")
    assert any(isinstance(e, Compaction) and e.trigger == "auto" for e in events)
    monkeypatch.setenv("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "100000")
    monkeypatch.setenv("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", "50")
    assert session_for(project).compact_threshold == 50_000


def test_available_models_sets_a_restricted_model_aside(project: Path, home: Path,
                                                        api: Any) -> None:
    write(home / ".claude" / "settings.json", {"availableModels": ["haiku", "claude-opus-4"]})
    server = api([TEXT, TEXT, TEXT])
    denied = run_cli(["-p", "hi", "--model", "sonnet"], project)
    assert denied.returncode == 0, denied.stderr
    assert 'Model "sonnet" is restricted by your organization\'s settings.' in denied.stderr
    allowed = run_cli(["-p", "hi", "--model", "haiku"], project)
    family = run_cli(["-p", "hi", "--model", "claude-opus-4-5"], project)  # a version prefix
    assert "restricted" not in allowed.stderr + family.stderr
    assert [r["model"] for r in server.requests] == [
        DEFAULT_MODEL, "claude-haiku-5-5", "claude-opus-4-5"]


def test_available_models_match_exact_stops_an_id_allowing_later_versions(
        project: Path, home: Path, api: Any, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`availableModelsMatch: "exact"` (managed settings): `claude-opus-4` allows Opus 4
    (dated too) but no longer Opus 4.5, a family alias still allows its family, and the
    default is a listed model. In the user's settings it is ignored, as Claude Code ignores
    it there: the same list allows Opus 4.5."""
    listed = {"availableModels": ["claude-opus-4", "haiku", "best"]}
    write(home / ".claude" / "settings.json", {**listed, "availableModelsMatch": "exact"})
    server = api([TEXT] * 6)
    ignored = run_cli(["-p", "hi", "--model", "claude-opus-4-5"], project)
    managed = write(tmp_path / "managed.json", {**listed, "availableModelsMatch": "exact"})
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(managed))
    later = run_cli(["-p", "hi", "--model", "claude-opus-4-5"], project)
    dated = run_cli(["-p", "hi", "--model", "claude-opus-4-20250514"], project)
    family = run_cli(["-p", "hi", "--model", "claude-haiku-4-5"], project)
    default = run_cli(["-p", "hi"], project)
    assert all(p.returncode == 0 for p in (ignored, later, dated, family, default))
    assert "restricted" not in ignored.stderr + dated.stderr + family.stderr
    assert 'Model "claude-opus-4-5" is restricted by your organization\'s settings.' \
        in later.stderr
    assert [r["model"] for r in server.requests] == [
        "claude-opus-4-5", "claude-opus-4", "claude-opus-4-20250514", "claude-haiku-4-5",
        "claude-opus-4"]


async def test_available_models_restricts_slash_model(project: Path, home: Path,
                                                      api: Any) -> None:
    write(home / ".claude" / "settings.json", {"availableModels": ["haiku"]})
    api([])
    session = session_for(project, model="haiku")
    events = await run_op(session, SetModel("opus"))
    assert any(isinstance(e, Notice) and "restricted" in e.text for e in events)
    assert session.model == "claude-haiku-5-5"
    events = await run_op(session, SetModel("claude-haiku-4-5"))
    assert any(isinstance(e, ModelChanged) for e in events)
    assert session.model == "claude-haiku-4-5"


def test_model_overrides_change_the_id_sent(project: Path, home: Path, api: Any) -> None:
    write(home / ".claude" / "settings.json",
          {"modelOverrides": {"claude-opus-5-5": "arn:aws:bedrock:opus-profile"}})
    server = api([TEXT])
    assert run_cli(["-p", "hi", "--model", "opus"], project).returncode == 0
    assert server.requests[0]["model"] == "arn:aws:bedrock:opus-profile"


def test_fallback_model_setting_takes_over_an_overloaded_model(project: Path, home: Path,
                                                               api: Any) -> None:
    write(home / ".claude" / "settings.json", {"fallbackModel": ["haiku"]})
    busy = {"fault": {"status": 529}}
    server = api([busy, busy, busy, TEXT])
    proc = run_cli(["-p", "hi", "--model", "sonnet"], project)
    assert proc.returncode == 0, proc.stderr
    assert [r["model"] for r in server.requests] == ["claude-sonnet-5-5"] * 3 + [
        "claude-haiku-5-5"]


@pytest.mark.parametrize("verbose", [True, False])
def test_verbose_setting_shows_hook_runs_in_print_mode(project: Path, home: Path, api: Any,
                                                       verbose: bool) -> None:
    write(home / ".claude" / "settings.json", {"verbose": verbose, "hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}]}})
    api([TEXT])
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 0, proc.stderr
    assert ("UserPromptSubmit hook: exit 0" in proc.stderr) is verbose


def mcp_config(tmp_path: Path) -> str:
    return json.dumps({"mcpServers": {
        "demo": {"command": sys.executable, "args": [str(DEMO)]},
        "other": {"command": sys.executable, "args": [str(DEMO), "other"]}}})


def init_servers(project: Path, tmp_path: Path) -> list[str]:
    proc = run_cli(["-p", "hi", "--output-format", "stream-json", "--verbose",
                    "--mcp-config", mcp_config(tmp_path)], project, timeout=90)
    assert proc.returncode == 0, proc.stderr
    return sorted(s["name"] for s in ndjson(proc.stdout)[0]["mcp_servers"])


def test_managed_mcp_server_lists_decide_what_starts(project: Path, home: Path, api: Any,
                                                     tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    managed = tmp_path / "managed.json"
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(managed))
    api([TEXT, TEXT, TEXT])
    assert init_servers(project, tmp_path) == ["demo", "other"]
    write(managed, {"deniedMcpServers": [{"serverCommand": [sys.executable, str(DEMO)]}]})
    assert init_servers(project, tmp_path) == ["other"]
    write(managed, {"allowedMcpServers": [{"serverName": "demo"}],
                    "allowManagedMcpServersOnly": True})
    write(home / ".claude" / "settings.json", {"allowedMcpServers": [{"serverName": "other"}]})
    assert init_servers(project, tmp_path) == ["demo"]  # only the managed allow list counts


def test_strict_known_marketplaces_limits_what_can_be_added(project: Path, home: Path,
                                                            tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    from tests.e2e.test_plugin_cli import make_marketplace

    allowed = make_marketplace(tmp_path / "ok", name="okmkt")
    other = make_marketplace(tmp_path / "other", name="othermkt")
    managed = write(tmp_path / "managed.json", {"strictKnownMarketplaces": [
        {"source": "directory", "path": str(allowed.resolve())}]})
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(managed))
    refused = run_cli(["plugin", "marketplace", "add", str(other)], project)
    assert refused.returncode == 1 and "strictKnownMarketplaces" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert run_cli(["plugin", "marketplace", "add", str(allowed)], project).returncode == 0
    listed = run_cli(["plugin", "marketplace", "list"], project).stdout
    assert "okmkt" in listed and "othermkt" not in listed


@pytest.mark.parametrize("enabled", [True, False])
async def test_file_checkpointing_enabled_false_keeps_no_file_copies(
        project: Path, api: Any, enabled: bool) -> None:
    from claude_harness.protocol.events import RewindPoints, Rewound
    from claude_harness.protocol.ops import ListRewindPoints, Rewind

    write(project / ".claude" / "settings.local.json", {"fileCheckpointingEnabled": enabled})
    target = project / "notes.txt"  # a new file: the rewind removes it again
    api([{"content": [{"type": "tool_use", "id": "toolu_w", "name": "Write", "input": {
        "file_path": str(target), "content": "after\n"}}]}, TEXT])
    session = session_for(project, allowed_tools=["Write"])
    await run_prompt(session, "change it")
    assert target.read_text() == "after\n"
    listed = next(e for e in await run_op(session, ListRewindPoints())
                  if isinstance(e, RewindPoints))
    [point] = listed.points  # the prompt is still a point to go back to
    assert (list(point.files) != []) is enabled
    events = await run_op(session, Rewind(point.prompt_id, restore_conversation=False))
    assert any(isinstance(e, Rewound) for e in events) or not enabled
    assert target.exists() is not enabled


@pytest.mark.parametrize("setting", ["docs/plans", None])
async def test_an_approved_plan_is_saved_in_plans_directory(project: Path, home: Path,
                                                            api: Any, setting: str | None
                                                            ) -> None:
    from claude_harness.protocol.ops import AnswerPermission

    if setting:
        write(project / ".claude" / "settings.local.json", {"plansDirectory": setting})
    plan = "# Rename the helper\n\n1. rename\n2. test\n"
    server = api([
        {"content": [{"type": "tool_use", "id": "toolu_p1", "name": "EnterPlanMode",
                      "input": {}}]},
        {"content": [{"type": "tool_use", "id": "toolu_p2", "name": "ExitPlanMode",
                      "input": {"plan": plan}}]}, TEXT])
    session, _ = build_session(RunOptions(cwd=project, interactive=True), trusted=True)
    await run_prompt(session, "plan it",
                     answer=lambda r: AnswerPermission(r.request_id, "yes"))
    folder = project / "docs" / "plans" if setting else home / ".claude" / "plans"
    [saved] = list(folder.glob("rename-the-helper-*.md"))
    assert saved.read_text() == plan
    told = json.dumps(server.requests[2]["messages"][-1]["content"])
    assert str(saved) in told


def test_managed_settings_drop_ins_apply_over_the_managed_file(
        project: Path, home: Path, api: Any, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    policy = tmp_path / "policy"
    managed = write(policy / "managed-settings.json", {"availableModels": ["sonnet"]})
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(managed))
    write(policy / "managed-settings.d" / "10-models.json", {"availableModels": ["opus"]})
    write(policy / "managed-settings.d" / "20-models.json", {"availableModels": ["haiku"]})
    write(policy / "managed-settings.d" / ".hidden.json", {"availableModels": ["opus"]})
    server = api([TEXT, TEXT])
    assert run_cli(["-p", "hi", "--model", "haiku"], project).returncode == 0
    refused = run_cli(["-p", "hi", "--model", "opus"], project)
    assert 'Model "opus" is restricted' in refused.stderr  # 20- wins over 10- and the file
    assert [r["model"] for r in server.requests] == ["claude-haiku-5-5", DEFAULT_MODEL]


def test_at_path_completion_follows_respect_gitignore(project: Path, api: Any) -> None:
    from claude_harness.frontends.plain.completion import PlainCompleter
    from claude_harness.frontends.tui.completion import path_options
    from claude_harness.tools.grep.ignore_files import configure

    (project / ".git").mkdir()
    (project / ".gitignore").write_text("debug.log\nbuild/\n")
    (project / ".ignore").write_text("secret.txt\n")
    for name in ("debug.log", "data.txt", "secret.txt"):
        (project / name).write_text("x\n")
    (project / "build").mkdir()
    (project / "docs").mkdir()
    (project / "docs" / "guide.md").write_text("x\n")  # the @ search lists folders of files

    def plain(prefix: str) -> list[str]:
        from prompt_toolkit.document import Document

        completer = PlainCompleter(cwd=project, commands={})
        return sorted(c.text for c in completer.get_completions(
            Document(f"@{prefix}"), None))  # type: ignore[arg-type]

    api([])
    try:
        build_session(RunOptions(cwd=project, print_mode=True), trusted=True)
        assert path_options("d", project) == ["data.txt", "docs/"]
        assert path_options("b", project) == [] and path_options("se", project) == []
        found = plain("d")  # the REPL's @ search is fuzzy: the ignored name is what counts
        assert "data.txt" in found and "docs/" in found and "debug.log" not in found
        write(project / ".claude" / "settings.local.json", {"respectGitignore": False})
        build_session(RunOptions(cwd=project, print_mode=True), trusted=True)
        assert path_options("d", project) == ["data.txt", "debug.log", "docs/"]
        assert path_options("b", project) == ["build/"]
        assert path_options("se", project) == []  # .ignore always counts
        found = plain("d")
        assert "data.txt" in found and "docs/" in found and "debug.log" in found
        assert "secret.txt" not in plain("se")  # .ignore always counts
    finally:
        configure(respect_gitignore=True)


def test_disable_skill_shell_execution_sends_the_placeholder_not_the_output(
        project: Path, home: Path, api: Any) -> None:
    """As Claude Code 2.1.332 sends it (observed with the same command and setting): the span
    becomes `[shell command execution disabled by policy]` and the command never runs."""
    marker = project / "marker"
    write(project / ".claude" / "commands" / "mark.md", "x").write_text(
        "---\ndescription: m\nallowed-tools: Bash(touch:*)\n---\n"
        f"Before !`touch {marker} && echo RAN` after\n")
    write(home / ".claude" / "settings.json", {"disableSkillShellExecution": True})
    server = api([TEXT, TEXT])
    proc = run_cli(["-p", "/mark", "--trust-workspace"], project)
    assert proc.returncode == 0, proc.stderr

    def body(request: dict[str, Any]) -> list[str]:
        return [b["text"] for b in request["messages"][0]["content"] if "Before" in b["text"]]

    assert body(server.requests[0]) == [
        "Before [shell command execution disabled by policy] after\n"]
    assert not marker.exists()
    write(home / ".claude" / "settings.json", {})
    assert run_cli(["-p", "/mark", "--trust-workspace"], project).returncode == 0
    assert body(server.requests[1]) == ["Before RAN after\n"]
    assert marker.exists()  # without the setting the same command runs


async def test_denied_models_refuse_the_flag_the_setting_and_slash_model(
        project: Path, home: Path, api: Any, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    managed = write(tmp_path / "managed.json", {"deniedModels": ["opus", "claude-haiku-4-5"]})
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(managed))
    write(home / ".claude" / "settings.json", {  # a user's deniedModels counts for nothing
        "model": "opus", "availableModels": ["opus", "haiku", "sonnet"],
        "deniedModels": ["sonnet"]})
    server = api([TEXT, TEXT, TEXT])
    setting = run_cli(["-p", "hi"], project)
    assert setting.returncode == 0, setting.stderr
    assert 'Model "opus" is restricted by your organization\'s settings.' in setting.stderr
    dated = run_cli(["-p", "hi", "--model", "claude-haiku-4-5-20251001"], project)
    assert 'Model "claude-haiku-4-5-20251001" is restricted' in dated.stderr  # any spelling
    newer = run_cli(["-p", "hi", "--model", "claude-haiku-5-5"], project)
    assert "restricted" not in newer.stderr
    assert [r["model"] for r in server.requests] == [
        DEFAULT_MODEL, DEFAULT_MODEL, "claude-haiku-5-5"]
    session = session_for(project, model="haiku")
    events = await run_op(session, SetModel("claude-opus-4-5"))
    assert any(isinstance(e, Notice) and "(deniedModels)" in e.text for e in events)
    assert session.model == "claude-haiku-5-5"


def test_enforce_available_models_constrains_the_default(
        project: Path, api: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    managed = write(tmp_path / "managed.json", {"availableModels": ["haiku"],
                                                "enforceAvailableModels": True})
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(managed))
    server = api([TEXT])
    proc = run_cli(["-p", "hi"], project)
    assert proc.returncode == 0, proc.stderr
    assert [r["model"] for r in server.requests] == ["claude-haiku-5-5"]
    write(managed, {"availableModels": ["haiku"], "enforceAvailableModels": True,
                    "deniedModels": ["haiku"]})
    refused = run_cli(["-p", "hi"], project)
    assert refused.returncode != 0 and "No model is left to start with" in refused.stderr
    assert len(server.requests) == 1  # nothing was sent


def test_blocked_marketplaces_refuse_add_and_install(project: Path, home: Path,
                                                     tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A blocked source is refused before anything is fetched (a github `owner/*` entry
    blocks the owner's every repository), and a marketplace added before the policy came
    installs nothing from then on."""
    from tests.e2e.test_plugin_cli import make_marketplace

    market = make_marketplace(tmp_path / "mkt", name="blockme")
    managed = tmp_path / "managed.json"
    monkeypatch.setenv("CLAUDE_HARNESS_MANAGED_SETTINGS", str(managed))
    write(managed, {})
    assert run_cli(["plugin", "marketplace", "add", str(market)], project).returncode == 0
    write(managed, {"blockedMarketplaces": [
        {"source": "directory", "path": str(market)}, {"source": "github", "repo": "evil/*"}]})
    install = run_cli(["plugin", "install", "hello@blockme"], project)
    assert install.returncode == 1 and "blockedMarketplaces" in install.stderr
    assert not (home / ".claude" / "plugins" / "cache" / "blockme").exists()
    run_cli(["plugin", "marketplace", "remove", "blockme"], project)
    again = run_cli(["plugin", "marketplace", "add", str(market)], project)
    assert again.returncode == 1 and "blocked by your organization's blockedMarketplaces" \
        in again.stderr and len(again.stderr.strip().splitlines()) == 1
    github = run_cli(["plugin", "marketplace", "add", "evil/tools"], project)
    assert github.returncode == 1 and "blockedMarketplaces" in github.stderr
    assert "blockme" not in run_cli(["plugin", "marketplace", "list"], project).stdout


def test_default_shell_bash_holds_and_powershell_is_named_not_supported(
        project: Path, home: Path, api: Any) -> None:
    """Claude Code 2.1.332: `defaultShell` ("bash" | "powershell", default bash) is the shell
    of the input box's `!` commands. `bash` is what runs here; `powershell` cannot be, and
    /doctor says so with the reason."""
    def row() -> dict[str, Any]:
        proc = run_cli(["doctor", "--json"], project)
        assert proc.returncode == 0, proc.stderr
        [entry] = [e for e in json.loads(proc.stdout)["entries"] if e["name"] == "defaultShell"]
        return entry

    write(home / ".claude" / "settings.json", {"defaultShell": "bash"})
    assert row()["status"] == "loaded"
    write(home / ".claude" / "settings.json", {"defaultShell": "powershell"})
    entry = row()
    assert entry["status"] == "unsupported"
    assert entry["reason"].startswith("set to 'powershell': not supported: ")
    assert "/bin/bash" in entry["reason"] and "PowerShell" in entry["reason"]
    server = api([TEXT])  # /doctor in -p: the same words, answered here
    text = run_cli(["-p", "/doctor"], project)
    assert text.returncode == 0, text.stderr
    assert "defaultShell" in text.stdout and "no PowerShell path" in text.stdout
    assert server.requests == []


async def test_an_input_box_command_runs_in_bash_as_default_shell_bash_says(
        project: Path, home: Path, api: Any) -> None:
    write(home / ".claude" / "settings.json", {"defaultShell": "bash"})
    api([])
    session = session_for(project)
    events = await run_op(session, ShellCommand("echo shell=${BASH_VERSION:-none}"))
    [ran] = [e for e in events if isinstance(e, ShellRan)]
    assert ran.returncode == 0 and ran.lines[0].startswith("shell=")
    assert ran.lines[0] != "shell=none"  # bash's own variable: bash ran it
