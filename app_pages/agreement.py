"""Agreement with people: how well each METEOR variant, BLEU, chrF and TER agree with human
judgments (system and segment level, with bootstrap intervals and paired tests), and METEOR's
α, β, γ (δ) tuned on a training split with the held-out figure beside the defaults'.

Scoring is the slow part (TER ~3 ms a row, METEOR 1-2 ms): each metric's scores are cached by
the data's hash, the human column and the metric's configuration, so changing the metric list,
the plots or the tuning never rescores what is already scored."""
from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import streamlit as st

from components import agreement_views as views
from meteor_core import MeteorConfig, WordNetMissingError
from meteor_core.analysis import agreement as agree
from meteor_core.analysis import tuning
from meteor_core.analysis.judgments import SOURCE_COLUMN, TEXT_COLUMNS, judged_table, read_table
from meteor_core.config import PRESET_NAMES
from meteor_core.textio import MAX_FILE_BYTES, InputError

BUNDLED = Path(__file__).resolve().parent.parent / "demo" / "mqm-ted-zhen-part" / "segments.jsonl.gz"
SOURCES = ("Bundled: WMT21 TED talks zh→en with MQM scores (3,696 rows, 14 systems)",
           "Upload a table (JSONL, TSV or CSV; .gz allowed)")
BY_SEG_ID = "(lower half of the sorted seg_ids)"
CUSTOM = "custom"


@st.cache_data(show_spinner=False, max_entries=4)
def _parse(data_hash: str, _data: bytes, name: str):
    return read_table(_data, name)


@st.cache_data(show_spinner=False, max_entries=4)
def _judged(data_hash: str, _raw, human: str, split_column: str | None):
    return judged_table(_raw, human, split_column)


def _progress_bar(label: str):
    """A progress bar made inside a cached function (so that a cache hit replays it harmlessly:
    it ends empty) and a callback that moves it at most every 2%."""
    bar = st.progress(0.0, text=label)
    shown = [-1.0]

    def update(done: int, total: int) -> None:
        share = done / total if total else 1.0
        if share - shown[0] >= 0.02 or done >= total:
            shown[0] = share
            bar.progress(min(share, 1.0), text=f"{label}: {done:,} of {total:,}")
    return bar, update


@st.cache_data(show_spinner=False, max_entries=48)
def _scores(table_key: tuple, metric_key: str, _table, _metric, _label: str):
    """One metric on every row, kept per (data, human column, split, metric configuration)."""
    bar, progress = _progress_bar(_label)
    scores = agree.score_metric(_table, _metric, progress)
    bar.empty()
    return scores


@st.cache_data(show_spinner=False, max_entries=8)
def _agreement(table_key: tuple, metric_keys: tuple, samples: int, seed: int, _table, _scored):
    bar, progress = _progress_bar("Bootstrap samples")
    report = agree.agreement(_table, _scored, samples, seed, progress)
    bar.empty()
    return report


@st.cache_data(show_spinner=False, max_entries=8)
def _tune(table_key: tuple, metric_key: str, parameters: tuple, objective: str, steps: int, samples: int, seed: int,
          _table, _scores):
    bar, progress = _progress_bar("Grid points rescored")
    result = tuning.tune(_table, _scores, parameters, objective, steps, samples=samples, seed=seed, progress=progress)
    bar.empty()
    return result


def _metric_key(metric) -> str:
    return metric.signature() if isinstance(metric, MeteorConfig) else metric


def _score_all(table_key, table, metrics: dict) -> dict:
    """Every chosen metric's scores (each cached on its own)."""
    return {name: _scores(table_key, _metric_key(metric), table, metric, f"Scoring {name} ({k + 1} of {len(metrics)})")
            for k, (name, metric) in enumerate(metrics.items())}


def _custom_config() -> MeteorConfig | None:
    with st.sidebar.expander("Your own METEOR configuration"):
        on = st.checkbox("Add it to the metrics (as “custom”)", key="agr_custom_on")
        preset = st.selectbox("Starting from", PRESET_NAMES, key="agr_custom_preset")
        base = MeteorConfig.preset(preset)
        alpha = st.slider("α", 0.0, 1.0, base.alpha, 0.05, key=f"agr_custom_alpha_{preset}")
        beta = st.slider("β", 0.0, 6.0, base.beta, 0.05, key=f"agr_custom_beta_{preset}")
        gamma = st.slider("γ", 0.0, 1.0, base.gamma, 0.05, key=f"agr_custom_gamma_{preset}")
        synonyms = st.checkbox("synonym stage", True, key=f"agr_custom_syn_{preset}")
    if not on:
        return None
    stages = base.stages if synonyms else tuple(s for s in base.stages if s != "synonym")
    return replace(base, alpha=alpha, beta=beta, gamma=gamma, stages=stages, name=CUSTOM)


# --- inputs --------------------------------------------------------------------------------

st.title("Agreement with people")
st.caption("Which metric ranks systems and sentences the way human judges do? For each metric: the system-level "
           "correlation of its corpus score with the mean human score, the segment-level Kendall τb, 95% intervals "
           "from a bootstrap over segments, and paired tests between metrics. TER is negated so that higher is "
           "better everywhere.")
with st.sidebar:
    st.header("Settings")
    samples = int(st.number_input("Bootstrap samples", 100, 10_000, agree.DEFAULT_SAMPLES, step=100, key="agr_samples"))
    seed = int(st.number_input("Seed", 0, 2**31 - 1, agree.DEFAULT_SEED, key="agr_seed"))
custom = _custom_config()

source = st.radio("Judgments", SOURCES, key="agr_source")
if source == SOURCES[0]:
    data, name = BUNDLED.read_bytes(), BUNDLED.name
else:
    upload = st.file_uploader("Table", type=["jsonl", "json", "tsv", "csv", "gz"], key="agr_table",
                              max_upload_size=MAX_FILE_BYTES // 2**20)
    st.caption(f"One row per (segment, system): columns {', '.join(TEXT_COLUMNS)} (more references as reference2, "
               f"reference3, …), optional {SOURCE_COLUMN}, and a numeric human-score column; an empty score means "
               f"not rated. UTF-8, up to {MAX_FILE_BYTES // 2**20} MiB.")
    if upload is None:
        st.info("Upload a table, or pick the bundled set above.")
        st.stop()
    data, name = upload.getvalue(), upload.name
data_hash = hashlib.sha256(data).hexdigest()

try:
    raw = _parse(data_hash, data, name)
    numeric = raw.numeric_columns()
    if not numeric:
        others = [c for c in raw.header if c not in TEXT_COLUMNS and c != SOURCE_COLUMN]
        if others:  # say what is wrong with the likeliest human column (text in it, nothing rated…)
            judged_table(raw, "human" if "human" in others else others[0])
        raise InputError(f"{name}: no numeric column to use as the human score (besides {', '.join(TEXT_COLUMNS)}). "
                         f"Columns found: {', '.join(raw.header)}")
    c1, c2, c3 = st.columns([1, 1, 2])
    preferred = next((c for c in ("human", "mqm") if c in numeric), numeric[0])
    human = c1.selectbox("Human score column", numeric, index=numeric.index(preferred), key="agr_human")
    split_choices = [BY_SEG_ID] + [c for c in raw.header if c not in TEXT_COLUMNS and c not in (SOURCE_COLUMN, human)
                                   and c not in numeric]
    split = c2.selectbox("Training split (for tuning)", split_choices, key="agr_split")
    metric_names = c3.multiselect("Metrics", agree.METRIC_NAMES, default=list(agree.METRIC_NAMES), key="agr_metrics")
    table = _judged(data_hash, raw, human, None if split == BY_SEG_ID else split)
except InputError as exc:
    st.warning(str(exc))
    st.stop()

metrics = {n: n for n in metric_names}
if custom is not None:
    metrics[CUSTOM] = custom
if not metrics:
    st.info("Choose at least one metric.")
    st.stop()
table_key = (data_hash, human, split)
try:
    scored = _score_all(table_key, table, metrics)
except WordNetMissingError as exc:
    st.error(str(exc))
    st.stop()
except ValueError as exc:  # e.g. a segment over the length limit
    st.warning(str(exc))
    st.stop()

report = _agreement(table_key, tuple(_metric_key(m) for m in metrics.values()), samples, seed, table,
                    list(scored.values()))

# --- figures -------------------------------------------------------------------------------

st.subheader(f"{report.systems} systems, {report.segments:,} segments, {report.rows:,} rows")
for note in report.notes:
    st.caption(note)
st.markdown("**System level**: corpus score against the mean human score per system.")
system_table = views.figures_table(report, "system")
st.dataframe(system_table, hide_index=True, key="agr_system_table",
             column_config={c: st.column_config.NumberColumn(format="%.4f") for c in system_table.columns
                            if system_table[c].dtype.kind == "f"})
st.markdown("**Segment level**: sentence score against the human score, over all rated rows and within each segment.")
segment_table = views.figures_table(report, "segment")
st.dataframe(segment_table, hide_index=True, key="agr_segment_table",
             column_config={c: st.column_config.NumberColumn(format="%.4f") for c in segment_table.columns
                            if segment_table[c].dtype.kind == "f"})
st.caption(f"95% intervals: {samples:,} bootstrap samples of the seg_ids (seed {seed}); every row of a drawn "
           "segment comes along.")
with st.expander("Highest on each figure"):
    for line in views.best_summary(report):
        st.text(line)

if len(report.metrics) >= 2:
    st.markdown("**Does one metric agree significantly better than another?** (paired bootstrap over segments)")
    measure = st.selectbox("Figure", agree.MEASURES, format_func=views.MEASURE_NAMES.get, key="agr_test_measure")
    paired = views.paired_table(report, measure)
    st.dataframe(paired, hide_index=True, key="agr_paired",
                 column_config={c: st.column_config.NumberColumn(format="%.4f") for c in paired.columns
                                if paired[c].dtype.kind == "f"})

st.subheader("Plots")
shown = st.selectbox("Metric", list(report.metrics), key="agr_plot_metric")
tab_system, tab_segment, tab_table = st.tabs(["System level", "Segment level", "Systems table"])
tab_system.plotly_chart(views.system_scatter(report, shown, human), key="agr_scatter")
tab_segment.plotly_chart(views.segment_density(table.human, scored[shown].segment, shown, human), key="agr_density")
tab_table.dataframe(views.systems_table(report, shown), hide_index=True, key="agr_systems")

# --- tuning --------------------------------------------------------------------------------

st.subheader("Tune METEOR on these judgments")
st.caption("Aligns once, then rescores a grid of α, β, γ (δ for meteor15) from the statistics; the best point on "
           "the training rows is then scored on the held-out rows beside the defaults.")
t1, t2, t3, t4 = st.columns(4)
tune_preset = t1.selectbox("METEOR", PRESET_NAMES + ((CUSTOM,) if custom is not None else ()), key="agr_tune_preset")
tune_config = custom if tune_preset == CUSTOM else MeteorConfig.preset(tune_preset)
tunable = ["alpha", "beta", "gamma"] + (["delta"] if tune_config.scoring == "meteor1x" else [])
parameters = t2.multiselect("Parameters", tunable, default=["alpha", "beta", "gamma"], key="agr_tune_params",
                            format_func=views.GREEK.get)
objective = t3.selectbox("Objective", agree.MEASURES, index=agree.MEASURES.index(tuning.DEFAULT_OBJECTIVE),
                         format_func=views.MEASURE_NAMES.get, key="agr_tune_objective")
steps = int(t4.number_input("Values per parameter", 2, 41, tuning.DEFAULT_STEPS, key="agr_tune_steps"))
tune_key = (table_key, _metric_key(tune_config), tuple(parameters), objective, steps, samples, seed)
if st.button("Tune", key="agr_tune_go", disabled=not parameters):
    scores = scored.get(tune_preset) or _score_all(table_key, table, {tune_preset: tune_config})[tune_preset]
    try:
        st.session_state.agr_tuned = (tune_key, _tune(table_key, _metric_key(tune_config), tuple(parameters),
                                                       objective, steps, samples, seed, table, scores))
    except ValueError as exc:
        st.warning(str(exc))
saved = st.session_state.get("agr_tuned")
if saved and saved[0] == tune_key:
    result = saved[1]
    st.text(f"{result.points:,} grid points rescored in {result.seconds:.2f} s. Split: {result.split} "
            f"({result.train_segments} training / {result.heldout_segments} held-out segments).")
    result_table = views.tuning_table(result)
    st.dataframe(result_table, hide_index=True, key="agr_tune_table",
                 column_config={c: st.column_config.NumberColumn(format="%.4f") for c in result_table.columns
                                if result_table[c].dtype.kind == "f"})
    test = result.heldout_test
    if test is not None and test.p_value == test.p_value:
        st.text(f"Held out, best − default = {test.delta:+.4f} (95% CI {test.ci_low:+.4f} … {test.ci_high:+.4f}), "
                f"p = {test.p_value:.4f}: {'significant' if test.significant else 'not significant'} at 0.05.")
    if len(result.parameters) >= 2:
        h1, h2 = st.columns(2)
        x = h1.selectbox("Heatmap x", result.parameters, index=0, format_func=views.GREEK.get, key="agr_heat_x")
        y_choices = [p for p in result.parameters if p != x]
        y = h2.selectbox("Heatmap y", y_choices, index=0, format_func=views.GREEK.get, key="agr_heat_y")
        st.plotly_chart(views.tuning_heatmap(result, x, y), key="agr_heatmap")
    else:
        st.plotly_chart(views.tuning_line(result, result.parameters[0]), key="agr_tune_line")
