"""Where meteor_core keeps what it computes once and reuses across processes (parsed paraphrase
tables; the agreement bench's copy of the jar): ``METEOR_EXPLORER_CACHE``, else
``~/.cache/meteor-explorer``."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path


def cache_dir() -> Path:
    configured = os.environ.get("METEOR_EXPLORER_CACHE")
    return Path(configured) if configured else _default_cache_dir(os.environ.get("HOME", ""))


@lru_cache(maxsize=4)
def _default_cache_dir(home: str) -> Path:
    """~/.cache/meteor-explorer, made once per HOME: Path.home() takes ~10 us, and finding the jar
    asks for this folder on every segment until the jar's synonyms are loaded."""
    return Path.home() / ".cache" / "meteor-explorer"
