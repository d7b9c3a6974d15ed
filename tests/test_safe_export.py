"""Exports: no cell a spreadsheet would run as a formula, a CR inside a segment stays in its cell,
every export reads back cell for cell, JSON is always strict."""
import io
import json
import math

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as hs

from meteor_core.safe_export import (cell_text, csv_text, delimited_row, json_text, read_delimited, read_json_strict,
                                tsv_text, unescape_cell)


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "=HYPERLINK(\"http://x\")"])
def test_formula_cells_get_an_apostrophe(text):
    assert cell_text(text) == "'" + text
    assert unescape_cell(cell_text(text)) == text


def test_numbers_and_plain_text_are_left_alone():
    assert cell_text(-0.25) == "-0.25" and cell_text(3) == "3" and cell_text(0.1 + 0.2) == repr(0.1 + 0.2)
    assert cell_text("a = b") == "a = b" and cell_text(None) == "" and cell_text(float("nan")) == ""
    assert cell_text("'quoted'") == "''quoted'"  # so that one apostrophe is always dropped on reading


def test_a_bare_cr_does_not_break_the_row():
    line = delimited_row(["a\rb", "c"])
    assert line == '"a\rb",c\n'
    for reader in (lambda t: pd.read_csv(io.StringIO(t), dtype=str, keep_default_na=False).values.tolist(),
                   lambda t: read_delimited(t)[1]):
        assert reader("x,y\n" + line) == [["a\rb", "c"]]


def test_csv_of_a_dataframe_reads_back_with_pandas():
    df = pd.DataFrame({"segment": [1, 2], "=sys": [0.5, -0.125], "text": ["-1 + 2", "line\rbreak"]})
    back = pd.read_csv(io.StringIO(csv_text(df)), dtype=str, keep_default_na=False).map(unescape_cell)
    back.columns = [unescape_cell(c) for c in back.columns]
    assert list(back.columns) == ["segment", "=sys", "text"]
    assert back["text"].tolist() == ["-1 + 2", "line\rbreak"]
    assert [float(x) for x in back["=sys"]] == [0.5, -0.125]


any_text = hs.text(hs.characters(blacklist_categories=("Cs",)), max_size=15)
cells = hs.one_of(any_text, hs.floats(allow_nan=False, allow_infinity=False), hs.integers(-10**12, 10**12))


@settings(max_examples=300, deadline=None)
@given(hs.lists(any_text, min_size=1, max_size=4, unique=True), hs.data(), hs.sampled_from([",", "\t"]))
def test_fuzz_every_cell_reads_back(columns, data, delimiter):
    rows = data.draw(hs.lists(hs.lists(cells, min_size=len(columns), max_size=len(columns)), max_size=5))
    text = (csv_text if delimiter == "," else tsv_text)((columns, rows))
    header, back = read_delimited(text, delimiter)
    assert header == columns and len(back) == len(rows)
    for written, read in zip(rows, back):
        for value, cell in zip(written, read):
            if isinstance(value, str):
                assert cell == value
            else:
                assert float(cell) == value
    # and a spreadsheet never sees a formula: no cell starts with a formula character
    raw = pd.read_csv(io.StringIO(text), sep=delimiter, dtype=str, keep_default_na=False, header=None)
    for cell in raw.values.ravel():
        assert not (isinstance(cell, str) and cell.startswith(("=", "+", "@", "\t", "\r"))) or _is_number(cell)


def _is_number(cell: str) -> bool:
    try:
        return math.isfinite(float(cell))
    except ValueError:
        return False


def test_json_is_strict():
    text = json_text({"score": float("nan"), "ci": [float("inf"), -float("inf"), 0.5], "name": "é"})
    assert read_json_strict(text) == {"score": None, "ci": [None, None, 0.5], "name": "é"}
    with pytest.raises(ValueError):
        read_json_strict(json.dumps({"x": float("nan")}))  # what plain json.dumps would have written


def test_json_written_the_same_by_the_encoder_or_after_rewriting(monkeypatch):
    """json_text lets json's C encoder write plain values and rewrites only what it refuses (NaN,
    infinities, numpy values, keys it cannot write): both ways write the same text, keys
    included (True, None, numbers), and a scored segment takes the fast way."""
    import random

    import numpy as np

    from meteor_core import safe_export, scorer

    rng = random.Random(3)
    leaves = [0, -7, 10**20, 0.5, -0.0, 1e300, float("nan"), float("inf"), True, False, None, "é", "=1+2", "",
              np.float64(2.5), np.int64(4), np.float32("nan"), np.bool_(True), np.arange(3), (1, "a")]
    keys = ["k", "", True, False, None, 3, 2.5, -0.0, float("inf"), np.int64(9), (1, 2)]

    def value(depth):
        if depth > 3 or rng.random() < 0.4:
            return rng.choice(leaves)
        if rng.random() < 0.5:
            return [value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(keys): value(depth + 1) for _ in range(rng.randint(0, 4))}

    real, refused = safe_export.strict_json_value, 0
    for _ in range(3000):
        v = value(0)
        try:
            json.dumps(v, allow_nan=False)
        except (ValueError, TypeError):
            refused += 1  # the C encoder refuses it: rewritten first
        for indent in (None, 2):
            assert json_text(v, indent=indent) == json.dumps(real(v), ensure_ascii=False, allow_nan=False, indent=indent)
    assert 500 < refused < 2500  # both ways taken
    result = scorer.score("the cat sat on the mat .", ["a cat sat on the mat ."])
    want = json.dumps(real(result.to_dict()), ensure_ascii=False)
    monkeypatch.setattr(safe_export, "strict_json_value", lambda v: pytest.fail("a scored segment rewritten"))
    assert json_text(result.to_dict()) == want


def test_write_file_is_whole_or_nothing(tiny_disk):
    """Issue 30, item 10: on a full disk an export was left truncated, and the good file that
    was there before was destroyed."""
    import os

    from meteor_core.safe_export import write_file

    folder, fill = tiny_disk
    target = folder / "table.tex"
    write_file(target, "good\n")
    os.chmod(target, 0o640)
    write_file(target, "better\n")
    assert target.read_text() == "better\n" and os.stat(target).st_mode & 0o777 == 0o640
    fill(free=2048)
    with pytest.raises(OSError) as caught:
        write_file(target, "x" * 40_000)
    assert caught.value.errno == 28  # ENOSPC
    assert target.read_text() == "better\n"
    assert sorted(p.name for p in folder.iterdir()) == [".ballast", "table.tex"]  # no temporary file left
