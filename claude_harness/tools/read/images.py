"""Images as base64 image content blocks, downscaled so they fit what the API accepts.

Why downscale here: the API refuses images over about 5 MB of base64 and shrinks anything much
over ~1500 px on the long edge anyway; sending a 12-megapixel screenshot wastes the upload and
can fail the whole request. The type comes from the file's magic bytes, not its name, because
a `.png` that is really a JPEG would be rejected for the wrong media_type.
"""

from __future__ import annotations

import base64
import io
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow is imported only when an image is read: it costs start time
    from PIL import Image

from claude_harness.protocol.tool import ContentBlocks, ToolError

IMAGE_EXTENSIONS = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp"})
# Pillow can read these; we convert them to PNG since the API does not take them.
CONVERTIBLE_EXTENSIONS = frozenset({".bmp", ".tif", ".tiff", ".ico"})
MAX_DIMENSION = 2000
MAX_IMAGE_BYTES = 3_750_000  # base64 grows by 4/3: stays under the API's 5 MB per image
MAX_SOURCE_BYTES = 100 << 20


def media_type_of(head: bytes) -> str | None:
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def is_image_path(path: str) -> bool:
    ext = os.path.splitext(path)[1].lower()
    return ext in IMAGE_EXTENSIONS or ext in CONVERTIBLE_EXTENSIONS


def _block(media_type: str, data: bytes) -> ContentBlocks:
    return [
        {
            "type": "image",
            "source": {
                "type": "base64",
                "media_type": media_type,
                "data": base64.b64encode(data).decode("ascii"),
            },
        }
    ]


def _encode(img: Image.Image, fmt: str, **opts: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **opts)
    return buf.getvalue()


def _shrink(img: Image.Image, original_type: str | None) -> tuple[str, bytes]:
    """Fit within MAX_DIMENSION, keep PNG for images with transparency (or PNG sources), and
    fall back to ever smaller JPEGs until the bytes fit."""
    from PIL import Image
    img.thumbnail((MAX_DIMENSION, MAX_DIMENSION), Image.Resampling.LANCZOS)
    has_alpha = img.mode in ("RGBA", "LA", "P") and (img.mode != "P" or "transparency" in img.info)
    if has_alpha or original_type in ("image/png", None):
        png = _encode(img.convert("RGBA" if has_alpha else "RGB"), "PNG", optimize=True)
        if len(png) <= MAX_IMAGE_BYTES:
            return "image/png", png
    rgb = img.convert("RGB")
    quality = 85
    while True:
        jpeg = _encode(rgb, "JPEG", quality=quality, optimize=True)
        if len(jpeg) <= MAX_IMAGE_BYTES or (quality <= 40 and max(rgb.size) <= 400):
            return "image/jpeg", jpeg
        if quality > 40:
            quality -= 15
        else:
            rgb = rgb.resize((max(1, rgb.width // 2), max(1, rgb.height // 2)))


def read_image(path: str, fd: int) -> ContentBlocks:
    """The image at `path` (open on `fd`, which this closes) as one image content block."""
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size == 0:
            raise ToolError(f"{path} is an empty file, not an image.", code="empty_image")
        if size > MAX_SOURCE_BYTES:
            raise ToolError(
                f"{path} is {size // (1 << 20)} MB, too large to read as an image.",
                code="too_large",
            )
        data = handle.read()
    return image_block(data, path)


def image_block(data: bytes, label: str) -> ContentBlocks:
    """Image bytes (from a file or a download named `label`) as one image content block,
    shrunk to what the API accepts."""
    from PIL import Image, UnidentifiedImageError

    media_type = media_type_of(data[:16])
    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise ToolError(
            f"{label} could not be read as an image ({exc}). It may be corrupt or not an image.",
            code="bad_image",
        ) from exc
    fits = media_type is not None and len(data) <= MAX_IMAGE_BYTES
    if fits and max(img.size) <= MAX_DIMENSION:
        return _block(media_type or "image/png", data)
    new_type, new_data = _shrink(img, media_type)
    return _block(new_type, new_data)
