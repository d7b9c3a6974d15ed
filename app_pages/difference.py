"""Why do two METEORs disagree? Two configurations on the same pair: both alignments, every
term side by side, and the waterfall that walks from A to B one factor at a time."""
from __future__ import annotations

import streamlit as st

from components import difference_views
from components.alignment_chart import alignment_figure
from components.inputs import check_pair
from meteor_core import MeteorConfig, WordNetMissingError
from meteor_core.config import PRESET_NAMES
from meteor_core.analysis.difference import DEFAULT_ORDER, explain_difference
from meteor_core.explain import diff_alignments

PRESETS = PRESET_NAMES
EXAMPLE_HYP = "Alimentum is located in the city centre. It is not family-friendly."
EXAMPLE_REF = "There is a place in the city centre, Alimentum, that is not family-friendly."


def _config(side: str, default: str) -> MeteorConfig:
    preset = st.selectbox(f"Configuration {side}", PRESETS, index=PRESETS.index(default), key=f"dif_{side}")
    base = MeteorConfig.preset(preset)
    with st.expander(f"Adjust {side} (custom)"):
        alpha = st.slider("α", 0.0, 1.0, base.alpha, 0.05, key=f"dif_{side}_alpha_{preset}")
        beta = st.slider("β", 0.0, 6.0, base.beta, 0.05, key=f"dif_{side}_beta_{preset}")
        gamma = st.slider("γ", 0.0, 1.0, base.gamma, 0.05, key=f"dif_{side}_gamma_{preset}")
        synonyms = st.checkbox("synonym stage", True, key=f"dif_{side}_syn_{preset}")
    stages = base.stages if synonyms else tuple(s for s in base.stages if s != "synonym")
    custom = (alpha, beta, gamma, stages) != (base.alpha, base.beta, base.gamma, base.stages)
    return MeteorConfig.preset(preset, alpha=alpha, beta=beta, gamma=gamma, stages=stages,
                               name=f"{preset} (custom)" if custom else preset)


st.title("Why do two METEORs disagree?")
st.caption("NLTK, the Meteor 1.5 jar and the 2005 paper give different numbers for the same pair. "
           "Pick two configurations: the waterfall moves from A to B one factor at a time.")
hyp = st.text_area("Candidate translation", EXAMPLE_HYP, key="dif_hyp", height=70)
ref = st.text_area("Reference", EXAMPLE_REF, key="dif_ref", height=70)
c1, c2 = st.columns(2)
with c1:
    config_a = _config("A", "nltk")
with c2:
    config_b = _config("B", "meteor15")
order = st.multiselect("Order of the factors (the attribution depends on it; unlisted ones go last)",
                       DEFAULT_ORDER, default=list(DEFAULT_ORDER), key="dif_order")

errors, _ = check_pair(hyp, [ref])
for message in errors:
    st.warning(message)
if errors:
    st.stop()
try:
    d = explain_difference(hyp, [ref], config_a, config_b, order)
    result_a, result_b = d.result_a, d.result_b
except WordNetMissingError as exc:
    st.error(str(exc))
    st.stop()

m1, m2, m3 = st.columns(3)
m1.metric(f"A: {config_a.name}", f"{d.score_a:.4f}")
m2.metric(f"B: {config_b.name}", f"{d.score_b:.4f}")
m3.metric("B − A", f"{d.total:+.4f}")
st.info(d.summary())
st.plotly_chart(difference_views.waterfall_figure(d), key="dif_waterfall")
st.dataframe(difference_views.steps_table(d), hide_index=True, key="dif_steps",
             column_config={c: st.column_config.NumberColumn(format="%.4f")
                            for c in ("share of the gap", "precision", "recall", "fmean", "penalty", "score")})

st.subheader("Both alignments")
same_tokens = result_a.hyp_tokens == result_b.hyp_tokens and result_a.ref_tokens == result_b.ref_tokens
if same_tokens:
    diff = diff_alignments(result_a.alignment, result_b.alignment)
    only_a, only_b = diff.differing_pairs()
    st.caption(f"{len(diff.only_a)} match(es) only in A, {len(diff.only_b)} only in B, "
               f"{len(diff.stage_differs)} found by a different stage (dashed).")
else:
    only_a = only_b = set()
    st.caption("The two tokenise the text differently, so the drawings have different token positions; "
               "the tokenisation step of the waterfall shows what that costs.")
st.plotly_chart(alignment_figure(result_a.per_reference[0], title=f"A: {config_a.name}", marked=only_a),
                width="content", key="dif_align_a")
st.plotly_chart(alignment_figure(result_b.per_reference[0], title=f"B: {config_b.name}", marked=only_b),
                width="content", key="dif_align_b")
st.subheader("Every term side by side")
st.dataframe(difference_views.terms_side_by_side(d, result_a, result_b), hide_index=True, key="dif_terms")
