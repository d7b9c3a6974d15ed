"""Meteor 1.x scoring, hand-computed and checked against numbers the Meteor 1.5 jar printed
(java -jar meteor-1.5.jar hyp ref -l en -lower -m "exact stem" -vOut), plus its -norm tokenizer."""
import pytest

from meteor_core import MeteorConfig, score
from meteor_core.tokenize import meteor_norm

M15 = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem"))


def test_weighted_precision_recall_and_penalty_hand_computed():
    r = score("the cat sat on the mat .", ["the cat was sitting on a mat ."], M15)
    # function words (Meteor's list): hyp the on the . (4), ref the was on a . (5)
    # matched: the cat on mat . -> content cat, mat (2); function the, on, . (3); all exact
    d = 0.75
    p = (d * 2 + (1 - d) * 3) / (d * 3 + (1 - d) * 4)
    rec = (d * 2 + (1 - d) * 3) / (d * 3 + (1 - d) * 5)
    f = p * rec / (0.85 * p + 0.15 * rec)
    pen = 0.6 * (3 / 5) ** 0.2
    assert (r.matches, r.chunks) == (5, 3)
    assert r.precision == pytest.approx(p) and r.recall == pytest.approx(rec)
    assert r.penalty == pytest.approx(pen)
    assert r.score == pytest.approx(f * (1 - pen))
    assert r.score == pytest.approx(0.29779390340677653, abs=1e-12)  # the jar's number


def test_stem_matches_weigh_0_6():
    r = score("the big dogs run", ["the large dog runs"], M15)
    assert r.matches_by_stage == {"exact": 1, "stem": 2, "synonym": 0}
    assert r.precision == pytest.approx(0.45999999999999996) and r.score == pytest.approx(0.20549821643104318)


def test_identical_sentences_have_no_penalty_but_reordering_does():
    assert score("the the the", ["the the the"], M15).score == 1.0
    assert score("a b", ["b a"], M15).score == pytest.approx(0.4)  # jar: P = R = 1, penalty 0.6


def test_beam_leaves_out_a_stem_match_that_opens_a_chunk():
    # The jar's coverage adds int(weight): stem matches count 0, so one that would add a
    # chunk is dropped. The paper's aligner (meteor2005) keeps it.
    hyp = "we know that online criminaly hire programmers , the hire tests , testing their code"
    ref = "we know that online criminals are hiring programmers , hiring testing people , testing their code"
    beam = score(hyp, [ref], M15)
    staged = score(hyp, [ref], MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem"), aligner="optimal"))
    assert staged.matches > beam.matches


def test_corpus_statistics_add_for_1x():
    from meteor_core import score_corpus
    c = score_corpus(["the cat sat on the mat .", "the big dogs run"],
                     [["the cat was sitting on a mat ."], ["the large dog runs"]], M15)
    assert c.stats.hyp_function == 4 + 1 and c.stats.hyp_content_matches[:2] == (2 + 0, 2)


@pytest.mark.parametrize("text,tokens", [
    ("It's Mr. Smith's car.", ["It", "'s", "Mr.", "Smith", "'s", "car", "."]),
    ("1,000 dollars, really...", ["1,000", "dollars", ",", "really", "..."]),
    ("“Quoted” – family-friendly 20-year-old", ['"', "Quoted", '"', "-", "family", "friendly", "20", "year", "old"]),
    ("don't", ["don", "'t"]),
])
def test_meteor_norm_tokenizer(text, tokens):
    assert meteor_norm(text) == tokens


def test_preset_values():
    c = MeteorConfig.meteor15()
    assert (c.alpha, c.beta, c.gamma, c.delta) == (0.85, 0.2, 0.6, 0.75)
    assert c.module_weights == (1.0, 0.6, 0.8, 0.6) and c.stemmer == "snowball" and c.tokenizer == "meteor-norm"
    assert "d:0.75" in c.signature() and MeteorConfig.preset("meteor15") == c
    assert MeteorConfig.from_dict(c.to_dict()) == c


TABLE = "0.5\nmany\na lot of\n0.5\na lot of\nmany\n0.3\nquickly\nin a hurry\n0.3\nin a hurry\nquickly\n"
PARA_HYP = "we have a lot of time and left quickly ."
PARA_REF = "we have many time and we left in a hurry ."


@pytest.fixture
def table(tmp_path):
    import gzip
    path = tmp_path / "para.gz"
    path.write_bytes(gzip.compress(TABLE.encode()))
    return str(path)


def test_paraphrase_stage_matches_the_jar(table):
    # jar: -m "exact stem synonym paraphrase" -a para.gz -lower -> alignment and score below
    c = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem", "synonym", "paraphrase"),
                              paraphrase_table=table)
    r = score(PARA_HYP, [PARA_REF], c)
    phrases = [(m.hyp_index, m.hyp_length, m.ref_index, m.ref_length) for m in r.alignment if m.stage == "paraphrase"]
    assert phrases == [(2, 3, 2, 1), (8, 1, 7, 3)]
    assert r.score == pytest.approx(0.42929923934452807, abs=1e-12)
    assert r.penalty == pytest.approx(0.4348677982066173, abs=1e-12) and r.chunks == 2
    assert r.matches_by_stage["paraphrase"] == 2


def test_paraphrase_results_render(table):
    from components.alignment_chart import STAGE_COLORS, alignment_figure
    from components.tables import word_table

    c = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem", "synonym", "paraphrase"),
                              paraphrase_table=table)
    r = score(PARA_HYP, [PARA_REF], c)
    fig = alignment_figure(r)
    para = [t for t in fig.data if (t.meta or {}).get("stage") == "paraphrase"]
    assert para and para[0].line.color == STAGE_COLORS["paraphrase"] and para[0].meta["count"] == 2
    words = word_table(r)
    lot = words[(words.side == "candidate") & (words.token == "lot")].iloc[0]
    assert lot.partner == "many" and lot.stage == "paraphrase"
    assert words[(words.side == "reference") & (words.token == "many")].iloc[0].partner == "a lot of"


def test_paraphrase_needs_a_table_and_the_beam():
    with pytest.raises(ValueError, match="paraphrase_table"):
        MeteorConfig.meteor15(stages=("exact", "paraphrase"), paraphrase_table=None)
    with pytest.raises(ValueError, match="meteor-beam"):
        MeteorConfig.meteor2005(stages=("exact", "paraphrase"), paraphrase_table="x.gz")
    with pytest.raises(ValueError, match="not a readable"):
        score("a", ["a"], MeteorConfig.meteor15(stages=("exact", "paraphrase"), paraphrase_table="/nonexistent.gz"))


def test_the_issue_pair_matches_the_jar_exactly():
    # java -jar meteor-1.5.jar h r -l en -norm  ->  Segment 1 score: 0.4248514351273681
    # (its alignment uses no paraphrase, so exact+stem+synonym reproduce it)
    hyp = "Alimentum is located in the city centre. It is not family-friendly."
    ref = "There is a place in the city centre, Alimentum, that is not family-friendly."
    assert score(hyp, [ref], MeteorConfig.meteor15()).score == pytest.approx(0.4248514351273681, abs=1e-12)


# --- Faithful to the jar (issue 17): each value below is what meteor-1.5.jar printed ---------------

def test_the_beam_carries_distance_on_the_parent_path():
    # java -jar meteor-1.5.jar h r -l en -lower -m "exact stem": Segment 1 score: 0.30055619183427223
    # (adding a match's distance to the new path alone, as before, gave 0.0899)
    assert score("say he say", ["he says"], M15).score == 0.30055619183427223


def test_the_beam_sorts_before_closing_the_last_chunk():
    # The jar keeps the later "large" (ref position 5): its path still has an open chunk when the
    # last step sorts, so it ranks before the one that closed its chunk at position 2.
    r = score("a large", ["b large b big dogs large"], M15)
    assert [(m.hyp_index, m.ref_index) for m in r.alignment] == [(1, 5)]
    assert r.score == 0.07547169811320754


def test_corpus_leaves_out_the_chunks_of_perfect_segments():
    from meteor_core import score_corpus
    assert score_corpus(["a b c", "d e f"], [["a b c"], ["d e f"]], M15).score == 1.0  # the jar: 1.0 (was 0.518)
    c = score_corpus(["a b c", "d e f", "the cat sat"], [["a b c"], ["d e f"], ["the cat sat on the mat"]], M15)
    assert c.chunks == 1 and c.score == pytest.approx(0.5177013795711519, abs=1e-15)  # the jar's Final score
    assert [s.chunks for s in c.segments] == [1, 1, 1]  # each segment keeps its own chunk


def test_perfect_segments_keep_their_chunks_under_the_2005_formula():
    from meteor_core import score_corpus
    c = score_corpus(["a b c", "d e f"], [["a b c"], ["d e f"]], MeteorConfig.meteor2005(stages=("exact",)))
    assert c.chunks == 2 and c.score < 1.0


@pytest.mark.parametrize("text,tokens", [  # java -cp meteor-1.5.jar edu.cmu.meteor.util.Normalizer english true
    ("seven-and-a-half", ["seven", "and", "a-half"]),  # one pass of hyphen removal
    ("His I.Q., like the E.U., is high.", ["His", "IQ", ",", "like", "the", "EU", ",", "is", "high", "."]),
    ("U.S.-based rock-'n'-roll", ["US", "based", "rock-", "'", "n", "'", "-roll"]),
    ("a--b ... wait... No. 5", ["a", "b", "...", "wait", "...", "No.", "5"]),
])
def test_meteor_norm_as_the_jar(text, tokens):
    assert meteor_norm(text) == tokens


def test_meteor_norm_splits_on_the_jars_spaces_only():
    # Spaces str.split() takes and the jar's StringTokenizer does not: a symbol, part of a word, or
    # (the Unicode ones of its last rule) a space. The jar printed these tokens (echo the text |
    # java -cp meteor-1.5.jar edu.cmu.meteor.util.Normalizer english true; its output's \x0b,
    # \x1c, \x85 and \u2028 end lines for Python's splitlines, hence not in the test below).
    text = "a\x0bb c\x1cd e\x85f\u1680g\u2028h. i\xa0j\u2003k\u3000Mr.\u202fl"
    assert meteor_norm(text) == ["a\x0bb", "c", "\x1c", "d", "e", "\x85", "f", "\u1680", "g", "\u2028", "h.", "i",
                                 "j", "k", "Mr.", "l"]
    assert meteor_norm("x\xa0y .") == ["x", "y", "."] and meteor_norm("x\x1fy") == ["x", "\x1f", "y"]


def test_meteor_norm_searches_near_the_middle_character_as_the_whole_line():
    """_sub_near searches a pattern of three characters only around its middle one: the same
    replacements as searching the whole line, on lines dense in those characters."""
    import random
    from meteor_core import tokenize

    rng = random.Random(7)
    patterns = [(p, tokenize._AROUND_COMMA, ",") for p in tokenize._COMMAS] + \
        [(p, r, "'") for p, r in tokenize._APOSTROPHES] + [(tokenize._RM_DASH, tokenize._SPLIT, "-")]
    for _ in range(3000):
        line = "".join(rng.choice("a1 ,'-s.é") for _ in range(rng.randint(0, 12)))
        for pattern, replacement, middle in patterns:
            assert tokenize._sub_near(pattern, replacement, line, middle) == pattern.sub(replacement, line), line


def test_snowball_as_the_jars_java_snowball():
    from meteor_core import resources
    stem = resources.stemmer("snowball")
    # NLTK's Snowball gives "realize", "irrate"; the jar's Java Snowball (and the algorithm) these:
    assert [stem(w) for w in ("realization", "irrationality", "running", "generously")] == \
        ["realiz", "irrat", "run", "generous"]


def test_the_fast_beam_is_the_jars_beam():
    """meteor_core's beam against a line-by-line port of Aligner.resolve (tests/meteor15_reference.py),
    on random sentences over small vocabularies (repeats, stems, synonyms, phrases, beam overflow)."""
    import random
    import meteor15_reference as reference
    from meteor_core import resources
    from meteor_core.align.beam import align_meteor_beam
    from meteor_core.align.search import Budget

    synonyms = {"big": {1}, "large": {1, 2}, "great": {2}, "dog": {3}, "hound": {3}, "run": {4}, "runs": {4}}
    sets = lambda w: frozenset(synonyms.get(w, ()))  # noqa: E731
    stem = resources.stemmer("snowball")
    rng = random.Random(17)
    vocab = "a b the of big large great dog dogs hound run runs running ran".split()
    config = MeteorConfig.meteor15(tokenizer="whitespace", modules="exact stem synonym")
    original = resources.synonym_sets, resources.distinct_synonym_keys
    resources.synonym_sets = resources.distinct_synonym_keys = lambda source: sets  # (the twin reads the latter)
    try:
        for n in [rng.randint(0, 9) for _ in range(300)] + [rng.randint(20, 45) for _ in range(40)]:
            hyp = [rng.choice(vocab) for _ in range(n)]
            ref = [rng.choice(vocab) for _ in range(rng.randint(0, n + 3))]
            ours = align_meteor_beam(hyp, ref, config, Budget(10**12))
            theirs = reference.align(hyp, ref, list(config.stages), stem=stem, synsets=sets)
            assert ours.optimal
            assert sorted((m[0], m[1], m[2], m[4], m[5]) for m in ours.matches) == theirs.as_tuples(), (hyp, ref)
    finally:
        resources.synonym_sets, resources.distinct_synonym_keys = original


def test_the_fast_beam_ranks_as_the_jar_at_the_largest_distances():
    """The beam's one-int keys are sized per segment (coverage, chunks, distance): reversed and
    shuffled sentences with repeated words, where paths carry the most distance and chunks,
    still rank as the jar ranks them."""
    import random
    import meteor15_reference as reference
    from meteor_core import resources
    from meteor_core.align.beam import align_meteor_beam
    from meteor_core.align.search import Budget

    stem = resources.stemmer("snowball")
    config = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem"))
    rng = random.Random(3)
    vocab = "a the run runs running dog dogs of".split()
    for n in [rng.randint(2, 12) for _ in range(150)] + [rng.randint(30, 60) for _ in range(10)]:
        ref = [rng.choice(vocab) for _ in range(n)]
        hyp = ref[::-1] if rng.random() < 0.5 else rng.sample(ref, len(ref))
        ours = align_meteor_beam(hyp, ref, config, Budget(10**12))
        theirs = reference.align(hyp, ref, list(config.stages), stem=stem)
        assert ours.optimal
        assert sorted((m[0], m[1], m[2], m[4], m[5]) for m in ours.matches) == theirs.as_tuples(), (hyp, ref)


def test_the_fast_beam_ranks_as_the_jar_with_keys_past_64_bits(monkeypatch):
    """Compiled, the beam's keys are C long long (align/beam.pxd); keys that could overflow them
    (key units this large come only with thousands of words and millions of candidates) are
    ranked with Python's ints, by the module run from its .py. Here the units are blown up for
    sentences of a few words: the alignment is still the jar's."""
    import random
    import meteor15_reference as reference
    from meteor_core import resources
    from meteor_core.align import beam
    from meteor_core.align.search import Budget

    units = beam._key_units

    def huge_units(per_ref, n_hyp):  # larger units than needed rank alike; these pass 2**63
        chunk = units(per_ref, n_hyp)[0] << 60
        return chunk, (len(per_ref) + 2) * chunk

    monkeypatch.setattr(beam, "_key_units", huge_units)
    assert not beam._keys_fit(1, 1, huge_units([()], 1)[1])
    stem = resources.stemmer("snowball")
    config = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem"))
    rng = random.Random(11)
    vocab = "a the run runs running dog dogs of".split()
    for n in [rng.randint(1, 12) for _ in range(60)]:
        ref = [rng.choice(vocab) for _ in range(n)]
        hyp = rng.sample(ref, len(ref)) + [rng.choice(vocab) for _ in range(rng.randint(0, 3))]
        ours = beam.align_meteor_beam(hyp, ref, config, Budget(10**12))
        theirs = reference.align(hyp, ref, list(config.stages), stem=stem)
        assert ours.optimal
        assert sorted((m[0], m[1], m[2], m[4], m[5]) for m in ours.matches) == theirs.as_tuples(), (hyp, ref)


def test_the_fast_beam_matches_phrases_as_the_jar(table):
    import random
    import meteor15_reference as reference
    from meteor_core import jar_resources, resources
    from meteor_core.align.beam import align_meteor_beam
    from meteor_core.align.search import Budget

    pairs = list(jar_resources.paraphrase_table(table).items())
    entries = [(tuple(a.split()), tuple(b.split())) for a, bs in pairs for b in bs]
    config = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem", "paraphrase"), paraphrase_table=table)
    rng = random.Random(5)
    vocab = "we have many a lot of time and left quickly in hurry".split()
    for _ in range(200):
        hyp = [rng.choice(vocab) for _ in range(rng.randint(0, 10))]
        ref = [rng.choice(vocab) for _ in range(rng.randint(0, 10))]
        ours = align_meteor_beam(hyp, ref, config, Budget(10**12))
        theirs = reference.align(hyp, ref, list(config.stages), stem=resources.stemmer("snowball"), paraphrases=entries)
        assert sorted((m[0], m[1], m[2], m[4], m[5]) for m in ours.matches) == theirs.as_tuples(), (hyp, ref)


# --- Bounds (issue 15): a deadline inside the beam, memory bounded, optimal=False when cut ----------

@pytest.mark.parametrize("hyp,ref", [
    # (600 words: the beam now finishes 400 x 400 "the" in about the 0.25 s budget, compiled)
    (" ".join(["the"] * 600), " ".join(["the"] * 600)),
    (" ".join("abcd"[k * 7 % 4] for k in range(1000)), " ".join("abcd"[k * 5 % 4] for k in range(1000))),
    (" ".join(["we run fast"] * 333), " ".join(["running we fast"] * 333)),
    (" ".join(["the"] * 4999), " ".join(["the"] * 4998)),
])
def test_long_repetitive_segments_are_cut_in_time(hyp, ref):
    import time
    config = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem"))
    start = time.perf_counter()
    r = score(hyp, [ref], config)
    assert time.perf_counter() - start < 3.0  # ~0.3 s here; generous for a busy machine
    assert not r.optimal  # the beam was cut; the rest was finished greedily
    assert r.matches >= min(len(hyp.split()), len(ref.split())) * 0.9  # and it is still a good alignment


def test_a_completed_beam_says_so():
    assert score("the cat sat on the mat", ["the cat was sitting on the mat"], M15).optimal


# --- Against the real jar (skipped without Java or a jar; bench/meteor15_agreement.py does all) ----

def _jar_or_skip():
    from jar_run import require_java
    return require_java()


def _run_jar(jar, hyps, refs, *options):
    from jar_run import jar_segment_scores
    return jar_segment_scores(hyps, refs, ["-l", "en", *options])


@pytest.mark.parametrize("form", ["norm", "lower"])
def test_bit_identical_to_the_jar_on_ted(form):
    from conftest import ted_lines
    from meteor_core import score_corpus
    jar = _jar_or_skip()
    refs, hyps = ted_lines("ref")[:150], ted_lines("sys1")[:150]
    if form == "lower":  # pre-tokenised input: ours split on whitespace, the jar only lowercases
        refs, hyps = [" ".join(meteor_norm(x)) for x in refs], [" ".join(meteor_norm(x)) for x in hyps]
    theirs, their_corpus = _run_jar(jar, hyps, refs, "-norm" if form == "norm" else "-lower", "-m", "exact stem synonym")
    config = MeteorConfig.meteor15(modules="exact stem synonym", synonym_source="jar",
                                   **({} if form == "norm" else {"tokenizer": "whitespace"}))
    ours = score_corpus(hyps, [[r] for r in refs], config)
    assert [s.score for s in ours.segments] == pytest.approx(theirs, abs=1e-9)
    assert ours.score == pytest.approx(their_corpus, abs=1e-12)


def test_meteor15_with_no_options_is_the_jars_default_number():
    """`java -jar meteor-1.5.jar SYS REF -l en -norm` (all four modules, the paraphrase table beside
    the jar: what pycocoevalcap and papers report) and MeteorConfig.meteor15() with nothing else."""
    from conftest import ted_lines
    from meteor_core import jar_resources, score_corpus
    _jar_or_skip()
    if not jar_resources.paraphrase_available("en"):
        pytest.skip("the jar's paraphrase table is not beside it")
    config = MeteorConfig.meteor15()
    assert config.stages == ("exact", "stem", "synonym", "paraphrase") and config.paraphrase_table == "jar"
    refs, hyps = ted_lines("ref")[:200], ted_lines("sys2")[:200]
    theirs, their_corpus = _run_jar(None, hyps, refs, "-norm")
    ours = score_corpus(hyps, [[r] for r in refs], config)
    assert [s.score for s in ours.segments] == pytest.approx(theirs, abs=1e-9)
    assert ours.score == pytest.approx(their_corpus, abs=1e-12)


def test_normaliser_is_the_jars():
    import subprocess
    from conftest import ted_lines
    jar = _jar_or_skip()
    lines = ted_lines("ref")[:300] + ["seven-and-a-half I.Q., E.U., U.S.-based", "“Quoted” – it's 1990's... a--b ''x''",
                                      "Mr. Smith vs. No. 5 e.g. this, 1,000.5 and 3,a,b ,c"]
    out = subprocess.run(["java", "-cp", str(jar), "edu.cmu.meteor.util.Normalizer", "english", "true"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, encoding="utf-8", check=True)
    assert [meteor_norm(line) for line in lines] == [line.split(" ") for line in out.stdout.splitlines()]


# --- Where the resources come from: the jar when one is found, NLTK's WordNet otherwise ----------

@pytest.fixture
def fresh_resources():
    """Forget every jar-derived resource before and after (the test points METEOR_JAR elsewhere)."""
    from meteor_core import jar_resources, resources

    def forget():
        jar_resources.clear()
        resources._jar_synsets.cache_clear()
        resources.function_words.cache_clear()
        resources._jar_found[0] = None
    forget()
    yield
    forget()


@pytest.fixture
def tiny_jar(tmp_path, monkeypatch, fresh_resources):
    """A made-up jar with the layout of meteor-1.5.jar (its synonym files, function-word list and
    -norm prefixes)."""
    import zipfile
    jar = tmp_path / "meteor-1.5.jar"
    with zipfile.ZipFile(jar, "w") as z:
        z.writestr("synonym/english.synsets", "dog\n2084071 10114209\nhound\n2084071\nrun\n1926311\nlarge\n1382086\n")
        z.writestr("synonym/english.exceptions", "run\nran\n")
        z.writestr("function/english.words", "the\na\n")
        z.writestr("nonbreaking/english.prefixes", "# a comment\nMr\n\n#Dr\nNo #NUMERIC_ONLY# \n")
    monkeypatch.setenv("METEOR_JAR", str(jar))
    return jar


def test_the_jars_synonym_dictionary(tiny_jar):
    from meteor_core import jar_resources
    syn = jar_resources.synonyms()
    assert syn.synsets("dogs") == {2084071, 10114209}  # its own (none) + its base form's (WordNet's morphology)
    assert syn.synsets("ran") == {1926311}  # an irregular form, from the exception list
    assert syn.synsets("hounds") == {2084071} and syn.synsets("larger") == {1382086}  # er -> e
    assert syn.synsets("bigger") == set()  # no suffix rule gives "big" (WordNet lists it as an exception)
    assert syn.synsets("glass") == set()  # "ss" is no plural
    assert jar_resources.function_words() == {"the", "a"}


def _offsets_agree(syn, words):
    for word in words:
        offsets = syn.offsets(word)
        assert len(offsets) == len(set(offsets)), word  # each key once: the twin counts words per key
        assert set(map(int, offsets)) == syn.synsets(word), word
        assert set(" ".join(syn.offset_lines(word)).split()) == set(offsets), word  # (what the twin parses)


def test_the_jars_offsets_are_its_synsets_each_once(tiny_jar):
    """offsets (what meteor15's candidates twin reads) lists synsets(word) as spelled in the file."""
    from meteor_core import jar_resources
    syn = jar_resources.synonyms()
    assert syn.offsets("dogs") == ["2084071", "10114209"] and syn.offsets("ran") == ["1926311"]
    assert syn.offset_lines("dogs") == (syn._raw["dog"],)  # (no line of its own: its base's)
    _offsets_agree(syn, ["dog", "dogs", "hound", "hounds", "ran", "run", "larger", "bigger", "glass", "", "x"])


def test_the_real_jars_offsets_are_its_synsets_each_once():
    """Over the real jar: words, their inflections (a base form's synsets join the word's own, so
    a key can come twice) and the exception list's forms; one spelling per offset."""
    from meteor_core import jar_resources
    if not jar_resources.jar_available():
        pytest.skip("no Meteor 1.5 jar on this machine")
    syn = jar_resources.synonyms()
    words = list(syn._raw)[::50]
    _offsets_agree(syn, words + [w + suffix for w in words for suffix in ("s", "es", "ed", "ing", "er")]
                   + list(syn._bases)[::5])
    spellings = {}
    for line in syn._raw.values():
        assert len(set(line.split())) == len(line.split())
        for offset in line.split():
            assert spellings.setdefault(int(offset), offset) == offset


def test_meteor15_uses_the_jar_when_one_is_found(tiny_jar):
    config = MeteorConfig.meteor15(tokenizer="whitespace")
    assert (config.synonym_source, config.function_words) == ("jar", "jar")
    assert "syn:meteor1.5-jar" in config.signature()
    r = score("the hound ran", ["a dog runs"], config)
    assert [(m.hyp_index, m.ref_index, m.stage, m.via) for m in r.alignment] == \
        [(1, 1, "synonym", "synset 02084071"), (2, 2, "synonym", "synset 01926311")]


def test_the_lists_come_from_the_jar(tiny_jar):
    """The function words and the -norm prefixes are the jar's files, parsed as Meteor's Normalizer
    does (comments skipped; #NUMERIC_ONLY# = keeps its dot only before a number)."""
    from meteor_core import resources
    from meteor_core.tokenize import meteor_norm
    assert resources.function_words("meteor-en") == resources.function_words("jar") == {"the", "a"}
    assert resources.nonbreaking_prefixes() == {"Mr": 1, "No": 2}
    assert meteor_norm("Mr. X saw No. 5 , not No. X .") == ["Mr.", "X", "saw", "No.", "5", ",", "not", "No", ".",
                                                         "X", "."]


def test_forgetting_texts_empties_the_normalised_lines(tiny_jar):
    """scorer.forget_texts() (the app's server, once a session has gone) empties -norm's line memo:
    no user's line stays as a key; the line normalises as before afterwards."""
    from meteor_core import tokenize
    from meteor_core.scorer import forget_texts
    line = "Dr. X saw Mr. Y ."
    first = tokenize.meteor_norm(line)
    assert any(line in lines for _, lines in tokenize._normalised_lines.values())
    assert "saw" in tokenize._kept_words
    forget_texts()
    assert not any(lines for _, lines in tokenize._normalised_lines.values())
    assert not tokenize._kept_words  # (nor a word of it)
    assert tokenize.meteor_norm(line) == first


def test_normalised_lines_hand_back_one_string_per_distinct_word(tiny_jar):
    """-norm's memo keeps each distinct word once, shared by the lines that hold it: a line
    normalised again gives equal words as the very same strings (their hashes computed once),
    in a new list each time."""
    from meteor_core import tokenize
    tokenize.forget_normalised_lines()
    a, b = "the cat sat on the mat .", "a cat , the dog ."
    first_a, first_b = tokenize.meteor_norm(a), tokenize.meteor_norm(b)
    again_a, again_b = tokenize.meteor_norm(a), tokenize.meteor_norm(b)
    assert again_a == first_a == ["the", "cat", "sat", "on", "the", "mat", "."] and again_b == first_b
    assert again_a is not first_a and all(x is y for x, y in zip(again_a, first_a))
    assert again_a[0] is again_a[4] is again_b[3] and again_a[1] is again_b[1]  # ("the", "cat" once each)
    assert len(tokenize._kept_words) == 9


def test_a_normalised_line_is_remembered_per_jar_and_never_shared(tiny_jar, monkeypatch, tmp_path):
    """-norm keeps the lines it normalised: a caller gets its own list each time, and another
    jar (other prefixes) normalises the line again."""
    import zipfile
    from meteor_core import jar_resources
    from meteor_core.tokenize import meteor_norm
    line = "Dr. X saw Mr. Y ."
    first = meteor_norm(line)
    assert first == ["Dr", ".", "X", "saw", "Mr.", "Y", "."]  # the tiny jar: Mr keeps its dot, Dr not
    first.append("changed")
    assert meteor_norm(line) == ["Dr", ".", "X", "saw", "Mr.", "Y", "."]
    other = tmp_path / "other" / "meteor-1.5.jar"
    other.parent.mkdir()
    with zipfile.ZipFile(tiny_jar) as z, zipfile.ZipFile(other, "w") as out:
        for name in z.namelist():
            out.writestr(name, "Dr\n" if name == "nonbreaking/english.prefixes" else z.read(name))
    monkeypatch.setenv("METEOR_JAR", str(other))
    jar_resources.clear()
    assert meteor_norm(line) == ["Dr.", "X", "saw", "Mr", ".", "Y", "."]


def test_the_lists_are_the_real_jars(fresh_resources):
    """With the user's meteor-1.5.jar: function_words("meteor-en") is exactly function/english.words
    and the prefixes are nonbreaking/english.prefixes (nothing of the jar is in this repository)."""
    import zipfile
    from conftest import ROOT
    from meteor_core import jar_resources, resources
    jar = jar_resources.find_jar()
    if jar is None:
        pytest.skip("needs a Meteor 1.5 jar (METEOR_JAR or pycocoevalcap)")
    with zipfile.ZipFile(jar) as z:
        words = z.read("function/english.words").decode("utf-8").split()
    assert resources.function_words("meteor-en") == set(words) and len(words) > 50
    prefixes = resources.nonbreaking_prefixes()
    assert prefixes["Mr"] == 1 and prefixes["No"] == 2 and prefixes["e.g"] == 1
    assert not (ROOT / "meteor_core" / "data").exists()


def test_the_jar_is_looked_for_on_disk_once_per_path(tiny_jar, monkeypatch, tmp_path):
    """Until the jar's synonyms are loaded, every segment asks (twice) whether the jar is there:
    the file system is read once per jar path (it was ~30 us of a ~60 us all-exact meteor15 pair),
    and a jar named later that is missing still fails at once."""
    from meteor_core import jar_resources, resources
    from meteor_core.jar_resources import JarMissingError
    looked, real = [], jar_resources.require_jar
    monkeypatch.setattr(jar_resources, "require_jar", lambda: looked.append(1) or real())
    for _ in range(5):
        resources.require_synonyms("jar")
    assert len(looked) == 1 and resources._jar_synsets.cache_info().currsize == 0
    monkeypatch.setenv("METEOR_JAR", str(tmp_path / "elsewhere.jar"))
    for _ in range(2):
        with pytest.raises(JarMissingError):
            resources.require_synonyms("jar")
    assert len(looked) == 3


def test_the_jars_paraphrase_table_is_looked_for_once_per_place(tiny_jar, monkeypatch, tmp_path):
    """meteor15 asks for the jar's paraphrase table on every segment: it is looked for (a stat of
    the jar) once while the variables that place it stay the same; a table or a jar named later
    is looked for again, and a missing one fails at once."""
    from meteor_core import jar_resources
    from meteor_core.align import beam
    from meteor_core.jar_resources import JarMissingError
    table = tmp_path / "table.txt"
    table.write_text("0.5\nbig dog\nlarge dog\n", encoding="utf-8")
    monkeypatch.setenv("METEOR_PARAPHRASE", str(table))
    config = MeteorConfig.meteor15()  # (which asks whether the table is there)
    looked, real = [], jar_resources.paraphrase_path
    monkeypatch.setattr(jar_resources, "paraphrase_path", lambda language="en": looked.append(1) or real(language))
    found = [beam._paraphrase_table(config) for _ in range(5)]
    assert len(looked) == 1 and found[0].lookup("big dog") == ("large dog",) and all(t is found[0] for t in found)
    monkeypatch.delenv("METEOR_PARAPHRASE")
    monkeypatch.setenv("METEOR_JAR", str(tmp_path / "elsewhere.jar"))
    for _ in range(2):
        with pytest.raises(JarMissingError):
            beam._paraphrase_table(config)
    assert len(looked) == 3


def test_the_places_of_the_jar_are_read_as_os_environ_holds_them(monkeypatch):
    """jar_paraphrase_table keys its answer on the variables that place the jar, read from
    os.environ's own store: the same values as os.environ.get, set, changed or unset."""
    import os
    from meteor_core import jar_resources

    def as_get():
        return [None if v is None else os.fsdecode(v) for v in jar_resources._places_now()]

    monkeypatch.setenv("METEOR_JAR", "/somewhere/m\u00e9teor.jar")
    monkeypatch.delenv("METEOR_PARAPHRASE", raising=False)
    monkeypatch.setenv("METEOR_EXPLORER_CACHE", "/a")
    assert as_get() == [os.environ.get(name) for name in jar_resources._PLACES]
    assert as_get()[:3] == ["/somewhere/m\u00e9teor.jar", None, "/a"]
    monkeypatch.setenv("METEOR_EXPLORER_CACHE", "/b")
    monkeypatch.setenv("METEOR_PARAPHRASE", "/t.gz")
    assert as_get()[1:3] == ["/t.gz", "/b"]
    monkeypatch.delenv("METEOR_JAR")
    assert as_get()[0] is None


def test_without_a_jar_meteor15_says_how_to_get_one(monkeypatch, fresh_resources):
    """No jar: the meteor15 preset is still a configuration (its signature is the same as with a
    jar), but scoring raises JarMissingError naming the fix; WordNet synonyms do not replace the
    jar, because the function words and the -norm prefixes are the jar's too."""
    from meteor_core import resources, score_segments
    from meteor_core.jar_resources import JarMissingError
    from meteor_core.tokenize import meteor_norm
    with_jar = MeteorConfig.meteor15().signature()
    monkeypatch.setenv("METEOR_JAR", "none")
    config = MeteorConfig.meteor15()
    assert (config.synonym_source, config.function_words) == ("jar", "jar")
    assert config.signature() == with_jar and "syn:meteor1.5-jar" in with_jar
    fix = "pip install pycocoevalcap.*METEOR_JAR="
    for config in (config, MeteorConfig.meteor15(synonym_source="wordnet"),
                   MeteorConfig.meteor15(synonym_source="wordnet", tokenizer="whitespace")):
        with pytest.raises(JarMissingError, match=fix):
            score("a big dog", ["a large dog"], config)
    with pytest.raises(JarMissingError, match=fix):  # before any segment is scored
        score_segments(iter(()), iter(()), MeteorConfig.meteor15(synonym_source="wordnet"))
    with pytest.raises(JarMissingError, match=fix):  # every line, not only those with a dotted word
        meteor_norm("no dots here")
    with pytest.raises(JarMissingError, match=fix):
        resources.function_words("meteor-en")
    assert score("a big dog", ["a large dog"], MeteorConfig.meteor2005()).score > 0.9  # needs no jar
    with pytest.raises(JarMissingError, match=fix):
        score("a big dog", ["a large dog"], MeteorConfig.meteor2005(synonym_source="jar"))
    with pytest.raises(ValueError, match="synonym_lookup"):
        MeteorConfig.nltk(synonym_source="jar")


def test_meteor_en_is_another_name_for_the_jar_list():
    config = MeteorConfig.meteor15(function_words="meteor-en")
    assert config.function_words == "jar" and config == MeteorConfig.meteor15()
    assert config.signature() == MeteorConfig.meteor15().signature()
    assert MeteorConfig.from_dict({**MeteorConfig.meteor15().to_dict(), "function_words": "meteor-en"}) == config


def test_cli_says_which_synonyms(tmp_path, tiny_jar):
    import subprocess
    import sys
    from conftest import ROOT
    (tmp_path / "h").write_text("the hound ran\n")
    (tmp_path / "r").write_text("a dog runs\n")

    def run(*extra):
        return subprocess.run([sys.executable, "-m", "meteor_core", "--hyp", str(tmp_path / "h"), "--ref",
                               str(tmp_path / "r"), "--preset", "meteor15", *extra], cwd=ROOT, capture_output=True, text=True)
    assert "syn:meteor1.5-jar" in run().stdout
    assert "syn:wordnet-3.0" in run("--synonyms-from", "wordnet").stdout
    failed = subprocess.run([sys.executable, "-m", "meteor_core", "--hyp", str(tmp_path / "h"), "--ref",
                             str(tmp_path / "r"), "--preset", "meteor15", "--synonyms-from", "jar"], cwd=ROOT,
                            capture_output=True, text=True, env={**__import__("os").environ, "METEOR_JAR": "none"})
    assert failed.returncode == 2 and "no Meteor 1.5 jar found" in failed.stderr and "Traceback" not in failed.stderr


@pytest.mark.parametrize("extra", [(), ("--synonyms-from", "wordnet"), ("--no-synonyms",)])
def test_cli_without_a_jar_says_how_to_get_one(tmp_path, extra):
    """meteor15 without a jar: one line naming the fix, exit status 2, no traceback (WordNet
    synonyms or none do not help: the function words and -norm prefixes are the jar's)."""
    import os
    import subprocess
    import sys
    from conftest import ROOT
    (tmp_path / "h").write_text("the big dog.\n")
    (tmp_path / "r").write_text("a large dog.\n")
    run = subprocess.run([sys.executable, "-m", "meteor_core", "--preset", "meteor15", "--hyp", str(tmp_path / "h"),
                          "--ref", str(tmp_path / "r"), *extra], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "METEOR_JAR": "none"})
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("error: no Meteor 1.5 jar found") and run.stderr.count("\n") == 1
    assert "pip install pycocoevalcap" in run.stderr and "METEOR_JAR=" in run.stderr and "Traceback" not in run.stderr
