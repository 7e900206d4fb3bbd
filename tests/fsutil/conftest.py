"""The e2e fixtures (an isolated home, a project, the scripted server) for these tests."""

from tests.e2e.conftest import api, project  # noqa: F401
