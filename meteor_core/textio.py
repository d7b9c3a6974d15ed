"""Reading segment files (one segment a line) with clear errors, for the CLI and the app."""
from __future__ import annotations

from pathlib import Path

MAX_FILE_BYTES = 20 * 1024 * 1024  # 20 MiB: ~100k segments of typical MT output
MAX_SEGMENTS = 100_000


class InputError(ValueError):
    """Bad user input, with a message meant to be shown as is (one line)."""


def decode_segments(data: bytes, name: str) -> list[str]:
    """Bytes of a one-segment-a-line file -> segments. UTF-8 (a BOM is allowed), \\n or \\r\\n."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{name}: {len(data) / 2**20:.1f} MiB is over the {MAX_FILE_BYTES // 2**20} MiB limit")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{name}: not UTF-8 (byte 0x{data[exc.start]:02x} on line {line}); "
                         "save the file as UTF-8") from None
    if "\x00" in text:
        raise InputError(f"{name}: contains NUL bytes; is it a binary file?")
    if text.endswith("\n"):
        text = text[:-1]
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")] if text else []
    if not lines:
        raise InputError(f"{name}: the file is empty")
    if len(lines) > MAX_SEGMENTS:
        raise InputError(f"{name}: {len(lines)} lines is over the {MAX_SEGMENTS} segment limit")
    return lines


def read_segments(path: str | Path) -> list[str]:
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(f"{path}: {size / 2**20:.1f} MiB is over the {MAX_FILE_BYTES // 2**20} MiB limit")
        data = path.read_bytes()
    except InputError:
        raise
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return decode_segments(data, str(path))


def check_same_length(named: dict[str, list[str]]) -> int:
    """All files must have as many lines; returns that count."""
    counts = {name: len(lines) for name, lines in named.items()}
    if len(set(counts.values())) > 1:
        detail = ", ".join(f"{name}: {n}" for name, n in counts.items())
        raise InputError(f"line counts differ ({detail}); each line must be one segment")
    return next(iter(counts.values()))
