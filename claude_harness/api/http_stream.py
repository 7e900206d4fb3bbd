"""The Messages API's streaming endpoint over plain HTTP + SSE, without the SDK.

`import anthropic` builds ~1,500 pydantic models (over a second on a 2-core machine, and tens
of MiB held for the life of the process), yet a streamed request needs none of them: we post
bytes we encoded ourselves (request_body.py) and read JSON events back. So for the Anthropic
provider the request goes out on `httpx2` (the transport the SDK itself uses) and the events
come back as `ApiEvent`s, read-only views over the JSON the API sent. The SDK stays the path
for Bedrock and Vertex, which reshape and sign the request.

What the SDK's stream does, this does: `ping` and unnamed events are skipped, an `error` event
becomes the error it names, a non-2xx answer becomes an ApiError with the API's own message
(classified by `api.errors.status_error`, as the SDK's errors are), and the read timeout is the
idle watchdog. The headers are the ones Claude Code sends.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from claude_harness.api.errors import ApiError, status_error

if TYPE_CHECKING:
    import httpx2

    from claude_harness.api.client import ApiSettings

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"  # what Claude Code sends; the API pins behaviour to it


class ApiEvent:
    """One event as the API sent it, read by attribute (`event.delta.text`) like the SDK's
    objects; nested objects are views too. A field the event lacks raises AttributeError, as
    a field missing from an SDK object does; `to_dict()` gives a fresh copy of the JSON."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = data

    def __getattr__(self, name: str) -> Any:
        try:
            value = self._data[name]
        except KeyError:
            raise AttributeError(name) from None
        return _view(value)

    def to_dict(self, mode: str = "json", exclude_unset: bool = True) -> dict[str, Any]:
        """The fields the API sent, explicit nulls included (the SDK's signature, whose
        defaults are the only form the harness asks for)."""
        del mode, exclude_unset
        return _copy(self._data)

    def __repr__(self) -> str:
        return f"ApiEvent({self._data!r})"


def _view(value: Any) -> Any:
    if isinstance(value, dict):
        return ApiEvent(value)
    if isinstance(value, list):
        return [_view(item) for item in value]
    return value


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


def request_headers(settings: ApiSettings, betas: Sequence[str]) -> dict[str, str]:
    from claude_harness import __version__

    headers = {"accept": "application/json", "content-type": "application/json",
               "anthropic-version": API_VERSION,
               "user-agent": f"claude-harness/{__version__}"}
    if settings.api_key:
        headers["x-api-key"] = settings.api_key
    if settings.auth_token:
        headers["authorization"] = f"Bearer {settings.auth_token}"
    if betas:
        headers["anthropic-beta"] = ",".join(betas)
    return headers


def make_http_client(settings: ApiSettings) -> httpx2.AsyncClient:
    """One connection pool per session; the read timeout is the idle watchdog."""
    import httpx2

    from claude_harness.warm import tls_preload

    timeout = httpx2.Timeout(settings.timeout, read=settings.idle_timeout)
    base = (settings.base_url or DEFAULT_BASE_URL).rstrip("/")
    context = tls_preload.take()  # loaded on a thread at a cold start, else made here
    return httpx2.AsyncClient(base_url=base, timeout=timeout,
                              verify=context if context is not None else True)


async def post_stream(client: httpx2.AsyncClient, body: bytes,
                      headers: Mapping[str, str]) -> AsyncIterator[ApiEvent]:
    """POST one streaming request and yield its events; the API's failures raise ApiError
    (transport failures raise httpx2's errors, which `translate_error` classifies)."""
    request = client.build_request("POST", "/v1/messages", content=body, headers=dict(headers))
    response = await client.send(request, stream=True)
    try:
        if response.status_code >= 300:
            raise await _failure(response)
        lines = response.aiter_lines()
        async for name, data in _server_sent_events(lines):
            if name == "ping":
                continue
            if name == "error":
                raise _stream_error(data)
            if data:
                yield ApiEvent(_json(data))
    finally:
        await response.aclose()


async def _server_sent_events(lines: AsyncIterator[str]) -> AsyncIterator[tuple[str, str]]:
    """(event name, data) per event, as the SSE format defines them: `data` lines joined by
    newlines, comments and other fields ignored, an event without a name skipped (as the
    SDK's stream skips it)."""
    name, data = "", []
    async for line in lines:
        if not line:
            if name:
                yield name, "\n".join(data)
            name, data = "", []
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
    if name:
        yield name, "\n".join(data)


def _json(data: str) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except json.JSONDecodeError as exc:
        raise ApiError(f"Malformed event in the API stream (not JSON): {exc}",
                       retryable=True) from exc
    if not isinstance(value, dict):
        raise ApiError("Malformed event in the API stream (not an object)", retryable=True)
    return value


def _stream_error(data: str) -> ApiError:
    try:
        body: Any = json.loads(data)
    except json.JSONDecodeError:
        body = None
    return status_error(200, body, None, data or "error event")


async def _failure(response: httpx2.Response) -> ApiError:
    raw = await response.aread()
    try:
        body: Any = json.loads(raw)
    except ValueError:
        body = None
    text = raw.decode("utf-8", "replace").strip()
    return status_error(response.status_code, body, _retry_after(response.headers),
                        f"Error code: {response.status_code} - {body if body is not None else text}")


def _retry_after(headers: Mapping[str, str]) -> float | None:
    try:
        value = headers.get("retry-after")
        return float(value) if value is not None else None
    except ValueError:
        return None

