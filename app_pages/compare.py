"""Compare systems over a test set: corpus table, paired bootstrap, segment table with filters,
charts, any segment opened in the pair view for every system on the same reference, and the
difference waterfall of one system's corpus score under two configurations."""
from __future__ import annotations

import hashlib
from pathlib import Path

import streamlit as st

from components import compare_views
from components.alignment_chart import alignment_figure
from meteor_core import MeteorConfig, WordNetMissingError
from meteor_core.config import PRESET_NAMES
from meteor_core.analysis.compare import DEFAULT_SAMPLES, DEFAULT_SEED, compare_systems, paired_bootstrap
from meteor_core.textio import MAX_FILE_BYTES, MAX_SEGMENTS, InputError, decode_segments, decode_table, load_test_set

DEMO = Path(__file__).resolve().parent.parent / "demo" / "ted-slk-eng"
SOURCES = ("Bundled demo: TED Slovak→English, 1,200 segments, 2 systems",
           "Upload files (one segment a line)", "Upload one table (TSV, CSV or JSONL)")
LIMITS = (f"Files: UTF-8 text, up to {MAX_FILE_BYTES // 2**20} MiB and {MAX_SEGMENTS:,} lines each; "
          "every file must have the same number of lines.")


@st.cache_data(show_spinner=False)  # read once, not on every rerun that a filter causes
def _load_demo():
    refs = decode_segments((DEMO / "ted.ref.detok.eng").read_bytes(), "ted.ref.detok.eng")
    systems = {name: decode_segments((DEMO / f"ted.{name}.detok.eng").read_bytes(), name) for name in ("sys1", "sys2")}
    return systems, [[r] for r in refs]


def _load_files(ref_files, sys_files):
    if not ref_files:
        raise InputError("Upload at least one reference file.")
    if len(sys_files or []) < 2:
        raise InputError("Upload two or more system output files.")
    return load_test_set([(f.name, decode_segments(f.getvalue(), f.name)) for f in ref_files],
                         [(f.name, decode_segments(f.getvalue(), f.name)) for f in sys_files])


def _load_table(table_file):
    if table_file is None:
        raise InputError("Upload a TSV, CSV or JSONL file with a 'ref' column and one column per system.")
    test_set = decode_table(table_file.getvalue(), table_file.name)
    return test_set.systems, test_set.references


def _key(systems, references, config) -> str:
    h = hashlib.sha256(config.signature().encode())
    for name, lines in systems.items():
        h.update(name.encode() + b"\0" + "\n".join(lines).encode() + b"\1")
    h.update("\n".join("\t".join(r) for r in references).encode())
    return h.hexdigest()


def _compare(systems, references, config):
    """Score once per (data, configuration); later reruns (filters, selection) reuse it.
    Returns the cache key too, which also keys the bootstrap and the waterfall."""
    cache = st.session_state.setdefault("comparisons", {})
    key = _key(systems, references, config)
    if key not in cache:
        bar = st.progress(0.0, text="Scoring…")

        def progress(done, total):
            bar.progress(done / total, text=f"Scoring segment {done:,} of {total:,}…")

        cache.clear()  # keep one comparison per session: results of large sets are big
        cache[key] = compare_systems(systems, references, config, progress=progress)
        bar.empty()
    return key, cache[key]


@st.cache_data(show_spinner="Bootstrap resampling…", max_entries=32)
def _bootstrap(_comparison, key: str, a: str, b: str, samples: int, seed: int):
    return paired_bootstrap(_comparison, a, b, samples, seed)


# --- inputs --------------------------------------------------------------------------------

with st.sidebar:
    st.header("Settings")
    preset = st.selectbox("Preset", PRESET_NAMES, key="cmp_preset")
    synonyms = st.checkbox("Synonym stage (WordNet)", value=True, key="cmp_synonyms")
config = MeteorConfig.preset(preset)
if not synonyms:
    config = MeteorConfig.preset(preset, stages=tuple(s for s in config.stages if s != "synonym"))

st.title("Compare systems")
source = st.radio("Test set", SOURCES, key="cmp_source")
try:
    if source == SOURCES[0]:
        systems, references = _load_demo()
    elif source == SOURCES[1]:
        c1, c2 = st.columns(2)
        ref_files = c1.file_uploader("Reference file(s)", type=["txt", "eng", "ref"], accept_multiple_files=True,
                                     key="cmp_refs", max_upload_size=MAX_FILE_BYTES // 2**20)
        sys_files = c2.file_uploader("System outputs (two or more)", type=["txt", "eng", "hyp", "out"],
                                     accept_multiple_files=True, key="cmp_systems", max_upload_size=MAX_FILE_BYTES // 2**20)
        st.caption(LIMITS)
        systems, references = _load_files(ref_files, sys_files)
    else:
        table_file = st.file_uploader("Test set table", type=["tsv", "csv", "jsonl"], key="cmp_table",
                                      max_upload_size=MAX_FILE_BYTES // 2**20)
        st.caption("Columns: source (optional), ref (or ref1, ref2, …), and one column per system. " + LIMITS)
        systems, references = _load_table(table_file)
except InputError as exc:
    st.warning(str(exc))
    st.stop()

try:
    key, comparison = _compare(systems, references, config)
except WordNetMissingError as exc:
    st.error(str(exc))
    st.caption("Untick the synonym stage in the sidebar to compare without WordNet.")
    st.stop()
except ValueError as exc:  # e.g. a segment over the length limit
    st.warning(str(exc))
    st.stop()
names = comparison.names

# --- corpus level ----------------------------------------------------------------------------

st.subheader(f"Corpus ({comparison.n_segments:,} segments)")
corpus = compare_views.corpus_table(comparison)
st.dataframe(corpus, hide_index=True, key="corpus_table",
             column_config={c: st.column_config.NumberColumn(format="%.4f")
                            for c in corpus.columns if corpus[c].dtype.kind == "f"})

c1, c2, c3, c4 = st.columns(4)
a = c1.selectbox("System A (baseline)", names, index=0, key="cmp_a")
b = c2.selectbox("System B", names, index=1 if len(names) > 1 else 0, key="cmp_b")
samples = c3.number_input("Bootstrap samples", 100, 10_000, DEFAULT_SAMPLES, step=100, key="cmp_samples")
seed = c4.number_input("Seed", 0, 2**31 - 1, DEFAULT_SEED, key="cmp_seed")
test = _bootstrap(comparison, key, a, b, int(samples), int(seed)) if a != b else None
if test is None:
    st.caption("Pick two different systems for the significance test.")
else:
    m1, m2, m3 = st.columns(3)
    m1.metric(f"{b} − {a}", f"{test.delta:+.4f}")
    m2.metric("95% confidence interval", f"{test.ci_low:+.4f} … {test.ci_high:+.4f}")
    m3.metric("p-value", f"{test.p_value:.4f}")
    st.caption(test.summary())
d1, d2 = st.columns(2)
d1.download_button("Corpus table (CSV)", corpus.to_csv(index=False), "corpus.csv", "text/csv", key="dl_corpus_csv")
d2.download_button("Corpus table and bootstrap (JSON)", compare_views.corpus_json(comparison, test), "corpus.json",
                   "application/json", key="dl_corpus_json")

# --- segments --------------------------------------------------------------------------------

st.subheader("Segments")
table = compare_views.segment_table(comparison, a, b, references, systems)
f1, f2, f3 = st.columns([1, 1, 1])
score_range = f1.slider(f"{a} or {b} scores between", 0.0, 1.0, (0.0, 1.0), step=0.01, key="cmp_score_range")
diff_range = f2.slider(f"{b} − {a} between", -1.0, 1.0, (-1.0, 1.0), step=0.01, key="cmp_diff_range")
query = f3.text_input("Search words (reference or outputs)", key="cmp_query")
shown = compare_views.filter_segments(table, a, b, score_range, diff_range, query)
st.caption(f"{len(shown):,} of {len(table):,} segments. Click a column header to sort; select a row to open it.")


def _open_selected():
    rows = st.session_state.segments_table.selection.rows
    if rows:
        st.session_state.cmp_segment = int(st.session_state.cmp_shown_ids[rows[0]])


st.session_state.cmp_shown_ids = list(shown["segment"])
st.dataframe(shown, hide_index=True, key="segments_table", on_select=_open_selected, selection_mode="single-row",
             column_config={c: st.column_config.NumberColumn(format="%.4f") for c in names + [f"{b} − {a}"]})
st.download_button("Segment table (CSV)", shown.to_csv(index=False), "segments.csv", "text/csv", key="dl_segments")

tab_scatter, tab_hist, tab_length = st.tabs([f"{a} vs {b}", "Differences", "Score vs length"])
tab_scatter.plotly_chart(compare_views.scatter_figure(shown, a, b), key="cmp_scatter")
tab_hist.plotly_chart(compare_views.diff_histogram(shown, a, b), key="cmp_hist")
tab_length.plotly_chart(compare_views.length_figure(shown, names), key="cmp_length")

# --- one segment, every system on the same reference ------------------------------------------

st.subheader("One segment, system by system")
segment = st.number_input("Segment", 1, comparison.n_segments, key="cmp_segment")
k = int(segment) - 1
n_refs = len(references[k])
best_of_a = comparison.results[a].segments[k].best_reference
ref_index = 0
if n_refs > 1:
    ref_index = st.selectbox("Reference", range(n_refs), index=best_of_a, key=f"cmp_ref_{n_refs}",
                             format_func=lambda r: f"Reference {r + 1}" + (f" (best for {a})" if r == best_of_a else ""))
st.text(f"Reference: {references[k][ref_index]}")
pairs = {name: comparison.results[name].segments[k].per_reference[ref_index] for name in names}
columns = st.columns(min(len(names), 3))
for n, (name, pair) in enumerate(pairs.items()):
    with columns[n % len(columns)]:
        st.metric(name, f"{pair.score:.4f}", help="METEOR of this segment against the reference above")
        st.caption(f"P {pair.precision:.4f} · R {pair.recall:.4f} · {pair.matches} matches in {pair.chunks} chunks")
        st.text(systems[name][k])
for n, (name, pair) in enumerate(pairs.items()):  # full width, one above the other: long sentences stay readable
    st.plotly_chart(alignment_figure(pair, title=name, hyp_label=name), key=f"cmp_pair_{n}", width="content")

# --- the corpus score of one system under two configurations ----------------------------------

st.subheader("Why would another METEOR give this system a different corpus score?")
w1, w2, w3 = st.columns(3)
w_system = w1.selectbox("System", names, key="cmp_w_system")
w_a = w2.selectbox("Configuration A", PRESET_NAMES, index=PRESET_NAMES.index("nltk"), key="cmp_w_a")
w_b = w3.selectbox("Configuration B", PRESET_NAMES, index=PRESET_NAMES.index("meteor15"), key="cmp_w_b")
w_key = (key, w_system, w_a, w_b)
if st.button("Explain the difference (rescores the corpus once per factor)", key="cmp_w_go"):
    from meteor_core.analysis.difference import explain_corpus_difference

    with st.spinner("Walking from A to B…"):
        try:
            st.session_state.cmp_waterfall = (w_key, explain_corpus_difference(
                systems[w_system], references, MeteorConfig.preset(w_a), MeteorConfig.preset(w_b)))
        except WordNetMissingError as exc:
            st.error(str(exc))
saved = st.session_state.get("cmp_waterfall")
if saved and saved[0] == w_key:
    from components.difference_views import steps_table, waterfall_figure

    difference = saved[1]
    st.info(difference.summary())
    st.plotly_chart(waterfall_figure(difference), key="cmp_w_chart")
    st.dataframe(steps_table(difference), hide_index=True, key="cmp_w_steps")
