"""An OAuth-protected MCP server for the tests, written with the `mcp` SDK's server auth.

    python oauth_server.py PORT LOG [TOKEN_SECONDS]

Streamable HTTP on 127.0.0.1:PORT/mcp, with the SDK's authorization server on the same origin:
metadata, dynamic client registration, /authorize, /token (authorization code with PKCE, and
refresh). /authorize approves at once (a user clicking "allow") and redirects to the client's
redirect URI. Access tokens live TOKEN_SECONDS (default 3600). Every grant is appended to LOG as
one JSON line ({"event": "register" | "authorize" | "code" | "refresh", ...}) so the tests can
see what the client did. OAUTH_PREREGISTERED="ID:SECRET:REDIRECT_URI" registers a client ahead
(as a server's owner does for `mcp add --client-id`). Tool: whoami (the client id of the token it was called with).
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

PORT = int(sys.argv[1])
LOG = Path(sys.argv[2])
TOKEN_SECONDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3600
BASE = f"http://127.0.0.1:{PORT}"


def log(event: str, **fields: Any) -> None:
    with LOG.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"event": event, **fields}) + "\n")


class Provider:
    """Everything in memory; approves every authorization request."""

    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        ahead = os.environ.get("OAUTH_PREREGISTERED")  # "ID:SECRET:REDIRECT_URI"
        if ahead:
            client_id, secret, redirect = ahead.split(":", 2)
            self.clients[client_id] = OAuthClientInformationFull(
                client_id=client_id, client_secret=secret, redirect_uris=[redirect],
                token_endpoint_auth_method="client_secret_post",
                grant_types=["authorization_code", "refresh_token"], response_types=["code"])
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info
        log("register", client_id=client_info.client_id,
            redirect_uris=[str(u) for u in client_info.redirect_uris or []])

    async def authorize(self, client: OAuthClientInformationFull,
                        params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(16)
        self.codes[code] = AuthorizationCode(
            code=code, scopes=params.scopes or [], expires_at=time.time() + 300,
            client_id=client.client_id or "", code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource)
        log("authorize", client_id=client.client_id, pkce=bool(params.code_challenge),
            state=bool(params.state), redirect_uri=str(params.redirect_uri))
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client: OAuthClientInformationFull,
                                      authorization_code: str) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self.access[access] = AccessToken(token=access, client_id=client_id, scopes=scopes,
                                          expires_at=int(time.time()) + TOKEN_SECONDS,
                                          resource=resource)
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes,
                                             resource=resource)
        return OAuthToken(access_token=access, token_type="Bearer", expires_in=TOKEN_SECONDS,
                          refresh_token=refresh, scope=" ".join(scopes) or None)

    async def exchange_authorization_code(self, client: OAuthClientInformationFull,
                                          authorization_code: AuthorizationCode) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        log("code", client_id=client.client_id)
        return self._issue(client.client_id or "", authorization_code.scopes,
                           authorization_code.resource)

    async def load_refresh_token(self, client: OAuthClientInformationFull,
                                 refresh_token: str) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(self, client: OAuthClientInformationFull,
                                     refresh_token: RefreshToken,
                                     scopes: list[str]) -> OAuthToken:
        self.refresh.pop(refresh_token.token, None)
        log("refresh", client_id=client.client_id)
        return self._issue(client.client_id or "", scopes or refresh_token.scopes,
                           refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is None or (found.expires_at and found.expires_at < time.time()):
            return None
        return found

    async def revoke_token(self, token: Any) -> None:
        self.access.pop(getattr(token, "token", ""), None)


server = MCPServer(
    "secure", log_level="ERROR", auth_server_provider=Provider(),
    auth=AuthSettings(issuer_url=BASE, resource_server_url=f"{BASE}/mcp",
                      validate_token_resource=False,
                      client_registration_options=ClientRegistrationOptions(enabled=True)),
)


@server.tool()
def whoami() -> str:
    """The client id the request's token was issued to."""
    from mcp.server.auth.middleware.auth_context import get_access_token

    token = get_access_token()
    return f"client {token.client_id}" if token else "anonymous"


if __name__ == "__main__":
    server.run("streamable-http", host="127.0.0.1", port=PORT)
