"""Compare systems over a test set: corpus table, paired bootstrap, segment table with filters,
charts, any segment opened in the pair view for every system on the same reference, and the
difference waterfall of one system's corpus score under two configurations.

Layout: one small function per section, called in order at the bottom; the views are in
components/compare_views.py. To add a section, write a function taking the ``Loaded`` data (and
what it needs of the selections) and call it where it belongs.

Speed: a test set is scored once per (data, configuration) and kept in the session (the bundled
set once per server for every session, started in the background by its first session); everything
drawn from it is cached by the comparison's key, so a filter or a selection never rescores and
rebuilds only what changed. The segment table with its charts and the segment view are
fragments: changing a filter or opening a segment reruns that part only. The charts, the
significance tests, the buckets and the exports are expanders computed when opened, and the
segment drawings come when a segment is opened: the first screen waits for none of them and
draws no figure (DRAWN). BLEU, chrF and TER are counted in a background thread started as the
run's last step (components/background_metrics.py): ticking them finds them ready, or waits for that count.

State: every choice is kept across pages and while its widget is not drawn (persist_state: a
widget drawn again shows the value the results use, never its own default), the open tabs and the
uploaded files too (page_state; uploads by name and bytes, since Streamlit's uploader forgets its
files when its page is left). Starting values are the widgets' own defaults (value=, index=), so
that the first screen never shows a placeholder value before the real one.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import pandas as pd
import streamlit as st

from app_pages import page_state
from components import background_metrics, compare_views, demo_set, language_choice, research_views
from components.cache_keys import digest
from components.alignment_chart import alignment_figure
from components.inputs import system_names
from components.missing_resources import MISSING_RESOURCES, show_missing
from components.plain_text import label_literal, markdown_literal
from components.request_budget import OverBudget, request_deadline, start_request
from components.session_memo import session_or_shared, share
from meteor_core import MeteorConfig
from meteor_core.analysis.compare import (DEFAULT_SAMPLES, DEFAULT_SEED, MAX_SAMPLES, MAX_SEED, compare_systems,
                                          paired_bootstrap)
from meteor_core.analysis.significance import DEFAULT_TRIALS, MAX_TRIALS, TESTS, significance_report
from meteor_core.notes import NOTE_SAMPLE, config_notes
from meteor_core.explain import number
from meteor_core.safe_export import csv_text
from meteor_core.textio import MAX_FILE_BYTES, MAX_SEGMENTS, InputError, decode_segments, decode_table, load_test_set

PAGE = "compare"
SOURCES = ("Bundled demo: TED Slovak→English, 1,200 segments, 2 systems",
           "Upload files (one segment a line)", "Upload one table (TSV, CSV or JSONL)")
LIMITS = (f"Files: UTF-8 text, up to {MAX_FILE_BYTES // 2**20} MiB and {MAX_SEGMENTS:,} lines each, any file "
          "name (.txt, .en, .de, .hyp, .ref, …); every file must have the same number of lines.")
MAX_MIB = MAX_FILE_BYTES // 2**20
UPLOADERS = ("cmp_refs", "cmp_systems", "cmp_table", "cmp_source_file")
KEPT = ("cmp_chart_tab", "cmp_bucket_tab")  # tabs: widgets keep their values themselves (persist_state)
TEST_LABELS = {"bootstrap": "paired bootstrap", "ar": "approximate randomization", "both": "both"}


@dataclass
class Loaded:
    """The test set and its scores: what every section draws from."""
    systems: dict[str, list[str]]
    references: list[list[str]]
    config: MeteorConfig
    key: str  # identifies (data, configuration): keys every cache below
    comparison: object  # meteor_core.analysis.compare.SystemComparison
    sources: list[str] | None = None  # the source sentences, when the test set has them
    demo: bool = False  # the bundled set (its scores are the same for every session)

    @property
    def names(self) -> list[str]:
        return self.comparison.names

    @cached_property
    def texts_key(self) -> str:
        """What keys the caches of scores that use the texts alone (BLEU, chrF, TER): another
        METEOR configuration on the same texts reuses them."""
        return digest(self.systems, self.references)


# --- loading and scoring -----------------------------------------------------------------------


def _files(key: str, uploaded) -> list[tuple[str, bytes]]:
    """The files of uploader ``key`` as (name, bytes), kept in the session: a page visited again
    gets the files back (the uploader itself starts empty), while files the user removes from
    the uploader (it had files on the last run and has none now) are forgotten."""
    store = st.session_state.setdefault("cmp_uploads", {})
    files = uploaded if isinstance(uploaded, list) else ([uploaded] if uploaded is not None else [])
    if files:
        store[key] = [(f.name, f.getvalue()) for f in files]
    elif st.session_state.get(f"_cmp_had_{key}"):
        store.pop(key, None)
    st.session_state[f"_cmp_had_{key}"] = bool(files)
    if not files and store.get(key):
        st.caption(markdown_literal("Using the file(s) uploaded earlier in this session: "
                                    + ", ".join(name for name, _ in store[key]) + ". Upload again to replace them."))
        if st.button("Forget these files", key=f"forget_{key}"):
            store.pop(key, None)
    return store.get(key, [])


def _uploaders_start_empty() -> None:
    """After a page switch the uploaders are empty without the user having removed anything."""
    if page_state.entered(PAGE):
        for key in UPLOADERS:
            st.session_state.pop(f"_cmp_had_{key}", None)


def _load_files(ref_files, sys_files, source_files=()):
    if not ref_files:
        raise InputError("Upload at least one reference file.")
    if len(sys_files) < 2:
        raise InputError("Upload two or more system output files.")
    systems, references = load_test_set([(name, decode_segments(data, name)) for name, data in ref_files],
                                        [(name, decode_segments(data, name)) for name, data in sys_files])
    sources = None
    if source_files:
        name, data = source_files[0]
        sources = decode_segments(data, name)
        if len(sources) != len(references):
            raise InputError(f"{name}: {len(sources):,} lines, the references {len(references):,}.")
    return dict(zip(system_names(list(systems)), systems.values())), references, sources


def _load_table(table_files):
    if not table_files:
        raise InputError("Upload a TSV, CSV or JSONL file with a 'ref' column and one column per system.")
    name, data = table_files[0]
    test_set = decode_table(data, name)
    return test_set.systems, test_set.references, test_set.sources


def _key(systems, references, sources, config) -> str:
    """What keys every cache of a comparison, the shared ones included: a digest of all that
    makes its values (system names and outputs, references, sources, the whole configuration)."""
    return digest(systems, references, sources, config.to_dict())


def _compare(systems, references, sources, config, demo: bool = False):
    """Score once per (data, configuration); later reruns (filters, selection) reuse it. The
    bundled set (``demo``) is scored once per server and configuration for every session
    (components/demo_set.py; the session keeps a reference to it, no copy).
    Returns the cache key too, which keys the bootstrap, the tables and the charts. Scoring that
    runs over the request's time budget stops with OverBudget, which is kept like a result, so
    that the reruns a filter causes do not start it again."""
    cache = st.session_state.setdefault("comparisons", {})
    key = _key(systems, references, sources, config)
    if key not in cache:
        bar = st.progress(0.0, text="Scoring…")

        def progress(done, total):
            bar.progress(done / total, text=f"Scoring segment {done:,} of {total:,}…")

        cache.clear()  # keep one comparison per session: results of large sets are big
        try:
            deadline = request_deadline("Scoring")
            if demo:  # scored already, mostly (warmed when the server's first session starts); a cached
                # function must not draw into the page's bar, so its progress only checks the budget
                cache[key] = demo_set.comparison(config.to_dict(), deadline.progress())
            else:
                cache[key] = compare_systems(systems, references, config, progress=deadline.progress(progress),
                                             jobs=None)  # every core; small sets stay in this process
        except OverBudget as exc:
            bar.empty()
            if exc.retry:  # reading the files took the budget: scoring starts afresh next time
                raise
            cache[key] = exc
        bar.empty()
    if isinstance(cache[key], OverBudget):
        raise cache[key]
    return key, cache[key]


# Everything drawn from a comparison is cached by its key (the comparison itself is not hashed:
# the leading underscore tells Streamlit to skip it): in session-scoped caches for an uploaded
# test set (released with the session: the shared caches kept closed sessions' tables and
# charts), in Streamlit's shared caches for the demo set, the same for every visitor. Work
# stopped by the request's budget is cached as its result (a rerun does not start it again)
# unless earlier work of the request had taken the budget (OverBudget.retry): then it starts
# afresh at the next run, with the earlier work cached. The sections call these through
# _or_stopped, which turns that stop into a result too.


def _or_stopped(function, *args):
    """``function(*args)``, or the OverBudget that stopped it in this run (not cached)."""
    try:
        return function(*args)
    except OverBudget as exc:
        return exc


@session_or_shared(st.cache_data, 32, 8, "Bootstrap resampling…")
def _bootstrap(_comparison, key: str, a: str, b: str, samples: int, seed: int):
    """The test, or the OverBudget that stopped it (cached too: a rerun does not start it again)."""
    try:
        return paired_bootstrap(_comparison, a, b, samples, seed, check=request_deadline("The bootstrap").check)
    except OverBudget as exc:
        if exc.retry:
            raise
        return exc


@session_or_shared(st.cache_data, 8, 2)
def _segment_table(_loaded: Loaded, key: str, a: str, b: str):
    table = compare_views.segment_table(_loaded.comparison, a, b, _loaded.references, _loaded.systems)
    return research_views.with_sources(table, _loaded.sources)


@session_or_shared(st.cache_data, 16, 4, "Significance tests for every pair…")
def _significance(_comparison, key: str, baseline: str, test: str, samples: int, trials: int, seed: int):
    """The report, or what stopped it (over the time budget, too many trials for this set): cached
    too, so that a rerun does not start it again."""
    try:
        return significance_report(_comparison, baseline, test, samples, trials, seed,
                                   check=request_deadline("The significance tests").check)
    except (OverBudget, ValueError) as exc:
        if getattr(exc, "retry", False):
            raise
        return exc


@session_or_shared(st.cache_data, 8, 2, "Buckets and their bootstrap intervals…")
def _buckets(_comparison, key: str, samples: int, seed: int):
    """Both bucket tables, or the OverBudget that stopped them (cached like a result)."""
    from meteor_core.analysis.buckets import frequency_buckets, length_buckets
    check = request_deadline("The bucket intervals").check
    try:
        return (length_buckets(_comparison, samples=samples, seed=seed, check=check),
                frequency_buckets(_comparison, samples=samples, seed=seed, check=check))
    except OverBudget as exc:
        if exc.retry:
            raise
        return exc


SACREBLEU_SPINNER = "BLEU, chrF and TER with sacrebleu (sentence TER takes a while)…"


@session_or_shared(st.cache_data, 4, 1, SACREBLEU_SPINNER)
def _sacrebleu(_loaded: Loaded, key: str):
    """The scores, or the OverBudget that stopped them (cached like a result). They are counted
    in the background from the end of the run that scored the set (_metrics_job): this waits
    for that job, or counts them here within the request's budget (a set too large for the
    background, or a job that failed)."""
    check = request_deadline("BLEU, chrF and TER").check
    try:
        job = _metrics_job(_loaded)
        scores = job.wait(check) if job is not None else None
        return scores if scores is not None else _metrics_counter(_loaded)(check)
    except OverBudget as exc:
        if exc.retry:
            raise
        return exc


def _metrics_counter(loaded: Loaded):
    """``count(check)``: BLEU, chrF and TER of the loaded set (the bundled set's from its shared,
    kept copy)."""
    if loaded.demo:
        return demo_set.sacrebleu_scores
    from meteor_core.analysis.sacrebleu_metrics import METRICS, score_systems

    systems, references = loaded.systems, loaded.references
    return lambda check: score_systems(systems, references, METRICS, check=check)


def _metrics_job(loaded: Loaded):
    """The background job counting BLEU, chrF and TER for the loaded set, started if need be
    (None for a set too large for the background)."""
    return background_metrics.start(loaded.texts_key, _metrics_counter(loaded),
                                    loaded.comparison.n_segments * len(loaded.names), shared=loaded.demo)


def ss_key(keys) -> tuple:
    """The current values of some widgets: part of a cache key."""
    return tuple(st.session_state.get(k) for k in keys)


@session_or_shared(st.cache_resource, 16, 4)
def _heatmap(_report, key: str, choices: tuple, names: tuple):
    return research_views.significance_heatmap(_report, list(names))


@session_or_shared(st.cache_resource, 16, 4)
def _bucket_chart(_rows, key: str, choices: tuple, value: str, title: str, y_title: str):
    return research_views.bucket_figure(_rows, value, title, y_title)


@dataclass
class OtherMetrics:
    """BLEU, chrF and TER when asked for (the corpus section's checkbox), else empty."""
    corpus: dict  # system -> metric -> corpus score
    sentence: dict  # system -> metric -> sentence scores
    signatures: dict  # label -> signature, METEOR's first
    names: dict  # metric -> column header
    stopped: OverBudget | None = None  # why they are missing although asked for


def _other_metrics(loaded: Loaded) -> OtherMetrics:
    signatures = {"METEOR": loaded.config.signature()}
    if not st.session_state.get("cmp_metrics"):
        return OtherMetrics({}, {}, signatures, {})
    from meteor_core.analysis.sacrebleu_metrics import NAMES
    scores = _or_stopped(_sacrebleu, loaded, loaded.texts_key)
    if isinstance(scores, OverBudget):
        return OtherMetrics({}, {}, signatures, {}, stopped=scores)
    corpus, sentence, metric_signatures = scores
    return OtherMetrics(corpus, sentence, {**signatures, **metric_signatures}, NAMES)


@session_or_shared(st.cache_data, 32, 8)
def _filtered(_loaded: Loaded, key: str, a: str, b: str, score_range, diff_range, query: str):
    return compare_views.filter_segments(_segment_table(_loaded, key, a, b), a, b, score_range, diff_range, query)


CHARTS = ("scatter", "differences", "length")


@session_or_shared(st.cache_resource, 32, 8)
def _chart(_loaded: Loaded, key: str, a: str, b: str, score_range, diff_range, query: str, chart: str):
    shown = _filtered(_loaded, key, a, b, score_range, diff_range, query)
    if chart == "scatter":
        return compare_views.scatter_figure(shown, a, b)
    if chart == "differences":
        return compare_views.diff_histogram(shown, a, b)
    return compare_views.length_figure(shown, _loaded.names)


@session_or_shared(st.cache_resource, 64, 16)
def _segment_figure(_loaded: Loaded, key: str, name: str, segment: int, ref_index: int):
    pair = _loaded.comparison.results[name].segments[segment].per_reference[ref_index]
    return alignment_figure(pair, title=name, hyp_label=name)


# --- sections ----------------------------------------------------------------------------------


def settings() -> MeteorConfig:
    with st.sidebar:
        st.header("Settings")
        lang = language_choice.choose(st)
        presets = language_choice.presets(lang)
        if st.session_state.get("cmp_preset") not in presets:
            st.session_state.pop("cmp_preset", None)  # nltk kept from English: the first preset that scores it
        preset = st.selectbox("Preset", presets, key="cmp_preset", persist_state="session")
        if lang != "en":
            st.caption(language_choice.NLTK_NOTE)
        english = lang == "en"
        synonyms = st.checkbox("Synonym stage (WordNet)", True, key="cmp_synonyms", persist_state="session",
                               disabled=not english, help=None if english else "Synonyms are English only (WordNet)")
    config = MeteorConfig.preset(preset, language=lang)
    if not synonyms and "synonym" in config.stages:
        config = MeteorConfig.preset(preset, language=lang, stages=tuple(s for s in config.stages if s != "synonym"))
    return config


def test_set(config: MeteorConfig) -> Loaded:
    """The chosen test set, scored (stops the page with a message when it cannot be)."""
    source = st.radio("Test set", SOURCES, key="cmp_source", persist_state="session")
    try:
        sources = None
        if source == SOURCES[0]:
            systems, references = demo_set.texts()
        elif source == SOURCES[1]:
            c1, c2 = st.columns(2)
            with c1:
                refs = _files("cmp_refs", st.file_uploader("Reference file(s)", accept_multiple_files=True,
                                                           key="cmp_refs", max_upload_size=MAX_MIB))
            with c2:
                outputs = _files("cmp_systems", st.file_uploader("System outputs (two or more)",
                                                                 accept_multiple_files=True, key="cmp_systems",
                                                                 max_upload_size=MAX_MIB))
            source_file = _files("cmp_source_file", st.file_uploader(
                "Source file (optional, shown beside each segment)", key="cmp_source_file", max_upload_size=MAX_MIB))
            st.caption(LIMITS)
            systems, references, sources = _load_files(refs, outputs, source_file)
        else:
            table = _files("cmp_table", st.file_uploader("Test set table", type=["tsv", "csv", "jsonl"],
                                                         key="cmp_table", max_upload_size=MAX_MIB))
            st.caption("Columns: source (optional), ref (or ref1, ref2, …), and one column per system. " + LIMITS)
            systems, references, sources = _load_table(table)
    except InputError as exc:
        st.warning(markdown_literal(str(exc)))  # messages quote file and column names
        st.stop()
    try:
        key, comparison = _compare(systems, references, sources, config, demo=source == SOURCES[0])
    except MISSING_RESOURCES as exc:
        show_missing(exc, "compare")
        st.stop()
    except (ValueError, OverBudget) as exc:  # e.g. a segment over the length limit, a set too large to score here
        st.warning(markdown_literal(str(exc)))
        if isinstance(exc, OverBudget):
            st.caption("Score a test set this large with the command line: python -m meteor_core compare --help")
        st.stop()
    loaded = Loaded(systems, references, config, key, comparison, sources, demo=source == SOURCES[0])
    if source == SOURCES[0]:  # the demo set: every visitor's tables, charts and BLEU/chrF/TER are the same
        share(key)
        share(loaded.texts_key)
    _notes(key, config, systems, references)
    return loaded


def _notes(key: str, config: MeteorConfig, systems: dict[str, list[str]], references: list[list[str]]) -> None:
    """The notes on the configuration and the test set (text not in NFC, in another language than
    the one chosen, a missing paraphrase table), worked out once per test set and configuration."""
    half = NOTE_SAMPLE // 2  # the first system's first segments and their first references
    sample = [*next(iter(systems.values()))[:half], *(refs[0] for refs in references[:half] if refs)]
    language_choice.show(config_notes(config, sample, fixes=language_choice.APP_FIXES))


def _index(key: str, options: list, default) -> int:
    """The index= of a selectbox whose options depend on the data: the default's, and a kept
    choice that the current data does not offer (another test set) is dropped for it."""
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
    return options.index(default)


def corpus_table_section(loaded: Loaded) -> None:
    """The corpus table, with BLEU, chrF and TER when asked, and the signatures. (Not a fragment:
    ticking BLEU, chrF and TER reruns the page, whose tables and exports all show them; a rerun of
    three fragments at once from the checkbox left Chromium with a blank page now and then, "Bad
    delta path index".)"""
    st.subheader(f"Corpus ({loaded.comparison.n_segments:,} segments)")
    st.checkbox("BLEU, chrF and TER beside METEOR (sacrebleu's; about a second per 2,000 segments, once)",
                key="cmp_metrics", persist_state="session")
    other = _other_metrics(loaded)
    if other.stopped is not None:
        st.warning(markdown_literal(f"{other.stopped}; the tables show METEOR only."))
    corpus = research_views.with_metrics(compare_views.corpus_table(loaded.comparison), other.corpus, other.names)
    st.dataframe(corpus, hide_index=True, key="corpus_table",
                 column_config={c: st.column_config.NumberColumn(format="%.4f")
                                for c in corpus.columns if corpus[c].dtype.kind == "f"})
    st.caption("Signatures (how to reproduce these numbers):")
    # st.text, not st.code: st.code's element brings a 1.5 MB syntax highlighter that the first
    # screen otherwise never needs (about 0.3 s of the browser's first visit)
    st.text("\n".join(f"{label}: {sig}" for label, sig in other.signatures.items()))
    st.download_button("Corpus table (CSV)", lambda: csv_text(research_views.with_signature(
        corpus, loaded.config.signature())), "corpus.csv", "text/csv", key="dl_corpus_csv", on_click="ignore")


def corpus_section(loaded: Loaded) -> tuple[str, str]:
    """The two systems to compare and their paired bootstrap; returns (A, B)."""
    names = loaded.names
    c1, c2, c3, c4 = st.columns(4)
    a = c1.selectbox("System A (baseline)", names, index=_index("cmp_a", names, names[0]), key="cmp_a",
                     persist_state="session")
    b = c2.selectbox("System B", names, index=_index("cmp_b", names, names[min(1, len(names) - 1)]), key="cmp_b",
                     persist_state="session")
    samples = c3.number_input("Bootstrap samples", 100, MAX_SAMPLES, DEFAULT_SAMPLES, step=100, key="cmp_samples",
                              persist_state="session")
    seed = c4.number_input("Seed", 0, MAX_SEED, DEFAULT_SEED, key="cmp_seed", persist_state="session")
    test = _or_stopped(_bootstrap, loaded.comparison, loaded.key, a, b, int(samples), int(seed)) if a != b else None
    if isinstance(test, OverBudget):
        st.warning(markdown_literal(f"{test}. Take fewer samples, or run the command line's compare."))
        test = None
    elif test is None:
        st.caption("Pick two different systems for the significance test.")
    else:
        # a horizontal container, not columns: the numbers wrap on a narrow page instead of being cut
        numbers = st.container(horizontal=True, gap="large")
        numbers.metric(label_literal(f"{b} − {a}"), number(test.delta, signed=True), width="content")
        numbers.metric("95% confidence interval",
                       f"{number(test.ci_low, signed=True)} … {number(test.ci_high, signed=True)}", width="content")
        numbers.metric("p-value", number(test.p_value), width="content")
        st.caption(markdown_literal(test.summary()))
    st.download_button("Corpus table and bootstrap (JSON)", compare_views.corpus_json(loaded.comparison, test),
                       "corpus.json", "application/json", key="dl_corpus_json", on_click="ignore")
    return a, b


# The first screen draws no Plotly figure: the browser's evaluation of Plotly's code (4.7 MB,
# ~1 s of its main thread) and three drawings kept a fresh visit to this page over 3 s. The
# segment drawings come once a segment is opened or asked for (DRAWN, for the rest of the
# session), the charts in a closed expander; app.py has the browser load Plotly's code after the
# first screen (components/preload.py), so those still open in under 0.5 s.
DRAWN = "cmp_segments_drawn"


def _draw_segments():
    st.session_state[DRAWN] = True


def _open_selected():
    """A row selected in the segment table opens in the segment view, drawn: only that fragment
    reruns (a full rerun redrew the whole page: 0.8-2.4 s in Chromium)."""
    rows = st.session_state.segments_table.selection.rows
    if rows:
        st.session_state.cmp_segment = int(st.session_state.cmp_shown_ids[rows[0]])
        _draw_segments()
        st.rerun(scope=SEGMENT_VIEW)


@st.fragment
def segments_section(loaded: Loaded, a: str, b: str) -> None:
    """Filters, the segment table and the charts of the filtered segments. A fragment: a filter
    reruns this part only; selecting a row reruns the segment view only, which opens it."""
    start_request(fragment=True)
    st.subheader("Segments")
    f1, f2, f3 = st.columns([1, 1, 1])
    score_range = f1.slider(label_literal(f"{a} or {b} scores between"), 0.0, 1.0, (0.0, 1.0), step=0.01,
                            key="cmp_score_range", persist_state="session")
    diff_range = f2.slider(label_literal(f"{b} − {a} between"), -1.0, 1.0, (-1.0, 1.0), step=0.01,
                           key="cmp_diff_range", persist_state="session")
    query = f3.text_input("Search words (reference or outputs)", key="cmp_query", persist_state="session")
    args = (loaded, loaded.key, a, b, tuple(score_range), tuple(diff_range), query)
    shown = _filtered(*args)
    st.caption(f"{len(shown):,} of {loaded.comparison.n_segments:,} segments. Click a column header to sort; "
               "select a row to open it below, system by system.")
    st.session_state.cmp_shown_ids = list(shown["segment"])
    other = _other_metrics(loaded)
    shown_table = research_views.with_segment_metrics(shown, other.sentence, other.names)
    st.dataframe(shown_table, hide_index=True, key="segments_table", on_select=_open_selected,
                 selection_mode="single-row",
                 column_config={c: st.column_config.NumberColumn(format="%.4f") for c in loaded.names + [f"{b} − {a}"]})
    st.download_button("Segment table (CSV)", lambda: csv_text(research_views.with_signature(
        shown_table, loaded.config.signature())), "segments.csv", "text/csv", key="dl_segments", on_click="ignore")
    # Closed at first, like the sections below: a first visit draws no figure (see DRAWN).
    charts = st.expander("Charts of these segments: A against B, the differences, score against length",
                         key="cmp_charts_open", on_change="rerun")
    if charts.open:  # lazy tabs inside: only the open chart is built and sent
        tabs = charts.tabs(["Scatter: A vs B", "Differences", "Score vs length"], key="cmp_chart_tab",
                           on_change="rerun")
        for tab, chart in zip(tabs, CHARTS):
            if tab.open:
                tab.plotly_chart(_chart(*args, chart), key=f"cmp_chart_{chart}")
    page_state.keep(("cmp_chart_tab",))  # a fragment: the page's own keep does not run on its reruns


SEGMENT_VIEW = "cmp_segment_view"  # the segment view fragment's key: a table row reruns it alone


@st.fragment(key=SEGMENT_VIEW)
def segment_view(loaded: Loaded, a: str) -> None:
    """One segment for every system against the same reference. A fragment: choosing another
    segment or reference reruns this part only."""
    start_request(fragment=True)
    st.subheader("One segment, system by system")
    n = loaded.comparison.n_segments
    if not 1 <= st.session_state.get("cmp_segment", 1) <= n:
        st.session_state.cmp_segment = 1
    segment = st.number_input("Segment", 1, n, key="cmp_segment", persist_state="session", on_change=_draw_segments)
    k = int(segment) - 1
    n_refs = len(loaded.references[k])
    best_of_a = loaded.comparison.results[a].segments[k].best_reference
    ref_index = 0
    if n_refs > 1:
        ref_index = st.selectbox("Reference", range(n_refs), index=best_of_a, key=f"cmp_ref_{n_refs}",
                                 persist_state="session",
                                 format_func=lambda r: f"Reference {r + 1}" + (f" (best for {a})" if r == best_of_a else ""))
    if loaded.sources is not None:
        st.text(f"Source: {loaded.sources[k]}")
    st.text(f"Reference: {loaded.references[k][ref_index]}")
    pairs = {name: loaded.comparison.results[name].segments[k].per_reference[ref_index] for name in loaded.names}
    columns = st.columns(min(len(pairs), 3))
    for i, (name, pair) in enumerate(pairs.items()):
        with columns[i % len(columns)]:
            st.metric(label_literal(name), number(pair.score),
                      help="METEOR of this segment against the reference above")
            st.caption(f"P {number(pair.precision)} · R {number(pair.recall)} · {pair.matches} matches in "
                       f"{pair.chunks} chunks")
            st.text(loaded.systems[name][k])
    if not st.session_state.get(DRAWN):  # a first visit draws no figure (see DRAWN)
        st.button("Draw the alignments", key="cmp_draw", on_click=_draw_segments,
                  help="How each system's words map to the reference's, stage by stage (as on the first page). "
                       "Opening a segment from the table draws them too.")
        return
    for i, name in enumerate(pairs):  # full width, one above the other: long sentences stay readable
        st.plotly_chart(_segment_figure(loaded, loaded.key, name, k, ref_index), key=f"cmp_pair_{i}", width="stretch")


def _significance_choices(loaded: Loaded) -> tuple[str, str, int]:
    """(test, baseline, trials): the significance section's widgets, or their starting values while
    that section has not been opened (the exports need them too)."""
    ss = st.session_state
    return (ss.get("cmp_sig_test", "both"), ss.get("cmp_baseline", loaded.names[0]),
            int(ss.get("cmp_trials", DEFAULT_TRIALS)))


def _report(loaded: Loaded):
    """The significance report for the current choices (cached: the exports reuse it)."""
    test, baseline, trials = _significance_choices(loaded)
    return _or_stopped(_significance, loaded.comparison, loaded.key, baseline, test,
                       int(st.session_state.cmp_samples), trials, int(st.session_state.cmp_seed))


@st.fragment
def significance_section(loaded: Loaded) -> None:
    """Every system against a baseline and every pair: table, heatmap, the multiple-comparisons
    note. A fragment: another test or baseline reruns this part only."""
    start_request(fragment=True)
    section = st.expander("Significance: every system against a baseline, and every pair", key="cmp_sig_open",
                          on_change="rerun")
    if not section.open:  # lazy: the tests run when the section is opened (not for the first screen)
        return
    with section:
        _significance_body(loaded)


def _significance_body(loaded: Loaded) -> None:
    g1, g2, g3 = st.columns(3)
    g1.selectbox("Test", TESTS, index=TESTS.index("both"), key="cmp_sig_test", persist_state="session",
                 format_func=TEST_LABELS.get)
    g2.selectbox("Baseline", loaded.names, index=_index("cmp_baseline", loaded.names, loaded.names[0]),
                 key="cmp_baseline", persist_state="session")
    g3.number_input("Randomization trials", 1_000, MAX_TRIALS, DEFAULT_TRIALS, step=1_000, key="cmp_trials",
                    persist_state="session")
    report = _report(loaded)
    if isinstance(report, Exception):  # over the time budget, or too many trials for this test set
        st.warning(markdown_literal(str(report)))
        return
    st.dataframe(research_views.pairwise_table(report), hide_index=True, key="cmp_pairwise",
                 column_config={c: st.column_config.NumberColumn(format="%.4f")
                                for c in ("B - A", "p bootstrap", "p bootstrap (Holm)", "p AR", "p AR (Holm)")})
    st.plotly_chart(_heatmap(report, loaded.key, ss_key(("cmp_baseline", "cmp_sig_test", "cmp_samples", "cmp_trials",
                                                          "cmp_seed")), tuple(loaded.names)), key="cmp_heatmap")
    st.caption(report.note + " Approximate randomization is sacrebleu's procedure; bootstrap samples and seed "
               "as set above.")


BUCKET_TABS = ("Reference length", "Word frequency in the references")
FOUR_DECIMALS = {c: st.column_config.NumberColumn(format="%.4f")
                 for c in ("METEOR", "precision", "recall", "fmean", "ci_low", "ci_high")}


@st.fragment
def buckets_section(loaded: Loaded) -> None:
    """METEOR by reference length and by word frequency, bars with 95% intervals (lazy tabs)."""
    start_request(fragment=True)
    section = st.expander("By bucket (compare-mt style, 95% bootstrap intervals)", key="cmp_buckets_open",
                          on_change="rerun")
    if not section.open:  # lazy: the buckets are computed when the section is opened
        return
    buckets = _or_stopped(_buckets, loaded.comparison, loaded.key, int(st.session_state.cmp_samples),
                          int(st.session_state.cmp_seed))
    if isinstance(buckets, OverBudget):
        section.warning(markdown_literal(str(buckets)))
        return
    by_length, by_frequency = buckets
    choices = ss_key(("cmp_samples", "cmp_seed"))
    length_tab, frequency_tab = section.tabs(BUCKET_TABS, key="cmp_bucket_tab", on_change="rerun")
    if length_tab.open:
        length_tab.plotly_chart(_bucket_chart(by_length, loaded.key, choices, "METEOR",
                                              "Corpus METEOR by reference length (tokens)", "corpus METEOR"),
                                key="cmp_bucket_length")
        length_tab.dataframe(by_length, hide_index=True, key="cmp_bucket_length_table", column_config=FOUR_DECIMALS)
    if frequency_tab.open:
        frequency_tab.plotly_chart(_bucket_chart(
            by_frequency, loaded.key, choices, "fmean", "METEOR word matches by how often the word occurs in the "
            "references", "Fmean of matched words"), key="cmp_bucket_frequency")
        frequency_tab.dataframe(by_frequency, hide_index=True, key="cmp_bucket_frequency_table",
                                column_config=FOUR_DECIMALS)
    page_state.keep(("cmp_bucket_tab",))


def exports_section(loaded: Loaded, a: str, b: str) -> None:
    """The corpus table as LaTeX and every table as one xlsx workbook, built when clicked.

    The builders run when the browser asks for the file, outside this script run, where
    st.session_state and the caches of this session are out of reach: they only use the values
    this run hands them."""
    section = st.expander("Exports: the corpus table in LaTeX, every table in xlsx (with the signatures)",
                          key="cmp_exports_open", on_change="rerun")
    if not section.open:  # lazy: they need the significance tests and the buckets
        return
    ss = st.session_state
    report = _report(loaded)
    buckets = _or_stopped(_buckets, loaded.comparison, loaded.key, int(ss.cmp_samples), int(ss.cmp_seed))
    if isinstance(report, Exception) or isinstance(buckets, Exception):
        section.caption("The LaTeX and xlsx files need the significance tests and the buckets, which did not finish "
                        "(see above).")
        return
    other = _other_metrics(loaded)
    corpus = research_views.with_metrics(compare_views.corpus_table(loaded.comparison), other.corpus, other.names)
    segments = research_views.with_segment_metrics(_segment_table(loaded, loaded.key, a, b), other.sentence,
                                                   other.names)
    test, baseline, trials = _significance_choices(loaded)
    settings = {"test": test, "baseline": baseline, "bootstrap samples": int(ss.cmp_samples),
                "randomization trials": trials, "seed": int(ss.cmp_seed)}
    signatures, metric_names = dict(other.signatures), tuple(other.names)

    def workbook() -> bytes:
        by_length, by_frequency = buckets
        tables = {"corpus": corpus, "significance": research_views.pairwise_table(report),
                  "buckets by length": pd.DataFrame(by_length), "buckets by frequency": pd.DataFrame(by_frequency),
                  "segments": segments}
        return research_views.xlsx_tables(tables, signatures, settings)

    downloads = section.container(horizontal=True)
    downloads.download_button("Corpus table (LaTeX)", lambda: research_views.latex_table(
        corpus, report, signatures, metric_names), "corpus.tex", "text/x-tex", key="dl_corpus_latex",
        on_click="ignore")
    downloads.download_button("Every table (xlsx)", workbook, "meteor-compare.xlsx",
                       "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", key="dl_xlsx",
                       on_click="ignore")


def corpus_difference_section(loaded: Loaded) -> None:
    """The corpus score of one system under two configurations, factor by factor (on demand)."""
    st.subheader("Why would another METEOR give this system a different corpus score?")
    names = loaded.names
    w1, w2, w3 = st.columns(3)
    w_system = w1.selectbox("System", names, index=_index("cmp_w_system", names, names[0]), key="cmp_w_system",
                            persist_state="session")
    lang = loaded.config.language  # both sides score the language chosen
    presets = list(language_choice.presets(lang))
    w_a = w2.selectbox("Configuration A", presets, index=_index("cmp_w_a", presets, "nltk" if "nltk" in presets else "meteor2005"), key="cmp_w_a",
                       persist_state="session")
    w_b = w3.selectbox("Configuration B", presets, index=_index("cmp_w_b", presets, "meteor15"), key="cmp_w_b",
                       persist_state="session")
    w_key = (loaded.key, w_system, w_a, w_b)
    if st.button("Explain the difference (rescores the corpus once per factor)", key="cmp_w_go"):
        from meteor_core.analysis.difference import explain_corpus_difference

        with st.spinner("Walking from A to B…"):
            try:
                st.session_state.cmp_waterfall = (w_key, explain_corpus_difference(
                    loaded.systems[w_system], loaded.references, MeteorConfig.preset(w_a, language=lang), MeteorConfig.preset(w_b, language=lang),
                    progress=request_deadline("The walk from A to B").progress(),
                    jobs=None))  # every core for large sets (see compare_systems above)
            except MISSING_RESOURCES as exc:
                show_missing(exc)
            except OverBudget as exc:
                st.warning(markdown_literal(str(exc)))
    saved = st.session_state.get("cmp_waterfall")
    if saved and saved[0] == w_key:
        from components.difference_views import steps_table, waterfall_figure

        difference = saved[1]
        st.info(difference.summary())
        st.plotly_chart(waterfall_figure(difference), key="cmp_w_chart")
        st.dataframe(steps_table(difference), hide_index=True, key="cmp_w_steps")


# --- the page ----------------------------------------------------------------------------------

def _page() -> None:
    """The page, in a function: a run's data must not be a global of the page. Streamlit keeps
    every cached function of the page for good, and with it the globals of the run that defined
    it, so a test set held in a global outlived its session (one scored set per run, seen in the
    8-session soak)."""
    start_request()
    _uploaders_start_empty()
    page_state.restore(KEPT)
    config = settings()
    st.title("Compare systems")
    loaded = test_set(config)
    corpus_table_section(loaded)
    system_a, system_b = corpus_section(loaded)
    page_state.keep(KEPT)
    segments_section(loaded, system_a, system_b)
    segment_view(loaded, system_a)
    significance_section(loaded)
    buckets_section(loaded)
    exports_section(loaded, system_a, system_b)
    corpus_difference_section(loaded)
    page_state.keep(KEPT)
    _metrics_job(loaded)  # BLEU, chrF and TER counted while the browser draws: a tick finds them ready


_page()
