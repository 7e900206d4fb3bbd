"""Helpers shared by the scripted API server tests (a unique name: test dirs have no __init__)."""

from __future__ import annotations

USER_HI = [{"role": "user", "content": "hi"}]
