"""The time budget of one request to a page: scoring a test set, a bootstrap or a corpus
waterfall that a visitor starts finishes, or stops with a message, within METEOR_REQUEST_SECONDS
(60 s unless the server's operator sets it), so one visitor cannot hold the server."""
from __future__ import annotations

import math
import os

from meteor_core.deadline import Deadline, OverBudget

VARIABLE = "METEOR_REQUEST_SECONDS"
DEFAULT_SECONDS = 60.0

__all__ = ["DEFAULT_SECONDS", "OverBudget", "VARIABLE", "request_deadline", "request_seconds"]


def request_seconds(environ=os.environ) -> float:
    """The budget in seconds: the variable if it is a positive number, else the default."""
    try:
        seconds = float(environ.get(VARIABLE, DEFAULT_SECONDS))
    except ValueError:
        return DEFAULT_SECONDS
    return seconds if math.isfinite(seconds) and seconds > 0 else DEFAULT_SECONDS


def request_deadline(what: str) -> Deadline:
    return Deadline(request_seconds(), what)
