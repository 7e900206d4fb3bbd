"""Fixtures for the Textual app tests: an isolated home and project, the scripted API server,
and the real app wired to a real Session pointed at that server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.testing.mock_api import MockApiServer


@pytest.fixture
def project(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "app.py").write_text("def greet(name):\n    return 'hello ' + name\n")
    (proj / "README.md").write_text("# demo project\n")
    monkeypatch.chdir(proj)
    return proj


def available_tools(perm: Any) -> tuple[Any, ...]:
    """The built-in tool pool as bootstrap assembles it."""
    from claude_harness.tools.registry import assemble_tool_pool

    return assemble_tool_pool(perm)


def make_engine(server: MockApiServer | None, proj: Path, *, mode: str = "default",
                bypass: bool = False, key: str | None = "test",
                history: list[dict[str, Any]] | None = None, **config: Any) -> Any:
    """A session wired as bootstrap does, pointed at `server`, without reading settings files."""
    from claude_harness.api.client import ApiSettings
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.session.core import Session, SessionConfig

    perm = PermissionContext(mode=mode, cwd=proj, interactive=True,  # type: ignore[arg-type]
                             bypass_available=bypass)
    config = SessionConfig(
        cwd=proj, model="claude-sonnet-5-5", permission=perm, tools=available_tools(perm),
        system_prompt="You are a test assistant.",
        api=ApiSettings(api_key=key, auth_token=None,
                        base_url=server.url if server else "http://127.0.0.1:9",
                        retry_base_delay=0.05, max_retries=1),
        data_dir=proj.parent / "home" / "data", history=list(history or []), **config,
    )
    return Session(config)


@pytest.fixture
def api(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """`server = api(turns)`: a scripted server; env points the SDK at it too."""
    servers: list[MockApiServer] = []

    def start(turns: list[Any], **kw: Any) -> MockApiServer:
        server = MockApiServer({"turns": turns}, **kw)
        servers.append(server)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
        return server

    yield start
    for server in servers:
        server.close()


@pytest.fixture
def make_app(project: Path) -> Any:
    """`app = make_app(server, mode=...)`: the real HarnessApp with a session on `server`."""
    from claude_harness.frontends.tui.app import HarnessApp

    def build(server: MockApiServer | None, **kw: Any) -> HarnessApp:
        theme = kw.pop("theme", None)
        return HarnessApp(cwd=project, session_factory=lambda: make_engine(server, project, **kw),
                          theme=theme, preload_transport=False)

    return build
