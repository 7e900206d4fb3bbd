"""Fixtures for the ACP front end: an isolated home, a project folder and the scripted API
server (the e2e ones)."""

from tests.e2e.conftest import api, project  # noqa: F401 - shared fixtures
