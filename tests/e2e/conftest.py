"""Fixtures for end-to-end tests: an isolated home, a project folder, the scripted API server,
and helpers that run the real engine in-process or the real binary as a subprocess."""

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
    (proj / "src" / "app.py").write_text(
        "def greet(name):\n    return 'hello ' + name\n\n\ndef main():\n    print(greet('world'))\n"
    )
    (proj / "src" / "util.py").write_text("def helper():\n    return 42\n")
    (proj / "README.md").write_text("# demo project\n")
    monkeypatch.chdir(proj)
    return proj


@pytest.fixture
def api(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Start a scripted server: `server = api(turns, **kw)` (or a whole script dict, with its
    options); env points the SDK at it."""
    servers: list[MockApiServer] = []

    def start(turns: list[dict[str, Any]] | dict[str, Any], **kw: Any) -> MockApiServer:
        server = MockApiServer(turns if isinstance(turns, dict) else {"turns": turns}, **kw)
        servers.append(server)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", kw.get("api_key") or "test-key")
        return server

    yield start
    for server in servers:
        server.close()
