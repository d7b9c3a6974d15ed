"""The optional compiled accelerator: the same results as the pure-Python modules, and a module
edited since the build runs from its .py."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, ted_lines
from meteor_core import _accel

BUILT = all(_accel._has_binary(m) for m in _accel.BUILT)
needs_build = pytest.mark.skipif(not BUILT and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                 reason="compiled modules not built (python build_accel.py)")

# Scores the whole bundled TED set (1,200 segments x 2 systems) with a preset and prints every
# result's to_dict, one JSON line each, and which modules ran compiled. "meteor15-paraphrase":
# meteor15 with all four modules, the jar's paraphrase table included.
SCORE_ALL = """
import importlib, json, sys
from meteor_core import MeteorConfig, _accel, score, scorer
for module in _accel.COMPILED:  # (a preset loads only some, e.g. TER or the stemmers it uses): all must load compiled
    importlib.import_module(module)
for module in _accel.TWINS:  # a twin loads with the module it mirrors, which a preset may never import
    _accel.twin(module)
from conftest import ted_lines
ref = ted_lines("ref")
if sys.argv[1] == "meteor15-paraphrase":
    config = MeteorConfig.meteor15(stages=("exact", "stem", "synonym", "paraphrase"), paraphrase_table="jar")
elif sys.argv[1].startswith("meteor15:"):  # a module subset, e.g. meteor15:exact+paraphrase
    config = MeteorConfig.meteor15(stages=tuple(sys.argv[1][9:].split("+")), paraphrase_table="jar")
else:
    config = MeteorConfig.preset(sys.argv[1])
for system in ("sys1", "sys2"):
    for h, r in zip(ted_lines(system), ref):
        print(json.dumps(score(h, [r], config).to_dict(), sort_keys=True))
print(json.dumps(_accel.compiled_modules()))
"""


def _score_all(preset: str, pure: bool) -> tuple[list[str], list[str]]:
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'tests'}")
    env.pop("METEOR_PURE", None)
    if pure:
        env["METEOR_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", SCORE_ALL, preset], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True).stdout.splitlines()
    return out[:-1], json.loads(out[-1])


@needs_build
@pytest.mark.parametrize("preset", ["meteor2005", "nltk", "meteor15", "meteor15-paraphrase", "meteor15:paraphrase",
                                    "meteor15:exact+paraphrase", "meteor15:stem+synonym+paraphrase"])
def test_compiled_and_pure_give_identical_results_on_the_whole_set(preset):
    if "paraphrase" in preset:
        from meteor_core import jar_resources

        if jar_resources.find_jar() is None:
            pytest.skip("needs a Meteor 1.5 jar (METEOR_JAR or pycocoevalcap)")
    compiled, modules = _score_all(preset, pure=False)
    pure, none = _score_all(preset, pure=True)
    assert sorted(modules) == sorted(_accel.BUILT) and none == []
    assert len(compiled) == len(pure) == 2400
    different = [k for k, (a, b) in enumerate(zip(compiled, pure)) if a != b]
    assert not different, f"{len(different)} segments differ, first: {different[:5]}"


@needs_build
def test_core_tests_pass_on_the_pure_modules_too():
    """The search and scoring tests, run again with METEOR_PURE=1 (the suite itself runs compiled;
    compiled code does not meet Python's recursion limit, so a recursion too deep shows only here)."""
    env = dict(os.environ, METEOR_PURE="1")
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_core.py",
                          "tests/test_search_tail.py", "tests/test_meteor15.py"],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-2000:]


def test_a_module_edited_since_the_build_runs_from_its_source(tmp_path, monkeypatch):
    module = "meteor_core.stats"
    monkeypatch.setattr(_accel, "_has_binary", lambda m: True)
    manifest = tmp_path / "manifest.json"
    monkeypatch.setattr(_accel, "MANIFEST", manifest)
    manifest.write_text(json.dumps({m: _accel.source_hash(m) for m in _accel.COMPILED}))
    assert _accel.stale_modules(pure=False) == set()
    assert _accel.stale_modules(pure=True) == set(_accel.COMPILED)
    edited = {m: _accel.source_hash(m) for m in _accel.COMPILED}
    edited[module] = "0" * 64  # as if stats.py had changed after the build
    manifest.write_text(json.dumps(edited))
    assert _accel.stale_modules(pure=False) == {module}
    manifest.write_text("not json")
    assert _accel.stale_modules(pure=False) == set(_accel.COMPILED)  # no manifest: nothing is trusted


def test_an_edited_pxd_makes_its_module_out_of_date(tmp_path, monkeypatch):
    """A .pxd beside a compiled module's .py (its C types) is part of what the build compiles."""
    monkeypatch.setattr(_accel, "PACKAGE", tmp_path)
    (tmp_path / "hot.py").write_text("def f(x):\n    return x + 1\n")
    plain = _accel.source_hash("meteor_core.hot")
    (tmp_path / "hot.pxd").write_text("cpdef long f(long x)\n")
    typed = _accel.source_hash("meteor_core.hot")
    (tmp_path / "hot.pxd").write_text("cpdef double f(double x)\n")
    assert len({plain, typed, _accel.source_hash("meteor_core.hot")}) == 3


@needs_build
def test_a_compiled_module_hands_what_its_c_types_cannot_hold_to_its_source():
    """_accel.source_module: the module run from its .py, beside the compiled one."""
    from meteor_core.align import beam

    source = _accel.source_module("meteor_core.align.beam")
    assert source is not beam and source.__file__.endswith("beam.py") and not source._COMPILED
    assert _accel.source_module("meteor_core.align.beam") is source  # loaded once


# Scores the adversarial cases (most cut by the work budget) and prints every to_dict.
SCORE_ADVERSARIAL = """
import json
from bench.adversarial import cases
from meteor_core import MeteorConfig, score
for hyp, ref in cases().values():
    for preset in ("meteor2005", "nltk", "meteor15"):
        print(json.dumps(score(hyp, [ref], MeteorConfig.preset(preset)).to_dict(), sort_keys=True))
"""


@needs_build
def test_compiled_and_pure_cut_the_adversarial_cases_alike():
    """The work budget's cut points are the same on both paths: every field equal."""
    runs = []
    for pure in (False, True):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("METEOR_PURE", None)
        if pure:
            env["METEOR_PURE"] = "1"
        out = subprocess.run([sys.executable, "-c", SCORE_ADVERSARIAL], capture_output=True, text=True, env=env,
                             cwd=ROOT, check=True)
        runs.append(out.stdout.splitlines())
    assert len(runs[0]) == 21 and runs[0] == runs[1]
    assert sum('"stopped_by": "work"' in line for line in runs[0]) >= 6


@needs_build
def test_the_c_beam_search_is_the_python_one_on_random_small_cases():
    """beam._search against its C twin (_beam_search.pyx) on thousands of random sentences over
    tiny vocabularies (repeats, stems, synonyms; phrases from a small paraphrase table), with
    budgets that cut anywhere: the same best path (matches, key, last end, used words), the same
    completeness and the same work spent."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from meteor_core import MeteorConfig
    from meteor_core.align import beam

    twin = _accel.twin("meteor_core.align._beam_search")
    assert twin is not None and twin.beam_size == beam.BEAM_SIZE
    config = MeteorConfig.meteor15(tokenizer="whitespace")
    table = _small_paraphrase_table()
    words = ["the", "a", "cat", "cats", "sat", "big", "large", "on", "mat", "of"]
    sentence = st.lists(st.sampled_from(words), max_size=14)

    @settings(max_examples=3000, deadline=None, derandomize=True)
    @given(sentence, sentence, st.sampled_from([None, 1, 20, 200, 2_000]), st.booleans())
    def same(hyp, ref, limit, phrases):
        _same_beam_searches(twin, config, table, hyp, ref, limit, phrases)

    same()


@needs_build
def test_the_c_beam_search_is_the_python_one_with_full_beams():
    """As above, on longer sentences over three words: most positions have many candidates, the
    beam is full and cut inside a step again and again (its best kept, then the paths made since
    merged after them), with many equal keys, whose order the jar's stable sort keeps."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from meteor_core import MeteorConfig

    twin = _accel.twin("meteor_core.align._beam_search")
    config = MeteorConfig.meteor15(tokenizer="whitespace")
    table = _small_paraphrase_table()
    sentence = st.lists(st.sampled_from(["the", "a", "cat"]), min_size=10, max_size=40)

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(sentence, sentence, st.sampled_from([None, 5_000]), st.booleans())
    def same(hyp, ref, limit, phrases):
        _same_beam_searches(twin, config, table, hyp, ref, limit, phrases)

    same()


def _same_beam_searches(twin, config, table, hyp, ref, limit, phrases):
    """beam._search and its C twin on one pair: the same best path, completeness and work."""
    from meteor_core.align import beam
    from meteor_core.align.search import Budget

    stages = ("exact", "stem", "synonym", "paraphrase") if phrases else ("exact", "stem", "synonym")
    found = []
    for search in (beam._search, lambda *a: twin.search(*a, beam._finish_greedily)):
        budget = Budget() if limit is None else Budget(limit)
        per_ref, fixed, _ = beam._candidates(hyp, ref, stages, config, table if phrases else None, budget)
        chunk, cover = beam._key_units(per_ref, len(hyp))
        best, complete = search(per_ref, fixed, budget, chunk, cover)
        found.append((beam._matches(best, per_ref, fixed, hyp, ref, config), best[:3], best[4], complete,
                      budget.used, budget.stopped_by))
    assert found[0] == found[1]


def _small_paraphrase_table():
    """A table of a few phrases, in the Meteor format (probability, phrase, paraphrase lines)."""
    import tempfile
    from pathlib import Path

    from meteor_core import paraphrase

    entries = {"the cat": ("a cat", "cats"), "big": ("large", "of the big"), "sat on": ("sat",),
               "a": ("the",), "on the mat": ("on a mat", "mat"),
               "café": ("über", "the dog"), "über dog": ("café", "big")}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "small.txt"
        path.write_text("".join(f"0.5\n{phrase}\n{other}\n" for phrase, others in entries.items() for other in others),
                        encoding="utf-8")
        return paraphrase.parse(str(path))


def _paraphrase_twin():
    twin = _accel.twin("meteor_core.align._paraphrase_match")
    assert twin is not None
    return twin


def _both_paraphrase_matchers(twin, hyp, ref, table, limit, most):
    """beam._paraphrase_matches and its C twin on one pair, each with a fresh budget: what each
    found, the work it spent and why it stopped (the twin's None: it handed the pair back)."""
    from meteor_core.align import beam
    from meteor_core.align.search import Budget

    found = []
    for c_data in (False, True):
        budget = Budget() if limit is None else Budget(limit)
        if c_data:
            result = twin.matches(hyp, ref, table, budget, most, beam._PARAPHRASE)
        else:
            saved, beam.MAX_PARAPHRASES = beam.MAX_PARAPHRASES, most
            try:
                result = beam._paraphrase_matches(hyp, ref, table, budget)
            finally:
                beam.MAX_PARAPHRASES = saved
        found.append((result, budget.used, budget.stopped_by, budget.exhausted))
    return found


@needs_build
def test_a_table_s_target_keys_are_the_c_matcher_s_filter_keys():
    """The filter key of each paraphrase, made by the parser (numpy) and read by the C matcher in
    place of its own: the same as the matcher's filter_key of the paraphrase's bytes, on a small
    table (one-byte, two-byte and non-ASCII paraphrases) and on every paraphrase of the jar's
    (when it is here)."""
    from meteor_core import jar_resources, paraphrase

    twin = _paraphrase_twin()
    tables = [_small_paraphrase_table()]
    odd = ["a", "ab", "é", "über alles", "x y", "the big one", "a" * 300]
    tables.append(paraphrase._build([w.encode() for w in odd], {0: paraphrase.array("I", range(len(odd)))},
                                    len(odd), 3, "odd"))
    if jar_resources.paraphrase_available():
        tables.append(jar_resources.jar_paraphrase_table("en"))
    for table in tables:
        arrays = table.arrays()
        pool, offsets, targets, keys = arrays["pool"], arrays["offsets"], arrays["targets"], arrays["target_keys"]
        assert len(keys) == len(targets) > 0
        step = max(1, len(targets) // 200_000)  # (the jar's 5.3 M: every 26th)
        for k in range(0, len(targets), step):
            s = targets[k]
            assert keys[k] == twin.filter_key_of(bytes(pool[offsets[s]:offsets[s + 1]])), (table.name, k)


@needs_build
def test_the_c_paraphrase_matcher_is_the_python_one_on_random_small_cases():
    """beam._paraphrase_matches against its C twin (_paraphrase_match.pyx) on thousands of random
    sentence pairs over a small table's words (phrases overlapping, repeated, several words long,
    non-ASCII; sentences up to 90 words), with budgets that cut anywhere and a per-phrase cap of 1 or 2 paraphrases: the same
    candidates in the same order, phrase spans, completeness, work spent and stop reason."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    twin = _paraphrase_twin()
    table = _small_paraphrase_table()
    words = ["the", "a", "cat", "cats", "sat", "big", "large", "on", "mat", "of", "café", "über", "dog"]
    # (up to 90 words: a match's bits past the 64th word are Python ints on both sides)
    sentence = st.one_of(st.lists(st.sampled_from(words), max_size=14), st.lists(st.sampled_from(words), max_size=90))

    @settings(max_examples=3000, deadline=None, derandomize=True)
    @given(sentence, sentence, st.sampled_from([None, 1, 5, 20, 60, 200, 2_000]), st.sampled_from([1, 2, 10_000]))
    def same(hyp, ref, limit, most):
        pure, c_data = _both_paraphrase_matchers(twin, hyp, ref, table, limit, most)
        assert c_data[0] is not None and pure == c_data

    same()


@needs_build
def test_the_c_paraphrase_matcher_keeps_sentences_by_their_words():
    """The C matcher keeps each sentence's phrases in the table by the sentence's words: a pair
    seen before gives what it gave, and a list whose words changed since is a new sentence."""
    twin = _paraphrase_twin()
    table = _small_paraphrase_table()
    hyp, ref = ["the", "cat", "sat", "on", "mat"], ["a", "big", "cat", "sat", "on", "the", "mat"]
    first = _both_paraphrase_matchers(twin, hyp, ref, table, None, 10_000)
    assert first[1][0] is not None and first[0] == first[1]
    assert _both_paraphrase_matchers(twin, hyp, ref, table, None, 10_000) == first
    hyp[0], ref[1] = "a", "large"  # (the same lists, other words)
    changed = _both_paraphrase_matchers(twin, hyp, ref, table, None, 10_000)
    assert changed[1][0] is not None and changed[0] == changed[1] and changed[1][0] != first[1][0]


@needs_build
def test_forgetting_texts_empties_the_c_matchers_kept_sentences():
    """scorer.forget_texts() (the app's server, once a session has gone) lets go of the kept
    sentences, and a pair afterwards is matched as before."""
    from meteor_core.scorer import forget_texts

    twin = _paraphrase_twin()
    table = _small_paraphrase_table()
    hyp, ref = ["the", "cat", "sat", "on", "mat"], ["a", "big", "cat", "sat", "on", "the", "mat"]
    first = _both_paraphrase_matchers(twin, hyp, ref, table, None, 10_000)
    assert twin.kept_sentences() >= 2
    forget_texts()
    assert twin.kept_sentences() == 0
    assert _both_paraphrase_matchers(twin, hyp, ref, table, None, 10_000) == first


def test_spending_summed_up_to_the_headroom_is_spending_step_by_step():
    """The C paraphrase matcher sums its steps' units while the sum stays below
    Budget.headroom(), then spends the sum in one call: the same answer at every step, the same
    work used and the same stop, whatever the limit and the steps (the safety clock's checks
    included: a check falls due at the same step)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from meteor_core.align import search
    from meteor_core.align.search import Budget

    @settings(max_examples=500, deadline=None, derandomize=True)
    @given(st.integers(0, 3_000), st.lists(st.integers(0, 400), max_size=60), st.integers(1, 500))
    def same(limit, steps, clock_every):
        saved, search._CLOCK_EVERY = search._CLOCK_EVERY, clock_every
        try:
            one, summed = Budget(limit), Budget(limit)
            pending, room = 0, summed.headroom()
            for units in steps:
                expected = one.spend(units)
                pending += units
                if pending < room:
                    answer = False
                else:
                    answer = summed.spend(pending)
                    pending, room = 0, summed.headroom()
                assert answer == expected
                assert summed.used + pending == one.used
            summed.spend(pending) if pending else None
            assert (summed.used, summed.exhausted, summed.stopped_by) == (one.used, one.exhausted, one.stopped_by)
        finally:
            search._CLOCK_EVERY = saved

    same()


@needs_build
def test_the_c_paraphrase_matcher_hands_back_words_it_cannot_slice():
    """An empty word, a word holding a space (its phrases would join differently) or a lone
    surrogate (no UTF-8): the twin answers None and beam's own code runs (same result through
    beam._paraphrases either way)."""
    from meteor_core.align import beam
    from meteor_core.align.search import Budget

    twin = _paraphrase_twin()
    table = _small_paraphrase_table()
    for odd in ("", "the cat", "\ud800"):
        hyp, ref = ["a", odd, "cat"], ["the", "cat", "sat"]
        assert twin.matches(hyp, ref, table, Budget(), 10, beam._PARAPHRASE) is None
        assert twin.matches(ref, hyp, table, Budget(), 10, beam._PARAPHRASE) is None
    per_ref = [()] * 3
    extra, spans, whole = beam._paraphrases(["the", "cat", ""], ["a", "cat", "sat"], table, Budget())
    joined = beam._joined(per_ref, extra, Budget())
    # "a" -> "the" from the reference's side, "the cat" -> "a cat" from the hypothesis's
    p = beam._PARAPHRASE
    assert joined[0] == ((0, 1, 1, 0, p, 0b1), (0, 2, 2, 2, p, 0b11)) and spans == [(0, 2)] and whole


@needs_build
def test_the_c_paraphrase_matcher_is_the_python_one_on_the_whole_set():
    """Every pair of the bundled TED set (1,200 segments x 2 systems, tokenised as meteor15 does)
    with the jar's paraphrase table, with the default budget and with budgets small enough to cut
    most segments somewhere in the matching: everything found and spent is the same."""
    from meteor_core import MeteorConfig, jar_resources, scorer

    from conftest import ted_lines

    if jar_resources.find_jar() is None:
        pytest.skip("needs a Meteor 1.5 jar (METEOR_JAR or pycocoevalcap)")
    twin = _paraphrase_twin()
    table = jar_resources.paraphrase_table(str(jar_resources.paraphrase_path()))
    config = MeteorConfig.meteor15()
    ref = ted_lines("ref")
    pairs = [(scorer._prepare(h, config)[1], scorer._prepare(r, config)[1]) for system in ("sys1", "sys2")
             for h, r in zip(ted_lines(system), ref)]
    assert len(pairs) == 2400
    cut = 0
    for k, (hyp, ref_words) in enumerate(pairs):
        for limit in (None, 40 + k % 400):
            pure, c_data = _both_paraphrase_matchers(twin, hyp, ref_words, table, limit, 10_000)
            assert c_data[0] is not None and pure == c_data, (k, limit)
            cut += bool(limit and c_data[3])
    assert cut > 1000  # the small budgets did cut (at many different points)


def _both_word_candidate_builders(twin, hyp, ref, stages, config):
    """beam._word_candidates and its C twin (_word_candidates.pyx) on one pair, with and without
    the fixed matches: the candidates, fixed matches and which positions share a tuple."""
    from meteor_core import resources
    from meteor_core.align import beam

    n = len(hyp)
    memoised = (resources.stemmer(config.stemmer, config.language) if "stem" in stages else None,
                resources.synonym_sets(config.synonym_source) if "synonym" in stages else None)
    found = []
    for with_fixed in (True, False):
        pure = beam._word_candidates(hyp, ref, stages, config, with_fixed)
        # the functions beam gives the twin (the jar's offsets, read off the file's lines), and
        # the memoised ones (keys as ints, through the twin's general path)
        for stem, synsets in (beam._twin_word_functions(stages, config), memoised):
            c_data = twin.candidates(hyp, ref, "exact" in stages, stem, synsets, *(beam._SINGLES[s].upto(n) for s in (
                beam._EXACT, beam._STEM, beam._SYNONYM)), with_fixed)
            found.append(tuple((per_ref, fixed, [[id(a) == id(b) for b in per_ref] for a in per_ref])
                               for per_ref, fixed in (pure, c_data)))
    return found


_STAGE_SETS = [("exact", "stem", "synonym"), ("exact", "stem", "synonym", "paraphrase"), ("stem",), ("synonym",),
               ("exact", "synonym"), ("stem", "synonym", "paraphrase"), ("exact",)]


@needs_build
def test_the_c_word_candidates_are_the_python_ones_on_random_small_cases():
    """beam._word_candidates against its C twin on thousands of random sentence pairs over words
    with shared stems and synsets (repeated, non-ASCII, unknown to WordNet), every module set: the
    same candidates in the same order, the same fixed matches, the same tuples shared."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from meteor_core import MeteorConfig

    twin = _accel.twin("meteor_core.align._word_candidates")
    assert twin is not None
    config = MeteorConfig.meteor15(tokenizer="whitespace")
    words = ["the", "a", "cat", "cats", "sat", "sit", "sitting", "big", "large", "great", "huge", "on", "mat",
             "mats", "of", "small", "little", "café", "xqzt", "run", "ran", "running"]
    sentence = st.one_of(st.lists(st.sampled_from(words), max_size=12), st.lists(st.sampled_from(words), max_size=70))

    @settings(max_examples=3000, deadline=None, derandomize=True)
    @given(sentence, sentence, st.sampled_from(_STAGE_SETS))
    def same(hyp, ref, stages):
        for pure, c_data in _both_word_candidate_builders(twin, hyp, ref, stages, config):
            assert pure == c_data

    same()


@needs_build
def test_the_c_word_candidates_read_the_jar_s_offsets_as_str_split_makes_them():
    """The twin reads the jar's offsets off the dictionary's lines (JarSynonyms.offset_lines),
    parsing digits itself: on lines holding what the jar's file never does (leading zeros, tabs,
    runs of spaces, 17 digits, letters, non-ASCII, an offset twice), its candidates are
    those it makes from the same keys as strings (offsets through a plain function)."""
    import random

    from meteor_core.align import beam
    from meteor_core.jar_resources import JarSynonyms

    twin = _accel.twin("meteor_core.align._word_candidates")
    lines = {"cat": "01 7", "feline": "007\t7", "dog": "x1 ab 12345678901234567", "hound": "ab 12345678901234567 9",
             "pup": "\u00e99 3", "puppy": "\u00e99 1", "wolf": "3 3\t01", "mouse": "6 9", "sheep": "  6\t\t8 "}
    dictionary = JarSynonyms("\n".join(f"{w}\n{keys}" for w, keys in lines.items()), "mouse\nmice\n")
    words = [*lines, "cats", "mice", "dogs", "unknown"]
    assert dictionary.offset_lines("mice") == ("6 9",) and dictionary.offset_lines("cats") == ("01 7",)
    as_strings = lambda word: dictionary.offsets(word)  # noqa: E731  (not JarSynonyms.offsets: the general path)
    rng = random.Random(3)
    synonym_matches = 0
    for _ in range(300):
        hyp = [rng.choice(words) for _ in range(rng.randrange(12))]
        ref = [rng.choice(words) for _ in range(rng.randrange(12))]
        n = len(hyp)
        found = [twin.candidates(hyp, ref, True, None, synsets, *(beam._SINGLES[s].upto(n) for s in (
            beam._EXACT, beam._STEM, beam._SYNONYM)), True) for synsets in (dictionary.offsets, as_strings)]
        assert found[0] == found[1], (hyp, ref)
        synonym_matches += sum(c[4] == beam._SYNONYM for cands in found[0][0] for c in cands)
    assert synonym_matches > 100


@needs_build
def test_the_c_word_candidates_stay_the_same_when_the_vocabulary_starts_again(monkeypatch):
    """Past its word limit the twin's vocabulary forgets every word and interns them again: with
    a limit of a few pairs' words, the candidates stay the Python ones across many restarts."""
    import random

    from meteor_core import MeteorConfig

    twin = _accel.twin("meteor_core.align._word_candidates")
    monkeypatch.setattr(twin, "word_limit", 40)
    config = MeteorConfig.meteor15(tokenizer="whitespace")
    words = ["the", "a", "cat", "cats", "sat", "sit", "big", "large", "great", "on", "mat", "xqzt", "run", "ran"]
    rng = random.Random(7)
    for _ in range(500):
        hyp = [rng.choice(words) for _ in range(rng.randrange(15))]
        ref = [rng.choice(words) + rng.choice(["", "", "s", "ning"]) for _ in range(rng.randrange(15))]
        for pure, c_data in _both_word_candidate_builders(twin, hyp, ref, _STAGE_SETS[0], config):
            assert pure == c_data


@needs_build
def test_the_c_word_candidates_are_the_python_ones_on_the_whole_set():
    """Every pair of the bundled TED set, both ways round, tokenised as meteor15 does, in every
    module set: the same candidates, fixed matches and shared tuples."""
    from meteor_core import MeteorConfig, scorer

    from conftest import ted_lines

    twin = _accel.twin("meteor_core.align._word_candidates")
    config = MeteorConfig.meteor15()
    ref = ted_lines("ref")
    pairs = [(scorer._prepare(h, config)[1], scorer._prepare(r, config)[1]) for system in ("sys1", "sys2")
             for h, r in zip(ted_lines(system), ref)]
    assert len(pairs) == 2400
    for k, (hyp, ref_words) in enumerate(pairs):
        for stages in _STAGE_SETS[:4]:
            for pure, c_data in _both_word_candidate_builders(twin, hyp, ref_words, stages, config):
                assert pure == c_data, (k, stages)


def _both_joins(twin, hyp, ref, table, limit):
    """beam._joined with beam._fixed_matches, and the twin's joined_and_fixed, on one pair's
    candidates and paraphrase matches (limit: a budget that may cut): the joined candidates, the
    fixed matches and the work spent."""
    from meteor_core import MeteorConfig
    from meteor_core.align import beam
    from meteor_core.align.search import Budget

    config = MeteorConfig.meteor15(tokenizer="whitespace")
    per_ref, _ = beam._word_candidates(hyp, ref, ("exact", "stem", "synonym"), config, False)
    found = []
    for c_data in (False, True):
        budget = Budget() if limit is None else Budget(limit)
        extra, spans, _ = beam._paraphrase_matches(hyp, ref, table, budget)
        if c_data:
            joined, fixed = twin.joined_and_fixed(per_ref, extra, spans, len(hyp), budget)
        else:
            joined = beam._joined(per_ref, extra, budget)
            fixed = beam._fixed_matches(joined, len(hyp), spans)
        found.append((joined, fixed, budget.used, budget.exhausted, budget.stopped_by))
    return found


@needs_build
def test_the_c_join_and_fixed_matches_are_the_python_ones_on_random_small_cases():
    """beam._joined and beam._fixed_matches against the twin's joined_and_fixed, on random pairs
    with phrases of a small table (candidates shared by repeated words, phrases covering several
    words on either side), with budgets that run out anywhere."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    twin = _accel.twin("meteor_core.align._word_candidates")
    table = _small_paraphrase_table()
    words = ["the", "a", "cat", "cats", "sat", "big", "large", "on", "mat", "of", "café", "über", "dog"]
    sentence = st.one_of(st.lists(st.sampled_from(words), max_size=12), st.lists(st.sampled_from(words), max_size=70))

    @settings(max_examples=3000, deadline=None, derandomize=True)
    @given(sentence, sentence, st.sampled_from([None, 1, 10, 50, 300]))
    def same(hyp, ref, limit):
        pure, c_data = _both_joins(twin, hyp, ref, table, limit)
        assert pure == c_data

    same()


def _norm_twin():
    twin = _accel.twin("meteor_core._norm_line")
    assert twin is not None
    return twin


@needs_build
def test_the_c_norm_line_classes_are_the_jars_over_every_code_point():
    """The twin's letters, digits and spaced symbols are tokenize's regex classes (the jar's
    Normalizer ranges, ASCII digits, Java's \\s) for every code point."""
    import re

    from meteor_core import tokenize

    twin = _norm_twin()
    alpha, digit = re.compile(f"[{tokenize._ALPHA}]"), re.compile("[0-9]")
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        c = chr(code)
        expected = (bool(alpha.fullmatch(c)), bool(digit.fullmatch(c)), bool(tokenize._SEP_OTHER.fullmatch(c)))
        assert twin.char_classes(c) == expected, hex(code)


# Characters where -norm's rules turn: every pattern's middle and classes, both sides of each
# letter range's ends, quotes, dashes, Java's spaces and others it does not split at.
_NORM_CHARS = (list("aZs09 .,'`-\t\n\x0b\f\rDOTMULTI\"$(")
               + ["\u2018", "\u2019", "\u201c", "\u201d", "\u2013", "\u2014", "\u2026", "\xa0", "\u2000", "\x1c",
                  "\u0301", "\U0001F600", "\u00bf", "\u00c0", "\u00d6", "\u00d7", "\u00d8", "\u00f6", "\u00f7",
                  "\u00f8", "\u017e", "\u017f", "\u0160", "\u0178", "\u03ff", "\u0400", "\u04ff", "\u0500",
                  "\u0527", "\u0528", "\ua63f", "\ua640", "\ua66e", "\ua66f", "\ua67d", "\ua67e", "\ua697",
                  "\ua698", "\u1cff", "\u1d00", "\u1d7f", "\u1d80", "\u0660", "\uff10", "\u4e2d"])


@needs_build
def test_the_c_norm_line_is_the_python_one_on_random_strings():
    """tokenize._spaced_line against its C twin on random strings over the characters where the
    rules turn (runs of commas, apostrophes, hyphens, quotes; letters at the ends of the jar's
    ranges; digits of other scripts): the same line, character for character, or None exactly
    where the line holds a run of dots or DOTMULTI (tokenize's own code then runs)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from meteor_core import tokenize

    twin = _norm_twin()
    text = st.one_of(st.text(st.sampled_from(_NORM_CHARS), max_size=40), st.text(max_size=30))

    @settings(max_examples=10_000, deadline=None, derandomize=True)
    @given(text)
    def same(line):
        found = twin.spaced_line(line)
        if found is None:
            assert ".." in line or "DOTMULTI" in line
        else:
            assert found == tokenize._spaced_line(line, "en")

    same()


@needs_build
def test_the_c_norm_line_is_the_python_one_on_real_text():
    """Every line of the bundled TED set (detokenised), of the MQM zh-en set (English references
    and hypotheses, Chinese sources) and, where it is beside the checkout, of the shared TED set
    (tokenised too): the same line in C and in Python."""
    import gzip

    from bench.bench_core import DATA
    from meteor_core import tokenize

    twin = _norm_twin()
    lines = [line for name in ("ref", "sys1", "sys2") for line in ted_lines(name)]
    with gzip.open(ROOT / "demo" / "mqm-ted-zhen-part" / "segments.jsonl.gz", "rt", encoding="utf-8") as rows:
        lines += [v for row in rows for v in json.loads(row).values() if isinstance(v, str)]
    if DATA.is_dir():
        lines += [line for path in sorted(DATA.glob("*.eng")) for line in path.read_text(encoding="utf-8").splitlines()]
    checked = 0
    for line in lines:
        found = twin.spaced_line(line)
        if found is not None:
            assert found == tokenize._spaced_line(line, "en"), line
            checked += 1
        spaced = found if found is not None else tokenize._spaced_line(line, "en")
        assert twin.odd_space(line) == tokenize._has_odd_space(line), line
        assert twin.dotted_word(spaced) == tokenize._has_dotted_word(spaced), line
    assert len(lines) > 10_000 and checked > 0.99 * len(lines)


@needs_build
def test_the_c_odd_space_and_dotted_word_tests_are_the_regexes():
    """_norm_line.odd_space and dotted_word against tokenize's regex tests: every code point
    alone and beside "a", and random strings over spaces, dots and letters (a dot at either end,
    after or before each kind of space)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from meteor_core import tokenize

    twin = _norm_twin()
    for code in range(0x110000):
        c = chr(code)
        for text in (c, "a" + c + "a"):
            assert twin.odd_space(text) == tokenize._has_odd_space(text), hex(code)
        assert twin.dotted_word(c + ".") == tokenize._has_dotted_word(c + "."), hex(code)
        assert twin.dotted_word("a." + c) == tokenize._has_dotted_word("a." + c), hex(code)
    chars = list("ab. \t\n\r\f\x0b\x1c\x85\xa0") + ["\u2000", "\u3000", "\u1680"]

    @settings(max_examples=5_000, deadline=None, derandomize=True)
    @given(st.text(st.sampled_from(chars), max_size=12))
    def same(text):
        assert twin.odd_space(text) == tokenize._has_odd_space(text)
        assert twin.dotted_word(text) == tokenize._has_dotted_word(text)

    same()
