"""The compare page through AppTest: demo set, uploads, table input, errors, segment view."""
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from components.plain_text import shown_text
from conftest import ROOT
from meteor_core.textio import MAX_FILE_BYTES

REF = "the cat sat on the mat\na dog ran in the park\nit is raining today\n"
GOOD = "the cat sat on the mat\na dog ran in the park\nit is raining today\n"
BAD = "cat the mat\ndog park\nraining it\n"


@pytest.fixture(autouse=True)
def no_kept_demo_scores(monkeypatch, tmp_path):
    """The bundled set's scores kept on disk (components/demo_set.py) in a folder of this test's own:
    the tests here see it scored in this process, whatever an earlier run left in the cache folder."""
    monkeypatch.setattr("components.demo_set.scores_folder", lambda: tmp_path / "demo-scores")


@pytest.fixture
def page():
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    return at.switch_page("app_pages/compare.py").run()


def metric(at, label):
    return next(m.value for m in at.metric if shown_text(m.label) == label)  # labels are Markdown-escaped


def upload_mode(at):
    return at.radio(key="cmp_source").set_value(at.radio(key="cmp_source").options[1]).run()


def test_demo_set_scores_and_compares(page):
    at = page
    assert not at.exception
    corpus = at.dataframe[0].value
    assert list(corpus.system) == ["sys1", "sys2"] and corpus["segments won"].sum() + corpus.ties[0] == 1200
    assert metric(at, "sys2 − sys1").startswith("-") and float(metric(at, "p-value")) < 0.05
    segments = at.dataframe[1].value
    assert len(segments) == 1200
    labels = [d.label for d in at.get("download_button")]
    assert labels == ["Corpus table (CSV)", "Corpus table and bootstrap (JSON)", "Segment table (CSV)"]
    # the first screen draws no figure: the charts, significance, buckets and exports are closed
    # expanders, the segment drawings wait for a segment to be opened or asked for
    assert at.get("plotly_chart") == [] and [b.label for b in at.button][:1] == ["Draw the alignments"]
    at.session_state["cmp_charts_open"] = True
    at.run()
    assert [c.key for c in at.get("plotly_chart")] == ["cmp_chart_scatter"]  # lazy tabs: the open one only
    for tab, chart in (("Differences", "differences"), ("Score vs length", "length")):
        at.session_state["cmp_chart_tab"] = tab
        at.run()
        assert not at.exception and [c.key for c in at.get("plotly_chart")] == [f"cmp_chart_{chart}"]
    at.button(key="cmp_draw").click().run()  # one drawing per system, from now on in this session
    assert [c.key for c in at.get("plotly_chart")] == ["cmp_chart_length", "cmp_pair_0", "cmp_pair_1"]
    at.number_input(key="cmp_segment").set_value(2).run()
    assert len(at.get("plotly_chart")) == 3 and not [b for b in at.button if b.key == "cmp_draw"]


def test_choosing_a_segment_draws_it(page):
    at = page.number_input(key="cmp_segment").set_value(5).run()
    assert [c.key for c in at.get("plotly_chart")] == ["cmp_pair_0", "cmp_pair_1"]


def test_the_first_screen_leaves_significance_buckets_and_exports_for_later(page, monkeypatch):
    """Issue 31, item 6: a fresh server's first visit to the compare page computed the significance
    tests and the bucket intervals (about 1 s of its 3) for sections below the first screen. They
    are expanders now, computed when opened; opening one draws its figures."""
    at = page
    computed = []

    def counting(module, name):
        real = getattr(module, name)

        def wrapper(*args, **kwargs):
            computed.append(name)
            return real(*args, **kwargs)
        monkeypatch.setattr(module, name, wrapper)

    from meteor_core.analysis import buckets, significance
    counting(significance, "significance_report")
    counting(buckets, "length_buckets")
    counting(buckets, "frequency_buckets")
    st.cache_data.clear()
    at.run()
    assert not at.exception and computed == []
    assert [e.label for e in at.expander][-3:-1] == ["Significance: every system against a baseline, and every pair",
                                                      "By bucket (compare-mt style, 95% bootstrap intervals)"]
    at.session_state["cmp_sig_open"] = True
    at.run()
    assert computed == ["significance_report"] and len(at.get("plotly_chart")) == 1  # the heatmap
    at.session_state["cmp_buckets_open"] = True
    at.run()
    assert computed[1:] == ["length_buckets", "frequency_buckets"] and len(at.get("plotly_chart")) == 1 + 1
    at.session_state["cmp_exports_open"] = True
    at.run()
    assert not at.exception and len(computed) == 3  # the exports reuse both
    labels = [d.label for d in at.get("download_button")]
    assert labels[-2:] == ["Corpus table (LaTeX)", "Every table (xlsx)"]


def test_filters_and_opening_a_segment(page):
    at = page
    at.slider(key="cmp_diff_range").set_value((0.2, 1.0)).run()
    shown = at.dataframe[1].value
    assert len(shown) > 0 and (shown["sys2 − sys1"] >= 0.2).all()
    at.text_input(key="cmp_query").input("laughter").run()
    shown = at.dataframe[1].value
    texts = shown[["reference", "sys1 output", "sys2 output"]].agg(" ".join, axis=1).str.lower()
    assert len(shown) > 0 and texts.str.contains("laughter").all()
    at.number_input(key="cmp_segment").set_value(3).run()
    assert not at.exception
    assert metric(at, "sys1") and metric(at, "sys2")
    assert any("While that might be" in t.value for t in at.text)  # segment 3's reference


def test_upload_two_systems(page):
    at = upload_mode(page)
    assert any("Upload at least one reference" in w.value for w in at.warning)
    at.file_uploader(key="cmp_refs").upload("ref.txt", REF.encode()).run()
    uploader = at.file_uploader(key="cmp_systems")
    uploader.upload("good.txt", GOOD.encode()).upload("bad.txt", BAD.encode()).run()
    assert not at.exception and not at.warning
    corpus = at.dataframe[0].value
    assert list(corpus.system) == ["good", "bad"]  # file extensions dropped
    assert list(corpus["segments won"]) == [3, 0]
    assert metric(at, "bad − good").startswith("-")


@pytest.mark.parametrize("files,message", [
    ([("good.txt", GOOD.encode()), ("short.txt", b"one line\n")], "line counts differ"),
    ([("good.txt", GOOD.encode()), ("latin1.txt", "caf\xe9\nb\nc\n".encode("latin-1"))], "not UTF-8"),
    ([("good.txt", GOOD.encode()), ("empty.txt", b"")], "empty"),
    ([("good.txt", GOOD.encode())], "two or more system"),
])
def test_upload_errors_are_messages(page, files, message):
    at = upload_mode(page)
    at.file_uploader(key="cmp_refs").upload("ref.txt", REF.encode()).run()
    uploader = at.file_uploader(key="cmp_systems")
    for name, data in files:
        uploader.upload(name, data)
    at.run()
    assert not at.exception
    assert any(message in shown_text(w.value) for w in at.warning)


def test_size_limit_is_stated(page):
    at = upload_mode(page)
    assert any(f"{MAX_FILE_BYTES // 2**20} MiB" in c.value for c in at.caption)


def test_one_table_input(page):
    at = page.radio(key="cmp_source").set_value(page.radio(key="cmp_source").options[2]).run()
    rows = "src\tref\tgood\tbad\n" + "".join(f"s\t{r}\t{g}\t{b}\n" for r, g, b in zip(
        REF.splitlines(), GOOD.splitlines(), BAD.splitlines()))
    at.file_uploader(key="cmp_table").upload("set.tsv", rows.encode()).run()
    assert not at.exception and list(at.dataframe[0].value.system) == ["good", "bad"]
    at.file_uploader(key="cmp_table").upload("set.csv", b"ref,only\na,b\n").run()
    assert any("two or more system columns" in w.value for w in at.warning)


def test_corpus_waterfall_for_one_system(page):
    at = upload_mode(page)
    at.file_uploader(key="cmp_refs").upload("ref.txt", REF.encode()).run()
    at.file_uploader(key="cmp_systems").upload("good.txt", GOOD.encode()).upload("bad.txt", BAD.encode()).run()
    at.selectbox(key="cmp_w_system").set_value("bad").run()
    at.button(key="cmp_w_go").click().run()
    assert not at.exception
    summary = next(i.value for i in at.info if "Going from nltk to meteor15" in i.value)
    from meteor_core import MeteorConfig, score_corpus
    refs = [[r] for r in REF.splitlines()]
    b = score_corpus(BAD.splitlines(), refs, MeteorConfig.meteor15()).score
    assert f"meteor15 scores {b:.4f}" in summary
    steps = at.get("dataframe")[-1].value
    assert steps.factor.iloc[0] == "A: nltk"


# --- languages (issue 29) ---------------------------------------------------------------------

GERMAN_REF = "Die Katze saß auf der Matte.\nEin Hund lief durch den Park.\nHeute regnet es den ganzen Tag.\n"
GERMAN_SYS = "Die Katze sitzt auf der Matte.\nDer Hund läuft im Park.\nEs regnet heute den ganzen Tag.\n"


def _upload(at, ref: str, systems: dict[str, str]):
    upload_mode(at)
    at.file_uploader(key="cmp_refs").upload("ref.txt", ref.encode()).run()
    uploader = at.file_uploader(key="cmp_systems")
    for name, text in systems.items():
        uploader = uploader.upload(name, text.encode())
    return uploader.run()


def test_german_uploads_are_scored_as_german(page):
    from meteor_core import MeteorConfig
    from meteor_core.analysis.compare import compare_systems

    at = page
    at.selectbox(key="lang").set_value("de").run()
    assert at.selectbox(key="cmp_preset").options == ["meteor2005", "meteor15"]  # nltk: English only
    at.selectbox(key="cmp_preset").set_value("meteor15").run()
    assert at.checkbox(key="cmp_synonyms").disabled
    at = _upload(at, GERMAN_REF, {"a.txt": GERMAN_SYS, "b.txt": GERMAN_REF})
    assert not at.exception
    german = MeteorConfig.meteor15(language="de")
    expected = compare_systems({"a": GERMAN_SYS.splitlines(), "b": GERMAN_REF.splitlines()},
                               [[r] for r in GERMAN_REF.splitlines()], german)
    corpus = at.dataframe[0].value.set_index("system")
    assert corpus.loc["a", "corpus METEOR"] == pytest.approx(expected.results["a"].score, abs=5e-5)
    signatures = "\n".join(t.value for t in at.text)
    assert german.signature() in signatures


def test_english_text_under_german_is_said_to_look_english(page):
    at = page
    at.selectbox(key="lang").set_value("de").run()
    warnings = [shown_text(w.value) for w in at.warning]  # the demo set: TED talks in English
    assert any(w.startswith("The text looks like English, not German") and "choose English (en) as the language"
               in w for w in warnings)


def _count_scoring(monkeypatch) -> list:
    from meteor_core.analysis import compare
    calls = []
    real = compare.compare_systems
    monkeypatch.setattr(compare, "compare_systems", lambda *a, **k: calls.append(len(a[1])) or real(*a, **k))
    return calls


def _compare_page():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    return at.switch_page("app_pages/compare.py").run()


def test_the_bundled_set_is_scored_once_for_every_session(monkeypatch):
    """Each session scored the bundled set itself (0.5-1 s of every first visit to the page)."""
    st.cache_data.clear()
    st.cache_resource.clear()
    calls = _count_scoring(monkeypatch)
    first, second = _compare_page(), _compare_page()
    assert not first.exception and not second.exception
    assert calls == [1200]
    assert second.dataframe[0].value.equals(first.dataframe[0].value)


def test_the_server_s_first_session_warms_the_bundled_set_in_the_background(monkeypatch):
    """Started once per process, for the configuration the compare page opens with: a visitor
    who opens the page then scores nothing."""
    from components import demo_set
    st.cache_data.clear()
    st.cache_resource.clear()
    monkeypatch.setattr(demo_set, "_started", __import__("threading").Event())
    calls = _count_scoring(monkeypatch)
    thread = demo_set.warm_in_background()
    assert thread is not None and demo_set.warm_in_background() is None  # once per process
    thread.join(timeout=120)
    assert calls == [1200]
    at = _compare_page()
    assert not at.exception and calls == [1200]
    assert list(at.dataframe[0].value.system) == ["sys1", "sys2"]


def test_a_fresh_server_reads_the_bundled_set_s_scores_from_disk(monkeypatch, tmp_path):
    """Issue 31, item 6: every fresh server scored the bundled set again (~1 s of a first visit
    straight to the compare page). Its scores are kept on disk, keyed by everything that makes
    them; a fresh server reads them, and a corrupt, truncated or foreign file is ignored."""
    import pickle

    from components import demo_set
    config = demo_set.default_config().to_dict()
    demo_set.comparison.clear()
    calls = _count_scoring(monkeypatch)
    scored = demo_set.comparison(config)
    kept = list((tmp_path / "demo-scores").iterdir())
    assert calls == [1200] and len(kept) == 1
    demo_set.comparison.clear()  # a fresh server: its memory is empty, the disk is not
    read = demo_set.comparison(config)
    assert calls == [1200] and read is not scored
    assert [r.score for r in read.results["sys2"].segments] == [r.score for r in scored.results["sys2"].segments]
    assert read.corpus_rows() == scored.corpus_rows()
    # another configuration is another file
    demo_set.comparison.clear()
    demo_set.comparison(dict(config, alpha=0.5))
    assert len(calls) == 2 and len(list((tmp_path / "demo-scores").iterdir())) == 2
    calls.pop()
    good = kept[0].read_bytes()

    class Foreign:  # anything but the result classes: never built
        def __reduce__(self):
            return (print, ("unpickled a foreign object",))

    for bad in (good[: len(good) // 2], b"not a pickle", pickle.dumps(("meteor-explorer demo scores 1", kept[0].name,
                                                                       Foreign())),
                pickle.dumps(("another format", kept[0].name, scored)), pickle.dumps(("x", "y", "z"))):
        kept[0].write_bytes(bad)
        demo_set.comparison.clear()
        again = demo_set.comparison(config)
        assert again.corpus_rows() == scored.corpus_rows()
        assert calls[-1] == 1200 and kept[0].read_bytes() != bad  # scored afresh and kept again
        calls.clear()
    demo_set.comparison.clear()


def test_the_bundled_set_s_bleu_chrf_and_ter_are_counted_once_and_kept_on_disk(monkeypatch, tmp_path):
    """Like its METEOR scores: a fresh server reads them instead of counting them (1.6 s), and a
    file that cannot be trusted is ignored."""
    from components import demo_set
    from meteor_core.analysis import sacrebleu_metrics
    calls = []
    real = sacrebleu_metrics.score_systems
    monkeypatch.setattr(sacrebleu_metrics, "score_systems", lambda *a, **k: calls.append(1) or real(*a, **k))
    demo_set.sacrebleu_scores.clear()
    counted = demo_set.sacrebleu_scores()
    demo_set.sacrebleu_scores.clear()  # a fresh server
    read = demo_set.sacrebleu_scores()
    assert calls == [1] and read == counted and read is not counted
    systems, references = demo_set.texts()
    assert counted[0]["sys1"]["bleu"] == pytest.approx(sacrebleu_metrics.corpus_score("bleu", systems["sys1"],
                                                                                      references))
    kept = [p for p in (tmp_path / "demo-scores").iterdir()]
    assert len(kept) == 1
    kept[0].write_bytes(kept[0].read_bytes()[:100])  # truncated: counted afresh
    demo_set.sacrebleu_scores.clear()
    assert demo_set.sacrebleu_scores() == counted and calls == [1, 1]
    demo_set.sacrebleu_scores.clear()


def test_the_bundled_set_s_bleu_chrf_and_ter_are_counted_in_the_background_once_for_every_session(monkeypatch):
    """The first run of the page starts counting them in a thread; later sessions' ticks count nothing."""
    import threading

    from components import background_metrics, demo_set
    from meteor_core.analysis import sacrebleu_metrics
    monkeypatch.setattr(background_metrics, "_shared", {})  # a fresh server
    demo_set.sacrebleu_scores.clear()
    threads = []
    real = sacrebleu_metrics.score_systems
    monkeypatch.setattr(sacrebleu_metrics, "score_systems",
                        lambda *a, **k: threads.append(threading.current_thread().name) or real(*a, **k))
    st.cache_data.clear()
    _compare_page()
    [job] = background_metrics._shared.values()
    job.thread.join(timeout=120)
    assert threads == ["meteor-sacrebleu"]
    at = _compare_page().checkbox(key="cmp_metrics").check().run()
    assert not at.exception and threads == ["meteor-sacrebleu"]
    corpus = at.dataframe[0].value.set_index("system")
    assert corpus.loc["sys2", "TER"] == pytest.approx(job.result[0]["sys2"]["ter"])
    demo_set.sacrebleu_scores.clear()
