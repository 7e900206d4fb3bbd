"""The Messages API over plain HTTP + SSE (api/http_stream.py): a `-p` run never loads the
SDK; the request carries the key, the API version and the betas; the stream is read as the SSE
format defines it (CRLF, comments, split `data` lines, unnamed events, `ping`); the API's
failures keep its own message, retry advice and context-window verdict. Against the scripted
server through the real binary, and against a raw socket server for byte-exact streams."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.api.client import ApiClient, ApiSettings
from claude_harness.api.errors import ApiError
from tests.e2e.support import ndjson, run_cli

REQUEST = {"model": "claude-sonnet-4-5", "max_tokens": 64,
           "messages": [{"role": "user", "content": "hi"}]}


def test_a_print_run_never_loads_the_sdk(project: Path, api: Any,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    api([{"content": ["Done."]}])
    monkeypatch.setenv("PYTHONPROFILEIMPORTTIME", "1")
    monkeypatch.setenv("CLAUDE_HARNESS_NO_DAEMON", "1")
    proc = run_cli(["-p", "hi"], project)
    assert (proc.returncode, proc.stdout) == (0, "Done.\n"), proc.stderr
    loaded = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()
              if line.startswith("import time:")}
    assert "httpx2" in loaded  # the profile is there: the transport shows in it
    assert not {m for m in loaded if m.split(".")[0] == "anthropic"}


def test_the_request_carries_the_key_the_version_and_the_betas(project: Path, api: Any) -> None:
    server = api([{"content": ["Done."]}], api_key="test-key")  # any other key: 401
    proc = run_cli(["-p", "hi", "--model", "claude-opus-5-5"], project)
    assert (proc.returncode, proc.stdout) == (0, "Done.\n"), proc.stderr
    (sent,) = [e for e in server.log if e["event"] == "request"]
    headers = {k.lower(): v for k, v in sent["headers"].items()}
    assert "x-api-key" in headers and "authorization" not in headers  # (the log redacts it)
    assert headers["anthropic-version"] == "2023-06-01"
    assert "interleaved-thinking-2025-05-14" in headers["anthropic-beta"].split(",")
    assert headers["content-type"] == "application/json"
    assert json.loads(server.raw_requests[0])["stream"] is True


def test_an_auth_token_is_sent_as_a_bearer(project: Path, api: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    api([{"content": ["Done."]}], api_key="tok-123")  # the server refuses any other credential
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "tok-123")
    proc = run_cli(["-p", "hi", "--output-format", "stream-json", "--verbose"], project)
    assert proc.returncode == 0, proc.stderr
    assert ndjson(proc.stdout)[-1]["result"] == "Done."


class RawServer:
    """Answers every connection with the same bytes, then closes it (no Content-Length: the
    body ends with the connection, as a proxy may send a stream)."""

    def __init__(self, reply: bytes) -> None:
        self.reply = reply
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                while len(body) < length:
                    body += conn.recv(65536)
                conn.sendall(self.reply)


@pytest.fixture
def raw_server() -> Iterator[Any]:
    servers: list[RawServer] = []

    def start(status: str, body: bytes, *headers: str) -> RawServer:
        head = "\r\n".join([f"HTTP/1.1 {status}", "Connection: close", *headers])
        server = RawServer(head.encode() + b"\r\n\r\n" + body)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.sock.close()


def _events(url: str) -> list[dict[str, Any]]:
    async def collect() -> list[dict[str, Any]]:
        client = ApiClient(ApiSettings(api_key="k", auth_token=None, base_url=url))
        try:
            return [event.to_dict() async for event in client.stream_once(dict(REQUEST))]
        finally:
            await client.close()
    return asyncio.run(collect())


def _error(url: str) -> ApiError:
    with pytest.raises(ApiError) as caught:
        _events(url)
    return caught.value


STREAM = (
    b": a comment the server sends to keep the line open\r\n\r\n"
    b"event: message_start\r\n"
    b'data: {"type":"message_start","message":{"id":"m1","model":"x","role":"assistant",\r\n'
    b'data: "content":[],"usage":{"input_tokens":3,"output_tokens":0}}}\r\n\r\n'
    b"event: ping\r\ndata: {\"type\":\"ping\"}\r\n\r\n"
    b'data: {"type":"no name, so skipped"}\r\n\r\n'
    b"event: content_block_start\n"
    b'data:{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n'
    b"event: content_block_delta\n"
    b'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n'
    b'event: message_stop\ndata: {"type":"message_stop"}\n'  # ends with the connection
)


def test_the_stream_is_read_as_the_sse_format_defines_it(raw_server: Any) -> None:
    server = raw_server("200 OK", STREAM, "Content-Type: text/event-stream")
    events = _events(server.url)
    assert [e["type"] for e in events] == ["message_start", "content_block_start",
                                           "content_block_delta", "message_stop"]
    assert events[0]["message"]["usage"] == {"input_tokens": 3, "output_tokens": 0}
    assert events[2]["delta"]["text"] == "Hi"


def test_an_error_event_mid_stream_is_the_error_it_names(raw_server: Any) -> None:
    body = (b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error",'
            b'"message":"Overloaded"}}\n\n')
    error = _error(raw_server("200 OK", body, "Content-Type: text/event-stream").url)
    assert error.message == "API error during stream (overloaded_error): Overloaded"
    assert error.retryable


def test_a_frame_that_is_not_json_is_retried(raw_server: Any) -> None:
    body = b"event: content_block_delta\ndata: {not json\n\n"
    error = _error(raw_server("200 OK", body, "Content-Type: text/event-stream").url)
    assert "not JSON" in error.message and error.retryable


def test_a_refused_request_keeps_the_apis_message_and_advice(raw_server: Any) -> None:
    too_long = json.dumps({"type": "error", "error": {
        "type": "invalid_request_error",
        "message": "prompt is too long: 250000 tokens > 200000 maximum"}}).encode()
    error = _error(raw_server("400 Bad Request", too_long, "Content-Type: application/json",
                              f"Content-Length: {len(too_long)}").url)
    assert error.message.startswith("API error 400 (invalid_request_error): prompt is too long")
    assert (error.status, error.retryable, error.context_overflow, error.context_limit) == (
        400, False, True, 200000)

    limited = b'{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}'
    error = _error(raw_server("429 Too Many Requests", limited, "Retry-After: 7",
                              f"Content-Length: {len(limited)}").url)
    assert (error.status, error.retryable, error.retry_after) == (429, True, 7.0)

    denied = b'{"type":"error","error":{"type":"authentication_error","message":"bad key"}}'
    error = _error(raw_server("401 Unauthorized", denied, f"Content-Length: {len(denied)}").url)
    assert error.message.startswith("Authentication failed (401): bad key")
    assert not error.retryable


def test_a_server_that_is_not_there_is_a_connection_error() -> None:
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    error = _error(f"http://127.0.0.1:{port}")
    assert error.message.startswith("Connection error:") and error.retryable
