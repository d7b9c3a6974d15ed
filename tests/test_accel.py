"""The optional compiled accelerator: the same results as the pure-Python modules, and a module
edited since the build runs from its .py."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from meteor_core import _accel

BUILT = all(_accel._has_binary(m) for m in _accel.COMPILED)
needs_build = pytest.mark.skipif(not BUILT and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                 reason="compiled modules not built (python build_accel.py)")

# Scores the whole bundled TED set (1,200 segments x 2 systems) with a preset and prints every
# result's to_dict, one JSON line each, and which modules ran compiled.
SCORE_ALL = """
import json, sys
from meteor_core import MeteorConfig, _accel, score, scorer
import meteor_core.analysis.ter  # not on the scoring path, but built too: every built module must load compiled
from conftest import ted_lines
ref = ted_lines("ref")
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
@pytest.mark.parametrize("preset", ["meteor2005", "nltk", "meteor15"])
def test_compiled_and_pure_give_identical_results_on_the_whole_set(preset):
    compiled, modules = _score_all(preset, pure=False)
    pure, none = _score_all(preset, pure=True)
    assert sorted(modules) == sorted(_accel.COMPILED) and none == []
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
