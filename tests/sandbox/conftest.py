"""A project, a sandbox runtime made current for the test, and a local HTTP server.

Everything is real: bubblewrap runs the commands, the proxy and socat carry their traffic, and
the server listens on the host's loopback, outside the sandbox's network namespace.
"""

from __future__ import annotations

import http.server
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.sandbox.availability import check_availability
from claude_harness.sandbox.current import configure
from claude_harness.sandbox.runtime import SandboxRuntime
from claude_harness.sandbox.settings import SandboxSettings
from tests.tools.conftest import make_ctx

needs_bwrap = pytest.mark.skipif(not check_availability().available,
                                 reason=f"no sandbox here: {check_availability().reason}")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "app.py").write_text("print('hi')\n")
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    (proj / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    (proj / ".claude").mkdir()
    (proj / ".claude" / "settings.json").write_text("{}\n")
    (tmp_path / "outside").mkdir()
    return proj


SandboxFactory = Callable[..., tuple[SandboxRuntime, ToolUseContext]]


@pytest.fixture
def sandbox(tmp_path: Path, project: Path) -> Iterator[SandboxFactory]:
    """`runtime, ctx = sandbox(**settings)`: a current runtime and a tool context in the project."""
    made: list[SandboxRuntime] = []

    def make(**fields: Any) -> tuple[SandboxRuntime, ToolUseContext]:
        temp = tmp_path / "sandbox-tmp"
        temp.mkdir(exist_ok=True)
        runtime = SandboxRuntime(SandboxSettings(enabled=True, **fields), temp)
        configure(runtime)
        made.append(runtime)
        return runtime, make_ctx(project)

    yield make
    configure(None)
    for runtime in made:
        runtime.close()


class _Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        body = b"hello from the host\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def web_server() -> Iterator[int]:
    """An HTTP server on the host's 127.0.0.1; yields its port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


needs_curl = pytest.mark.skipif(shutil.which("curl") is None, reason="curl not installed")
