"""MCP configuration: sources and precedence, `${VAR}` expansion, `--mcp-config` forms, the
one-time approval of project servers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from claude_harness.mcp import McpManager
from claude_harness.mcp.approvals import (
    approvals_path,
    get_approval,
    pending_approvals,
    record_approval,
    resolve_approvals,
)
from claude_harness.mcp.config import expand_vars, load_mcp_configs, parse_server
from tests.mcp.support import SERVER


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    monkeypatch.setenv("CLAUDE_HARNESS_DATA_DIR", str(home / "data"))
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_expand_vars_plain_default_and_missing() -> None:
    env = {"A": "1", "EMPTY": ""}
    missing: list[str] = []
    text = expand_vars("${A}-${B:-two}-${EMPTY:-dflt}-${EMPTY}-${C}", env, missing)
    assert text == "1-two-dflt--${C}"
    assert missing == ["C"]


def test_expansion_applies_to_every_field() -> None:
    raw = {"command": "${BIN:-/usr/bin/node}", "args": ["--root", "${ROOT}"],
           "env": {"KEY": "${TOKEN}"}}
    cfg = parse_server("s", raw, scope="project", source="x", env={"ROOT": "/r", "TOKEN": "t"})
    assert cfg.error is None
    assert (cfg.command, cfg.args, dict(cfg.env)) == ("/usr/bin/node", ("--root", "/r"),
                                                     {"KEY": "t"})
    web = parse_server("w", {"type": "http", "url": "https://${HOST:-example.com}/mcp",
                             "headers": {"X-Key": "${KEY:-k}"}}, scope="user", source="x", env={})
    assert (web.transport, web.url, dict(web.headers)) == ("http", "https://example.com/mcp",
                                                           {"X-Key": "k"})


def test_unset_variable_without_default_disables_only_that_server() -> None:
    cfg = parse_server("s", {"command": "run", "args": ["${NOPE_1}", "${NOPE_2}"]},
                       scope="cli", source="f.json", env={})
    assert cfg.error and "NOPE_1, NOPE_2" in cfg.error and "f.json" in cfg.error


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"type": "ws", "url": "ws://x"}, "type 'ws' is not supported"),
        ({"type": "stdio"}, "needs a `command`"),
        ({"type": "http"}, "needs a `url`"),
        ({"command": "x", "args": "not-a-list"}, "`args` must be a list"),
        ("just a string", "not a JSON object"),
    ],
)
def test_bad_entries_are_reported(raw: object, message: str) -> None:
    cfg = parse_server("s", raw, scope="cli", source="c", env={})
    assert cfg.error and message in cfg.error


def test_url_without_type_means_http() -> None:
    cfg = parse_server("s", {"url": "http://127.0.0.1:1/mcp"}, scope="cli", source="c", env={})
    assert cfg.transport == "http" and cfg.error is None


def test_sources_and_precedence(home: Path, project: Path) -> None:
    write(home / ".claude" / ".claude.json", {
        "mcpServers": {"shared": {"command": "user-cmd"}, "mine": {"command": "user-only"}},
        "projects": {str(project): {"mcpServers": {"local1": {"command": "local-cmd"},
                                                    "shared": {"command": "local-cmd"}}}},
    })
    write(project / ".mcp.json", {"mcpServers": {"shared": {"command": "project-cmd"},
                                                 "team": {"command": "team-cmd"}}})
    cli_file = write(project / "extra.json", {"mcpServers": {"team": {"command": "file-cmd"}}})
    inline = json.dumps({"mcpServers": {"inline": {"command": "inline-cmd"}}})

    loaded = load_mcp_configs(project, cli_values=[str(cli_file), inline])
    got = {s.name: (s.command, s.scope) for s in loaded.servers}
    assert got == {
        "inline": ("inline-cmd", "cli"),
        "local1": ("local-cmd", "local"),
        "mine": ("user-only", "user"),
        "shared": ("local-cmd", "local"),
        "team": ("file-cmd", "cli"),
    }
    assert [s.name for s in loaded.servers] == sorted(got)
    assert loaded.warnings == []


def test_project_file_found_in_a_parent_folder(home: Path, project: Path) -> None:
    write(project / ".mcp.json", {"mcpServers": {"team": {"command": "c"}}})
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)
    loaded = load_mcp_configs(sub)
    assert [(s.name, s.scope, s.source) for s in loaded.servers] == [
        ("team", "project", str(project / ".mcp.json"))]


def test_broken_files_and_values_become_warnings(home: Path, project: Path) -> None:
    (project / ".mcp.json").write_text("{not json", encoding="utf-8")
    loaded = load_mcp_configs(project, cli_values=["{bad", str(project / "missing.json")])
    assert loaded.servers == []
    text = "\n".join(loaded.warnings)
    assert ".mcp.json" in text and "invalid JSON" in text and "file not found" in text


def test_approval_store_round_trip(home: Path, project: Path) -> None:
    assert get_approval(project, "team") is None
    record_approval(project, "team", True)
    record_approval(project, "evil", False)
    assert get_approval(project, "team") is True
    assert get_approval(project, "evil") is False
    assert get_approval(project / "other", "team") is None
    stored = json.loads(approvals_path().read_text())
    assert stored == {str(project.resolve()): {"evil": False, "team": True}}
    assert approvals_path() == home / "data" / "mcp_approvals.json"


async def test_only_project_servers_need_approval_and_answers_stick(
    home: Path, project: Path
) -> None:
    write(project / ".mcp.json", {"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}})
    write(home / ".claude" / ".claude.json", {"mcpServers": {"u": {"command": "z"}}})
    servers = load_mcp_configs(project).servers
    assert [s.name for s in pending_approvals(servers, project)] == ["a", "b"]
    asked: list[str] = []

    async def ask(server: object) -> bool:
        asked.append(server.name)  # type: ignore[attr-defined]
        return server.name == "a"  # type: ignore[attr-defined]

    assert await resolve_approvals(servers, project, ask) == {"a": True, "b": False}
    assert asked == ["a", "b"]
    assert pending_approvals(servers, project) == []
    assert await resolve_approvals(servers, project, ask) == {}  # asked once only

    manager = McpManager(servers, cwd=project)
    assert {s.name: s.state for s in manager.status()} == {
        "a": "pending", "b": "disabled", "u": "pending"}


async def test_unapproved_project_server_waits_then_starts_when_approved(
    home: Path, project: Path
) -> None:
    write(project / ".mcp.json", {"mcpServers": {"team": {
        "command": sys.executable, "args": [SERVER, "team"]}}})
    manager = McpManager.from_options(project, [], startup_timeout=30)
    manager.start()
    try:
        assert manager.status()[0].state == "needs-approval"
        assert await manager.wait_ready(0.5)  # nothing is starting
        assert manager.tools() == ()
        record_approval(project, "team", True)
        manager.approve("team")
        assert await manager.wait_ready(40)
        assert manager.status()[0].state == "connected"
        assert "mcp__team__echo" in [t.name for t in manager.tools()]
    finally:
        await manager.close()


async def test_approve_project_starts_servers_never_asked_about_but_not_rejected_ones(
    home: Path, project: Path
) -> None:
    write(project / ".mcp.json", {"mcpServers": {"new": {"command": "x"}, "no": {"command": "y"}}})
    record_approval(project, "no", False)
    manager = McpManager.from_options(project, [], approve_project=True)
    assert {s.name: s.state for s in manager.status()} == {"new": "pending", "no": "disabled"}


async def test_settings_lists_approve_or_disable_project_servers(
    home: Path, project: Path
) -> None:
    from claude_harness.mcp import ProjectPolicy

    write(project / ".mcp.json", {"mcpServers": {n: {"command": "x"}
                                                 for n in ("on", "off", "asked-no", "other")}})
    record_approval(project, "asked-no", False)
    settings = {"enabledMcpjsonServers": ["on", "asked-no"], "disabledMcpjsonServers": ["off"]}
    policy = ProjectPolicy.from_values(settings.get)
    manager = McpManager.from_options(project, [], policy=policy)
    assert {s.name: s.state for s in manager.status()} == {
        "asked-no": "disabled", "off": "disabled", "on": "pending", "other": "needs-approval"}
    assert [c.name for c in manager.pending_approvals()] == ["other"]

    everything = ProjectPolicy.from_values({"enableAllProjectMcpServers": True}.get)
    states = {s.name: s.state for s in McpManager.from_options(project, [], policy=everything)
              .status()}
    assert states == {"asked-no": "disabled", "off": "pending", "on": "pending",
                      "other": "pending"}
