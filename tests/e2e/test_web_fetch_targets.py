"""WebFetch is decided on where the request goes, through the real binary: a local
HTTP server started here records every request it gets, the scripted server plays the model,
and each address spelling of the local machine must not reach it.

Names that resolve to the local machine come from a private /etc/hosts: the binary then runs
inside bubblewrap with that file mounted over /etc/hosts (its own mount namespace, the host's
file untouched), sharing the network so it can reach the scripted server and the site.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import ndjson, run_cli

OPUS = ["--model", "claude-opus-5-5"]
LOOPBACK_SPELLINGS = ["2130706433", "0x7f.1", "127.1", "0177.0.0.1", "0x7f000001", "127.0.0.1",
                      "0", "localhost", "LocalHost.", "[::ffff:127.0.0.1]", "[::1]", "[::]"]
DOT_LOOKALIKES = ["evil\u3002test", "EVIL\uff0etest.", "evil\uff61test", "\uff45\uff56il.test"]


class _Recorder(BaseHTTPRequestHandler):
    server: Any

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.server.hits.append((self.path, self.headers.get("Host", "")))
        if self.path.startswith("/go-secret"):
            self.send_response(302)
            self.send_header("location", "/secret")
            self.send_header("content-length", "0")
            self.end_headers()
            return
        body = b"the local page: SECRET-42"
        self.send_response(200)
        self.send_header("content-type", "text/plain")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def site() -> Iterator[Any]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    httpd.daemon_threads = True
    httpd.hits = []
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def load() -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "ToolSearch",
                         "input": {"query": "select:WebFetch"}}]}


def fetches(urls: list[str]) -> list[dict[str, Any]]:
    return [{"content": [{"type": "tool_use", "name": "WebFetch",
                          "input": {"url": url, "prompt": "What does it say?"}}]}
            for url in urls]


def script(urls: list[str]) -> dict[str, Any]:
    """The fetches one after another; a page that is fetched is answered by the side list."""
    return {"turns": [load(), *fetches(urls), {"content": ["done"]}], "side": []}


def results(proc: Any) -> list[dict[str, Any]]:
    return [b for e in ndjson(proc.stdout) if e["type"] == "user"
            for b in e["message"]["content"] if b.get("type") == "tool_result"][1:]


def denials(proc: Any) -> list[dict[str, Any]]:
    return ndjson(proc.stdout)[-1]["permission_denials"]


def cli(project: Path, *flags: str) -> Any:
    return run_cli(["-p", "fetch them", "--output-format", "stream-json", *flags, *OPUS],
                   project, timeout=180)


def url(site: Any, host: str, path: str = "/page") -> str:
    return f"http://{host}:{site.server_port}{path}"


@pytest.mark.parametrize("flags", [
    ["--allowedTools", "WebFetch"],
    ["--allowedTools", "WebFetch(domain:*)", "--permission-mode", "bypassPermissions"],
    ["--permission-mode", "acceptEdits", "--allowedTools", "WebFetch(domain:*.0.1)"],
], ids=["bare-allow", "bypass", "wildcard"])
def test_no_spelling_of_the_local_machine_is_reached(project: Path, api: Any, site: Any,
                                                     flags: list[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IS_SANDBOX", "1")  # bypassPermissions as root
    urls = [url(site, host) for host in LOOPBACK_SPELLINGS]
    api(script(urls))
    proc = cli(project, *flags)
    assert proc.returncode == 0, proc.stderr
    assert site.hits == []
    outcome = results(proc)
    assert len(outcome) == len(urls)
    assert all(r.get("is_error") for r in outcome), outcome
    assert len(denials(proc)) == len(urls)  # each one refused by the permission check


def test_an_allow_rule_naming_the_local_host_is_how_a_dev_server_is_reached(
        project: Path, api: Any, site: Any) -> None:
    api(script([url(site, "localhost"), url(site, "127.1")]))
    proc = cli(project, "--allowedTools", "WebFetch(domain:localhost)")
    assert proc.returncode == 0, proc.stderr
    assert [h[0] for h in site.hits] == ["/page"]  # localhost: on purpose; 127.1 is another host
    assert site.hits[0][1] == f"localhost:{site.server_port}"
    assert [d["tool_input"]["url"] for d in denials(proc)] == [url(site, "127.1")]


def test_a_same_host_redirect_into_a_denied_url_is_decided_again(project: Path, api: Any,
                                                                 site: Any) -> None:
    api(script([url(site, "127.0.0.1", "/go-secret")]))
    proc = cli(project, "--allowedTools", "WebFetch(domain:127.0.0.1)", "--disallowedTools",
               f"WebFetch(http://127.0.0.1:{site.server_port}/secret)")
    assert proc.returncode == 0, proc.stderr
    (redirect,) = results(proc)
    assert "REDIRECT DETECTED" in redirect["content"] and "/secret" in redirect["content"]
    assert [h[0] for h in site.hits] == ["/go-secret"]


# ------------------------------------------------------------- names from a private /etc/hosts

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")


def hosts_cli(project: Path, tmp_path: Path, names: list[str] | dict[str, str],
              *flags: str) -> Any:
    """The binary in its own mount namespace where `names` resolve to 127.0.0.1 (or, given
    as a mapping, to the address each name maps to)."""
    mapping = names if isinstance(names, dict) else dict.fromkeys(names, "127.0.0.1")
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1 localhost\n" + "".join(f"{a} {n}\n" for n, a in mapping.items()))
    argv = ["bwrap", "--bind", "/", "/", "--ro-bind", str(hosts), "/etc/hosts", "--dev", "/dev",
            "--proc", "/proc", "--chdir", str(project), "--", sys.executable, "-m",
            "claude_harness", "-p", "fetch them", "--output-format", "stream-json", *flags,
            *OPUS]
    return subprocess.run(argv, cwd=project, capture_output=True, text=True, timeout=180,
                          env=dict(os.environ))


@needs_bwrap
def test_a_public_looking_name_that_resolves_to_loopback_is_refused(
        project: Path, api: Any, site: Any, tmp_path: Path) -> None:
    names = ["api.example.test", "docs.example.test"]
    api(script([url(site, n) for n in names]))
    proc = hosts_cli(project, tmp_path, names, "--allowedTools", "WebFetch(domain:*.example.test)")
    assert proc.returncode == 0, proc.stderr
    assert site.hits == []
    outcome = results(proc)
    assert all(r.get("is_error") and "resolves to an internal address" in r["content"]
               and "127.0.0.1 (loopback)" in r["content"] for r in outcome), outcome

    api(script([url(site, "api.example.test")]))
    proc = hosts_cli(project, tmp_path, names, "--allowedTools",
                     "WebFetch(domain:api.example.test)")
    assert proc.returncode == 0, proc.stderr
    assert not results(proc)[0].get("is_error"), results(proc)
    # reached at the address that was checked, with the name in the Host header
    assert site.hits == [("/page", f"api.example.test:{site.server_port}")]


@needs_bwrap
def test_dot_look_alikes_and_case_do_not_escape_a_domain_deny(project: Path, api: Any,
                                                            site: Any, tmp_path: Path) -> None:
    api(script([url(site, "evil.test")]))
    allowed = hosts_cli(project, tmp_path, ["evil.test"], "--allowedTools",
                        "WebFetch(domain:evil.test)")
    assert allowed.returncode == 0, allowed.stderr
    assert len(site.hits) == 1  # the control: without the deny the host is reachable
    site.hits.clear()
    urls = [url(site, host) for host in DOT_LOOKALIKES]
    api(script(urls))
    proc = hosts_cli(project, tmp_path, ["evil.test"], "--allowedTools",
                     "WebFetch(domain:evil.test)", "--disallowedTools",
                     "WebFetch(domain:evil.test)")
    assert proc.returncode == 0, proc.stderr
    assert site.hits == []
    assert len(denials(proc)) == len(urls)
    assert all("denies" in json.dumps(r["content"]) for r in results(proc))


@needs_bwrap
def test_names_that_resolve_to_metadata_lan_or_ipv6_loopback_are_refused(
        project: Path, api: Any, site: Any, tmp_path: Path) -> None:
    names = {"meta.example.test": "169.254.169.254", "lan.example.test": "10.0.0.5",
             "v6.example.test": "::1", "mapped.example.test": "::ffff:127.0.0.1",
             "printer.example.test": "192.168.1.20"}
    api(script([f"https://{n}/latest/meta-data/" for n in names]))
    proc = hosts_cli(project, tmp_path, names, "--allowedTools", "WebFetch")
    assert proc.returncode == 0, proc.stderr
    outcome = results(proc)
    kinds = ["link-local", "private", "loopback", "loopback", "private"]
    assert len(outcome) == len(kinds)
    for result, kind in zip(outcome, kinds, strict=True):
        assert result.get("is_error") and "resolves to an internal address" in result["content"]
        assert kind in result["content"], result
    assert site.hits == []
