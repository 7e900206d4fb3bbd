"""Ctrl+V with an image on a real X clipboard (Xvfb and xclip): the image is saved and attached
to the next prompt as an image block; with no image there, Ctrl+V is the ordinary paste."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tui.helpers import wait_for

# A 1x1 red PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5E"
    "rkJggg==")

pytestmark = pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xclip")),
                                reason="needs Xvfb and xclip (apt-get install xvfb xclip)")


@pytest.fixture
def display(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A private X server; DISPLAY points at it."""
    number = next(n for n in range(90 + os.getpid() % 400, 900)
                  if not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(["Xvfb", f":{number}", "-nolisten", "tcp", "-screen", "0",
                               "640x480x24"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            pytest.skip("Xvfb did not start")
        time.sleep(0.05)
    monkeypatch.setenv("DISPLAY", f":{number}")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    try:
        yield f":{number}"
    finally:
        server.kill()
        server.wait()


def _targets() -> bytes:
    """The formats the clipboard's owner offers (empty while nobody owns it)."""
    done = subprocess.run(["xclip", "-selection", "clipboard", "-target", "TARGETS", "-out"],
                          capture_output=True, timeout=10)
    return done.stdout


@pytest.fixture
def clipboard_image(display: str, tmp_path: Path) -> Iterator[None]:
    """The PNG on the clipboard, served by xclip for as long as the test runs."""
    image = tmp_path / "red.png"
    image.write_bytes(PNG)
    def serve() -> subprocess.Popen[bytes]:
        return subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard", "-target",
                                 "image/png", "-in", str(image)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    owner = serve()
    deadline = time.monotonic() + 20  # it owns the selection once it has read the file
    while b"image/png" not in _targets():
        if time.monotonic() > deadline:
            owner.kill()
            raise AssertionError("xclip never offered the image on the clipboard")
        if owner.poll() is not None:  # a server still starting refused it: ask again
            owner = serve()
        time.sleep(0.05)
    try:
        yield
    finally:
        owner.kill()
        owner.wait()


async def test_ctrl_v_attaches_the_clipboard_image(api: Any, make_app: Any,
                                                   clipboard_image: None) -> None:
    server = api(["A red square."])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        app.prompt.insert("what is this?")
        await pilot.press("ctrl+v")
        await wait_for(pilot, lambda: ".png" in app.prompt.text, what="image pasted")
        await pilot.press("enter")
        await wait_for(pilot, lambda: server.requests, what="request")
    blocks = server.requests[0]["messages"][0]["content"]
    images = [b for b in blocks if b.get("type") == "image"]
    assert images and base64.b64decode(images[0]["source"]["data"]) == PNG


async def test_ctrl_v_without_an_image_is_the_usual_paste(api: Any, make_app: Any,
                                                          display: str) -> None:
    app = make_app(api([]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        app.copy_to_clipboard("plain words")
        await pilot.press("ctrl+v")
        await wait_for(pilot, lambda: app.prompt.text == "plain words", what="text paste")
