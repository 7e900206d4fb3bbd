"""OAuth 2.1 for remote (http / sse) MCP servers, on top of the `mcp` SDK's own client.

The SDK's `OAuthClientProvider` (an httpx auth flow) does the protocol: on a 401 it discovers
the protected resource metadata (RFC 9728) and the authorization server metadata (RFC 8414),
registers a client dynamically (RFC 7591), sends the user to the authorization endpoint with
PKCE (S256) and a state, exchanges the code, and refreshes expired tokens. What is ours:

- `FileTokenStorage`: tokens and the registered client, one file per server under
  `<data dir>/mcp-oauth/`, created 0600 in a 0700 folder, written atomically. The absolute
  expiry is stored too, so an access token that expired while the harness was closed is
  refreshed on the next start instead of being sent and refused.
- `RedirectListener`: the local `http://127.0.0.1:PORT/callback` the browser comes back to.
- `Authorizer`: how the user is asked. Startup never waits for a person: a server that needs a
  login is reported `needs-auth` (with a one-line reason, also in `-p`'s `mcp_servers`). The
  user (or the front end's /mcp) then calls `McpManager.authenticate(name, show_url)`; the flow
  hands the authorization URL to `show_url` (the app prints the link), waits for the browser to
  come back to the listener, stores the tokens and reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import socket
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from claude_harness.fsutil import atomic_write_text
from claude_harness.mcp.names import sanitize

OAUTH_DIR = "mcp-oauth"
CALLBACK_PATH = "/callback"
LOGIN_TIMEOUT_SECONDS = 300.0
NEEDS_LOGIN = "the server requires an OAuth login: authenticate it from /mcp"

ShowUrl = Callable[[str], "Awaitable[None] | None"]


class NeedsAuth(Exception):
    """The server wants a login and nobody is there to give one right now."""


def _oauth_dir() -> Path:
    from claude_harness.config.paths import data_dir

    return data_dir() / OAUTH_DIR


def storage_path(server: str, url: str) -> Path:
    """One file per (server name, URL): renaming a server or moving it forgets its tokens."""
    digest = hashlib.sha256(url.encode()).hexdigest()[:12]
    return _oauth_dir() / f"{sanitize(server)}-{digest}.json"


def _write_private(path: Path, data: dict[str, Any]) -> None:
    """Write `data` as JSON readable by the owner only; never a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        path.parent.chmod(0o700)
    atomic_write_text(path, json.dumps(data, indent=2), mode=0o600)


class FileTokenStorage:
    """The SDK's TokenStorage protocol over one private JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, key: str, value: Any) -> None:
        data = self._load()
        data[key] = value
        _write_private(self.path, data)

    async def get_tokens(self) -> Any:
        from mcp.shared.auth import OAuthToken

        raw = self._load().get("tokens")
        return OAuthToken.model_validate(raw) if isinstance(raw, dict) else None

    async def set_tokens(self, tokens: Any) -> None:
        self._save("tokens", tokens.model_dump(mode="json", exclude_none=True))
        expires_at = time.time() + tokens.expires_in if tokens.expires_in else None
        self._save("expires_at", expires_at)

    def expires_at(self) -> float | None:
        value = self._load().get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    async def get_client_info(self) -> Any:
        from mcp.shared.auth import OAuthClientInformationFull

        raw = self._load().get("client_info")
        return OAuthClientInformationFull.model_validate(raw) if isinstance(raw, dict) else None

    async def set_client_info(self, client_info: Any) -> None:
        self._save("client_info", client_info.model_dump(mode="json", exclude_none=True))

    def registered_redirect(self) -> str | None:
        """The redirect URI the stored client was registered with (it must not change)."""
        info = self._load().get("client_info")
        uris = info.get("redirect_uris") if isinstance(info, dict) else None
        return str(uris[0]) if isinstance(uris, list) and uris else None

    def forget(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedirectListener:
    """A one-shot HTTP listener on 127.0.0.1 for the authorization redirect."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._server: asyncio.Server | None = None
        self._result: asyncio.Future[dict[str, str]] | None = None

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self.port}{CALLBACK_PATH}"

    async def start(self) -> None:
        if self._server is None:
            self._result = asyncio.get_running_loop().create_future()
            self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)

    async def wait(self, timeout: float = LOGIN_TIMEOUT_SECONDS) -> dict[str, str]:
        """The query parameters the browser came back with."""
        await self.start()
        assert self._result is not None
        try:
            return await asyncio.wait_for(asyncio.shield(self._result), timeout)
        except TimeoutError:
            raise NeedsAuth(f"no login within {timeout:g} s") from None

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = (await asyncio.wait_for(reader.readline(), 10)).decode("latin-1")
            while (await asyncio.wait_for(reader.readline(), 10)).strip():
                pass  # headers: nothing in them matters
            parts = line.split()
            target = urlsplit(parts[1]) if len(parts) >= 2 else urlsplit("/")
            params = {k: v[0] for k, v in parse_qs(target.query).items()}
            ok = target.path == CALLBACK_PATH and ("code" in params or "error" in params)
            if ok and self._result is not None and not self._result.done():
                self._result.set_result(params)
            body = _page(params) if ok else "Not found"
            status = "200 OK" if ok else "404 Not Found"
            writer.write(f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n"
                         f"Content-Length: {len(body.encode())}\r\nConnection: close\r\n\r\n"
                         f"{body}".encode())
            await writer.drain()
        except (TimeoutError, ConnectionError, IndexError):
            pass
        finally:
            writer.close()


def _page(params: dict[str, str]) -> str:
    if "error" in params:
        return "<h1>Login failed</h1><p>You can close this tab and try again.</p>"
    return "<h1>Logged in</h1><p>claude-harness is connected. You can close this tab.</p>"


class Authorizer:
    """Asks the user to log in (interactive) or reports that a login is needed (startup, -p)."""

    def __init__(self, show_url: ShowUrl | None = None,
                 timeout: float = LOGIN_TIMEOUT_SECONDS) -> None:
        self.show_url = show_url
        self.listener: RedirectListener | None = None  # set by build_auth
        self.timeout = timeout

    async def redirect(self, url: str) -> None:
        if self.show_url is None or self.listener is None:
            raise NeedsAuth(NEEDS_LOGIN)
        await self.listener.start()
        shown = self.show_url(url)
        if asyncio.iscoroutine(shown):
            await shown

    async def callback(self) -> Any:
        from mcp.shared.auth import AuthorizationCodeResult

        if self.show_url is None or self.listener is None:
            raise NeedsAuth(NEEDS_LOGIN)
        params = await self.listener.wait(self.timeout)
        if "error" in params:
            detail = params.get("error_description") or params["error"]
            raise NeedsAuth(f"the login was refused: {detail}")
        return AuthorizationCodeResult(code=params["code"], state=params.get("state"),
                                       iss=params.get("iss"))


def build_auth(server: str, url: str, authorizer: Authorizer, scope: str | None = None,
               client: PreRegistered | None = None) -> tuple[Any, RedirectListener]:
    """The httpx auth object for one remote server and the listener its redirect targets.
    `client`: an OAuth client registered ahead (`mcp add --client-id`), used instead of
    registering one, its redirect on its fixed port when it has one."""
    from mcp.client.auth import OAuthClientProvider
    from mcp.shared.auth import OAuthClientMetadata
    from pydantic import AnyUrl

    storage: FileTokenStorage = FileTokenStorage(storage_path(server, url))
    registered = storage.registered_redirect()
    port = client.callback_port if client is not None and client.callback_port else None
    port = port or (urlsplit(registered).port if registered else None)
    listener = RedirectListener(port or free_port())
    if client is not None and client.client_id:
        storage = PreRegisteredStorage(storage.path, client, listener.redirect_uri)
    authorizer.listener = listener
    metadata = OAuthClientMetadata(
        client_name="claude-harness", redirect_uris=[AnyUrl(listener.redirect_uri)],
        grant_types=["authorization_code", "refresh_token"], response_types=["code"],
        token_endpoint_auth_method="none", scope=scope,
    )

    class Provider(OAuthClientProvider):
        async def _initialize(self) -> None:
            # The SDK forgets when stored tokens expire; restore it so an access token that
            # expired while we were closed is refreshed instead of sent and refused.
            await super()._initialize()
            self.context.token_expiry_time = storage.expires_at()

    provider = Provider(server_url=url, client_metadata=metadata, storage=storage,
                        redirect_handler=authorizer.redirect, callback_handler=authorizer.callback)
    return provider, listener


class PreRegistered:
    """A client the server's owner registered for us: its id, secret and fixed port."""

    def __init__(self, client_id: str | None, client_secret: str | None = None,
                 callback_port: int | None = None) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.callback_port = callback_port


class PreRegisteredStorage(FileTokenStorage):
    """Tokens in the usual file; the client is always the pre-registered one (so the SDK never
    registers another), with the secret sent in the token request when there is one."""

    def __init__(self, path: Path, client: PreRegistered, redirect_uri: str) -> None:
        super().__init__(path)
        if not client.client_id:
            raise ValueError("a pre-registered OAuth client needs its client id")
        self.client = client
        self.client_id: str = client.client_id
        self.redirect_uri = redirect_uri

    async def get_client_info(self) -> Any:
        from mcp.shared.auth import OAuthClientInformationFull

        secret = self.client.client_secret
        return OAuthClientInformationFull(
            client_id=self.client_id, client_secret=secret,
            redirect_uris=[self.redirect_uri],  # type: ignore[list-item]
            grant_types=["authorization_code", "refresh_token"], response_types=["code"],
            token_endpoint_auth_method="client_secret_post" if secret else "none")

    async def set_client_info(self, client_info: Any) -> None:
        """Nothing to keep: the client is configured, not registered."""


def needs_auth_reason(exc: BaseException) -> str | None:
    """The one-line reason when `exc` (or anything it wraps) is a NeedsAuth, else None."""
    seen: set[int] = set()
    stack: list[BaseException] = [exc]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, NeedsAuth):
            return str(current)
        if isinstance(current, BaseExceptionGroup):
            stack.extend(current.exceptions)
        for linked in (current.__cause__, current.__context__):
            if linked is not None:
                stack.append(linked)
    return None
