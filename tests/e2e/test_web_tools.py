"""WebFetch and WebSearch through the real binary: a local HTTP server on 127.0.0.1 plays the
web (HTML, redirects, errors, a slow page, a PDF, an image, a huge page), the scripted server
plays the model, the small fast model's side request and the API's web search."""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.e2e.support import make_engine, ndjson, run_cli, run_prompt
from tests.tools.test_read import make_pdf

OPUS = ["--model", "claude-opus-5-5"]
PAGE = ("<html><head><title>Release notes</title><script>var x = 1;</script></head><body>"
        "<h1>Widget 3.2</h1><p>The <b>answer</b> is <a href='/more'>42</a>.</p></body></html>")


class _Site(BaseHTTPRequestHandler):
    """The little web the tests fetch from."""

    server: Any

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.server.hits.append(self.path)
        routes = {
            "/page.html": (200, "text/html; charset=utf-8", PAGE.encode()),
            "/notes.txt": (200, "text/plain", b"plain text notes"),
            "/doc.pdf": (200, "application/pdf", self.server.pdf),
            "/pic.png": (200, "image/png", self.server.png),
            "/huge.txt": (200, "text/plain", b"x" * (12 * 1024 * 1024)),
            "/missing": (404, "text/plain", b"nope"),
            "/boom": (500, "text/plain", b"server error"),
        }
        if self.path == "/same-host-redirect":
            return self._redirect(f"http://127.0.0.1:{self.server.server_port}/page.html")
        if self.path == "/other-host-redirect":
            return self._redirect(f"http://localhost:{self.server.server_port}/page.html")
        if self.path == "/slow":
            time.sleep(3)
        status, ctype, body = routes.get(self.path, (200, "text/plain", b"slow body"))
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("location", location)
        self.send_header("content-length", "0")
        self.end_headers()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Any]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    httpd.daemon_threads = True
    httpd.hits = []
    pdf = tmp_path / "doc.pdf"
    make_pdf(pdf, ["Quarterly figures: revenue grew 12 percent"])
    httpd.pdf = pdf.read_bytes()
    buf = io.BytesIO()
    Image.new("RGB", (40, 20), (200, 30, 30)).save(buf, format="PNG")
    httpd.png = buf.getvalue()
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    httpd.url = f"http://127.0.0.1:{httpd.server_port}"
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def load(tool: str) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "ToolSearch",
                         "input": {"query": f"select:{tool}"}}]}


def fetch(url: str, prompt: str = "What is the answer?") -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "WebFetch",
                         "input": {"url": url, "prompt": prompt}}]}


def tool_results(proc: Any) -> list[dict[str, Any]]:
    return [b for e in ndjson(proc.stdout) if e["type"] == "user"
            for b in e["message"]["content"] if b.get("type") == "tool_result"]


def run(project: Path, *extra: str) -> Any:
    return run_cli(["-p", "look it up", "--output-format", "stream-json", "--allowedTools",
                    "WebFetch(domain:127.0.0.1)", *extra, *OPUS], project, timeout=120)


def test_webfetch_answers_about_pages_with_the_small_model(project: Path, api: Any,
                                                           site: Any) -> None:
    answer = {"content": ["The page says the answer is 42."],
              "usage": {"input_tokens": 1_000_000}}  # a dear side request: its cost must show
    server = api([load("WebFetch"), fetch(f"{site.url}/page.html"), answer,
                  fetch(f"{site.url}/same-host-redirect", "Again?"),
                  {"content": ["Followed to the same page."]},
                  fetch(f"{site.url}/doc.pdf", "How much did revenue grow?"),
                  {"content": ["Revenue grew 12 percent."]},
                  fetch(f"{site.url}/pic.png", "Describe it."),
                  {"content": ["Done."]}])
    proc = run(project)
    assert proc.returncode == 0, proc.stderr
    results = tool_results(proc)[1:]
    assert results[0]["content"] == "The page says the answer is 42."
    side = server.requests[2]
    assert side["model"] == "claude-haiku-5-5" and "tools" not in side
    page_text = side["messages"][0]["content"][0]["text"]
    assert "# Widget 3.2" in page_text and "**answer**" in page_text and "var x" not in page_text
    assert "What is the answer?" in page_text
    assert results[1]["content"] == "Followed to the same page."  # a same-host redirect
    assert site.hits[:3] == ["/page.html", "/same-host-redirect", "/page.html"]
    assert "# Widget 3.2" in json.dumps(server.requests[4])
    assert results[2]["content"] == "Revenue grew 12 percent."
    pdf_side = next(r for r in server.requests if "revenue grew 12 percent" in json.dumps(r)
                    and r["model"] == "claude-haiku-5-5")
    assert "Page 1 of 1" in json.dumps(pdf_side)
    image = results[-1]["content"]
    assert [b["type"] for b in image] == ["text", "image"]
    assert image[1]["source"]["media_type"] == "image/png"
    result = ndjson(proc.stdout)[-1]
    assert result["total_cost_usd"] >= 0.1  # the side request's million input tokens at $0.10/M


def test_webfetch_redirect_to_another_host_is_not_followed(project: Path, api: Any,
                                                           site: Any) -> None:
    api([load("WebFetch"), fetch(f"{site.url}/other-host-redirect"), {"content": ["ok"]}])
    proc = run(project)
    assert proc.returncode == 0, proc.stderr
    (_, redirect) = tool_results(proc)
    assert "REDIRECT DETECTED" in redirect["content"]
    assert f"http://localhost:{site.server_port}/page.html" in redirect["content"]
    assert site.hits == ["/other-host-redirect"]


@pytest.mark.parametrize(("path", "message"), [
    ("/missing", "HTTP 404"), ("/boom", "HTTP 500"), ("/slow", "Timed out after 1 s")])
def test_webfetch_errors_are_clear(project: Path, api: Any, site: Any, path: str, message: str,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_HARNESS_WEBFETCH_TIMEOUT_MS", "1000")
    api([load("WebFetch"), fetch(f"{site.url}{path}"), {"content": ["noted"]}])
    proc = run(project)
    assert proc.returncode == 0, proc.stderr
    (_, failed) = tool_results(proc)
    assert failed["is_error"] and message in failed["content"]


def test_webfetch_caps_a_huge_page(project: Path, api: Any, site: Any) -> None:
    server = api([load("WebFetch"), fetch(f"{site.url}/huge.txt"), {"content": ["Lots of x."]},
                  {"content": ["ok"]}])
    proc = run(project)
    assert proc.returncode == 0, proc.stderr
    side = json.dumps(server.requests[2])
    assert "offset=100000" in side and "size limit" in side
    assert len(side) < 200_000
    (_, result) = tool_results(proc)
    assert "offset=100000" in result["content"]


def test_webfetch_needs_permission_per_domain(project: Path, api: Any, site: Any) -> None:
    api([load("WebFetch"), fetch(f"{site.url}/page.html"), {"content": ["denied, fine"]}])
    proc = run_cli(["-p", "look", "--output-format", "stream-json", *OPUS], project)
    result = ndjson(proc.stdout)[-1]
    assert [d["tool_name"] for d in result["permission_denials"]] == ["WebFetch"]
    assert site.hits == []


async def test_dont_ask_again_saves_the_domain_rule(project: Path, api: Any, site: Any) -> None:
    from claude_harness.protocol.events import PermissionRequest
    from claude_harness.protocol.ops import AnswerPermission

    server = api([load("WebFetch"), fetch(f"{site.url}/notes.txt"), {"content": ["notes"]},
                  fetch(f"{site.url}/page.html"), {"content": ["42"]}, {"content": ["done"]}])
    engine = make_engine(server, project, interactive=True)
    events = await run_prompt(engine, "read both",
                              answer=lambda r: AnswerPermission(r.request_id, "always"))
    asked = [e.suggestion for e in events if isinstance(e, PermissionRequest)]
    assert asked == ["WebFetch(domain:127.0.0.1)"]  # asked once: the second fetch was allowed
    assert site.hits == ["/notes.txt", "/page.html"]


SEARCH_ANSWER = {"content": [
    {"type": "server_tool_use", "name": "web_search", "input": {"query": "widget 3.2 release"}},
    {"type": "web_search_tool_result", "content": [
        {"type": "web_search_result", "title": "Widget 3.2 released", "encrypted_content": "E1",
         "url": "https://widgets.example/news/3.2", "page_age": "2 days"},
        {"type": "web_search_result", "title": "Widget changelog", "encrypted_content": "E2",
         "url": "https://widgets.example/changelog"}]},
    "Widget 3.2 came out two days ago."]}


def search(query: str, **extra: Any) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": "WebSearch",
                         "input": {"query": query, **extra}}]}


def test_websearch_runs_the_server_tool_and_returns_titles_and_urls(project: Path,
                                                                    api: Any) -> None:
    server = api([load("WebSearch"), search("widget 3.2 release"),
                  {**SEARCH_ANSWER, "usage": {"input_tokens": 1_000_000}},
                  {"content": ["Widget 3.2 is out.\n\nSources:\n- [Widget 3.2 released]"
                               "(https://widgets.example/news/3.2)"]}])
    proc = run_cli(["-p", "is widget 3.2 out?", "--output-format", "stream-json",
                    "--allowedTools", "WebSearch", *OPUS], project)
    assert proc.returncode == 0, proc.stderr
    side = server.requests[2]
    assert side["tools"][0]["type"] == "web_search_20250305"
    assert side["tool_choice"] == {"type": "tool", "name": "web_search"}
    assert side["thinking"] == {"type": "disabled"}  # a forced tool choice forbids thinking
    (_, found) = tool_results(proc)
    assert 'Web search results for query: "widget 3.2 release"' in found["content"]
    assert "https://widgets.example/news/3.2" in found["content"]
    assert "Widget changelog" in found["content"]
    # the side request runs on the session's model: a million input tokens at $4/M count
    assert ndjson(proc.stdout)[-1]["total_cost_usd"] >= 4.0


def test_websearch_domain_filters_are_exclusive_and_searches_capped(
        project: Path, api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION", "1")
    server = api([load("WebSearch"),
                  search("x y", allowed_domains=["a.example"], blocked_domains=["b.example"]),
                  search("widget", allowed_domains=["widgets.example"]), SEARCH_ANSWER,
                  search("again"), {"content": ["done"]}])
    proc = run_cli(["-p", "search", "--output-format", "stream-json", "--allowedTools",
                    "WebSearch", *OPUS], project)
    assert proc.returncode == 0, proc.stderr
    (_, both, first, capped) = tool_results(proc)
    assert both["is_error"] and "not both" in both["content"]
    assert not first.get("is_error")
    assert server.requests[3]["tools"][0]["allowed_domains"] == ["widgets.example"]
    assert capped["is_error"] and "CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION" in capped["content"]


def test_each_web_search_is_priced_in_the_total(project: Path, api: Any) -> None:
    """The API reports the searches its web search tool made (`server_tool_use`); at $10 per
    1,000 they count in the session's cost beside the tokens."""
    def total(searches: int) -> float:
        usage = {"input_tokens": 10, "output_tokens": 10}
        if searches:
            usage["web_search_requests"] = searches
        api([load("WebSearch"), search("widget 3.2 release"), {**SEARCH_ANSWER, "usage": usage},
             "Widget 3.2 is out."])
        proc = run_cli(["-p", "is widget 3.2 out?", "--output-format", "json",
                        "--allowedTools", "WebSearch", *OPUS], project)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["total_cost_usd"]

    assert total(3) - total(0) == pytest.approx(0.03, abs=1e-6)
