"""The compare page's bundled test set (TED Slovak->English, 1,200 segments, 2 systems), read and
scored once per server and configuration, and shared by every session.

Its first scoring in a process costs the most (the scorer's modules, WordNet and the stemmer's
memos come with it: ~1 s against ~0.5 s later), so ``warm_in_background`` starts it in a thread
when the server's first session runs any page, for the configuration the compare page opens with.
A visitor who then opens that page reads the result, or waits for the same computation (the
cache computes an entry once; a second caller waits for it), never a second one.

Its scores are also kept on disk, in meteor_core's cache folder, so that a fresh server reads them
(~0.02 s) instead of scoring (~1 s with the first scoring's imports): one file per digest of all
that makes them (the texts, the configuration and its signature, the package's version). A file
that is unreadable, truncated, of another format, or names anything but the result classes listed
below is ignored (and scored afresh): it is read by an unpickler that builds nothing else. Its
BLEU, chrF and TER (``sacrebleu_scores``, counted in the background when the compare page has
been drawn: components/background_metrics.py) are kept the same way.
"""
from __future__ import annotations

import io
import os
import pickle
import tempfile
import threading
from pathlib import Path

import streamlit as st

from meteor_core import MeteorConfig
from meteor_core.textio import read_segments

FOLDER = Path(__file__).resolve().parent.parent / "demo" / "ted-slk-eng"
DEFAULT_LANGUAGE = "en"  # the compare page's first screen: this language's first preset, synonyms on


@st.cache_data(show_spinner=False)  # read once, not on every rerun that a filter causes
def texts() -> tuple[dict[str, list[str]], list[list[str]]]:
    """(systems, references) of the bundled set."""
    refs = read_segments(FOLDER / "ted.ref.detok.eng")  # capped like every read
    systems = {name: read_segments(FOLDER / f"ted.{name}.detok.eng") for name in ("sys1", "sys2")}
    return systems, [[r] for r in refs]


# One entry per configuration asked for; a few (the presets in a language or two) stay. The value
# is read only: every session draws from the same comparison.
@st.cache_resource(show_spinner=False, max_entries=4)
def comparison(config: dict, _progress=None):
    """The bundled set scored under ``config`` (a ``MeteorConfig.to_dict()``). ``_progress(done,
    total)``, when this call scores, may raise to stop (the request's budget): nothing is kept then."""
    from meteor_core.analysis.compare import compare_systems

    systems, references = texts()
    meteor_config = MeteorConfig.from_dict(config)
    path = _disk_path(systems, references, meteor_config)
    kept = _read_kept(path)
    if kept is not None:
        return kept
    result = compare_systems(systems, references, meteor_config, progress=_progress, jobs=1)
    _keep(path, result)
    return result


# --- the scores on disk ---------------------------------------------------------------------------

FORMAT = "meteor-explorer demo scores 1"  # the file's first field: another format is not read
# What a kept comparison is made of; the unpickler builds these and nothing else.
RESULT_CLASSES = {("meteor_core.analysis.compare", "SystemComparison"), ("meteor_core.config", "MeteorConfig"),
                  ("meteor_core.scorer", "CorpusResult"), ("meteor_core.scorer", "SegmentResult"),
                  ("meteor_core.scorer", "PairResult"), ("meteor_core.scorer", "_unpickled"),
                  ("meteor_core.stats", "MeteorStats")}


def scores_folder() -> Path:
    from meteor_core.cache import cache_dir

    return cache_dir() / "demo-scores"


def _disk_path(systems, references, config: MeteorConfig) -> Path:
    from components.cache_keys import digest
    from meteor_core import __version__

    key = digest(FORMAT, __version__, config.signature(), config.to_dict(), systems, references)
    return scores_folder() / f"{key}.pickle"


class _ResultUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) not in RESULT_CLASSES:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a kept comparison")
        return super().find_class(module, name)


def _read_kept(path: Path, kind: type | None = None):
    """The comparison (or another ``kind`` of result) kept in ``path``, or None when there is none
    or it cannot be trusted."""
    from meteor_core.analysis.compare import SystemComparison

    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        kept_format, kept_name, comparison = _ResultUnpickler(io.BytesIO(data)).load()
    except Exception:  # corrupt, truncated, another format or foreign content: scored afresh
        return None
    if kept_format != FORMAT or kept_name != path.name or not isinstance(comparison, kind or SystemComparison):
        return None
    return comparison


@st.cache_resource(show_spinner=False, max_entries=1)
def sacrebleu_scores(_check=None):
    """BLEU, chrF and TER of the bundled set (``sacrebleu_metrics.score_systems``: corpus
    scores, sentence scores, signatures), once per server, kept on disk like the METEOR scores
    (a digest of the texts, sacrebleu's and the package's versions names the file). They are
    plain numbers, strings and dicts: the unpickler builds no class for them. ``_check()``, when
    this call counts, may raise to stop (the request's budget): nothing is kept then."""
    import sacrebleu

    from components.cache_keys import digest
    from meteor_core import __version__
    from meteor_core.analysis.sacrebleu_metrics import METRICS, score_systems

    systems, references = texts()
    key = digest(FORMAT, "sacrebleu", sacrebleu.__version__, __version__, systems, references)
    path = scores_folder() / f"{key}.pickle"
    kept = _read_kept(path, tuple)
    if kept is not None and len(kept) == 3 and all(isinstance(part, dict) for part in kept):
        return kept
    scores = score_systems(systems, references, METRICS, check=_check)
    _keep(path, scores)
    return scores


def _keep(path: Path, comparison) -> None:
    """Write the comparison next to its final name, then rename it: a reader never sees half a
    file. A folder that cannot be written only means scoring again next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as out:
            pickle.dump((FORMAT, path.name, comparison), out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(out.name, path)
    except OSError:
        try:
            os.unlink(out.name)
        except (OSError, UnboundLocalError):
            pass


def default_config() -> MeteorConfig:
    from components.language_choice import presets

    return MeteorConfig.preset(presets(DEFAULT_LANGUAGE)[0], language=DEFAULT_LANGUAGE)


_started = threading.Event()
_start_lock = threading.Lock()
warming: list[threading.Thread] = []  # the thread, once started (tests wait for it)


def warm_in_background() -> threading.Thread | None:
    """Score the bundled set for the compare page's first screen in a daemon thread, once per
    process (later calls do nothing and return None)."""
    with _start_lock:
        if _started.is_set():
            return None
        _started.set()
    thread = threading.Thread(target=_warm, name="meteor-demo-warmup", daemon=True)
    warming.append(thread)
    thread.start()
    return thread


def _warm() -> None:
    try:
        comparison(default_config().to_dict())
    except Exception:  # a missing resource, say: the page says what, when it is opened
        pass
