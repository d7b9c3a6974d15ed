"""Every verdict follows the test the page tells users to read (issue 31, item 3): a difference is
significant only when the Holm-adjusted p (the raw one for a test that stands alone) is below
0.05 *and* the 95% interval excludes 0; "Highest on each figure" names no winner the tests do not
back (item 7)."""
from types import SimpleNamespace

import numpy as np
import pytest

from components import agreement_views as views
from meteor_core.analysis import verdict
from meteor_core.analysis.agreement import MEASURES, Figure, PairedTest
from meteor_core.analysis.compare import BootstrapResult


@pytest.mark.parametrize("p, low, high, expected", [
    (0.01, 0.002, 0.03, True),
    (0.01, -0.03, -0.002, True),
    (0.049, -0.0279, 0.0005, False),  # p below 0.05, the interval crosses 0
    (0.06, 0.001, 0.02, False),  # the interval excludes 0, p does not back it
    (0.01, None, None, True),  # approximate randomization: no interval
    (float("nan"), 0.1, 0.2, False),
    (0.01, float("nan"), float("nan"), True),
])
def test_the_rule(p, low, high, expected):
    assert verdict.significant(p, low, high) is expected


def test_the_issue_s_segment_kendall_pair_is_no_significant_difference():
    """meteor2005 vs meteor15, segment Kendall: interval −0.0279…+0.0005, p 0.047, Holm 0.657; the
    table said "meteor15 agrees better"."""
    t = PairedTest("segment.kendall", "meteor2005", "meteor15", -0.0137, -0.0279, 0.0005, 0.047, p_holm=0.657)
    assert not t.significant and t.to_dict()["significant"] is False
    # the system-level Pearson row for meteor2005 vs TER: Holm 0.056, whatever the interval
    assert not PairedTest("system.pearson", "meteor2005", "ter", 0.2, 0.05, 0.4, 0.004, p_holm=0.056).significant
    # Holm below 0.05 and the interval on one side: significant
    assert PairedTest("segment.kendall", "a", "b", 0.03, 0.01, 0.05, 0.001, p_holm=0.01).significant
    # a raw p alone (no Holm set: a test standing alone, as the tuning's held-out test) still needs the interval
    assert not PairedTest("segment.kendall", "a", "b", 0.03, -0.01, 0.05, 0.001).significant


class _Report:
    """What the views read of an AgreementReport: metrics' figures, best(), paired_tests()."""

    def __init__(self, figures: dict[str, dict[str, Figure]], tests: list[PairedTest]):
        self.metrics = {name: SimpleNamespace(figures=f) for name, f in figures.items()}
        self._tests = tests

    def best(self, measure):
        values = {n: m.figures[measure].value for n, m in self.metrics.items()}
        return max(values, key=values.get)

    def paired_tests(self, measures=MEASURES):
        return [t for t in self._tests if t.measure in measures]


def _figures(value, low, high):
    return {m: Figure(value, low, high) for m in MEASURES}


def test_paired_table_verdicts_follow_the_rule():
    tests = [PairedTest(m, "meteor2005", "meteor15", -0.0137, -0.0279, 0.0005, 0.047, p_holm=0.657) for m in MEASURES]
    tests += [PairedTest(m, "meteor2005", "bleu", 0.05, 0.02, 0.08, 0.001, p_holm=0.003) for m in MEASURES]
    report = _Report({"meteor2005": _figures(0.3, 0.2, 0.4), "meteor15": _figures(0.31, 0.2, 0.4),
                      "bleu": _figures(0.25, 0.1, 0.3)}, tests)
    table = views.paired_table(report, "segment.kendall")
    assert list(table["verdict"]) == ["no significant difference", "meteor2005 agrees better"]


def test_highest_on_each_figure_names_no_winner_the_tests_do_not_back():
    # every interval contains 0: nothing is ranked
    report = _Report({"a": _figures(0.3, -0.1, 0.6), "b": _figures(0.2, -0.2, 0.5)},
                     [PairedTest(m, "a", "b", 0.1, 0.05, 0.2, 0.001, p_holm=0.001) for m in MEASURES])
    lines = views.best_summary(report)
    assert len(lines) == len(MEASURES)
    assert all("highest is a (+0.3000), but no metric's 95% interval excludes 0" in line and "none is ranked" in line
               for line in lines)
    # intervals exclude 0, the paired test does not back the highest one
    report = _Report({"a": _figures(0.3, 0.1, 0.5), "b": _figures(0.29, 0.1, 0.5)},
                     [PairedTest(m, "a", "b", 0.01, -0.02, 0.04, 0.3, p_holm=0.3) for m in MEASURES])
    assert all(line.endswith("highest is a (+0.3000), not significantly above b (paired test, Holm-adjusted): "
                             "no single best metric.") for line in views.best_summary(report))
    # backed against every other metric (b − a negative, so a wins although it is metric B of the pair)
    report = _Report({"a": _figures(0.3, 0.1, 0.5), "b": _figures(0.1, 0.05, 0.2), "c": _figures(0.2, 0.1, 0.3)},
                     [PairedTest(m, "b", "a", -0.2, -0.3, -0.1, 0.001, p_holm=0.002) for m in MEASURES]
                     + [PairedTest(m, "a", "c", 0.1, 0.05, 0.2, 0.001, p_holm=0.002) for m in MEASURES])
    assert all(line.endswith("highest is a (+0.3000), significantly above every other metric (paired test, "
                             "Holm-adjusted).") for line in views.best_summary(report))


def _bootstrap(p, low, high):
    return BootstrapResult("A", "B", 0.5, 0.51, 0.01, low, high, p, 1000, 12345)


def test_compare_page_bootstrap_summary_follows_the_rule():
    assert _bootstrap(0.002, 0.004, 0.02).summary().endswith(": significant at 0.05 (1000 paired bootstrap samples, "
                                                             "seed 12345)")
    said = _bootstrap(0.04, -0.001, 0.02).summary()
    assert "not significant (the 95% interval contains 0) at 0.05" in said and not _bootstrap(0.04, -0.001, 0.02).significant
    assert ": not significant at 0.05" in _bootstrap(0.2, -0.01, 0.03).summary()


def test_every_paired_test_of_a_real_report_follows_the_rule():
    from test_agreement import MQM  # the bundled MQM set, three metrics, 200 samples
    from meteor_core.analysis import agreement as agree
    from meteor_core.analysis.judgments import read_judgments

    table = read_judgments(MQM, human="mqm")
    scored = [agree.score_metric(table, name) for name in ("bleu", "chrf")]
    report = agree.agreement(table, scored, samples=200, seed=12345)
    for t in report.paired_tests():
        assert t.significant == bool(t.p_holm < 0.05 and (t.ci_low > 0 or t.ci_high < 0)), t
    for measure in MEASURES:
        rows = views.paired_table(report, measure)
        for _, row in rows.iterrows():
            named = row["verdict"].endswith("agrees better")
            assert named == bool(row["p (Holm, all pairs)"] < 0.05 and (row["95% CI low"] > 0 or row["95% CI high"] < 0))
    assert np.isfinite([t.p_holm for t in report.paired_tests()]).all()
