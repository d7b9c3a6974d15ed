"""The optional compiled accelerator: meteor_core's hot modules compiled by Cython from these same
.py sources (``build_accel.py``, run by ``./run.sh setup``; ``pip install .``), with the .py
files as the fallback; and C twins (TWINS): parts of a pure module rewritten in Cython on C data
(a .pyx), which the pure module uses in place of its own code when they are built and up to date.

A compiled module (a .so beside its .py) is imported only when it was built from the .py as it
is now: the build writes each source's SHA-256 (its .py, and the .pxd of C types beside it if
any) into a manifest, and at import time a module whose source has changed since (or that has
no manifest entry) is loaded from its .py instead.
``METEOR_PURE=1`` loads every module from its .py. Results are identical either way (tested over
the whole bundled TED set); only the speed differs.
"""
from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# The modules compiled: the scoring path (tokenise, align, search, chunk, statistics, resources,
# stemmers, paraphrase lookups), and TER's edit distance (the slowest of the metrics beside METEOR).
COMPILED = (
    "meteor_core.align.search",
    "meteor_core.align.optimal",
    "meteor_core.align.greedy",
    "meteor_core.align.beam",
    "meteor_core.jar_resources",
    "meteor_core.scorer",
    "meteor_core.stats",
    "meteor_core.tokenize",
    "meteor_core.resources",
    "meteor_core.porter",
    "meteor_core.snowball_langs._runtime",
    "meteor_core.snowball_langs.english",
    "meteor_core.paraphrase",
    "meteor_core.wordnet",
    "meteor_core.analysis.ter",
)
# C twin (a .pyx) -> the pure modules whose code it mirrors. A twin is out of date when its .pyx or
# one of those modules' sources changed since the build: the pure module's own code then runs.
TWINS = {
    "meteor_core.align._beam_search": ("meteor_core.align.beam",),  # beam._search on C structs
    "meteor_core.align._paraphrase_match": ("meteor_core.align.beam",),  # beam._paraphrase_matches on C data
    "meteor_core.align._word_candidates": ("meteor_core.align.beam",),  # beam._word_candidates on int ids
    "meteor_core._norm_line": ("meteor_core.tokenize",),  # tokenize._spaced_line (-norm's replacements) in C
    "meteor_core._known_chunks": ("meteor_core.tokenize",),  # punct's known chunks, a line split in place
    "meteor_core.align._small_search": ("meteor_core.align.search",),  # search._SmallSearch on C arrays
    "meteor_core.align._pairwise_tables": ("meteor_core.align.pairwise",),  # pairwise's joint tables in C loops
    "meteor_core.align._greedy_passes": ("meteor_core.align.greedy",),  # greedy's passes on word ids
    "meteor_core._porter_stem": ("meteor_core.porter",),  # porter.stem on a C buffer (ASCII words)
    # scorer's word counts, chunks and crossings, and stats' Meteor 1.x formula, in C
    "meteor_core._pair_stats": ("meteor_core.scorer", "meteor_core.stats"),
    # english.stem and the Snowball runtime operations it calls, on a C buffer
    "meteor_core.snowball_langs._english_stem": ("meteor_core.snowball_langs.english",
                                                 "meteor_core.snowball_langs._runtime"),
    "meteor_core.align._split_classes": ("meteor_core.align.search",),  # search.split_classes on int ids
    "meteor_core.align._parts_alone": ("meteor_core.align.search",),  # search._solve_parts' first steps on C arrays
    "meteor_core.align._synonym_candidates": ("meteor_core.align.optimal",),  # the synonym relation on int arrays
    "meteor_core.align._stem_keys": ("meteor_core.align.optimal",),  # the stem stage's inputs on int ids
    "meteor_core.align._pairwise_search": ("meteor_core.align.pairwise",),  # pairwise.solve_pairwise on C arrays
}
BUILT = COMPILED + tuple(TWINS)  # every extension the build makes
MANIFEST = PACKAGE / "_accel_manifest.json"


def source_path(module: str) -> Path:
    return PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".pyx" if module in TWINS else ".py")


def source_hash(module: str) -> str:
    """The hash of what a module is compiled from: its .py, and its .pxd (C types for Cython,
    read only by the build) when it has one: an edited .pxd, too, means the build is out of date.
    For a C twin: its .pyx and the sources of the modules it mirrors."""
    source = source_path(module)
    digest = hashlib.sha256(source.read_bytes())
    declarations = source.with_suffix(".pxd")
    if declarations.is_file():
        digest.update(b"\0pxd\0" + declarations.read_bytes())
    for mirrored in TWINS.get(module, ()):
        digest.update(b"\0mirrors\0" + source_hash(mirrored).encode())
    return digest.hexdigest()


def _has_binary(module: str) -> bool:
    source = source_path(module)
    return any(source.with_suffix(suffix).is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _built() -> dict[str, str]:
    try:
        return json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def stale_modules(pure: bool) -> set[str]:
    """Compiled modules that must run from their .py: all with ``pure``, else those whose
    source changed since the build."""
    built = _built()
    return {m for m in COMPILED if _has_binary(m) and (pure or built.get(m) != source_hash(m))}


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules' .py files ahead of the default finder (which prefers a .so)."""

    def __init__(self, modules: set[str]):
        self.modules = modules

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def install() -> None:
    """Called by meteor_core/__init__.py before any compiled module is imported."""
    stale = stale_modules(pure=bool(os.environ.get("METEOR_PURE")))
    if stale:
        sys.meta_path.insert(0, _SourceFinder(stale))


_source_modules: dict[str, object] = {}


def source_module(module: str):
    """``module`` run from its .py even where it runs compiled: loaded once more, under a name of
    its own (the compiled module stays what ``import`` gives). A compiled module hands it the
    input its C types cannot hold (see align/beam.py)."""
    if module not in _source_modules:
        spec = importlib.util.spec_from_file_location(module + "__source", source_path(module))
        loaded = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loaded)
        _source_modules[module] = loaded
    return _source_modules[module]


def twin(module: str):
    """The C twin ``module`` (of TWINS), imported, when it is built and up to date and
    METEOR_PURE is not set; else None (its pure module's own code runs)."""
    if os.environ.get("METEOR_PURE") or not _has_binary(module) or _built().get(module) != source_hash(module):
        return None
    try:
        return importlib.import_module(module)
    except ImportError:  # built for another Python, say
        return None


def compiled_modules() -> list[str]:
    """The modules of BUILT that this process runs compiled."""
    return [m for m in BUILT
            if m in sys.modules and str(getattr(sys.modules[m], "__file__", "")).endswith(
                tuple(importlib.machinery.EXTENSION_SUFFIXES))]


def status() -> tuple[list[str], dict[str, str]]:
    """Every module of COMPILED imported: those that run compiled, and why each other one runs
    from its .py."""
    import importlib

    for module in COMPILED:
        importlib.import_module(module)
    for module in TWINS:
        twin(module)
    running = compiled_modules()
    pure, built = bool(os.environ.get("METEOR_PURE")), _built()
    why = {}
    for module in BUILT:
        if module in running:
            continue
        if not _has_binary(module):
            why[module] = "not built"
        elif pure:
            why[module] = "METEOR_PURE is set"
        elif built.get(module) != source_hash(module):
            why[module] = "its source changed since the build"
        else:
            why[module] = "loaded from its .py"
    return running, why


def summary() -> str:
    """One line: whether the compiled core is active, and which modules run compiled."""
    running, why = status()
    short = [m.rsplit(".", 1)[-1] for m in running]
    if not running:
        reasons = sorted(set(why.values()))
        return f"compiled core: not active, pure Python ({'; '.join(reasons)})"
    line = f"compiled core: active, {len(running)} of {len(BUILT)} modules ({', '.join(short)})"
    if why:
        line += "; from .py: " + ", ".join(f"{m.rsplit('.', 1)[-1]} ({reason})" for m, reason in why.items())
    return line
