"""A deferred built-in the model calls by name, without ToolSearch first, runs (as a deferred MCP
tool does): WebFetch fetches the local page and the model gets its answer, not "WebFetch is a
deferred tool whose definition is not loaded yet". In-process, the real SDK to the scripted
server, a real HTTP page on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.events import DeferredToolsLoaded, ToolResultEvent
from tests.e2e.support import make_engine, run_prompt

PAGE = b"<html><body><h1>Widget 3.2</h1><p>The answer is 42.</p></body></html>"


class _Page(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)


@pytest.fixture
def page() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/notes.html"
    httpd.shutdown()
    httpd.server_close()


async def test_webfetch_called_without_toolsearch_gets_the_page(project: Path, api: Any,
                                                               page: str) -> None:
    server = api([
        {"content": [{"type": "tool_use", "name": "WebFetch",
                      "input": {"url": page, "prompt": "What is the answer?"}}]},
        {"content": ["The page says the answer is 42."]},  # the small model's side request
        {"content": ["It is 42."]},
    ])
    engine = make_engine(server, project, allow=("WebFetch(domain:127.0.0.1)",))
    events = await run_prompt(engine, "look it up")
    offered = {t["name"]: t for t in server.requests[0]["tools"]}
    assert offered["WebFetch"].get("defer_loading") is True  # it was deferred, not loaded
    (result,) = [e for e in events if isinstance(e, ToolResultEvent)]
    assert not result.is_error, result.content
    assert result.content == "The page says the answer is 42."
    side = json.dumps(server.requests[1])
    assert "Widget 3.2" in side and "What is the answer?" in side
    assert "not loaded" not in json.dumps(server.requests[2]["messages"])
    loaded = [e for e in events if isinstance(e, DeferredToolsLoaded)]
    assert loaded and "WebFetch" in loaded[-1].names
