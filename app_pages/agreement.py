"""Agreement with people: how well each METEOR variant, BLEU, chrF and TER agree with human
judgments (system and segment level, with bootstrap intervals and paired tests), and METEOR's
α, β, γ (δ) tuned on a training split with the held-out figure beside the defaults'.

Scoring is the slow part (TER ~3 ms a row, METEOR 1-2 ms): each metric's scores are cached by
the data's hash, the human column and the metric's configuration, so changing the metric list,
the plots or the tuning never rescores what is already scored.

State: every choice is kept across pages and while its widget is not drawn (persist_state: a
widget drawn again shows the value the figures use, never its own default); the uploaded table
too, by name and bytes, since Streamlit's uploader forgets its file when its page is left.

Layout: one function per section, called in order at the bottom; the views are in
components/agreement_views.py."""
from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import streamlit as st

from app_pages import page_state
from components import agreement_views as views
from components import language_choice
from components.cache_keys import digest
from components.missing_resources import MISSING_RESOURCES, show_missing
from components.plain_text import markdown_literal
from components.request_budget import OverBudget, request_deadline, start_request
from meteor_core import MeteorConfig
from meteor_core.analysis import agreement as agree
from meteor_core.analysis import tuning
from meteor_core.analysis.compare import MAX_SAMPLES, MAX_SEED
from meteor_core.analysis.judgments import SOURCE_COLUMN, TEXT_COLUMNS, judged_table, read_table
from meteor_core.analysis.verdict import RULE
from meteor_core.config import PRESET_NAMES
from meteor_core.textio import MAX_FILE_BYTES, InputError

PAGE = "agreement"
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


# Each piece of work below runs under the request's time budget (components/request_budget: a
# stop is a message, and nothing stopped is cached); a metric is one piece, so a large upload
# scored metric by metric keeps what each finished run cached.

@st.cache_data(show_spinner=False, max_entries=48)
def _scores(table_key: tuple, metric_key: str, _table, _metric, _label: str):
    """One metric on every row, kept per (data, human column, split, metric configuration)."""
    bar, progress = _progress_bar(_label)
    scores = agree.score_metric(_table, _metric, request_deadline(_label).progress(progress))
    bar.empty()
    return scores


@st.cache_data(show_spinner=False, max_entries=8)
def _agreement(table_key: tuple, metric_keys: tuple, samples: int, seed: int, _table, _scored):
    bar, progress = _progress_bar("Bootstrap samples")
    report = agree.agreement(_table, _scored, samples, seed, request_deadline("The bootstrap").progress(progress))
    bar.empty()
    return report


@st.cache_data(show_spinner=False, max_entries=8)
def _tune(table_key: tuple, metric_key: str, parameters: tuple, objective: str, steps: int, samples: int, seed: int,
          _table, _scores):
    bar, progress = _progress_bar("Grid points rescored")
    result = tuning.tune(_table, _scores, parameters, objective, steps, samples=samples, seed=seed,
                         progress=request_deadline("Tuning").progress(progress))
    bar.empty()
    return result


def _metric_key(metric) -> str:
    """A metric's part of a shared cache key: the whole configuration of a METEOR (its signature
    names a paraphrase table by file name only), the name of a sacrebleu metric."""
    return digest(metric.to_dict()) if isinstance(metric, MeteorConfig) else metric


def _score_all(table_key, table, metrics: dict) -> dict:
    """Every chosen metric's scores (each cached on its own)."""
    return {name: _scores(table_key, _metric_key(metric), table, metric, f"Scoring {name} ({k + 1} of {len(metrics)})")
            for k, (name, metric) in enumerate(metrics.items())}


def _problem(message: str) -> None:
    """A warning that quotes the user's file (its name, columns, cells, system names): shown as
    typed, never read as Markdown."""
    st.warning(markdown_literal(message))


def _index(key: str, options, fallback) -> int:
    """index= of a selectbox whose options depend on the data: the fallback's; a kept choice that
    is no longer among the options is dropped (the widget then starts from the fallback)."""
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
    return list(options).index(fallback)


def _kept_only_one(key: str, options) -> None:
    """Before a selectbox whose options depend on the language: a kept choice no longer offered goes."""
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]


def _kept_only(key: str, options) -> None:
    """Before a multiselect whose options depend on the data: kept choices no longer offered go."""
    if key in st.session_state and not set(st.session_state[key]) <= set(options):
        st.session_state[key] = [v for v in st.session_state[key] if v in options]


def _language() -> str:
    return st.session_state.get(language_choice.KEY, "en")


def _offered_metrics(lang: str) -> list[str]:
    """The metrics that score ``lang``: the presets that take it, BLEU, chrF, TER."""
    return [m for m in agree.METRIC_NAMES if m not in PRESET_NAMES or m in language_choice.presets(lang)]


def settings() -> tuple[list[str], int, int, MeteorConfig | None]:
    """The sidebar: the language, the metrics, bootstrap samples, seed and the user's own METEOR
    configuration (always drawn, so that no choice is lost while the page waits for a table)."""
    with st.sidebar:
        st.header("Settings")
        lang = language_choice.choose(st)
        offered = _offered_metrics(lang)
        _kept_only("agr_metrics", offered)
        metric_names = st.multiselect("Metrics", offered, offered, key="agr_metrics",
                                      persist_state="session", format_func=views.metric_label)
        if lang != "en":
            st.caption(f"The METEORs score {language_choice.label(lang)}. {language_choice.NLTK_NOTE}")
        samples = int(st.number_input("Bootstrap samples", 100, MAX_SAMPLES, agree.DEFAULT_SAMPLES, step=100,
                                      key="agr_samples", persist_state="session"))
        seed = int(st.number_input("Seed", 0, MAX_SEED, agree.DEFAULT_SEED, key="agr_seed", persist_state="session"))
        with st.expander("Your own METEOR configuration"):
            on = st.checkbox("Add it to the metrics (as “custom”)", key="agr_custom_on", persist_state="session")
            presets = language_choice.presets(lang)
            _kept_only_one("agr_custom_preset", presets)
            preset = st.selectbox("Starting from", presets, key="agr_custom_preset", persist_state="session")
            base = MeteorConfig.preset(preset, language=lang)  # each preset's sliders start from its own values
            suffix = "" if lang == "en" else f"_{lang}"  # and per language: its parameters differ
            alpha = st.slider("α", 0.0, 1.0, base.alpha, step=0.05, key=f"agr_custom_alpha_{preset}{suffix}",
                              persist_state="session")
            beta = st.slider("β", 0.0, 6.0, base.beta, step=0.05, key=f"agr_custom_beta_{preset}{suffix}",
                             persist_state="session")
            gamma = st.slider("γ", 0.0, 1.0, base.gamma, step=0.05, key=f"agr_custom_gamma_{preset}{suffix}",
                              persist_state="session")
            english = lang == "en"
            synonyms = st.checkbox("synonym stage", english, key=f"agr_custom_syn_{preset}{suffix}",
                                   persist_state="session", disabled=not english,
                                   help=None if english else "Synonyms are English only (WordNet)")
    if not on:
        return metric_names, samples, seed, None
    stages = base.stages if synonyms else tuple(s for s in base.stages if s != "synonym")
    return metric_names, samples, seed, replace(base, alpha=alpha, beta=beta, gamma=gamma, stages=stages, name=CUSTOM)


def _uploaded_table() -> tuple[bytes, str] | None:
    """The uploaded table, kept in the session: coming back to the page gives it back (the
    uploader itself starts empty); removing it from the uploader forgets it."""
    upload = st.file_uploader("Table", type=["jsonl", "json", "tsv", "csv", "gz"], key="agr_table",
                              max_upload_size=MAX_FILE_BYTES // 2**20)
    st.caption(f"One row per (segment, system): columns {', '.join(TEXT_COLUMNS)} (more references as reference2, "
               f"reference3, …), optional {SOURCE_COLUMN}, and a numeric human-score column; an empty score means "
               f"not rated. UTF-8, up to {MAX_FILE_BYTES // 2**20} MiB.")
    if upload is not None:
        st.session_state.agr_upload = (upload.getvalue(), upload.name)
    elif st.session_state.get("_agr_had_upload"):  # it had a file on the last run: the user removed it
        st.session_state.pop("agr_upload", None)
    st.session_state["_agr_had_upload"] = upload is not None
    kept = st.session_state.get("agr_upload")
    if upload is None and kept:
        st.text(f"Using the table uploaded earlier in this session: {kept[1]}. Upload another to replace it.")
        if st.button("Forget this table", key="agr_forget"):
            st.session_state.pop("agr_upload", None)
            return None
    return st.session_state.get("agr_upload")


def test_set():
    """The judgments chosen (bundled or uploaded) with their human and split columns; stops the
    page with a message when something is missing or wrong."""
    source = st.radio("Judgments", SOURCES, key="agr_source", persist_state="session")
    if source == SOURCES[0]:
        data, name = BUNDLED.read_bytes(), BUNDLED.name
    else:
        chosen = _uploaded_table()
        if chosen is None:
            st.info("Upload a table, or pick the bundled set above.")
            st.stop()
        data, name = chosen
    data_hash = hashlib.sha256(data).hexdigest()
    try:
        raw = _parse(data_hash, data, name)
        numeric = raw.numeric_columns()
        if not numeric:
            others = [c for c in raw.header if c not in TEXT_COLUMNS and c != SOURCE_COLUMN]
            if others:  # say what is wrong with the likeliest human column (text in it, nothing rated…)
                judged_table(raw, "human" if "human" in others else others[0])
            raise InputError(f"{name}: no numeric column to use as the human score (besides "
                             f"{', '.join(TEXT_COLUMNS)}). Columns found: {', '.join(raw.header)}")
        c1, c2 = st.columns(2)
        human = c1.selectbox("Human score column", numeric, key="agr_human", persist_state="session", index=_index(
            "agr_human", numeric, next((c for c in ("human", "mqm") if c in numeric), numeric[0])))
        split_choices = [BY_SEG_ID] + [c for c in raw.header if c not in TEXT_COLUMNS + (SOURCE_COLUMN, human)
                                       and c not in numeric]
        split = c2.selectbox("Training split (for tuning)", split_choices, key="agr_split", persist_state="session",
                             index=_index("agr_split", split_choices, BY_SEG_ID))
        table = _judged(data_hash, raw, human, None if split == BY_SEG_ID else split)
    except InputError as exc:
        _problem(str(exc))
        st.stop()
    return table, (data_hash, human, split)


def score_metrics(table, table_key, metrics: dict) -> dict:
    try:
        return _score_all(table_key, table, metrics)
    except MISSING_RESOURCES as exc:
        show_missing(exc)
    except (ValueError, OverBudget) as exc:  # a segment over the length limit, the time budget
        _problem(str(exc))
    st.stop()


def _number_columns(frame) -> dict:
    return {c: st.column_config.NumberColumn(format="%.4f") for c in frame.columns if frame[c].dtype.kind == "f"}


def wait_for_the_ask(metrics: dict, samples: int) -> None:
    """The bundled set is scored when asked, not on opening the page: the page is usable at once
    (to upload one's own table instead, or to choose the metrics first), and scoring 3,696 rows
    with every metric and bootstrapping them takes seconds. An upload is the ask itself; once
    asked, the bundled set is rescored whenever a choice changes, as an upload is."""
    if st.session_state.agr_source != SOURCES[0] or st.session_state.get("agr_bundled_asked"):
        return
    st.info(f"Scoring the bundled set's 3,696 rows with {len(metrics)} metric(s) and {samples:,} bootstrap samples "
            "takes a few seconds the first time (then the scores are kept while the server runs).")
    if st.button("Score the bundled set", key="agr_bundled_go", type="primary"):
        st.session_state.agr_bundled_asked = True
        return
    st.stop()


def figures_section(report, samples: int, seed: int) -> None:
    st.subheader(f"{report.systems} systems, {report.segments:,} segments, {report.rows:,} rows")
    for note in report.notes:  # they name columns and systems
        st.caption(markdown_literal(note))
    st.markdown("**System level**: corpus score against the mean human score per system.")
    system_table = views.figures_table(report, "system")
    st.dataframe(system_table, hide_index=True, key="agr_system_table", column_config=_number_columns(system_table))
    st.markdown("**Segment level**: sentence score against the human score, over all rated rows and within each "
                "segment.")
    segment_table = views.figures_table(report, "segment")
    st.dataframe(segment_table, hide_index=True, key="agr_segment_table", column_config=_number_columns(segment_table))
    st.caption(f"95% intervals: {samples:,} bootstrap samples of the seg_ids (seed {seed}); every row of a drawn "
               "segment comes along.")
    st.caption("Signatures (how to reproduce these numbers):")
    st.code("\n".join(f"{views.metric_label(name)}: {m.signature}" for name, m in report.metrics.items()), language=None)
    with st.expander("Highest on each figure"):
        for line in views.best_summary(report):
            st.text(line)
    if len(report.metrics) >= 2:
        st.markdown("**Does one metric agree significantly better than another?** (paired bootstrap over segments)")
        measure = st.selectbox("Figure", agree.MEASURES, format_func=views.MEASURE_NAMES.get, key="agr_test_measure",
                               persist_state="session")
        paired = views.paired_table(report, measure)
        st.dataframe(paired, hide_index=True, key="agr_paired", column_config=_number_columns(paired))
        st.caption(f"A verdict names a metric only when {RULE}: with many pairs on one figure, a raw p below 0.05 "
                   "comes up by chance, so read the Holm column.")


def plots_section(report, table, scored: dict, human: str) -> None:
    st.subheader("Plots")
    shown = st.selectbox("Metric", list(report.metrics), key="agr_plot_metric", persist_state="session",
                         format_func=views.metric_label,
                         index=_index("agr_plot_metric", list(report.metrics), next(iter(report.metrics))))
    tab_system, tab_segment, tab_table = st.tabs(["System level", "Segment level", "Systems table"])
    tab_system.plotly_chart(views.system_scatter(report, shown, human), key="agr_scatter")
    tab_segment.plotly_chart(views.segment_density(table.human, scored[shown].segment, shown, human), key="agr_density")
    tab_table.dataframe(views.systems_table(report, shown), hide_index=True, key="agr_systems")


def tuning_section(table, table_key, scored: dict, custom: MeteorConfig | None, samples: int, seed: int) -> None:
    st.subheader("Tune METEOR on these judgments")
    st.caption("Aligns once, then rescores a grid of α, β, γ (δ for meteor15) from the statistics; the best point "
               "on the training rows is then scored on the held-out rows beside the defaults.")
    t1, t2, t3, t4 = st.columns(4)
    presets = list(language_choice.presets(_language())) + ([CUSTOM] if custom is not None else [])
    tune_preset = t1.selectbox("METEOR", presets, key="agr_tune_preset", persist_state="session",
                               index=_index("agr_tune_preset", presets, PRESET_NAMES[0]))
    tune_config = custom if tune_preset == CUSTOM else MeteorConfig.preset(tune_preset, language=_language())
    tunable = ["alpha", "beta", "gamma"] + (["delta"] if tune_config.scoring == "meteor1x" else [])
    _kept_only("agr_tune_params", tunable)
    parameters = t2.multiselect("Parameters", tunable, ["alpha", "beta", "gamma"], key="agr_tune_params",
                                persist_state="session", format_func=views.GREEK.get)
    objective = t3.selectbox("Objective", agree.MEASURES, format_func=views.MEASURE_NAMES.get, key="agr_tune_objective",
                             persist_state="session", index=agree.MEASURES.index(tuning.DEFAULT_OBJECTIVE))
    steps = int(t4.number_input("Values per parameter", 2, tuning.MAX_STEPS, tuning.DEFAULT_STEPS, key="agr_tune_steps",
                                persist_state="session"))
    tune_key = (table_key, _metric_key(tune_config), tuple(parameters), objective, steps, samples, seed)
    if st.button("Tune", key="agr_tune_go", disabled=not parameters):
        scores = scored.get(tune_preset) or _score_all(table_key, table, {tune_preset: tune_config})[tune_preset]
        try:
            st.session_state.agr_tuned = (tune_key, _tune(table_key, _metric_key(tune_config), tuple(parameters),
                                                           objective, steps, samples, seed, table, scores))
        except (ValueError, OverBudget) as exc:
            _problem(str(exc))
    saved = st.session_state.get("agr_tuned")
    if saved and saved[0] == tune_key:
        tuning_result(saved[1])


def tuning_result(result) -> None:
    st.text(f"{result.points:,} grid points rescored in {result.seconds:.2f} s. Split: {result.split} "
            f"({result.train_segments} training / {result.heldout_segments} held-out segments).")
    result_table = views.tuning_table(result)
    st.dataframe(result_table, hide_index=True, key="agr_tune_table", column_config=_number_columns(result_table))
    for note in views.edge_notes(result):
        st.warning(note)
    test = result.heldout_test
    if test is not None and test.p_value == test.p_value:
        st.text(f"Held out, best − default = {test.delta:+.4f} (95% CI {test.ci_low:+.4f} … {test.ci_high:+.4f}), "
                f"p = {test.p_value:.4f}: {'significant' if test.significant else 'not significant'} at 0.05.")
    if len(result.parameters) == 1:
        st.plotly_chart(views.tuning_line(result, result.parameters[0]), key="agr_tune_line")
        return
    h1, h2 = st.columns(2)
    x = h1.selectbox("Heatmap x", result.parameters, format_func=views.GREEK.get, key="agr_heat_x",
                     index=_index("agr_heat_x", result.parameters, result.parameters[0]),
                     persist_state="session")
    y_choices = [p for p in result.parameters if p != x]
    y = h2.selectbox("Heatmap y", y_choices, format_func=views.GREEK.get, key="agr_heat_y", persist_state="session",
                     index=_index("agr_heat_y", y_choices, y_choices[0]))
    st.plotly_chart(views.tuning_heatmap(result, x, y), key="agr_heatmap")


# --- the page ----------------------------------------------------------------------------------

def _page() -> None:
    """The page, in a function: a run's data (the table, its scores, the report) must not be a
    global of the page, or the page's cached functions, which Streamlit keeps for good, keep the
    globals of the run that defined them, and with them a closed session's table."""
    start_request()
    if page_state.entered(PAGE):
        st.session_state.pop("_agr_had_upload", None)  # the uploader starts empty: nothing was removed
    st.title("Agreement with people")
    st.caption("Which metric ranks systems and sentences the way human judges do? For each metric: the system-level "
               "correlation of its corpus score with the mean human score, the segment-level Kendall τb, 95% "
               "intervals from a bootstrap over segments, and paired tests between metrics. TER is negated so that "
               "higher is better everywhere.")
    metric_names, samples, seed, custom = settings()
    table, table_key = test_set()
    # the METEOR presets in the language chosen (a configuration: its cache key names the language)
    metrics = ({n: MeteorConfig.preset(n, language=_language()) if n in PRESET_NAMES else n for n in metric_names}
               | ({CUSTOM: custom} if custom is not None else {}))
    if not metrics:
        st.info("Choose at least one metric.")
        st.stop()
    meteors = [m for m in metrics.values() if isinstance(m, MeteorConfig)]
    if meteors:  # the notes on the texts (another language, not NFC, no paraphrase table): about METEOR only
        texts = (t for pair in zip(table.hypotheses, table.references) for t in (pair[0], *pair[1]))
        language_choice.show_notes(meteors, texts)
    wait_for_the_ask(metrics, samples)
    scored = score_metrics(table, table_key, metrics)
    try:
        metric_keys = tuple((name, _metric_key(m)) for name, m in metrics.items())
        report = _agreement(table_key, metric_keys, samples, seed, table, list(scored.values()))
    except OverBudget as exc:
        _problem(f"{exc}. Take fewer bootstrap samples, or run the command line's agree.")
        st.stop()
    figures_section(report, samples, seed)
    plots_section(report, table, scored, table_key[1])
    tuning_section(table, table_key, scored, custom, samples, seed)


_page()
