"""Explore one pair: type a candidate and references, see the alignment and every term of the score.

This page only wires inputs to meteor_core and meteor_core results to the views in components/.
User text is only ever shown through widgets, dataframes and escaped Plotly labels, never as
HTML or Markdown.
"""
from __future__ import annotations

import streamlit as st

from components import alignment_chart, breakdown, tables
from components.examples import BY_TITLE, EXAMPLES
from components.inputs import check_pair
from meteor_core import MeteorConfig, WordNetMissingError, score
from meteor_core.config import DEFAULT_STAGES as STAGES, PRESET_NAMES
from meteor_core.explain import diff_alignments

PRESETS = PRESET_NAMES
DEFAULT = EXAMPLES[0]
NO_EXAMPLE = "(your own text)"

# --- state: widget values live in st.session_state and are mirrored in the URL ----------------


def _defaults_from_url() -> None:
    """First run of a session: take inputs from the query parameters (a shared link)."""
    if "hyp" in st.session_state:
        return
    q = st.query_params
    refs = q.get_all("ref") or list(DEFAULT.references)
    st.session_state.hyp = q.get("hyp", DEFAULT.hypothesis)
    st.session_state.n_refs = len(refs)
    for k, r in enumerate(refs):
        st.session_state[f"ref_{k}"] = r
    preset = q.get("preset", "meteor2005")
    st.session_state.preset = preset if preset in PRESETS else "meteor2005"
    base = MeteorConfig.preset(st.session_state.preset)
    for name, lo, hi in (("alpha", 0.0, 1.0), ("beta", 0.0, 6.0), ("gamma", 0.0, 1.0), ("delta", 0.0, 1.0)):
        try:
            value = float(q.get(name, getattr(base, name)))
        except ValueError:
            value = getattr(base, name)
        st.session_state[name] = min(max(value, lo), hi)
    stages = q.get("stages")
    chosen = stages.split(",") if stages is not None else list(base.stages)
    for stage in STAGES:
        st.session_state[f"stage_{stage}"] = stage in chosen
    st.session_state.example = NO_EXAMPLE if "hyp" in q else DEFAULT.title


def _load_example() -> None:
    example = BY_TITLE.get(st.session_state.example)
    if example is None:
        return
    st.session_state.hyp = example.hypothesis
    st.session_state.n_refs = len(example.references)
    for k, r in enumerate(example.references):
        st.session_state[f"ref_{k}"] = r


def _reset_parameters() -> None:
    base = MeteorConfig.preset(st.session_state.preset)
    st.session_state.alpha, st.session_state.beta, st.session_state.gamma = base.alpha, base.beta, base.gamma
    st.session_state.delta = base.delta
    for stage in STAGES:
        st.session_state[f"stage_{stage}"] = stage in base.stages


def _add_reference() -> None:
    st.session_state[f"ref_{st.session_state.n_refs}"] = ""
    st.session_state.n_refs += 1


def _remove_reference() -> None:
    if st.session_state.n_refs > 1:
        st.session_state.n_refs -= 1
        st.session_state.pop(f"ref_{st.session_state.n_refs}", None)


def _mirror_to_url(hyp: str, refs: list[str], config: MeteorConfig) -> None:
    st.query_params.from_dict({
        "hyp": hyp, "ref": refs, "preset": st.session_state.preset,
        "alpha": f"{config.alpha:g}", "beta": f"{config.beta:g}", "gamma": f"{config.gamma:g}",
        **({"delta": f"{config.delta:g}"} if config.scoring == "meteor1x" else {}),
        "stages": ",".join(config.stages),
    })


_defaults_from_url()

# --- inputs --------------------------------------------------------------------------------

with st.sidebar:
    st.header("Settings")
    st.selectbox("Built-in example", [NO_EXAMPLE] + [e.title for e in EXAMPLES], key="example",
                 on_change=_load_example, help="Each example shows one thing METEOR does.")
    st.selectbox("Preset", PRESETS, key="preset", on_change=_reset_parameters,
                 help="meteor2005: the paper's optimal alignment. nltk: a faithful copy of "
                      "nltk.translate.meteor_score (whitespace tokens, greedy alignment). meteor15: "
                      "Meteor 1.5's English defaults (weighted matches, δ, its beam aligner).")
    st.slider("α (recall weight in Fmean)", 0.0, 1.0, step=0.05, key="alpha")
    st.slider("β (penalty exponent)", 0.0, 6.0, step=0.05, key="beta")
    st.slider("γ (maximum penalty)", 0.0, 1.0, step=0.05, key="gamma")
    if st.session_state.preset == "meteor15":
        st.slider("δ (content-word weight)", 0.0, 1.0, step=0.05, key="delta",
                  help="Meteor 1.x: content words count δ, function words 1 − δ.")
    st.caption("Stages")
    for stage in STAGES:
        st.checkbox(stage, key=f"stage_{stage}")
    paraphrase_path = ""
    if st.session_state.preset == "meteor15":
        paraphrase_path = st.text_input(
            "Paraphrase table (optional)", key="paraphrase_path", placeholder="/path/to/paraphrase-en.gz",
            help="A Meteor-format table (probability, phrase, paraphrase lines; gzip or text), e.g. the "
                 "paraphrase-en.gz shipped with Meteor 1.5. The English one takes ~20 s and ~2 GB to load.").strip()
        if paraphrase_path:
            st.checkbox("paraphrase", value=True, key="stage_paraphrase")
    st.button("Reset to the preset's parameters", on_click=_reset_parameters)

st.title("METEOR Explorer")
example = BY_TITLE.get(st.session_state.example)
current_refs = [st.session_state.get(f"ref_{k}", "") for k in range(st.session_state.n_refs)]
if example is not None and (st.session_state.hyp, tuple(current_refs)) == (example.hypothesis, example.references):
    st.info(f"Example: {example.title}. {example.lesson}")  # only while the text is still the example's

hyp = st.text_area("Candidate translation", key="hyp", height=80)
refs = [st.text_area(f"Reference {k + 1}", key=f"ref_{k}", height=80) for k in range(st.session_state.n_refs)]
left, right, _ = st.columns([1, 1.4, 3])
left.button("Add reference", on_click=_add_reference)
right.button("Remove last reference", on_click=_remove_reference, disabled=st.session_state.n_refs <= 1)

stages = tuple(s for s in STAGES if st.session_state[f"stage_{s}"])
paraphrase = {}
if paraphrase_path and st.session_state.get("stage_paraphrase"):
    from pathlib import Path

    if Path(paraphrase_path).is_file():
        stages += ("paraphrase",)
        paraphrase = {"paraphrase_table": paraphrase_path}
    else:
        st.warning("No paraphrase table at that path: scoring without the paraphrase stage.")
config = MeteorConfig.preset(st.session_state.preset, alpha=st.session_state.alpha,
                             beta=st.session_state.beta, gamma=st.session_state.gamma, stages=stages,
                             **({"delta": st.session_state.delta} if st.session_state.preset == "meteor15" else {}),
                             **paraphrase)
_mirror_to_url(hyp, refs, config)

errors, warnings = check_pair(hyp, refs)
for message in errors:
    st.warning(message)
if errors:
    st.stop()
for message in warnings:
    st.caption(message)
ref_numbers = [k for k, r in enumerate(refs) if r.strip()]  # positions of the non-empty references
kept_refs = [refs[k] for k in ref_numbers]


@st.cache_data(show_spinner=False, max_entries=256)
def _score(hyp: str, refs: tuple[str, ...], config_dict: dict):
    return score(hyp, list(refs), MeteorConfig.from_dict(config_dict))


try:
    result = _score(hyp, tuple(kept_refs), config.to_dict())
except WordNetMissingError as exc:
    st.error(str(exc))
    st.caption("Untick the synonym stage in the sidebar to score without WordNet.")
    st.stop()
except ValueError as exc:  # e.g. an unreadable paraphrase table
    st.error(str(exc))
    st.stop()

# --- results -------------------------------------------------------------------------------

cols = st.columns(6)
cols[0].metric("METEOR", f"{result.score:.4f}")
cols[1].metric("Precision", f"{result.precision:.4f}")
cols[2].metric("Recall", f"{result.recall:.4f}")
cols[3].metric("Fmean", f"{result.fmean:.4f}")
cols[4].metric("Penalty", f"{result.penalty:.4f}")
cols[5].metric("Chunks / matches", f"{result.chunks} / {result.matches}")
if len(kept_refs) > 1:
    st.caption(f"Best of {len(kept_refs)} references: reference {ref_numbers[result.best_reference] + 1}.")
if not result.optimal and config.aligner == "optimal":
    st.warning("The alignment search hit its time budget: this alignment is the best found, not proven optimal.")

shown = result.best_reference
if len(kept_refs) > 1:
    labels = [f"Reference {ref_numbers[k] + 1}" + (" (best)" if k == result.best_reference else "")
              for k in range(len(kept_refs))]
    shown = st.selectbox("Draw the alignment against", range(len(kept_refs)), index=result.best_reference,
                         format_func=lambda k: labels[k], key=f"shown_reference_{len(kept_refs)}")
pair = result.per_reference[shown]

tab_align, tab_score, tab_words, tab_refs, tab_compare = st.tabs(
    ["Alignment", "Score breakdown", "Words", "References", "meteor2005 vs NLTK"])

with tab_align:
    st.plotly_chart(alignment_chart.alignment_figure(pair), width="content", key="alignment_chart")
    st.caption(f"{pair.matches} matches in {pair.chunks} chunk(s), {pair.crossings} crossing line(s). "
               "Hover a line for the stage and the word, stem or synset that links the two words. "
               "Drag to scroll long sentences.")

with tab_score:
    st.dataframe(breakdown.terms_table(pair, config), hide_index=True, width="stretch")
    st.plotly_chart(breakdown.waterfall_figure(pair), key="waterfall_chart")
    st.subheader("What each stage added")
    st.dataframe(breakdown.stage_table(pair, config), hide_index=True)

with tab_words:
    st.dataframe(tables.word_table(pair), hide_index=True, width="stretch")

with tab_refs:
    st.dataframe(tables.reference_table(result), hide_index=True)

with tab_compare:
    same_tokens = st.toggle("NLTK side on the same tokens (isolates the aligner)", value=False,
                            help="Off: exactly what nltk.translate.meteor_score gives, on whitespace tokens. "
                                 "On: NLTK's greedy alignment run on meteor2005's tokens, so the two "
                                 "alignments can be compared word for word.")
    plain_stages = tuple(s for s in stages if s != "paraphrase")  # neither has a paraphrase stage
    base_2005 = MeteorConfig.meteor2005(alpha=config.alpha, beta=config.beta, gamma=config.gamma, stages=plain_stages)
    nltk_config = MeteorConfig.nltk(alpha=config.alpha, beta=config.beta, gamma=config.gamma, stages=plain_stages,
                                    **({"tokenizer": base_2005.tokenizer} if same_tokens else {}))
    a = _score(hyp, tuple(kept_refs), base_2005.to_dict())
    b = _score(hyp, tuple(kept_refs), nltk_config.to_dict())
    pa, pb = a.per_reference[shown], b.per_reference[shown]
    comparable = pa.hyp_tokens == pb.hyp_tokens and pa.ref_tokens == pb.ref_tokens
    c1, c2 = st.columns(2)
    c1.metric("meteor2005", f"{pa.score:.4f}")
    c2.metric("nltk", f"{pb.score:.4f}", delta=f"{pb.score - pa.score:+.4f}", delta_color="off")
    if comparable:
        diff = diff_alignments(pa.alignment, pb.alignment)
        only_a, only_b = diff.differing_pairs()
        if diff.identical:
            st.success("The two alignments are identical.")
        else:
            st.info(f"The alignments differ: {len(diff.only_a)} match(es) only in meteor2005, "
                    f"{len(diff.only_b)} only in NLTK, {len(diff.stage_differs)} found by a different stage. "
                    "Differing lines are dashed.")
    else:
        only_a = only_b = set()
        st.info(f"The tokenisations differ ({len(pa.hyp_tokens)}+{len(pa.ref_tokens)} tokens vs "
                f"{len(pb.hyp_tokens)}+{len(pb.ref_tokens)}), so lines are not compared one by one. "
                "Turn on 'same tokens' to compare the aligners alone.")
    st.plotly_chart(alignment_chart.alignment_figure(pa, title="meteor2005 (optimal alignment)", marked=only_a),
                    width="content", key="compare_a")
    st.plotly_chart(alignment_chart.alignment_figure(pb, title="NLTK (greedy alignment)", marked=only_b),
                    width="content", key="compare_b")

st.caption(f"Signature: {result.signature}")
