"""First start in a folder: the app asks whether its files are trusted before the engine loads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.config.paths import data_dir
from claude_harness.config.trust import is_trusted
from tests.tui.conftest import make_engine
from tests.tui.helpers import wait_for


def trusting_app(server: Any, project: Path) -> Any:
    from claude_harness.frontends.tui.app import HarnessApp

    built: list[Any] = []

    def factory() -> Any:
        built.append(make_engine(server, project))
        return built[-1]

    app = HarnessApp(cwd=project, session_factory=factory, preload_transport=False, ask_trust=True)
    return app, built


async def test_yes_trusts_the_folder_and_starts_the_agent(api: Any, project: Path) -> None:
    app, built = trusting_app(api(["hello"]), project)
    async with app.run_test(size=(100, 30)) as pilot:
        prompt = await wait_for(pilot, lambda: next(iter(app.query("#trust-prompt")), None),
                                what="trust prompt")
        assert "Do you trust the files in this folder?" in str(
            prompt.query_one(".trust-title").render())
        assert built == [] and not app.ready  # nothing loads before the answer
        await pilot.press("1")
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        assert not app.query("#trust-prompt") and app.prompt.display
    assert is_trusted(data_dir(), project.resolve())


async def test_no_exits_without_trusting(api: Any, project: Path) -> None:
    app, built = trusting_app(api(["hello"]), project)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: next(iter(app.query("#trust-prompt")), None),
                       what="trust prompt")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running, what="exit")
    assert built == [] and not is_trusted(data_dir(), project.resolve())
