"""Every search is bounded: adversarial segments (repeated words, tiny vocabularies, 1,000 tokens)
score within a generous bound in the library, the CLI and the app, and a cut search says so.
(Measured figures are in bench/bench_core.py; these bounds only catch a hang.)"""
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from bench.adversarial import cases
from conftest import ROOT
from meteor_core import MeteorConfig, resources, score

# The target on this machine is 0.5 s a segment; the tests allow 10x for a loaded CI machine.
BOUND = 5.0


CASES = cases()


@pytest.mark.parametrize("preset", ["meteor2005", "nltk"])
@pytest.mark.parametrize("name", list(CASES))
def test_adversarial_segments_are_bounded_in_time_and_memory(preset, name):
    config = MeteorConfig.preset(preset)
    resources.load_wordnet()  # loading is not a segment's time
    import meteor_core.align.pairwise  # noqa: F401  (numpy, imported on first need)

    hyp, ref = CASES[name]
    tracemalloc.start()
    start = time.perf_counter()
    result = score(hyp, [ref], config)
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert elapsed < BOUND, f"{elapsed:.2f} s"
    assert peak < 200 * 2**20, f"{peak / 2**20:.0f} MiB"
    assert 0 <= result.score <= 1 and result.matches > 0
    assert len({m.hyp_index for m in result.alignment}) == result.matches  # still one-to-one


def test_a_huge_part_among_crossing_words_stays_within_memory():
    """A word ~550 times on both sides crossing 100 other words: one part with ~300,000
    candidate pairs, whose cost matrix against the other parts' candidates took 1.5 GB and
    seconds before its size was capped. Measured in a fresh process without tracemalloc (which
    slows allocation, so the budget ran out before that matrix was built), by the kernel's
    high-water mark of its memory (ru_maxrss would carry the forking test process's over exec)."""
    if not Path("/proc/self/status").is_file():
        pytest.skip("needs Linux's /proc")
    code = (
        "import sys, time; sys.path.insert(0, '.')\n"
        "from bench.adversarial import cases\n"
        "from meteor_core import MeteorConfig, score\n"
        "h, r = cases()['548 x \"the\" among 100 crossing words']\n"
        "start = time.thread_time()\n"
        "result = score(h, [r], MeteorConfig.meteor2005(stages=('exact',)))\n"
        "peak = next(line for line in open('/proc/self/status') if line.startswith('VmHWM:')).split()[1]\n"
        "print(time.thread_time() - start, int(peak) // 1024, result.matches)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    cpu, peak_mb, matches = out.stdout.split()
    assert float(cpu) < BOUND and int(peak_mb) < 300, out.stdout
    assert int(matches) == 647


def test_a_cut_search_says_so():
    """The 4-word case cannot be proven within the budget: the result says optimal=False, and is
    still a maximum matching (as many matches as the greedy aligner, or more)."""
    hyp, ref = CASES["1,000 tokens, 4 words"]
    result = score(hyp, [ref], MeteorConfig.meteor2005(stages=("exact",)))
    greedy = score(hyp, [ref], MeteorConfig.nltk(stages=("exact",)))
    assert result.optimal is False
    assert result.matches == greedy.matches


def test_cli_scores_adversarial_files_within_the_bound(tmp_path):
    hyps, refs = zip(*CASES.values())
    (tmp_path / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "meteor_core", "--hyp", str(tmp_path / "hyp.txt"),
                          "--ref", str(tmp_path / "ref.txt"), "--format", "tsv"],
                         capture_output=True, text=True, cwd=ROOT)
    # the process also imports NLTK and loads WordNet once (seconds on a loaded machine)
    assert out.returncode == 0, out.stderr
    assert time.perf_counter() - start < BOUND * len(CASES) + 30
    segments = [row for row in out.stdout.splitlines() if row.split("\t")[0].isdigit()]
    assert len(segments) == len(CASES)


@pytest.mark.parametrize("preset", ["meteor2005", "nltk"])
def test_the_explorer_answers_adversarial_input_within_the_bound(preset):
    """400 words a side is the explorer's limit: the page scores and draws it, it does not hang."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.selectbox(key="preset").set_value(preset).run()
    hyp, ref = CASES['400 x "the"']
    at.text_area(key="hyp").input(hyp)
    at.text_area(key="ref_0").input(ref)
    start = time.perf_counter()
    at.run()
    assert not at.exception
    assert time.perf_counter() - start < BOUND * 4  # scoring, both drawings and the tables
    assert next(m.value for m in at.metric if m.label == "METEOR")


def test_the_search_budget_counts_cpu_time_not_waiting():
    """A thread that waits (a loaded machine, other sessions) keeps its search time: the budget is
    on the thread's CPU time, so a segment's result does not depend on the machine's load."""
    from meteor_core.align.search import Budget

    budget = Budget.for_seconds(0.05)
    time.sleep(0.2)  # waiting uses no CPU time
    assert not budget.out_of_time()
    end = time.thread_time() + 0.2
    while time.thread_time() < end:  # searching does
        pass
    assert budget.out_of_time() and budget.out_of_time()  # and stays out of time
    budget = Budget.for_seconds(0.05)
    budget.extend(10)  # loading a resource is given back
    end = time.thread_time() + 0.1
    while time.thread_time() < end:
        pass
    assert not budget.out_of_time()


def test_a_full_garbage_collection_is_not_the_searchs_time():
    """In a process holding millions of objects one full collection outlasts a segment's budget;
    one that falls inside a search must not cut it (seen: a test process cut a TED segment that
    a fresh worker proved optimal)."""
    import gc

    from meteor_core.align.search import Budget

    junk = [[k] for k in range(1_000_000)]  # tracked objects: a full collection walks them all
    start = time.perf_counter()
    gc.collect()
    collection = time.perf_counter() - start
    budget = Budget.for_seconds(collection / 3)
    gc.collect()  # about as long again: more than the budget
    assert not budget.out_of_time()
    end = time.thread_time() + collection  # searching for as long is counted
    while time.thread_time() < end:
        pass
    assert budget.out_of_time()
    del junk
