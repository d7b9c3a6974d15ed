"""Tables out of the program, each carrying the signatures that reproduce its numbers:

* ``latex_corpus_table``: the corpus table as a LaTeX (booktabs) table for a paper, with
  significance marks against the baseline and the signatures below it;
* ``xlsx_workbook``: every table as one sheet of one Excel workbook (openpyxl), the first sheet
  holding the signatures and settings.

A table is a list of rows (dicts, column -> value), as the analyses return them. User text
(system names, segments) is escaped for LaTeX and always stored as text in the workbook, never
as a formula.
"""
from __future__ import annotations

import io
import re
from typing import Mapping, Sequence

# LaTeX's special characters in text mode
_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}"}
_LATEX_SPECIAL = re.compile("|".join(re.escape(c) for c in _LATEX_ESCAPES))
# Marks against the baseline: p < 0.05 and p < 0.01
MARKS = ((0.01, "**"), (0.05, "*"))


def latex_escape(text: str) -> str:
    return _LATEX_SPECIAL.sub(lambda m: _LATEX_ESCAPES[m.group()], str(text))


def row_start(cell: str) -> str:
    """A row's first cell, safe after the previous row's ``\\``: that command reads a following
    ``*`` or ``[`` (after any spaces and a newline) as its own argument, so a system named
    "[oops" broke the table. An empty group ``{}`` in front ends its look-ahead."""
    return "{}" + cell if cell.lstrip().startswith(("[", "*")) else cell


def significance_mark(p_value: float | None) -> str:
    if p_value is None:
        return ""
    return next((mark for level, mark in MARKS if p_value < level), "")


def latex_corpus_table(rows: Sequence[Mapping], columns: Sequence[tuple[str, str, int]],
                       signatures: Sequence[str], baseline: str | None = None,
                       p_values: Mapping[str, float] | None = None, test_name: str = "",
                       higher_is_better: Mapping[str, bool] | None = None) -> str:
    """A booktabs table: one row per system, ``columns`` = (row key, header, decimals). The best
    value of each score column is bold (``higher_is_better[key]`` says which way, default higher);
    ``p_values[system]`` (against ``baseline``) puts * (p < 0.05) or ** (p < 0.01) on its first
    score. The signatures follow the table (and a LaTeX comment repeats them verbatim)."""
    higher_is_better = higher_is_better or {}
    p_values = p_values or {}
    best = {}
    for key, _, _ in columns:
        values = [r[key] for r in rows if isinstance(r.get(key), (int, float))]
        if values:
            best[key] = max(values) if higher_is_better.get(key, True) else min(values)
    lines = [f"% {s}" for s in signatures]
    lines += [r"\begin{table}[t]", r"\centering", r"\begin{tabular}{l" + "r" * len(columns) + "}", r"\toprule",
              " & ".join(["System"] + [latex_escape(header) for _, header, _ in columns]) + r" \\", r"\midrule"]
    for row in rows:
        name = str(row["system"])
        cells = [row_start(latex_escape(name)) + (" (baseline)" if name == baseline else "")]
        for k, (key, _, decimals) in enumerate(columns):
            value = row.get(key)
            if not isinstance(value, (int, float)):
                cells.append("--")
                continue
            cell = f"{value:.{decimals}f}"
            if len(rows) > 1 and value == best.get(key):
                cell = rf"\textbf{{{cell}}}"
            if k == 0 and name != baseline and significance_mark(p_values.get(name)):
                cell += rf"$^{{{significance_mark(p_values.get(name))}}}$"
            cells.append(cell)
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    caption = "Corpus scores; best in bold."
    if baseline and p_values:
        caption += (f" $^{{*}}$/$^{{**}}$: different from {latex_escape(baseline)} at $p<0.05$/$p<0.01$"
                    f" ({latex_escape(test_name)}).")
    lines.append(rf"\caption{{{caption}}}")
    lines.append(r"\par\smallskip\footnotesize " + r" \\ ".join(rf"\texttt{{{latex_escape(s)}}}" for s in signatures))
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


# The corpus table's columns in a paper: (row key, header, decimals); BLEU/chrF/TER follow.
CORPUS_COLUMNS = [("corpus METEOR", "METEOR", 4), ("precision", "P", 4), ("recall", "R", 4),
                  ("fragmentation penalty", "Frag. pen.", 4)]
_TEST_NAMES = {"p_ar": "paired approximate randomization", "p_bootstrap": "paired bootstrap"}


def comparison_latex(rows: Sequence[Mapping], signatures: Mapping[str, str], report=None,
                     metrics: Sequence[str] = ()) -> str:
    """The compare corpus table (rows of ``SystemComparison.corpus_rows`` with BLEU/chrF/TER
    columns for ``metrics``) as LaTeX; the marks come from ``report`` (a
    ``significance.SignificanceReport``): approximate randomization when it was run, else the
    bootstrap. The corpus-level signatures go below the table."""
    from .analysis.sacrebleu_metrics import HIGHER_IS_BETTER, NAMES

    columns = CORPUS_COLUMNS + [(NAMES[m], NAMES[m], 2) for m in metrics]
    higher = {"fragmentation penalty": False, **{NAMES[m]: HIGHER_IS_BETTER[m] for m in metrics}}
    p_values, test_name, baseline = {}, "", None
    if report is not None:
        key = "p_ar" if "p_ar" in report.pairwise[0] else "p_bootstrap"
        p_values = {e["b"]: e[key] for e in report.against_baseline}
        first = report.against_baseline[0]
        amount = f"{first['trials']} trials" if key == "p_ar" else f"{first['samples']} samples"
        test_name, baseline = f"{_TEST_NAMES[key]}, {amount}", report.baseline
    corpus_signatures = [s for label, s in signatures.items() if not label.endswith(" sentence")]
    return latex_corpus_table(rows, columns, corpus_signatures, baseline, p_values, test_name, higher)


def _sheet_title(name: str, taken: set[str]) -> str:
    """Excel's rules: at most 31 characters, none of []:*?/\\, unique."""
    title = re.sub(r"[\[\]:*?/\\]", "_", name)[:31] or "sheet"
    base, k = title, 2
    while title.lower() in taken:
        suffix = f" {k}"
        title, k = base[:31 - len(suffix)] + suffix, k + 1
    taken.add(title.lower())
    return title


XLSX_CELL_CHARS = 32_767  # Excel's limit on the text of one cell (openpyxl cuts longer text without a word)
NOTES_SHEET = "notes"


_CUT_MARK = " …[cut: {:,} characters in all]"


def _cell_value(value, cut: list | None = None):
    """A value as a workbook stores it. Text longer than XLSX_CELL_CHARS is cut so that it ends
    with a visible mark giving its whole length; its length is appended to ``cut``."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        value = ", ".join(map(str, value))
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    text = ILLEGAL_CHARACTERS_RE.sub("\N{REPLACEMENT CHARACTER}", str(value))  # control characters cannot be stored
    if len(text) > XLSX_CELL_CHARS:
        if cut is not None:
            cut.append(len(text))
        mark = _CUT_MARK.format(len(text))
        text = text[:XLSX_CELL_CHARS - len(mark)] + mark
    return text


def xlsx_workbook(tables: Mapping[str, Sequence[Mapping]], signatures: Mapping[str, str],
                  settings: Mapping[str, object] | None = None) -> bytes:
    """One workbook: a first sheet "signature" (label and signature of each metric, then
    ``settings`` as key/value), then one sheet per table (its name), a header row and one row per
    dict. A text longer than Excel's XLSX_CELL_CHARS is cut with a visible mark, and a last sheet
    "notes" lists every such cell with its whole length."""
    from openpyxl import Workbook  # optional dependency (the xlsx extra)
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    cuts: list[tuple[str, str, int]] = []  # (sheet, cell, whole length)
    rows_written: dict[str, int] = {}  # (asking openpyxl would create the cell it is asked about)

    def append(sheet, values) -> None:
        row = rows_written[sheet.title] = rows_written.get(sheet.title, 0) + 1
        cells = []
        for column, value in enumerate(values, start=1):
            lengths: list[int] = []
            cells.append(_cell_value(value, lengths))
            cuts.extend((sheet.title, f"{get_column_letter(column)}{row}", n) for n in lengths)
        sheet.append(cells)

    book = Workbook()
    sheet = book.active
    sheet.title = "signature"
    taken = {"signature"}
    for label, s in signatures.items():
        append(sheet, [f"signature {label}", s])
    for key, value in (settings or {}).items():
        append(sheet, [str(key), value])
    for name, rows in tables.items():
        sheet = book.create_sheet(_sheet_title(name, taken))
        columns = list(dict.fromkeys(k for row in rows for k in row))
        append(sheet, columns)
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in rows:
            append(sheet, [row.get(c) for c in columns])
        sheet.freeze_panes = "A2"
    if cuts:
        sheet = book.create_sheet(_sheet_title(NOTES_SHEET, taken))
        sheet.append([f"Excel holds at most {XLSX_CELL_CHARS:,} characters in a cell. The {len(cuts):,} cell(s) below "
                      f"were longer: each is cut, and ends with \"{_CUT_MARK.replace('{:,}', 'N').strip()}\"."])
        sheet.append(["sheet", "cell", "characters in all"])
        for cell in sheet[2]:
            cell.font = Font(bold=True)
        for where in cuts:
            sheet.append(list(where))
    for sheet in book.worksheets:
        for line in sheet.iter_rows():
            for cell in line:
                if cell.data_type == "f":  # text that starts with "=" stays text, never a formula
                    cell.data_type = "s"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
