"""Every table and JSON file we write for people and programs: CSV and TSV that a spreadsheet
cannot run as formulas and that read back cell for cell, and strict JSON (never a bare NaN).
The CLI and the app write their exports through here; further formats (LaTeX, xlsx) and
signatures can build on ``table_rows`` and ``cell_text``.

The CSV/TSV rules, and how to read a file back exactly (``read_delimited`` does it):

- Cells follow the csv module's rules (those of pandas and spreadsheets): a cell holding the
  delimiter, a quote, a CR or a LF is quoted, with "" for a quote inside; lines end with LF.
  A CR inside a segment therefore stays inside its cell instead of starting a new row.
- Numbers are written with Python's repr (the shortest text that reads back as the same float);
  a missing value (None, NaN) is an empty cell. Booleans are True/False.
- Text cells (column names too) that a spreadsheet would take for a formula, because they start
  with = + - @, a tab or a CR, get one apostrophe in front, as OWASP recommends; so do text
  cells that already start with an apostrophe. Reading back: drop one leading apostrophe from
  every text cell that has one (``unescape_cell``). Every text cell then equals what was
  written, and numbers compare equal as floats.

Files are written whole or not at all (``write_file``): into a temporary file beside the target,
then renamed over it, so a full disk or an interruption never leaves a truncated export, nor
destroys the one that was there before.
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import secrets
from numbers import Integral, Real
from typing import Any, Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
ESCAPE = "'"


def escape_text(text: str) -> str:
    """A text cell as written: an apostrophe in front of what could start a formula."""
    return ESCAPE + text if text.startswith(FORMULA_STARTS + (ESCAPE,)) else text


def unescape_cell(text: str) -> str:
    """The inverse of ``escape_text`` (for cells read back as text)."""
    return text[1:] if text.startswith(ESCAPE) else text


def cell_text(value: Any) -> str:
    """One value as its CSV/TSV cell: exact numbers, empty for missing, escaped text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Integral):
        return str(int(value))
    if isinstance(value, Real):
        x = float(value)
        return "" if math.isnan(x) else repr(x)
    if _is_missing(value):
        return ""
    return escape_text(str(value))


def _is_missing(value) -> bool:
    """pandas.NA and numpy/pandas NaT without importing either."""
    return type(value).__name__ in ("NAType", "NaTType")


def delimited_row(values: Iterable[Any], delimiter: str = ",") -> str:
    """One line of CSV (or TSV with ``delimiter="\\t"``), LF included: for writing a row at a time."""
    out = io.StringIO()
    # The csv module quotes a cell holding a character of its line terminator; asking for \r\n
    # makes it quote a lone CR as well as a LF, and the \r\n it ends with becomes our \n.
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerow([cell_text(v) for v in values])
    return out.getvalue()[:-2] + "\n"


def table_rows(table) -> tuple[list[str], list[list[Any]]]:
    """(column names, rows) of a pandas DataFrame, a list of dicts, or a (columns, rows) pair."""
    if hasattr(table, "columns") and hasattr(table, "itertuples"):
        return [str(c) for c in table.columns], [list(r) for r in table.itertuples(index=False, name=None)]
    if isinstance(table, tuple) and len(table) == 2:
        columns, rows = table
        return [str(c) for c in columns], [list(r) for r in rows]
    columns = list(dict.fromkeys(k for row in table for k in row))
    return [str(c) for c in columns], [[row.get(c) for c in columns] for row in table]


def delimited_text(table, delimiter: str = ",") -> str:
    """A whole table as CSV (default) or TSV text, header first."""
    columns, rows = table_rows(table)
    return delimited_row(columns, delimiter) + "".join(delimited_row(r, delimiter) for r in rows)


def csv_text(table) -> str:
    return delimited_text(table, ",")


def tsv_text(table) -> str:
    return delimited_text(table, "\t")


def read_delimited(text: str, delimiter: str = ",") -> tuple[list[str], list[list[str]]]:
    """(header, rows) of a file written by ``delimited_text``, every cell as the text that was
    written before escaping (numbers as their repr: ``float(cell)`` gives the number back)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    header, *rows = [[unescape_cell(c) for c in row] for row in reader]
    return header, rows


def strict_json_value(value: Any) -> Any:
    """``value`` with every NaN or infinity replaced by None (JSON has no such numbers) and
    numpy scalars or arrays as plain Python numbers and lists; dict keys as JSON writes them
    (text as it is, True/False/None as true/false/null, numbers as Python writes them, anything
    else by str())."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {_json_key(k): strict_json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict_json_value(v) for v in value]
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):  # numpy scalar or array
        return strict_json_value(value.tolist())
    if _is_missing(value):
        return None
    return value


def _json_key(key: Any) -> str:
    """A dict key as json.dumps writes it (so that both ways of json_text write the same)."""
    if isinstance(key, str):
        return key
    if key is True or key is False or key is None:
        return json.dumps(key)
    if isinstance(key, (int, float)) and not hasattr(key, "tolist"):  # Python's own numbers
        return json.dumps(key) if isinstance(key, int) or math.isfinite(key) else repr(key)
    return str(key)


def json_text(value: Any, indent: int | None = None) -> str:
    """Strict JSON (what any parser accepts): NaN and infinities as null, text as UTF-8.

    json's C encoder is tried first: it refuses what plain JSON cannot hold (a NaN or infinity,
    a numpy or pandas value, a key it cannot write), and only then is the value rewritten by
    strict_json_value, in Python. A CLI segment's JSON line was ~2/3 of that rewriting, more
    than scoring the segment."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=indent)
    except (ValueError, TypeError):
        return json.dumps(strict_json_value(value), ensure_ascii=False, allow_nan=False, indent=indent)


def jsonl_text(values: Iterable[Any]) -> str:
    """One strict JSON value a line (no trailing newline, like the CLI's other formats)."""
    return "\n".join(json_text(v) for v in values)


def write_file(path: str | os.PathLike, data: str | bytes) -> None:
    """``data`` (text as UTF-8) into ``path``, all or nothing: written to a temporary file in the
    same folder, flushed to the disk, then renamed over ``path`` (a rename within a file system
    is atomic: a reader sees the old file or the new one). On any error the temporary file is
    removed and ``path`` is as it was; the OSError is raised as the system gave it."""
    path = os.fspath(path)
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    # 0o666 less the umask, as open() would create it (mkstemp's 0o600 would hide an export)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        if os.path.exists(path):
            os.chmod(temporary, os.stat(path).st_mode & 0o7777)  # a file replaced keeps its permissions
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def read_json_strict(text: str) -> Any:
    """json.loads refusing the NaN/Infinity tokens that Python writes by default (for tests and
    for anyone checking that a file is valid JSON)."""
    def refuse(token):
        raise ValueError(f"not valid JSON: {token}")
    return json.loads(text, parse_constant=refuse)

