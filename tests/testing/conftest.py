"""Fixtures for the scripted API server tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import anthropic
import pytest

from claude_harness.testing import MockApiServer


@pytest.fixture
def serve() -> Iterator[Callable[..., MockApiServer]]:
    """Start a MockApiServer for a script; every server started is closed at teardown."""
    servers: list[MockApiServer] = []

    def start(script: Any, **kwargs: Any) -> MockApiServer:
        server = MockApiServer(script, **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


@pytest.fixture
async def connect() -> AsyncIterator[Callable[..., anthropic.AsyncAnthropic]]:
    """Real SDK clients pointed at a server, retries off so faults are visible; closed after."""
    clients: list[anthropic.AsyncAnthropic] = []

    def make(server: MockApiServer, api_key: str = "test") -> anthropic.AsyncAnthropic:
        client = anthropic.AsyncAnthropic(base_url=server.url, api_key=api_key, max_retries=0)
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()
