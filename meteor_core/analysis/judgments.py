"""Reading a table of system outputs with human judgments (for ``agreement`` and ``tuning``).

One row per (segment, system): columns ``system``, ``seg_id``, ``hypothesis``, ``reference``
(more references as ``reference2``, ``reference3`` …), optionally ``source``, a numeric human
score column (its name is chosen: ``human`` by default, ``mqm`` for the WMT MQM data) and,
optionally, a split column saying which rows are for training (``train``) and which are held
out (``heldout`` or ``test``). JSONL, TSV or CSV, gzipped or not. An empty human score
(empty cell, JSON null, NA, NaN) is *missing*: the row is scored but left out of correlations.

Every problem is an ``InputError`` with a one-line message naming the file and the row (rows
counted from 1, the header and blank lines left out). No row is ever dropped: a table is read
whole (every member of a multi-member gzip file; a truncated one is refused) or refused.

Values: the text columns (system, hypothesis, reference…, source) hold text; a JSON number,
true/false, list or object there is refused, not scored as its ``str()``. A seg_id is text or a
JSON number, and a JSON number names its segment by value (84 and 84.0 are one segment, "84");
two seg_ids written as text that name the same number in different ways ("84" and "84.0", "7"
and "007") are refused rather than taken for two segments. Human scores are numbers within
±``MAX_HUMAN_SCORE``: larger ones (a 400-digit integer, ±1.7e308) are refused, since means and
correlations of them overflow.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from ..textio import InputError, gunzip_capped, json_kind, read_capped, table_rows

DEFAULT_HUMAN = "human"
TEXT_COLUMNS = ("system", "seg_id", "hypothesis", "reference")
SOURCE_COLUMN = "source"
_MORE_REFERENCES = re.compile(r"reference(\d+)$")
MISSING = {"", "na", "n/a", "nan", "null", "none"}  # human-score cells that mean "not rated"
TRAIN, HELDOUT = "train", "heldout"
_SPLIT_VALUES = {"train": TRAIN, "heldout": HELDOUT, "held-out": HELDOUT, "test": HELDOUT}
# The largest human score taken, either sign: squares and sums of 100,000 of them stay far below
# the largest float (1.8e308), so means and correlations cannot overflow.
MAX_HUMAN_SCORE = 1e100


@dataclass(frozen=True)
class RawTable:
    """A parsed file before its columns are checked: the header and the rows as dicts."""

    name: str
    header: list[str]
    rows: list[dict]  # column -> value (str from TSV/CSV; any JSON value from JSONL)

    def numeric_columns(self) -> list[str]:
        """Columns other than the text ones whose filled cells are all numbers: the choices
        for the human score."""
        out = []
        for column in self.header:
            if column in TEXT_COLUMNS or column == SOURCE_COLUMN or _MORE_REFERENCES.match(column):
                continue
            try:
                values = [_number(row.get(column)) for row in self.rows]
            except ValueError:
                continue
            if any(not math.isnan(v) for v in values):
                out.append(column)
        return out


@dataclass(frozen=True)
class JudgedTable:
    """Rows of (system, segment) with their texts and human score (NaN = not rated)."""

    systems: tuple[str, ...]
    seg_ids: tuple[str, ...]
    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    human: np.ndarray
    human_column: str = DEFAULT_HUMAN
    split: tuple[str, ...] | None = None  # TRAIN or HELDOUT per row, from a split column
    name: str = ""
    segment_order: tuple[str, ...] = field(default=())  # the distinct seg_ids, sorted (numerically if all are integers)

    def __len__(self) -> int:
        return len(self.systems)

    @property
    def system_names(self) -> list[str]:
        return list(dict.fromkeys(self.systems))

    @property
    def rated(self) -> np.ndarray:
        """Rows with a human score."""
        return ~np.isnan(self.human)

    def subset(self, keep: np.ndarray) -> "JudgedTable":
        """The rows where the boolean ``keep`` is true, or the rows at the indices ``keep``
        (repeats allowed, as in a bootstrap sample), in that order."""
        idx = row_indices(keep)
        pick = (lambda values: tuple(values[k] for k in idx))
        seg_ids = pick(self.seg_ids)
        present = set(seg_ids)
        return JudgedTable(pick(self.systems), seg_ids, pick(self.hypotheses), pick(self.references),
                           self.human[idx], self.human_column, pick(self.split) if self.split else None, self.name,
                           tuple(s for s in self.segment_order if s in present))


def row_indices(keep) -> np.ndarray:
    keep = np.asarray(keep)
    return np.flatnonzero(keep) if keep.dtype == bool else keep.astype(np.int64)


def _number(value) -> float:
    """A human-score cell as a float; NaN when missing; ValueError when it is not a number or
    not within ±MAX_HUMAN_SCORE (an integer too large for a float included)."""
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(value)
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in MISSING:
            return math.nan
        value = text
    try:
        number = float(value)
    except OverflowError:  # an int beyond the floats
        raise _OutOfRange(value) from None
    if not abs(number) <= MAX_HUMAN_SCORE:  # (a NaN as text is MISSING above; JSON has none)
        raise _OutOfRange(value)
    return number


class _OutOfRange(ValueError):
    """A number, but beyond ±MAX_HUMAN_SCORE."""


def read_table(data: bytes, name: str) -> RawTable:
    """Bytes of a JSONL, TSV or CSV file (``.gz`` allowed) -> header and rows, read by textio's
    table reader (the csv module's quoting, header checks, repeated keys refused); a JSON number
    or null is a value here (a score, a missing one), not an error."""
    if name.lower().endswith(".gz"):
        data, name = gunzip_capped(data, name), name[:-3]
    header, rows = table_rows(data, name, text_only=False)
    if not rows:
        raise InputError(f"{name}: no rows (only a header?)")
    return RawTable(name, header, rows)


def _text(value, column: str, place: str, name: str) -> str:
    """A text column's value; a JSON number, true/false, list or object is refused."""
    if not isinstance(value, str):
        raise InputError(f"{name}: {place}, column {column!r}: {json_kind(value)}, not text; write it as a "
                         "JSON string")
    return value


def _seg_id(value, place: str, name: str) -> str:
    """A seg_id as text: a JSON number by its value (84 and 84.0 are "84"), text as written."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"{name}: {place}, column 'seg_id': {json_kind(value)}; a seg_id is text or a number")


def _check_seg_id_spellings(seg_ids: list[str], name: str) -> None:
    """Refuse two seg_ids that are one number written two ways ("84" and "84.0", "7" and "007"):
    taken as text they would be two segments, quietly."""
    first: dict[float, tuple[str, int]] = {}
    for row, seg_id in enumerate(seg_ids, start=1):
        try:
            value = float(seg_id)
        except (ValueError, OverflowError):
            continue
        if not math.isfinite(value):
            continue
        seen, seen_row = first.setdefault(value, (seg_id, row))
        if seen != seg_id:
            raise InputError(f"{name}: the seg_ids {seen!r} (row {seen_row}) and {seg_id!r} (row {row}) are the same "
                             "number written two ways; write each segment's seg_id one way (as it stands they "
                             "would be two segments)")


def _segment_order(seg_ids) -> tuple[str, ...]:
    distinct = list(dict.fromkeys(seg_ids))
    try:
        return tuple(sorted(distinct, key=int))
    except ValueError:
        return tuple(sorted(distinct))


def judged_table(raw: RawTable, human: str = DEFAULT_HUMAN, split_column: str | None = None) -> JudgedTable:
    """Check the columns and values of ``raw`` and build the table the analyses take."""
    name = raw.name
    missing = [c for c in TEXT_COLUMNS if c not in raw.header]
    if missing:
        raise InputError(f"{name}: no column {', '.join(repr(c) for c in missing)}; a table needs "
                         f"{', '.join(TEXT_COLUMNS)} (more references as reference2, …) and a human-score "
                         f"column. Columns found: {', '.join(raw.header)}")
    if human not in raw.header:
        numeric = raw.numeric_columns()
        hint = f"; numeric columns: {', '.join(numeric)}" if numeric else ""
        raise InputError(f"{name}: no human-score column {human!r} (choose it with --human{hint})")
    if human in TEXT_COLUMNS or _MORE_REFERENCES.match(human) or human == split_column:
        raise InputError(f"{name}: {human!r} is a text column, not a human score")
    more = sorted((int(m.group(1)), c) for c in raw.header if (m := _MORE_REFERENCES.match(c)))
    reference_columns = ["reference"] + [c for _, c in more]
    if split_column is not None and split_column not in raw.header:
        raise InputError(f"{name}: no split column {split_column!r}. Columns found: {', '.join(raw.header)}")

    systems, seg_ids, hyps, refs, scores, split = [], [], [], [], [], []
    seen: dict[tuple[str, str], str] = {}
    for number, row in enumerate(raw.rows, start=1):
        place = f"row {number}"  # the header is not a row; blank lines are not rows
        texts = {}
        for column in TEXT_COLUMNS:
            value = row.get(column)
            if value is None or (column != "hypothesis" and str(value).strip() == ""):
                raise InputError(f"{name}: {place} has no {column}")
            texts[column] = _seg_id(value, place, name) if column == "seg_id" else _text(value, column, place, name)
        key = (texts["system"], texts["seg_id"])
        if key in seen:
            raise InputError(f"{name}: {place} repeats system {key[0]!r} on seg_id {key[1]!r} "
                             f"(first on {seen[key]})")
        seen[key] = place
        try:
            score = _number(row.get(human))
        except (TypeError, ValueError) as exc:
            within = f" within ±{MAX_HUMAN_SCORE:.0e}" if isinstance(exc, _OutOfRange) else ""
            raise InputError(f"{name}: the human-score column {human!r} must hold numbers{within}; {place} has "
                             f"{_shown(row.get(human))} (leave a cell empty when a row is not rated)") from None
        if split_column is not None:
            value = str(row.get(split_column) or "").strip().lower()
            if value not in _SPLIT_VALUES:
                raise InputError(f"{name}: the split column {split_column!r} must say train or heldout (or test); "
                                 f"{place} has {str(row.get(split_column))[:40]!r}")
            split.append(_SPLIT_VALUES[value])
        systems.append(texts["system"])
        seg_ids.append(texts["seg_id"])
        hyps.append(texts["hypothesis"])
        refs.append(tuple(_text(row[c], c, place, name) for c in reference_columns if row.get(c) is not None
                          and str(row[c]).strip()))
        if row.get(SOURCE_COLUMN) is not None:
            _text(row[SOURCE_COLUMN], SOURCE_COLUMN, place, name)
        scores.append(score)

    _check_seg_id_spellings(seg_ids, name)
    human_scores = np.array(scores, dtype=np.float64)
    rated = ~np.isnan(human_scores)
    if not rated.any():
        raise InputError(f"{name}: no row has a human score in {human!r}")
    names = list(dict.fromkeys(systems))
    if len(names) < 2:
        raise InputError(f"{name}: one system only ({names[0]!r}); agreement needs two or more systems "
                         "(system level: their ranking; segment level: their scores on the same segment)")
    if np.ptp(human_scores[rated]) == 0:
        raise InputError(f"{name}: every human score in {human!r} is {human_scores[rated][0]:g}; "
                         "constant judgments cannot agree or disagree with a metric")
    return JudgedTable(tuple(systems), tuple(seg_ids), tuple(hyps), tuple(refs), human_scores, human,
                       tuple(split) if split_column is not None else None, name, _segment_order(seg_ids))


def _shown(value) -> str:
    """A cell for a message: at most 40 characters, a long number by its length."""
    text = str(value)
    if len(text) > 40:
        digits = sum(c.isdigit() for c in text)
        return f"{text[:20]!r}… ({len(text):,} characters{f', {digits:,} digits' if digits > 20 else ''})"
    return repr(text)


def load_judgments(data: bytes, name: str, human: str = DEFAULT_HUMAN, split_column: str | None = None) -> JudgedTable:
    return judged_table(read_table(data, name), human, split_column)


def read_judgments(path, human: str = DEFAULT_HUMAN, split_column: str | None = None) -> JudgedTable:
    """A table file -> ``JudgedTable`` (``InputError`` for anything wrong with it); read with
    textio's byte cap, whatever kind of file the path is."""
    return load_judgments(read_capped(path), str(path), human, split_column)

