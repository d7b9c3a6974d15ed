"""Where the explorer's paraphrase tables come from, without ever opening a path a visitor typed:
the tables in a directory the server's operator names (METEOR_PARAPHRASE_DIR), listed by file
name, and tables a visitor uploads (same byte cap as every upload, also once decompressed),
stored under a name made from their content."""
from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

from meteor_core.textio import MAX_FILE_BYTES, InputError, gunzip_capped, over_limit

DIRECTORY_VARIABLE = "METEOR_PARAPHRASE_DIR"
TABLE_SUFFIXES = (".gz", ".txt")
UPLOAD_DIRECTORY = Path(tempfile.gettempdir()) / "meteor-explorer-paraphrase-uploads"
KEPT_UPLOADS = 8  # older uploads are deleted when a new one is stored (bounded disk)


def configured_tables(environ=os.environ) -> dict[str, str]:
    """File name -> path of every table (regular file ending .gz or .txt) directly inside the
    directory named by METEOR_PARAPHRASE_DIR; empty when it is unset or not a directory."""
    directory = environ.get(DIRECTORY_VARIABLE, "").strip()
    if not directory or not os.path.isdir(directory):
        return {}
    found = {}
    for entry in sorted(os.scandir(directory), key=lambda e: e.name):
        if entry.name.endswith(TABLE_SUFFIXES) and entry.is_file():
            found[entry.name] = entry.path
    return found


def _decompressed(data: bytes, name: str) -> bytes:
    """Gzip data (recognised by its magic bytes, whatever the name) decompressed with the byte
    cap: a small upload must not unpack into gigabytes."""
    return gunzip_capped(data, name) if data.startswith(b"\x1f\x8b") else data


def store_upload(data: bytes, name: str, directory: Path | None = None) -> str:
    """Save an uploaded table (decompressed) under a name made of its content's hash and a
    cleaned copy of its file name; returns the path. Checks the byte cap and UTF-8 first."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError(over_limit(name, len(data)))
    text = _decompressed(data, name)
    try:
        text.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 (byte 0x{text[exc.start]:02x}); save the table as UTF-8") from None
    directory = Path(directory or UPLOAD_DIRECTORY)
    directory.mkdir(mode=0o700, exist_ok=True)
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name.removesuffix(".gz").removesuffix(".txt"))[:40] or "table"
    path = directory / f"{hashlib.sha256(text).hexdigest()[:16]}-{stem}.txt"
    if not path.exists():
        partial = path.with_suffix(".part")
        partial.write_bytes(text)
        partial.replace(path)  # whole or not at all, for a concurrent reader
        _forget_old_uploads(directory, keep=path)
    return str(path)


def _forget_old_uploads(directory: Path, keep: Path) -> None:
    def age(path: Path) -> float:
        try:
            return -path.stat().st_mtime
        except FileNotFoundError:  # another session removed it meanwhile
            return 0.0
    for old in sorted(directory.glob("*.txt"), key=age)[KEPT_UPLOADS:]:
        if old != keep:
            old.unlink(missing_ok=True)
