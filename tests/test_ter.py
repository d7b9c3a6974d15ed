"""meteor_core.analysis.ter counts TER's edits exactly as sacrebleu does: every segment's
statistics compared with sacrebleu's own on real sets and on random sentences made to repeat
words (shifts, ties between alignments, the candidate limit), compiled and pure Python; and the
compare page's one-pass scores equal sacrebleu's sentence and corpus scores."""
import gzip
import json
import os
import random
import subprocess
import sys

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from conftest import ROOT, ted_lines
from meteor_core.analysis import sacrebleu_metrics, ter

MQM = ROOT / "demo" / "mqm-ted-zhen-part" / "segments.jsonl.gz"


def _mqm_pairs(n: int):
    with gzip.open(MQM, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f][:n]
    return [(r["hypothesis"], [r["reference"]]) for r in rows]


def _random_pairs(n: int, seed: int = 7):
    """Short sentences over a few words, so that words repeat and shifts compete; some long,
    some with several references, some empty."""
    rng = random.Random(seed)
    vocabulary = "the a cat dog sat on mat , . and of".split()
    pairs = []
    for k in range(n):
        length = rng.choice([0, 1, 3, 8, 15, 30]) if k % 20 else 70  # (sacrebleu takes seconds on long ones)
        hyp = " ".join(rng.choice(vocabulary) for _ in range(length))
        refs = [" ".join(rng.choice(vocabulary) for _ in range(rng.choice([1, 5, 12, 30, 60])))
                for _ in range(rng.choice([1, 1, 2, 3]))]
        pairs.append((hyp, refs))
    return pairs


def _theirs(pairs):
    metric = TER()
    out = []
    for hyp, refs in pairs:  # sacrebleu's own statistics, one segment at a time
        out.append([float(x) for x in metric._extract_corpus_statistics([hyp], [[r] for r in refs])[0]])
    return out


def _ours(pairs):
    words = TER()._preprocess_segment
    return [[float(x) for x in ter.segment_statistics(words(h).split(), [words(r).split() for r in refs])]
            for h, refs in pairs]


def _sets():
    ted = [(h, [r]) for name in ("sys1", "sys2") for h, r in zip(ted_lines(name), ted_lines("ref"))]
    return {"TED": ted, "MQM zh-en (first 600)": _mqm_pairs(600), "random": _random_pairs(200)}


@pytest.mark.parametrize("name", ["TED", "MQM zh-en (first 600)", "random"])
def test_every_segment_s_edits_are_sacrebleu_s(name):
    pairs = _sets()[name]
    assert _ours(pairs) == _theirs(pairs)


def test_pure_python_counts_the_same():
    """The compiled module and the .py it is built from agree (METEOR_PURE=1 loads the .py)."""
    pairs = _random_pairs(120, seed=11) + _mqm_pairs(60)
    code = ("import json, sys; sys.path.insert(0, 'tests'); import test_ter as t; "
            f"print(json.dumps(t._ours(t._random_pairs(120, seed=11) + t._mqm_pairs(60))))")
    env = dict(os.environ, METEOR_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == _theirs(pairs)


def test_one_pass_scores_equal_sacrebleu_s_sentence_and_corpus_scores():
    refs = [[r] for r in ted_lines("ref")[:150]]
    systems = {name: ted_lines(name)[:150] for name in ("sys1", "sys2")}
    corpus, sentence, signatures = sacrebleu_metrics.score_systems(systems, refs, sacrebleu_metrics.METRICS)
    streams = [[r[0] for r in refs]]
    for name, hyps in systems.items():
        for metric, sentence_metric, key in ((BLEU(), BLEU(effective_order=True), "bleu"), (CHRF(), CHRF(), "chrf"),
                                             (TER(), TER(), "ter")):
            assert corpus[name][key] == pytest.approx(metric.corpus_score(hyps, streams).score, abs=1e-9)
            want = [sentence_metric.sentence_score(h, [r[0]]).score for h, r in zip(hyps, refs)]
            assert sentence[name][key] == pytest.approx(want, abs=1e-9)
    assert set(signatures) == {"BLEU", "BLEU sentence", "chrF", "TER"}
