"""Tables of one result: every token with its partner, stage and chunk; every reference's score.

Cells with nothing to say are empty strings, never None or a missing number: the table widget
shows both as the word "None". So the partner's position and the chunk, which an unmatched
token lacks, are text."""
from __future__ import annotations

import pandas as pd


def word_table(result) -> pd.DataFrame:
    """One row per token of both sentences (candidate first). Chunks are numbered from 1."""
    chunk_h, chunk_r = result.token_chunks()
    by_h, by_r = result.token_matches()
    rows = []
    for side, tokens, mine, other_tokens, chunks in (
        ("candidate", result.hyp_tokens, by_h, result.ref_tokens, chunk_h),
        ("reference", result.ref_tokens, by_r, result.hyp_tokens, chunk_r),
    ):
        for k, token in enumerate(tokens):
            m = mine.get(k)
            others = None if m is None else (m.ref_positions if side == "candidate" else m.hyp_positions)
            partner = "" if m is None else str(others[0])
            rows.append({
                "side": side, "position": k, "token": token, "matched": m is not None,
                "partner": "" if m is None else " ".join(other_tokens[o] for o in others),
                "partner position": partner, "stage": "" if m is None else m.stage,
                "via": "" if m is None else m.via, "chunk": "" if k not in chunks else str(chunks[k] + 1),
            })
    return pd.DataFrame(rows)


def reference_table(segment) -> pd.DataFrame:
    rows = []
    for k, r in enumerate(segment.per_reference):
        rows.append({"reference": k + 1, "best": k == segment.best_reference, "score": round(r.score, 4),
                     "precision": round(r.precision, 4), "recall": round(r.recall, 4),
                     "fmean": round(r.fmean, 4), "penalty": round(r.penalty, 4), "matches": r.matches,
                     "chunks": r.chunks, "reference length": len(r.ref_tokens)})
    return pd.DataFrame(rows)
