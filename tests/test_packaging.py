"""`pip install .` into a fresh venv gives the package (with no other project's data files: Meteor
1.5's lists are read from the user's jar) and the `meteor` command.

Offline and quick: the fresh venv is made without pip and sees the test run's own site-packages
through a .pth file (so pip, setuptools and the dependencies are already there: nothing is
downloaded), and pip builds with --no-build-isolation from a copy of the tracked sources (the
checkout gets no build/ or egg-info)."""
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import DEMO, ROOT


def _run(args, cwd, **kw):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=240, **kw)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv dir, work dir) after `pip install .` from a copy of the sources."""
    tmp = tmp_path_factory.mktemp("pkg")
    source = tmp / "src"
    shutil.copytree(ROOT / "meteor_core", source / "meteor_core", ignore=shutil.ignore_patterns("__pycache__", "*.so", "_accel_manifest.json"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    venv = tmp / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp)
    (Path(purelib.stdout.strip()) / "reuse-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = _run([str(python), "-m", "pip", "install", "--no-index", "--no-build-isolation", "--no-cache-dir",
                "--disable-pip-version-check", str(source)], cwd=tmp)
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    return venv, tmp


def test_the_package_is_installed_without_data_files(installed):
    venv, tmp = installed
    probe = _run([str(venv / "bin" / "python"), "-c",
                  "import meteor_core, importlib.metadata as md; from pathlib import Path;"
                  "print(meteor_core.__file__);"
                  "print(sorted(str(p.relative_to(Path(meteor_core.__file__).parent)) for p in "
                  "Path(meteor_core.__file__).parent.rglob('*') if p.is_file() and p.suffix not in ('.py', '.pyc')));"
                  "print(sorted(md.metadata('meteor-explorer').get_all('Provides-Extra')));"
                  "print(md.version('meteor-explorer'), meteor_core.__version__)"], cwd=tmp)
    assert probe.returncode == 0, probe.stderr
    where, others, extras, versions = probe.stdout.splitlines()
    assert where.startswith(str(venv))  # the installed copy, not the checkout
    assert eval(others) == []  # no data files (Meteor 1.5's function words and prefixes come from the user's jar)
    assert {"app", "dask", "meteor15", "metrics"} <= set(eval(extras))
    installed_version, package_version = versions.split()
    assert installed_version == package_version


def test_meteor_command_equals_python_m_meteor_core(installed):
    venv, tmp = installed
    meteor = venv / "bin" / "meteor"
    helped = _run([str(meteor), "--help"], cwd=tmp)
    assert helped.returncode == 0 and "usage: meteor" in helped.stdout
    for command in ("score", "compare", "explain", "setup"):
        assert command in helped.stdout
    # A score through the installed command (meteor15: the jar's lists must be found) equals the
    # checkout's `python -m meteor_core` on the same files.
    hyp, ref = tmp / "hyp.txt", tmp / "ref.txt"
    hyp.write_text("\n".join((DEMO / "ted.sys1.detok.eng").read_text(encoding="utf-8").splitlines()[:20]) + "\n")
    ref.write_text("\n".join((DEMO / "ted.ref.detok.eng").read_text(encoding="utf-8").splitlines()[:20]) + "\n")
    args = ["--hyp", str(hyp), "--ref", str(ref), "--preset", "meteor15"]
    ours = _run([str(meteor), *args], cwd=tmp)
    checkout = _run([sys.executable, "-m", "meteor_core", *args], cwd=ROOT)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout.startswith("METEOR = ") and "signature meteor|preset:meteor15|" in ours.stdout
    assert ours.stdout == checkout.stdout
