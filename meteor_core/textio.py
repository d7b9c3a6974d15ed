"""Reading segment files (one segment a line) and test-set tables, bounded and with clear errors,
for the CLI and the app.

Every read is capped in bytes whatever the file is: a regular file, a pipe or FIFO, a device such
as /dev/zero, a /proc file that reports size 0. At most ``cap + 1`` bytes are read, then the file
is refused; a pipe or device that sends nothing for ``STREAM_IDLE_SECONDS`` is given up on
instead of waited for. ``iter_segments`` streams a file segment by segment with the same checks
as ``read_segments`` (one implementation serves both).
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import os
import re
import select
import stat
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

MAX_FILE_BYTES = 20 * 1024 * 1024  # 20 MiB: ~100k segments of typical MT output
MAX_SEGMENTS = 100_000
READ_CHUNK = 1 << 20  # bytes asked for per read
STREAM_IDLE_SECONDS = 10.0  # a pipe or device silent this long is given up on (not waited for)
_BOM = b"\xef\xbb\xbf"


class InputError(ValueError):
    """Bad user input, with a message meant to be shown as is (one line)."""


def _limit(cap: int) -> str:
    """A byte limit as the messages give it: '20 MiB (20,971,520-byte)'."""
    return f"{cap // 2**20} MiB ({cap:,}-byte)" if cap % 2**20 == 0 else f"{cap:,}-byte"


def over_limit(name: str, size: int, cap: int = MAX_FILE_BYTES) -> str:
    """The message for ``size`` bytes over a ``cap``: rounding alone must not make the two look
    equal ("20.0 MiB (20,971,530 bytes) is over the 20 MiB (20,971,520-byte) limit")."""
    return f"{name}: {size / 2**20:.1f} MiB ({size:,} bytes) is over the {_limit(cap)} limit"


# --- bounded reading ------------------------------------------------------------------------

def _open(path: str | Path) -> tuple[int, bool, int]:
    """(file descriptor, is a regular file, its size). Opened non-blocking: opening a FIFO
    that has no writer returns at once instead of waiting for one."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        os.close(fd)
        raise InputError(f"{path}: is a directory, not a file")
    regular = stat.S_ISREG(info.st_mode)
    if regular:
        os.set_blocking(fd, True)
    return fd, regular, info.st_size


def _chunks(fd: int, regular: bool, size: int, name: str, cap: int) -> Iterator[bytes]:
    """The file's bytes in pieces; refuses it once more than ``cap`` bytes came (cap + 1 read).
    Closes ``fd`` when done."""
    poller = None
    try:
        if regular and size > cap:  # the size a regular file reports is a hint, the cap is the rule
            raise InputError(over_limit(name, size, cap))
        if not regular:  # poll, not epoll: a device that cannot be polled (/dev/zero) is always ready
            poller = select.poll()
            poller.register(fd, select.POLLIN)
        total = 0
        while True:
            if poller is not None and not poller.poll(STREAM_IDLE_SECONDS * 1000):
                raise InputError(f"{name}: no data for {STREAM_IDLE_SECONDS:g} s (a pipe or device with no "
                                 "writer?); give a file")
            try:
                piece = os.read(fd, min(READ_CHUNK, cap + 1 - total))
            except BlockingIOError:
                continue
            except OSError as exc:
                raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None
            if not piece:
                return
            total += len(piece)
            if total > cap:
                raise InputError(f"{name}: more than {cap:,} bytes: over the {_limit(cap)} limit")
            yield piece
    finally:
        os.close(fd)


def gunzip_capped(data: bytes, name: str, cap: int = MAX_FILE_BYTES) -> bytes:
    """Gzip data decompressed: every member (as ``gzip -d`` gives them: .gz files concatenated
    are all of them), refused once more than ``cap`` bytes come out (a small .gz can expand
    enormously) and when truncated or damaged, never cut short quietly."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            out = stream.read(cap + 1)
    except EOFError:
        raise InputError(f"{name}: the gzip file is truncated (its data ends before the end of the compressed "
                         "stream; `gzip -t` says so too); nothing was read from it") from None
    except (OSError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
        raise InputError(f"{name}: not a readable gzip file ({exc})") from None
    if len(out) > cap:
        raise InputError(f"{name}: over {_limit(cap)} once decompressed; the limit is the same as for a file")
    return out


def read_capped(path: str | Path, cap: int = MAX_FILE_BYTES) -> bytes:
    """All the bytes of ``path`` if there are at most ``cap``; else InputError (never more than
    cap + 1 bytes are read, whatever the file reports as its size)."""
    return b"".join(_chunks(*_open(path), str(path), cap))


# --- segments: one a line, UTF-8 (BOM allowed), \n or \r\n --------------------------------------

def _lines(chunks: Iterable[bytes], name: str) -> Iterator[str]:
    """Decode a byte stream into segments, one at a time: UTF-8 (a leading BOM is dropped), \\n
    or \\r\\n line ends (a bare \\r inside a line stays), no NUL, at most MAX_SEGMENTS. A final
    newline ends the last line; it does not start a new one. Lines are decoded a block at a
    time, cut after a newline (a newline byte is never inside a UTF-8 sequence)."""
    pending, done, started = b"", 0, False
    for chunk in _with_end(chunks):
        if chunk is None:
            block, pending = pending, b""
            if not block:
                break
        else:
            pending += chunk
            if not started:
                if len(pending) < len(_BOM) and _BOM.startswith(pending):
                    continue  # perhaps a BOM cut across two reads
                pending, started = pending.removeprefix(_BOM), True
            cut = pending.rfind(b"\n") + 1
            if not cut:
                continue
            block, pending = pending[:cut], pending[cut:]
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = done + block[: exc.start].count(b"\n") + 1
            raise InputError(f"{name}: not UTF-8 (byte 0x{block[exc.start]:02x} on line {line}); "
                             "save the file as UTF-8") from None
        if "\x00" in text:
            line = done + text[: text.index("\x00")].count("\n") + 1
            raise InputError(f"{name}: contains NUL bytes on line {line}; is it a binary file?")
        lines = text.split("\n")
        if chunk is not None:
            lines.pop()  # the block ends with "\n": nothing after it yet
        for line in lines:
            done += 1
            if done > MAX_SEGMENTS:
                raise InputError(f"{name}: more than {MAX_SEGMENTS:,} lines: over the {MAX_SEGMENTS:,} segment limit")
            yield line[:-1] if line.endswith("\r") else line
    if not done:
        raise InputError(f"{name}: the file is empty")


def _with_end(chunks: Iterable[bytes]) -> Iterator[bytes | None]:
    yield from chunks
    yield None


def decode_segments(data: bytes, name: str) -> list[str]:
    """Bytes of a one-segment-a-line file -> segments (the rules of ``_lines``)."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError(over_limit(name, len(data)))
    return list(_lines([data], name))


def iter_segments(path: str | Path) -> Iterator[str]:
    """Segments of ``path`` one at a time, read with the byte cap, with the checks of
    ``read_segments`` raised as InputError when the reading reaches them (an unreadable path
    is refused on the call itself, before any segment)."""
    return _lines(_chunks(*_open(path), str(path), MAX_FILE_BYTES), str(path))


def read_segments(path: str | Path) -> list[str]:
    return list(iter_segments(path))


def check_same_length(named: dict[str, list[str]]) -> int:
    """All files must have as many lines; returns that count."""
    counts = {name: len(lines) for name, lines in named.items()}
    if len(set(counts.values())) > 1:
        detail = ", ".join(f"{name}: {n}" for name, n in counts.items())
        raise InputError(f"line counts differ ({detail}); each line must be one segment")
    return next(iter(counts.values()))


def zip_same_length(named: dict[str, Iterable[str]]) -> Iterator[tuple[str, ...]]:
    """The streaming form of ``check_same_length``: one tuple a segment (a segment of every
    file), and InputError as soon as one file ends before the others."""
    iterators = [iter(lines) for lines in named.values()]
    done = 0
    while True:
        row = [next(it, None) for it in iterators]
        if all(seg is None for seg in row):
            return
        if any(seg is None for seg in row):
            detail = ", ".join(f"{name}: {done if seg is None else f'{done + 1} or more'}"
                               for name, seg in zip(named, row))
            raise InputError(f"line counts differ ({detail}); each line must be one segment")
        done += 1
        yield tuple(row)


# --- one table holding the whole test set (TSV, CSV or JSONL) ---------------------------------

SOURCE_COLUMNS = ("source", "src")
# A reference column is named exactly ref or reference, optionally with a number (ref1, ref_2,
# reference-3), in any case. Other names starting with "ref" ("referee", "refined") are refused
# rather than guessed at: a system output scored as a reference would give wrong numbers quietly.
REFERENCE_NAME = re.compile(r"ref(?:erence)?(?:[ _-]?\d+)?", re.IGNORECASE)


@dataclass
class TestSet:
    references: list[list[str]]  # per segment, its references
    systems: dict[str, list[str]]  # system name -> one output per segment
    sources: list[str] | None = None
    reference_names: list[str] = field(default_factory=list)


def decode_text(data: bytes, name: str) -> str:
    """A whole UTF-8 file as text (BOM dropped), with the byte cap and the NUL check."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError(over_limit(name, len(data)))
    try:
        text = data.removeprefix(_BOM).decode("utf-8")
    except UnicodeDecodeError as exc:
        body = data.removeprefix(_BOM)
        line = body[: exc.start].count(b"\n") + 1
        raise InputError(f"{name}: not UTF-8 (byte 0x{body[exc.start]:02x} on line {line}); "
                         "save the file as UTF-8") from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InputError(f"{name}: contains NUL bytes on line {line}; is it a binary file?")
    if not text.strip():
        raise InputError(f"{name}: the file is empty")
    return text


def _delimited_rows(text: str, name: str, delimiter: str) -> tuple[list[str], list[dict[str, str]]]:
    """CSV/TSV by the csv module's rules (as pandas reads them): quoted cells may hold the
    delimiter, newlines and "" for a quote; blank lines are skipped; every row has the
    header's number of fields."""
    kind = "TSV" if delimiter == "\t" else "CSV"
    # One cell may be as long as a whole file; the csv module's default stops at 131,072 characters.
    csv.field_size_limit(max(csv.field_size_limit(), MAX_FILE_BYTES))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    records: list[tuple[int, list[str]]] = []
    try:
        for record in reader:
            if record:
                records.append((reader.line_num, record))
                if len(records) > MAX_SEGMENTS + 1:  # the header and one row too many: stop reading
                    raise InputError(f"{name}: more than {MAX_SEGMENTS:,} rows: over the {MAX_SEGMENTS:,} segment limit")
    except csv.Error as exc:
        raise InputError(f"{name}: cannot parse as {kind} at line {reader.line_num} ({exc}); a cell that "
                         f"starts with a quote must be quoted whole, with \"\" for a quote inside") from None
    header, body = [h.strip() for h in records[0][1]], records[1:]
    _check_header(header, name)
    for line, record in body:
        if len(record) != len(header):
            raise InputError(f"{name}: line {line} has {len(record)} fields, the header has {len(header)}")
    return header, [dict(zip(header, record)) for _, record in body]


def _check_header(header: list[str], name: str) -> None:
    unnamed = [k + 1 for k, h in enumerate(header) if not h]
    if unnamed:
        raise InputError(f"{name}: column(s) {', '.join(map(str, unnamed))} of the header have no name")
    positions: dict[str, list[int]] = {}
    for k, h in enumerate(header, start=1):
        positions.setdefault(h, []).append(k)
    repeated = {h: ks for h, ks in positions.items() if len(ks) > 1}
    if repeated:
        detail = "; ".join(f"{h!r} (columns {', '.join(map(str, ks[:-1]))} and {ks[-1]})" for h, ks in repeated.items())
        raise InputError(f"{name}: duplicate column name(s): {detail}; every column needs its own name")


_JSON_KINDS = {bool: "true or false", int: "a number", float: "a number", list: "a list", dict: "an object",
               type(None): "null"}


def json_kind(value) -> str:
    """What a JSON value that is not text is, for a message: 'a number (5)', 'an object ({"a": 1})'."""
    shown = json.dumps(value, ensure_ascii=False, default=str)
    shown = shown if len(shown) <= 20 else shown[:20] + "…"
    kind = _JSON_KINDS.get(type(value), "not text")
    return kind if shown == kind else f"{kind} ({shown})"


def _jsonl_rows(text: str, name: str, text_only: bool = True) -> tuple[list[str], list[dict[str, str]]]:
    """One JSON object a line; every value a string (a number or null is refused, not turned into
    text) unless ``text_only`` is off (tables of human scores hold numbers and nulls); a key given
    twice in one object is refused (json would keep the last quietly)."""
    rows = []
    for k, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        repeated: list[str] = []

        def pairs_hook(pairs, repeated=repeated):
            seen = set()
            for key, _ in pairs:
                if key in seen:
                    repeated.append(key)
                seen.add(key)
            return dict(pairs)

        try:
            row = json.loads(line, object_pairs_hook=pairs_hook)
        except json.JSONDecodeError as exc:
            raise InputError(f"{name}: line {k} is not JSON ({exc.msg})") from None
        except RecursionError:
            raise InputError(f"{name}: line {k} nests too deeply to be a row") from None
        except ValueError as exc:  # an integer of more than 4,300 digits (Python's limit on reading them)
            raise InputError(f"{name}: line {k} cannot be read ({' '.join(str(exc).split())[:120]})") from None
        if not isinstance(row, dict):
            raise InputError(f"{name}: line {k} is not a JSON object")
        if repeated:
            raise InputError(f"{name}: line {k} repeats the key(s) {', '.join(map(repr, dict.fromkeys(repeated)))}")
        for key, value in row.items() if text_only else ():
            if not isinstance(value, str):
                raise InputError(f"{name}: line {k}, column {key!r}: {json_kind(value)}, "
                                 "not text; write every value as a JSON string (an empty output is \"\")")
        rows.append(row)
        if len(rows) > MAX_SEGMENTS:
            raise InputError(f"{name}: more than {MAX_SEGMENTS:,} rows: over the {MAX_SEGMENTS:,} segment limit")
    header = list(dict.fromkeys(key for row in rows for key in row))
    _check_header(header, name)
    return header, rows


def table_rows(data: bytes, name: str, text_only: bool = True) -> tuple[list[str], list[dict]]:
    """A TSV, CSV or JSONL file's header and rows. The format comes from the extension (.tsv,
    .csv, .jsonl/.json); otherwise tab-separated if the first line has a tab, else
    comma-separated. ``text_only``: see ``_jsonl_rows``."""
    text = decode_text(data, name)
    lower = name.lower()
    if lower.endswith((".jsonl", ".json")):
        return _jsonl_rows(text, name, text_only)
    first_line = text.split("\n", 1)[0]
    delimiter = "\t" if lower.endswith(".tsv") or (not lower.endswith(".csv") and "\t" in first_line) else ","
    return _delimited_rows(text, name, delimiter)


def decode_table(data: bytes, name: str) -> TestSet:
    """A TSV, CSV or JSONL file (``table_rows``) with columns: source (optional: source or src),
    one or more reference columns (``REFERENCE_NAME``: ref, ref1, reference_2, ...) and two or
    more system columns (any other name)."""
    header, rows = table_rows(data, name)
    if not rows:
        raise InputError(f"{name}: no segments (only a header?)")
    refs = [h for h in header if REFERENCE_NAME.fullmatch(h.strip())]
    sources = [h for h in header if h.strip().lower() in SOURCE_COLUMNS]
    lookalikes = [h for h in header if h.strip().lower().startswith("ref") and h not in refs]
    if lookalikes:
        raise InputError(f"{name}: column(s) {', '.join(map(repr, lookalikes))} start with 'ref' but are not a "
                         "reference name (ref, ref1, ref2, …, reference, reference_1, …); rename them "
                         "(a system's name must not start with 'ref')")
    if len(sources) > 1:
        raise InputError(f"{name}: more than one source column ({', '.join(map(repr, sources))}); keep one")
    systems = [h for h in header if h not in refs and h not in sources]
    if not refs:
        raise InputError(f"{name}: no reference column; name one 'ref' (or ref1, ref2, ...). "
                         f"Columns: {', '.join(map(repr, header))}")
    if len(systems) < 2:
        raise InputError(f"{name}: needs two or more system columns besides {', '.join(map(repr, refs + sources))}; "
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


def read_table(path: str | Path) -> TestSet:
    """``decode_table`` of a file, read with the byte cap."""
    return decode_table(read_capped(path), str(path))


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
