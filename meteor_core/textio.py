"""Reading segment files (one segment a line) with clear errors, for the CLI and the app."""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
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


# --- one table holding the whole test set (TSV, CSV or JSONL) ---------------------------------

SOURCE_COLUMNS = ("source", "src")


@dataclass
class TestSet:
    references: list[list[str]]  # per segment, its references
    systems: dict[str, list[str]]  # system name -> one output per segment
    sources: list[str] | None = None
    reference_names: list[str] = field(default_factory=list)


def decode_table(data: bytes, name: str) -> TestSet:
    """A TSV, CSV or JSONL file with columns: source (optional), one or more reference columns
    (named ref, ref1, reference, ...) and two or more system columns (any other name)."""
    lines = decode_segments(data, name)  # size, encoding and NUL checks
    lower = name.lower()
    if lower.endswith((".jsonl", ".json")):
        rows = []
        for k, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{name}: line {k} is not JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise InputError(f"{name}: line {k} is not a JSON object")
            rows.append({str(key): "" if v is None else str(v) for key, v in row.items()})
        header = list(dict.fromkeys(key for row in rows for key in row))
    else:
        delimiter = "\t" if lower.endswith(".tsv") or "\t" in lines[0] else ","
        reader = csv.reader(lines, delimiter=delimiter)
        try:
            header, *records = list(reader)
        except (csv.Error, ValueError) as exc:
            raise InputError(f"{name}: cannot parse as {'TSV' if delimiter == chr(9) else 'CSV'} ({exc})") from None
        header = [h.strip() for h in header]
        for k, rec in enumerate(records, start=2):
            if len(rec) != len(header):
                raise InputError(f"{name}: line {k} has {len(rec)} fields, the header has {len(header)}")
        rows = [dict(zip(header, rec)) for rec in records]
    if not rows:
        raise InputError(f"{name}: no segments (only a header?)")
    refs = [h for h in header if h.lower().startswith("ref")]
    sources = [h for h in header if h.lower() in SOURCE_COLUMNS]
    systems = [h for h in header if h not in refs and h not in sources]
    if not refs:
        raise InputError(f"{name}: no reference column; name one 'ref' (or ref1, ref2, ...). Columns: {', '.join(header)}")
    if len(systems) < 2:
        raise InputError(f"{name}: needs two or more system columns besides {', '.join(refs + sources)}; "
                         f"found {len(systems)}")
    for k, row in enumerate(rows, start=1):
        missing = [h for h in refs + systems if h not in row]
        if missing:
            raise InputError(f"{name}: segment {k} has no value for {', '.join(missing)}")
    return TestSet(
        references=[[row[h] for h in refs] for row in rows],
        systems={h: [row[h] for row in rows] for h in systems},
        sources=[row[sources[0]] for row in rows] if sources else None,
        reference_names=refs,
    )


def load_test_set(references: list[tuple[str, list[str]]], systems: list[tuple[str, list[str]]]):
    """(name, segments) of reference files and of system files -> (systems by unique name,
    references per segment), after checking that every file has as many lines."""
    by_name: dict[str, list[str]] = {}
    for name, lines in systems:
        while name in by_name:  # two files of the same name (e.g. from different folders)
            name += "'"
        by_name[name] = lines
    check_same_length({**{f"{name} (reference {k + 1})": lines for k, (name, lines) in enumerate(references)},
                       **by_name})
    return by_name, [list(seg) for seg in zip(*(lines for _, lines in references))]
