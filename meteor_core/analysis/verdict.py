"""When a difference is called significant, and the words that say so: one rule for every page
and command.

A difference is significant when the p-value the reader is told to read is below 0.05 (the
Holm-adjusted one when several pairs are tested together, the raw one for a test that stands
alone) *and* the 95% interval of the difference excludes 0. The two come from the same resamples
by different routes (a centred test, percentiles of the differences) and can disagree at the
margin; a verdict then says there is no significant difference rather than pick the favourable
one.
"""
from __future__ import annotations

import math

LEVEL = 0.05
RULE = "p (Holm-adjusted over the pairs) < 0.05 and a 95% interval that excludes 0"


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def significant(p_value: float, ci_low: float | None = None, ci_high: float | None = None) -> bool:
    """``p_value`` (already adjusted where it must be) below LEVEL and, when an interval is
    given, the interval on one side of 0. A missing p-value (NaN) is never significant."""
    if _missing(p_value) or not p_value < LEVEL:
        return False
    if _missing(ci_low) and _missing(ci_high):
        return True  # a test without an interval (approximate randomization)
    return bool(ci_low > 0 or ci_high < 0)

