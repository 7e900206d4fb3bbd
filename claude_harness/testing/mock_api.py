"""A scripted stand-in for `POST /v1/messages`, spoken over real HTTP to the real SDK.

End-to-end tests, benchmarks and demos point `anthropic.AsyncAnthropic(base_url=...)` here, so
nothing in the request path is mocked: the SDK parses our SSE exactly as it parses the API's.
Stdlib only (ThreadingHTTPServer) so it starts in milliseconds and never imports anthropic.

    python -m claude_harness.testing.mock_api --script FILE --port N [--log FILE]
        [--api-key KEY] [--host 127.0.0.1]
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from claude_harness.testing.events import (
    build_message,
    build_stream,
    estimate_tokens,
    format_sse,
    malformed_frame,
)
from claude_harness.testing.recorded import sse_frame_texts
from claude_harness.testing.script import ScriptError, Turn, load_script_with_options
from claude_harness.testing.side import load_side
from claude_harness.testing.state import STATUS_FOR_TYPE, ErrorReply, ServerState, TurnReply

MESSAGES_PATH = "/v1/messages"
COUNT_TOKENS_PATH = "/v1/messages/count_tokens"


class _Handler(BaseHTTPRequestHandler):
    """One HTTP connection; keep-alive with chunked SSE so the SDK can reuse it."""

    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        """Send every SSE event at once, like the API: without TCP_NODELAY, Nagle's algorithm and
        the client's delayed ACK hold small writes back ~40 ms and skew latency figures."""
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Silence per-request stderr noise; the JSONL log is the record."""

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self._read_body()
        index = self.server.state.record_request(self.path, dict(self.headers), None)
        self._send_error(index, ErrorReply(404, "not_found_error", f"Not found: {self.path}"))

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        raw = self._read_body()
        state = self.server.state
        try:
            body: Any = json.loads(raw) if raw else None
            parse_error = None
        except ValueError as exc:
            body, parse_error = raw.decode("utf-8", "replace"), str(exc)
        path = self.path.split("?", 1)[0]
        headers = dict(self.headers)
        index = state.record_request(path, headers, body, raw)
        if path not in (MESSAGES_PATH, COUNT_TOKENS_PATH):
            return self._send_error(index, ErrorReply(404, "not_found_error", f"Not found: {path}"))
        if (auth := state.check_auth(headers)) is not None:
            return self._send_error(index, auth)
        if parse_error is not None:
            return self._send_error(
                index, ErrorReply(400, "invalid_request_error", f"request body is not JSON: {parse_error}"))
        if path == COUNT_TOKENS_PATH:
            return self._send_json(index, 200, {"input_tokens": estimate_tokens(raw.decode())})
        reply = state.take_turn(body, headers)
        if isinstance(reply, ErrorReply):
            return self._send_error(index, reply)
        if body.get("stream"):
            return self._stream(index, reply, body["model"])
        return self._send_whole(index, reply, body["model"])

    # -- plumbing ------------------------------------------------------------------------

    def _read_body(self) -> bytes:
        length = int(self.headers.get("content-length") or 0)
        return self.rfile.read(length) if length else b""

    def _request_id(self, index: int) -> str:
        return f"req_mock_{index:06d}"

    def _send_json(self, index: int, status: int, payload: dict[str, Any],
                   extra_headers: dict[str, str] | None = None, **log_extra: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", self._request_id(index))
        for key, value in (extra_headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        # Logged before the body goes out so a client that has its answer always finds the
        # record (the gap is microseconds, far below the overhead a benchmark measures).
        self.server.state.record_response_end(index, status, **log_extra)
        self._write(data)

    def _send_error(self, index: int, err: ErrorReply, **log_extra: Any) -> None:
        headers = {}
        if err.turn is not None:
            log_extra.setdefault("turn", err.turn)
        if err.retry_after is not None:
            value = err.retry_after
            headers["retry-after"] = str(int(value)) if float(value).is_integer() else str(value)
        self._send_json(index, err.status, {
            "type": "error", "error": {"type": err.type, "message": err.message},
            "request_id": self._request_id(index),
        }, headers, **log_extra)

    def _write(self, data: bytes) -> None:
        self.wfile.write(data)
        self.wfile.flush()

    def _drop_connection(self) -> None:
        """Cut the socket mid-response, as a network failure would."""
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _send_whole(self, index: int, reply: TurnReply, model: str) -> None:
        turn, fault = reply.turn, reply.turn.fault
        if turn.delay:
            time.sleep(turn.delay)
        if fault is not None and fault.drop_after_events is not None:
            self.server.state.record_response_end(index, 0, dropped=True, **reply.log_tag)
            self._drop_connection()
            return
        if fault is not None and fault.sse_error is not None:
            err_type = fault.sse_error["type"]
            return self._send_error(index, ErrorReply(
                STATUS_FOR_TYPE.get(err_type, 500), err_type, fault.sse_error["message"]),
                **reply.log_tag)
        message = build_message(turn, f"msg_mock_{index:06d}", model, reply.usage,
                                reply.omit_thinking)
        self._send_json(index, 200, message, None, **reply.log_tag)

    def _stream(self, index: int, reply: TurnReply, model: str) -> None:
        turn, fault = reply.turn, reply.turn.fault
        if turn.sse is not None:
            return self._stream_recorded(index, reply)
        events = build_stream(turn, f"msg_mock_{index:06d}", model, reply.usage,
                              reply.omit_thinking)
        cut = len(events)
        if fault is not None and fault.drop_after_events is not None:
            cut = fault.drop_after_events
        elif fault is not None and fault.sse_error is not None:
            cut = fault.after_events
        elif fault is not None and fault.malformed_after_events is not None:
            cut = fault.malformed_after_events
        elif fault is not None and fault.stall_after_events is not None:
            cut = fault.stall_after_events
        self._start_sse(index)
        end = self.server.state.record_response_end
        try:
            for name, data in events[:cut]:
                self._send_chunk(format_sse(name, data), turn)
            # Each outcome is logged before the bytes that end it, so a client that has seen
            # the end always finds the record; for a normal stream `t` is just after
            # message_stop was flushed.
            if fault is not None and fault.drop_after_events is not None:
                end(index, 200, dropped=True, **reply.log_tag)
                self._drop_connection()
                return
            if fault is not None and fault.malformed_after_events is not None:
                end(index, 200, malformed=True, **reply.log_tag)
                self._send_chunk(malformed_frame(), turn)
                self._drop_connection()
                return
            if fault is not None and fault.stall_after_events is not None:
                end(index, 200, stalled=fault.stall, **reply.log_tag)
                time.sleep(fault.stall)  # silence: not even a ping
                self._drop_connection()
                return
            if fault is not None and fault.sse_error is not None:
                end(index, 200, sse_error=fault.sse_error["type"], **reply.log_tag)
                self._send_chunk(format_sse("error", {"type": "error", "error": fault.sse_error}),
                                 turn)
            else:
                end(index, 200, **reply.log_tag)
            self._write(b"0\r\n\r\n")
        except OSError:  # the client went away (aborted stream) or the server is closing
            self.close_connection = True
            if not any(e["event"] == "response_end" and e["index"] == index
                       for e in self.server.state.log):
                end(index, 200, client_disconnected=True, **reply.log_tag)

    def _start_sse(self, index: int) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.send_header("request-id", self._request_id(index))
        self.end_headers()

    def _stream_recorded(self, index: int, reply: TurnReply) -> None:
        """Play a recorded SSE body as it was sent, one frame per chunk."""
        assert reply.turn.sse is not None
        self._start_sse(index)
        try:
            for frame in sse_frame_texts(reply.turn.sse):
                self._send_chunk(frame, reply.turn)
            self.server.state.record_response_end(index, 200, recorded=True, **reply.log_tag)
            self._write(b"0\r\n\r\n")
        except OSError:
            self.close_connection = True

    def _send_chunk(self, payload: bytes, turn: Turn) -> None:
        if turn.delay:
            time.sleep(turn.delay)
        self._write(f"{len(payload):x}\r\n".encode() + payload + b"\r\n")


class _Server(ThreadingHTTPServer):
    """Tracks open connections so closing the server also ends keep-alive sessions."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], state: ServerState) -> None:
        self.state = state
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def drop_open_connections(self) -> None:
        with self._open_lock:
            sockets = list(self._open)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class MockApiServer:
    """The scripted server running in a background thread; a context manager.

    `url` is the base URL for the SDK (no /v1). `requests` holds every parsed request body in
    arrival order (rejected ones too), `raw_requests` their bytes as sent, and `log` the
    request/response_end records also written to `log_path` as JSONL. `keep_bodies=False`
    keeps none of the bodies (a long benchmark's would fill the memory).
    """

    def __init__(self, script: str | Path | dict[str, Any] | list[Any], *, port: int = 0,
                 log_path: str | Path | None = None, api_key: str | None = None,
                 host: str = "127.0.0.1", keep_bodies: bool = True) -> None:
        turns, options = load_script_with_options(script)
        self.state = ServerState(turns, log_path, api_key, options, load_side(script),
                                 keep_bodies=keep_bodies)
        self._httpd = _Server((host, port), self.state)
        self.host = host
        self.port: int = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,),
                                        name=f"mock-api-{self.port}", daemon=True)
        self._thread.start()
        self._closed = False

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def requests(self) -> list[Any]:
        return self.state.requests

    @property
    def raw_requests(self) -> list[bytes]:
        return self.state.raw_requests

    @property
    def log(self) -> list[dict[str, Any]]:
        return self.state.log

    @property
    def log_path(self) -> Path | None:
        return self.state.log_path

    @property
    def remaining_turns(self) -> int:
        return self.state.remaining_turns

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._httpd.shutdown()
        self._httpd.server_close()
        self._httpd.drop_open_connections()
        self._thread.join(timeout=5)

    def __enter__(self) -> MockApiServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m claude_harness.testing.mock_api",
                                     description="Scripted Messages API server.")
    parser.add_argument("--script", required=True, help="JSON script file ({\"turns\": [...]})")
    parser.add_argument("--port", type=int, default=0, help="port (0 = pick a free one)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--log", help="append a JSONL record of requests and responses here")
    parser.add_argument("--api-key", help="reject requests whose key differs (401)")
    args = parser.parse_args(argv)
    try:
        server = MockApiServer(args.script, port=args.port, log_path=args.log,
                               api_key=args.api_key, host=args.host)
    except ScriptError as exc:
        print(f"mock_api: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"mock_api: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    print(f"listening on {server.url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
