"""The sandbox's proxy decides on where a request goes: canonical hosts, every IPv4
spelling, the resolved address, and the `Host` header of plain HTTP.

Sandboxed curl goes through the real proxy (bubblewrap, socat) to a server on the host's
loopback that records every request. Names that resolve to loopback come from a private
/etc/hosts: the proxy then runs in a Python process inside bubblewrap with that file mounted
over /etc/hosts (its own mount namespace; the host's file is untouched).
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.conftest import SandboxFactory, needs_bwrap, needs_curl
from tests.sandbox.test_sandboxed_bash import bash

pytestmark = needs_bwrap


class _Recorder(http.server.BaseHTTPRequestHandler):
    server: Any

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        self.server.hits.append((self.path, self.headers.get("Host", "")))
        body = b"reached the host\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def recorder() -> Iterator[Any]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.hits = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


SPELLINGS = ["2130706433", "0x7f.1", "127.1", "0177.0.0.1", "0", "[::ffff:127.0.0.1]"]


@needs_curl
async def test_no_spelling_of_loopback_passes_a_list_that_names_localhost(
        sandbox: SandboxFactory, recorder: Any) -> None:
    runtime, ctx = sandbox(allowed_domains=["localhost"])
    port = recorder.server_address[1]
    for host in SPELLINGS:
        for tunnel in ("", "--proxytunnel "):
            run = await bash(ctx, f"curl -sS --max-time 10 {tunnel}http://{host}:{port}/x")
            assert "reached" not in run.stdout, (host, tunnel)
    assert recorder.hits == []
    assert runtime.proxy_refusals >= 2 * len(SPELLINGS)


@needs_curl
async def test_a_wildcard_never_opens_an_internal_address(sandbox: SandboxFactory,
                                                          recorder: Any) -> None:
    """`*.0.0.1` matches the host `127.0.0.1`; only an entry naming the very host opens it."""
    _, ctx = sandbox(allowed_domains=["*.0.0.1"])
    port = recorder.server_address[1]
    for tunnel in ("", "--proxytunnel "):
        run = await bash(ctx, f"curl -sS --max-time 10 {tunnel}http://127.0.0.1:{port}/x")
        assert "reached" not in run.stdout
    plain = await bash(ctx, f"curl -sS --max-time 10 http://127.0.0.1:{port}/x")
    assert "resolves to an internal address" in plain.stdout
    assert recorder.hits == []
    _, ctx = sandbox(allowed_domains=["127.0.0.1"])
    run = await bash(ctx, f"curl -sS --max-time 10 http://0x7f.1:{port}/x")
    assert run.stdout == "reached the host\n"  # the same address, named on purpose
    assert [h[0] for h in recorder.hits] == ["/x"]


@needs_curl
async def test_the_host_header_must_name_the_target(sandbox: SandboxFactory,
                                                    recorder: Any) -> None:
    _, ctx = sandbox(allowed_domains=["localhost"])
    port = recorder.server_address[1]
    for header in ("Host: internal.example", f"Host: localhost:{port + 1}", "Host: 127.0.0.1"):
        run = await bash(ctx, f"curl -sS --max-time 10 -H '{header}' http://localhost:{port}/x")
        assert "does not name the request's target" in run.stdout, header
    assert recorder.hits == []
    good = await bash(ctx, f"curl -sS --max-time 10 -H 'Host: LOCALHOST:{port}' "
                           f"http://localhost:{port}/ok")
    assert good.stdout == "reached the host\n"
    assert [h[0] for h in recorder.hits] == ["/ok"]


PROXY_PROBE = r"""
import json, socket, sys, tempfile
from pathlib import Path
from claude_harness.sandbox.domains import DomainPolicy
from claude_harness.sandbox.proxy import DomainProxy

allowed, denied, requests = json.loads(sys.argv[1])
sock = Path(tempfile.mkdtemp()) / "proxy.sock"
proxy = DomainProxy(DomainPolicy(tuple(allowed), tuple(denied)), sock)
proxy.start()
answers = []
for raw in requests:
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(10)
    client.connect(str(sock))
    client.sendall(raw.encode("utf-8"))
    data = b""
    while chunk := client.recv(65536):
        data += chunk
        if raw.startswith("CONNECT") and b"\r\n\r\n" in data:
            break
    client.close()
    answers.append(data.decode("latin-1"))
proxy.close()
print(json.dumps(answers))
"""


def probe(tmp_path: Path, names: list[str], allowed: list[str], requests: list[str],
          denied: tuple[str, ...] = ()) -> list[str]:
    """The real proxy in a process where `names` resolve to 127.0.0.1; its raw answers."""
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1 localhost\n" + "".join(f"127.0.0.1 {n}\n" for n in names))
    root = Path(__file__).resolve().parents[2]
    argv = ["bwrap", "--bind", "/", "/", "--ro-bind", str(hosts), "/etc/hosts", "--dev", "/dev",
            "--proc", "/proc", "--", sys.executable, "-c", PROXY_PROBE,
            json.dumps([allowed, list(denied), requests])]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_names_that_resolve_to_loopback_are_refused_unless_named(tmp_path: Path,
                                                                 recorder: Any) -> None:
    port = recorder.server_address[1]
    names = ["api.example.test", "cdn.example.test"]
    requests = [f"CONNECT api.example.test:{port} HTTP/1.1\r\nHost: x\r\n\r\n",
                f"GET http://cdn.example.test:{port}/a HTTP/1.1\r\n"
                f"Host: cdn.example.test:{port}\r\n\r\n",
                f"GET http://CDN\u3002example\uff0etest.:{port}/b HTTP/1.1\r\n\r\n"]
    answers = probe(tmp_path, names, ["*.example.test"], requests)
    assert all(a.startswith("HTTP/1.1 403") and "internal address" in a for a in answers), answers
    assert recorder.hits == []
    named = probe(tmp_path, names, ["cdn.example.test"],
                  [f"GET http://cdn.example.test:{port}/c HTTP/1.1\r\n"
                   f"Host: cdn.example.test:{port}\r\n\r\n"])
    assert named[0].startswith("HTTP/1.0 200") and "reached the host" in named[0]
    assert recorder.hits == [("/c", f"cdn.example.test:{port}")]


def test_dot_look_alikes_do_not_escape_a_denied_domain(tmp_path: Path, recorder: Any) -> None:
    port = recorder.server_address[1]
    spellings = ["evil\u3002test", "EVIL\uff0etest.", "evil\uff61test", "\uff45vil.test"]
    requests = [f"GET http://{h}:{port}/x HTTP/1.1\r\n\r\n" for h in spellings]
    reached = probe(tmp_path, ["evil.test"], ["evil.test"], requests)
    assert all(a.startswith("HTTP/1.0 200") for a in reached), reached  # the control
    assert len(recorder.hits) == len(spellings)
    recorder.hits.clear()
    denied = probe(tmp_path, ["evil.test"], ["*.test", "evil.test"], requests,
                   denied=("evil.test",))
    assert all(a.startswith("HTTP/1.1 403") and "deniedDomains" in a for a in denied), denied
    assert recorder.hits == []
