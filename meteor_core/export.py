"""One pair's alignment as data files: JSON (everything, for programs) and TSV (one row per
match, then one per unmatched token, for spreadsheets and papers' appendices)."""
from __future__ import annotations

from .safe_export import json_text, tsv_text
from .scorer import PairResult

TSV_COLUMNS = ("hyp_index", "ref_index", "hyp", "ref", "stage", "via", "chunk")


def alignment_dict(result: PairResult, signature: str = "") -> dict:
    """The result's own dictionary, plus each match's words and chunk (numbered from 1) and each
    chunk's words, so a reader needs no token arithmetic."""
    d = result.to_dict()
    hyp, ref = result.hyp_tokens, result.ref_tokens
    chunk_of, _ = result.token_chunks()
    for m, row in zip(result.alignment, d["alignment"]):
        row["hyp"] = " ".join(hyp[i] for i in m.hyp_positions)
        row["ref"] = " ".join(ref[j] for j in m.ref_positions)
        row["chunk"] = chunk_of[m.hyp_index] + 1
    for span, row in zip(result.chunk_spans, d["chunk_spans"]):
        row["hyp"] = " ".join(hyp[span.hyp_start:span.hyp_end])
        row["ref"] = " ".join(ref[span.ref_start:span.ref_end])
    if signature:
        d["signature"] = signature
    return d


def alignment_json(result: PairResult, signature: str = "") -> str:
    return json_text(alignment_dict(result, signature), indent=2)


def alignment_rows(result: PairResult) -> list[tuple]:
    """Rows of TSV_COLUMNS: every match in candidate order, then the unmatched candidate tokens
    (no ref_index) and the unmatched reference tokens (no hyp_index), stage "unmatched"."""
    hyp, ref = result.hyp_tokens, result.ref_tokens
    chunk_of, _ = result.token_chunks()
    by_hyp, by_ref = result.token_matches()
    rows = [(m.hyp_index, m.ref_index, " ".join(hyp[i] for i in m.hyp_positions),
             " ".join(ref[j] for j in m.ref_positions), m.stage, m.via, chunk_of[m.hyp_index] + 1)
            for m in result.alignment]
    rows += [(i, None, t, None, "unmatched", None, None) for i, t in enumerate(hyp) if i not in by_hyp]
    rows += [(None, j, None, t, "unmatched", None, None) for j, t in enumerate(ref) if j not in by_ref]
    return rows


def alignment_tsv(result: PairResult) -> str:
    """TSV by safe_export's rules: a cell with a tab or line break is quoted, a token a
    spreadsheet would run as a formula (=, +, -, @) gets an apostrophe; read_delimited reads it back."""
    return tsv_text((TSV_COLUMNS, alignment_rows(result)))
