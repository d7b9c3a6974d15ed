"""METEOR Explorer (Streamlit entry point). The full explorer is issue 3; this page already
scores a pair with meteor_core and shows the numbers, never rendering user text as HTML."""
import streamlit as st

from meteor_core import MeteorConfig, WordNetMissingError, score

st.set_page_config(page_title="METEOR Explorer")
st.title("METEOR Explorer")
preset = st.selectbox("Preset", ["meteor2005", "nltk"])
hyp = st.text_area("Candidate translation", "the big dog sat on the mat")
ref = st.text_area("Reference", "the large dog sat on a mat")
if not hyp.strip() or not ref.strip():
    st.warning("Enter a candidate and a reference.")
else:
    try:
        r = score(hyp, [ref], MeteorConfig.preset(preset))
    except WordNetMissingError as exc:
        st.error(str(exc))
    else:
        cols = st.columns(4)
        cols[0].metric("METEOR", f"{r.score:.4f}")
        cols[1].metric("Fmean", f"{r.fmean:.4f}")
        cols[2].metric("Penalty", f"{r.penalty:.4f}")
        cols[3].metric("Chunks / matches", f"{r.chunks} / {r.matches}")
        st.dataframe([{"candidate": r.hyp_tokens[m.hyp_index], "reference": r.ref_tokens[m.ref_index],
                       "stage": m.stage, "via": m.via} for m in r.alignment])
