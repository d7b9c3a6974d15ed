"""Checks on what a user typed, as messages for the page (never exceptions)."""
from __future__ import annotations

# Longer texts are refused with a message: the drawing stops being readable well before this,
# and the alignment search is bounded per segment anyway.
MAX_CHARS = 20_000
MAX_TOKENS = 400


def check_pair(hypothesis: str, references: list[str]) -> tuple[list[str], list[str]]:
    """(errors, warnings): errors stop scoring, warnings are shown next to the result."""
    errors, warnings = [], []
    if not hypothesis.strip():
        errors.append("Enter a candidate translation.")
    if not any(r.strip() for r in references):
        errors.append("Enter at least one reference.")
    for label, text in [("The candidate", hypothesis)] + [(f"Reference {k + 1}", r) for k, r in enumerate(references)]:
        if len(text) > MAX_CHARS:
            errors.append(f"{label} has {len(text):,} characters; the limit is {MAX_CHARS:,}.")
        elif len(text.split()) > MAX_TOKENS:
            errors.append(f"{label} has {len(text.split()):,} words; the limit is {MAX_TOKENS:,} per sentence.")
    empty = [k + 1 for k, r in enumerate(references) if not r.strip()]
    if empty and len(empty) < len(references):
        warnings.append(f"Empty reference(s) {', '.join(map(str, empty))} are left out.")
    return errors, warnings


def system_name(file_name: str) -> str:
    """A system's name from its file's: the last extension dropped ("sysA.txt" -> "sysA",
    "newstest.de-en.hyp" -> "newstest.de-en"); a name that is all extension stays as it is."""
    stem, dot, _ = file_name.rpartition(".")
    return stem if dot and stem.strip(".") else file_name


def system_names(file_names: list[str]) -> list[str]:
    """Names for the systems of these files, in order: without extensions, except where two
    files would then share a name (they keep their full names)."""
    stems = [system_name(n) for n in file_names]
    return [s if stems.count(s) == 1 else n for s, n in zip(stems, file_names)]
