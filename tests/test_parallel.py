"""Scoring in several processes and streaming: the same results as one job, in the same order,
with memory bounded by a window (meteor_core.parallel, score_segments, the CLI's --jobs)."""
import contextlib
import dataclasses
import itertools
import json
import os
import pickle
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT, ted_lines

from meteor_core import MeteorConfig, parallel, scorer
from meteor_core.analysis.compare import compare_systems
from meteor_core.analysis.difference import explain_corpus_difference
from meteor_core.scorer import SegmentResult, SegmentTooLong, score_corpus, score_segments

# TED segments of at most 40 words a side (quick to score; the search's bound counts work, so
# cut segments too are the same in every run: tests/test_bounds.py).
N = 200
SHORT = [(r, a, b) for r, a, b in zip(ted_lines("ref"), ted_lines("sys1"), ted_lines("sys2"))
         if max(len(x.split()) for x in (r, a, b)) <= 40]
REFS, SYS1, SYS2 = (list(column[:N]) for column in zip(*SHORT))
# Two references a segment (the other system's output as the second), so per_reference and
# best_reference are exercised too.
TWO_REFS = [[r, s] for r, s in zip(REFS, SYS2)]
STEMS = MeteorConfig.meteor2005(stages=("exact", "stem"))


@pytest.fixture
def small_chunks(monkeypatch):
    """A pool for any input, cut into many small chunks (results must still come back in order)."""
    monkeypatch.setattr(parallel, "MIN_PARALLEL_ITEMS", 1)
    monkeypatch.setattr(parallel, "MIN_COLD_PARALLEL_ITEMS", 1)
    monkeypatch.setattr(parallel, "CHUNK_ITEMS", 7)
    yield
    parallel.shutdown_pools()


def _dicts(result):
    return [s.to_dict() for s in result.segments], result.to_dict()


@pytest.mark.parametrize("config", [MeteorConfig.meteor2005(), MeteorConfig.nltk(),
                                    MeteorConfig.meteor15(stages=("exact", "stem"))], ids=lambda c: c.name)
def test_every_field_identical_to_one_job(config, small_chunks):
    one = score_corpus(SYS1, TWO_REFS, config, jobs=1)
    for jobs in (2, 3):
        many = score_corpus(SYS1, TWO_REFS, config, jobs=jobs)
        assert _dicts(many) == _dicts(one)
    assert {s.best_reference for s in one.segments} == {0, 1}  # both references win somewhere


def test_results_travel_as_their_fields():
    """Workers pickle every result back: it must come back equal, with what was only cached on
    it (the alignment and chunks, once asked for) left behind, whatever its tokens hold."""
    config = MeteorConfig.meteor15(stages=("exact", "stem"))
    one_ref, two_refs = scorer.score(SYS1[3], [REFS[3]], config), scorer.score(SYS1[4], TWO_REFS[4], config)
    odd_tokens = dataclasses.replace(one_ref, hyp_tokens=("a b", "", "c", ""), ref_tokens=())
    for result in (one_ref, two_refs, odd_tokens):
        size = len(pickle.dumps(result))
        expected = result.to_dict()  # fills the cached alignment, chunk_spans and per_reference
        assert len(pickle.dumps(result)) == size
        back = pickle.loads(pickle.dumps(result))
        assert back == result and back.to_dict() == expected
        assert type(back) is SegmentResult and type(back.stats) is type(result.stats)
        assert [type(r) for r in back.per_reference] == [scorer.PairResult] * len(result.per_reference)
    assert odd_tokens.hyp_tokens == pickle.loads(pickle.dumps(odd_tokens)).hyp_tokens == ("a b", "", "c", "")
    # A subclass of a user's, with a field of its own, keeps its whole state.
    back = pickle.loads(pickle.dumps(NotedResult(*[getattr(one_ref, f.name) for f in dataclasses.fields(one_ref)],
                                                 note="checked")))
    assert type(back) is NotedResult and back.note == "checked" and back.to_dict() == one_ref.to_dict()


@dataclasses.dataclass
class NotedResult(SegmentResult):
    note: str = ""


def test_pool_used_and_results_come_from_workers(small_chunks):
    parallel.shutdown_pools()
    pids = list(parallel.ordered_map(_pids, range(100), jobs=2, chunk_items=7))
    # a new pool: the first chunk is scored here, so that workers forked after it inherit what it loaded
    assert len(pids) == 100 and pids[:7] == [os.getpid()] * 7 and os.getpid() not in pids[7:]
    assert os.getpid() not in parallel.ordered_map(_pids, range(100), jobs=2, chunk_items=7)  # pool running
    assert list(parallel.ordered_map(_numbers, range(1000), jobs=2, chunk_items=13)) == [k * k for k in range(1000)]


def _pids(chunk):
    return [os.getpid()] * len(chunk)


def _numbers(chunk):
    return [k * k for k in chunk]


def test_every_core_means_this_process_for_the_greedy_aligner(monkeypatch):
    """The nltk preset scores a segment faster than a worker's result comes back (2 processes:
    0.89x of one on the TED set), so its default "every core" stays in this process; a number
    of jobs asked for is obeyed, and the searching presets still take every core."""
    asked = []
    real = parallel.ordered_map

    def recording(function, items, jobs=1, **options):
        asked.append(jobs)
        return real(function, items, jobs, **options)

    monkeypatch.setattr(parallel, "ordered_map", recording)
    refs = [[r] for r in REFS[:5]]
    for config, jobs in ((MeteorConfig.nltk(), 0), (MeteorConfig.nltk(), None), (MeteorConfig.nltk(), 2),
                         (STEMS, 0)):
        assert len(list(score_segments(SYS1[:5], refs, config, jobs=jobs))) == 5
    assert asked == [1, 1, 2, parallel.available_cores()]


def test_small_inputs_stay_in_this_process():
    assert parallel.MIN_PARALLEL_ITEMS >= 2 * parallel.CHUNK_ITEMS
    parallel.shutdown_pools()
    pids = set(parallel.ordered_map(_pids, range(parallel.MIN_PARALLEL_ITEMS - 1), jobs=2))
    assert pids == {os.getpid()}
    assert not parallel._SharedPool.running


def test_streaming_reads_only_a_window_ahead(small_chunks):
    """Inputs are iterators of unbounded length: taking the first results must read only a
    bounded window of them (nothing is collected first)."""
    pulled = []

    def hypotheses():
        for hyp in itertools.cycle(SYS1):
            pulled.append(1)
            yield hyp

    for jobs in (1, 2):
        pulled.clear()
        results = score_segments(hypotheses(), itertools.cycle([[r] for r in REFS]), STEMS, jobs=jobs)
        first = list(itertools.islice(results, 20))
        expected = score_corpus(SYS1[:20], [[r] for r in REFS[:20]], STEMS).segments
        assert [s.to_dict() for s in first] == [s.to_dict() for s in expected]
        # the 3 chunks up to the 20th segment; with a pool, the first window too (submitted ahead)
        assert len(pulled) <= 7 * (3 + (jobs > 1) * jobs * parallel.IN_FLIGHT_PER_JOB), (jobs, len(pulled))
        results.close()


FORKED_WORDNET = """
import json, sys
sys.path.insert(0, "tests")
from test_parallel import SYS1, TWO_REFS, _dicts
from meteor_core import MeteorConfig, parallel, resources
from meteor_core.scorer import score_corpus
parallel.MIN_PARALLEL_ITEMS, parallel.CHUNK_ITEMS = 1, 7
resources.wordnet()
for memo in (resources.synsets_of.__self__, resources._shared_synsets, resources.nltk_synonyms.__self__):
    memo.clear()
resources.synset_name.cache_clear()
assert parallel.start_method() == "fork", parallel._foreign_threads()
for config in (MeteorConfig.meteor2005(), MeteorConfig.nltk()):
    assert _dicts(score_corpus(SYS1, TWO_REFS, config, jobs=2)) == _dicts(score_corpus(SYS1, TWO_REFS, config))
print("same")
"""


def test_forked_workers_read_wordnet_at_once():
    """Workers forked after WordNet was loaded, with empty memos, all reading synsets at once
    (NLTK's reader read a synset by seek + read on a file whose offset forked processes share:
    a --jobs 2 run crashed with "No WordNet synset found"; meteor_core.wordnet maps its files).
    In a fresh process: in this one, other tests may have left threads, and then workers are
    not forked."""
    out = subprocess.run([sys.executable, "-c", FORKED_WORDNET], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "same", out.stderr[-3000:]


def test_unequal_lengths_refused():
    with pytest.raises(ValueError, match="more hypotheses than reference sets"):
        list(score_segments(iter(SYS1[:5]), iter([[r] for r in REFS[:4]]), STEMS))
    with pytest.raises(ValueError, match="more reference sets than hypotheses"):
        list(score_segments(iter(SYS1[:4]), iter([[r] for r in REFS[:5]]), STEMS))


def test_worker_error_names_the_segment(small_chunks):
    hyps = list(SYS1[:60])
    hyps[45] = "word " * 5001
    with pytest.raises(SegmentTooLong, match="^segment 46: "):
        score_corpus(hyps, [[r] for r in REFS[:60]], STEMS, jobs=2)
    assert score_corpus(SYS1[:60], [[r] for r in REFS[:60]], STEMS, jobs=2).segments  # the pool still works


def test_forkserver_when_threads_run(small_chunks):
    """With another thread running (as in Streamlit) workers are not forked from this process."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        parallel.shutdown_pools()
        assert parallel.start_method() in ("forkserver", "spawn")
        many = score_corpus(SYS1[:60], [[r] for r in REFS[:60]], STEMS, jobs=2)
        (pool,) = parallel._SharedPool.running.values()
        assert pool.executor._mp_context.get_start_method() == parallel.start_method()
    finally:
        stop.set()
        thread.join()
    assert _dicts(many) == _dicts(score_corpus(SYS1[:60], [[r] for r in REFS[:60]], STEMS, jobs=1))


def test_compare_and_difference_take_jobs(small_chunks):
    refs = [[r] for r in REFS[:80]]
    systems = {"sys1": SYS1[:80], "sys2": SYS2[:80]}
    one, two = compare_systems(systems, refs, STEMS, jobs=1), compare_systems(systems, refs, STEMS, jobs=2)
    assert one.corpus_rows() == two.corpus_rows()
    assert all(_dicts(one.results[n]) == _dicts(two.results[n]) for n in systems)
    a, b = MeteorConfig.nltk(stages=("exact", "stem")), MeteorConfig.meteor15(stages=("exact", "stem"))
    d1 = explain_corpus_difference(SYS1[:80], refs, a, b, jobs=1)
    d2 = explain_corpus_difference(SYS1[:80], refs, a, b, jobs=2)
    assert d1.to_dict() == d2.to_dict()


def test_jobs_must_be_a_count():
    assert parallel.resolve_jobs(None) == parallel.resolve_jobs(0) == parallel.available_cores() >= 1
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError):
            parallel.resolve_jobs(bad)


# --- the command line -------------------------------------------------------------------------

def run(*args):
    return subprocess.run([sys.executable, "-m", "meteor_core", *args], cwd=ROOT, capture_output=True, text=True)


CLI_SEGMENTS = parallel.MIN_PARALLEL_ITEMS + parallel.CHUNK_ITEMS // 2  # enough for --jobs 2 to start a pool
CLI_REFS = [r for r, _, _ in SHORT] * 2
CLI_HYPS = [a for _, a, _ in SHORT] * 2


@pytest.fixture(scope="module")
def ted_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ted")
    for name, lines in (("ref", CLI_REFS), ("sys1", CLI_HYPS)):
        (folder / name).write_text("\n".join(lines[:CLI_SEGMENTS]) + "\n", encoding="utf-8")
    return folder


def test_cli_jobs_identical_in_every_format(ted_files):
    """Two jobs through the streaming writers: every row as the library scores it in one job."""
    files = ["--hyp", str(ted_files / "sys1"), "--ref", str(ted_files / "ref"), "--no-synonyms"]
    jsonl = run(*files, "--format", "jsonl", "--jobs", "2")
    assert jsonl.returncode == 0, jsonl.stderr
    rows = [json.loads(line) for line in jsonl.stdout.splitlines()]
    expected = score_corpus(CLI_HYPS[:CLI_SEGMENTS], [[r] for r in CLI_REFS[:CLI_SEGMENTS]], STEMS)
    assert rows[:-1] == [s.to_dict() for s in expected.segments]
    assert rows[-1] == {"corpus": expected.to_dict()}
    tsv = run(*files, "--format", "tsv", "--jobs", "2")
    lines = tsv.stdout.splitlines()
    assert len(lines) == len(expected.segments) + 3 and float(lines[-2].split("\t")[1]) == expected.score
    assert lines[-1] == f"signature\t{expected.signature}"
    assert [float(line.split("\t")[1]) for line in lines[1:-2]] == [s.score for s in expected.segments]
    text = run(*files, "--jobs", "2")
    mean = sum(s.score for s in expected.segments) / len(expected.segments)
    assert text.stdout.startswith(f"METEOR = {expected.score:.4f}  ({len(expected.segments)} segments, "
                                  f"mean segment score {mean:.4f})")


def test_cli_bad_input_before_any_output(tmp_path):
    """Files are checked in full first: a bad line at the end fails before a row is written."""
    good = "a b c\n" * 50
    (tmp_path / "h").write_text(good + "d\n")
    (tmp_path / "r").write_text(good)
    (tmp_path / "bad").write_bytes(good.encode() + b"caf\xe9\n")
    for hyp, ref, needle in [("h", "r", "line counts differ"), ("bad", "h", "not UTF-8 (byte 0xe9 on line 51)")]:
        out = run("--hyp", str(tmp_path / hyp), "--ref", str(tmp_path / ref), "--format", "jsonl", "--no-synonyms")
        assert out.returncode == 2 and needle in out.stderr and out.stdout == ""
    out = run("--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "h"), "--jobs", "-1")
    assert out.returncode == 2 and "--jobs" in out.stderr and "Traceback" not in out.stderr


def test_cli_into_a_closed_pipe(ted_files):
    """`... | head -1` stops the scoring without an error message."""
    command = (f"{sys.executable} -m meteor_core --hyp {ted_files / 'sys1'} --ref {ted_files / 'ref'} "
               "--format tsv --no-synonyms --jobs 2 | head -2")
    out = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.splitlines()[0].startswith("segment\tscore") and len(out.stdout.splitlines()) == 2
    assert "Traceback" not in out.stderr and "Error" not in out.stderr, out.stderr



def _descendants(pid: int) -> list[int]:
    table: dict[int, list[int]] = {}
    for line in subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout.splitlines():
        child, parent = map(int, line.split())
        table.setdefault(parent, []).append(child)
    stack, found = [pid], []
    while stack:
        children = table.get(stack.pop(), [])
        found += children
        stack += children
    return found


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_with_two_jobs_ends_every_process_at_once(tmp_path):
    """Issue 30, item 5: SIGINT to a --jobs 2 run of 90,000 lines, at a random moment, many times,
    as a terminal sends it (to the whole process group) and as kill -INT does (to the parent
    alone). Every run ends with "interrupted" and status 130 within a second (bounded at 2 s
    here against a loaded machine), and no worker outlives it. Formerly about 1 run in 5 hung with
    a worker blocked writing to a pipe (to the parent alone: most runs, the signal waiting for
    the next result), or the interrupt was dropped inside a gc callback and the run went on."""
    import random
    import signal

    lines = 90_000  # ~4 s a run: the interrupt at 0-1 s after the pool is up lands mid-run, not in
    # the exit (at 30,000 lines the compiled core finished in ~1.3 s, and a SIGINT during the
    # interpreter's shutdown, after it restores the default handler, ends it with status -2)
    for name, source in (("h", CLI_HYPS), ("r", CLI_REFS)):
        (tmp_path / name).write_text("\n".join((source * (lines // len(source) + 1))[:lines]) + "\n",
                                     encoding="utf-8")
    rng = random.Random(30)
    took, outcomes = [], []
    for k in range(12):
        to_group = k % 2 == 0
        proc = subprocess.Popen([sys.executable, "-m", "meteor_core", "--hyp", str(tmp_path / "h"), "--ref",
                                 str(tmp_path / "r"), "--jobs", "2", "--format", ("tsv", "jsonl", "text")[k % 3]],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        finished: list = []
        reader = threading.Thread(target=lambda: finished.append(proc.communicate()), daemon=True)
        reader.start()
        deadline = time.monotonic() + 30
        while len(_descendants(proc.pid)) < 2 and time.monotonic() < deadline:  # the pool is up
            time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 1.0))
        workers = _descendants(proc.pid)
        start = time.monotonic()
        try:
            (os.killpg if to_group else os.kill)(proc.pid, signal.SIGINT)
        except ProcessLookupError:
            continue  # it finished first
        reader.join(10)
        took.append(time.monotonic() - start)
        survivors = [pid for pid in workers if _running(pid)]
        if reader.is_alive() or survivors:
            for pid in [proc.pid, *survivors]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            reader.join(10)
        outcomes.append((to_group, proc.returncode, finished[0][1].decode().strip() if finished else "(hung)",
                         survivors, round(took[-1], 2)))
    assert len(outcomes) >= 8, outcomes  # most runs were interrupted (the rest finished first)
    failed = [o for o in outcomes if not (o[1] == 130 and o[2] == "interrupted" and not o[3] and o[4] < 2.0)]
    assert not failed, failed  # (to_group, status, stderr, surviving workers, seconds)


def test_compare_and_explain_commands_take_jobs(tmp_path, capsys, small_chunks):
    """--jobs reaches the library from compare and explain (a pool for any size here)."""
    from meteor_core.cli import main

    for name, lines in (("ref", REFS[:40]), ("a", SYS1[:40]), ("b", SYS2[:40])):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    outputs = {}
    for jobs in ("1", "2"):
        assert main(["compare", "--ref", str(tmp_path / "ref"), "--sys", str(tmp_path / "a"), "--sys",
                     str(tmp_path / "b"), "--no-synonyms", "--samples", "100", "--trials", "100", "--format", "json",
                     "--jobs", jobs]) == 0
        compare = json.loads(capsys.readouterr().out)
        assert main(["explain", "--a", "nltk", "--b", "meteor15", "--hyp-file", str(tmp_path / "a"), "--ref-file",
                     str(tmp_path / "ref"), "--no-synonyms", "--format", "json", "--jobs", jobs]) == 0
        outputs[jobs] = (compare, json.loads(capsys.readouterr().out))
    assert outputs["1"] == outputs["2"]


def test_compare_page_scores_in_a_pool_from_its_script_thread(monkeypatch):
    """The page runs in a Streamlit script thread: its pool starts by forkserver, not fork, and
    gives the corpus table one job gives (thresholds lowered so that an upload of 200 short
    segments uses a pool)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from meteor_core.analysis.compare import compare_systems

    monkeypatch.setattr(parallel, "MIN_PARALLEL_ITEMS", 1)
    monkeypatch.setattr(parallel, "MIN_COLD_PARALLEL_ITEMS", 1)
    parallel.shutdown_pools()
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300).run()
    at = at.switch_page("app_pages/compare.py").run()
    at = at.radio(key="cmp_source").set_value(at.radio(key="cmp_source").options[1]).run()
    at.file_uploader(key="cmp_refs").upload("ref.txt", "\n".join(REFS).encode()).run()
    uploader = at.file_uploader(key="cmp_systems")
    at = uploader.upload("a.txt", "\n".join(SYS1).encode()).upload("b.txt", "\n".join(SYS2).encode()).run()
    try:
        assert not at.exception
        (pool,) = parallel._SharedPool.running.values()
        assert pool.executor._mp_context.get_start_method() in ("forkserver", "spawn")
    finally:
        parallel.shutdown_pools()
    one_job = compare_systems({"a": SYS1, "b": SYS2}, [[r] for r in REFS], MeteorConfig.meteor2005())
    shown = at.dataframe[0].value
    assert list(shown["corpus METEOR"]) == [one_job.results[n].score for n in ("a", "b")], _differences(at, one_job)


def _differences(at, one_job) -> str:
    """Which segments the page scored otherwise than one job, and whether either search was cut
    (seen once in ~10 full-suite runs under load: the corpus score of "b" differed by 1e-4)."""
    (pooled,) = at.session_state["comparisons"].values()
    lines = []
    for name in ("a", "b"):
        for k, (x, y) in enumerate(zip(pooled.results[name].segments, one_job.results[name].segments)):
            if x.to_dict() != y.to_dict():
                lines.append(f"{name} segment {k}: page {x.score!r} optimal={x.optimal} chunks={x.chunks}; "
                             f"one job {y.score!r} optimal={y.optimal} chunks={y.chunks}")
    return "\n".join(lines) or "no segment differs"
