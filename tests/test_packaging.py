"""`pip install ".[app]"` into a fresh venv gives the package (with no other project's data files:
Meteor 1.5's lists are read from the user's jar), the `meteor` command, the explorer, which
`meteor app` starts from any folder, and the compiled core wherever a C compiler is present (else
pure Python, with a one-line notice and no compiler warnings).

Offline and quick: the fresh venv is made without pip and sees the test run's own site-packages
through a .pth file (so pip, setuptools and the dependencies are already there: nothing is
downloaded), and pip builds with --no-build-isolation from a copy of the tracked sources (the
checkout gets no build/ or egg-info)."""
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from browser import CHROMIUM, browser_page, require_browser, streamlit_server
from conftest import DEMO, ROOT
from meteor_core import _accel

# The first test builds the whole compiled core in a fresh venv (about 27 C modules, two at a
# time): several minutes on a loaded 2-core machine, past pytest.ini's 300 s for one test.
pytestmark = pytest.mark.timeout(1500)


def _run(args, cwd, env_extra=None, **kw):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "METEOR_PURE")}
    env.update(env_extra or {})
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=1200, **kw)


def _install(tmp, env_extra=None):
    """`pip install -v ".[app]"` of a copy of the sources into a fresh venv: (venv dir, pip's output)."""
    source = tmp / "src"
    for folder in ("meteor_core", "app_pages", "components", "demo"):
        shutil.copytree(ROOT / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "_accel_manifest.json"))
    for name in ("pyproject.toml", "setup.py", "README.md", "app.py"):
        shutil.copy(ROOT / name, source / name)
    venv = tmp / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp)
    (Path(purelib.stdout.strip()) / "reuse-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = _run([str(python), "-m", "pip", "install", "-v", "--no-index", "--no-build-isolation", "--no-cache-dir",
                "--disable-pip-version-check", f"{source}[app]"], cwd=tmp, env_extra=env_extra)
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    return venv, pip.stdout + pip.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv dir, work dir, pip's output) after `pip install .` from a copy of the sources."""
    tmp = tmp_path_factory.mktemp("pkg")
    venv, output = _install(tmp)
    return venv, tmp, output


COMPILER_WARNING = re.compile(r"\.c:\d+:\d+: warning|warning: .*\[-W")


def test_the_package_is_installed_without_data_files(installed):
    venv, tmp, _ = installed
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
    # no data files (Meteor 1.5's function words and prefixes come from the user's jar): only the
    # compiled modules, their C types, the C twins' sources and the hashes of what they were compiled from
    assert [name for name in eval(others) if not re.fullmatch(r".*\.(so|pxd|pyx)|_accel_manifest\.json", name)] == []
    assert {"app", "dask", "meteor15", "metrics"} <= set(eval(extras))
    installed_version, package_version = versions.split()
    assert installed_version == package_version


def test_meteor_command_equals_python_m_meteor_core(installed):
    venv, tmp, _ = installed
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


def _wheel_names(tmp: Path) -> set[str]:
    """The files of the wheel built from the copied sources."""
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-index", "--no-build-isolation", "--no-deps", "--no-cache-dir",
                  "--disable-pip-version-check", "-w", str(tmp / "wheel"), str(tmp / "src")], cwd=tmp)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = (tmp / "wheel").glob("meteor_explorer-*.whl")
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


def test_the_wheel_carries_the_explorer_inside_its_own_package(installed):
    _, tmp, _ = installed
    names = _wheel_names(tmp)
    expected = {"meteor_explorer/app.py"}
    for folder in ("app_pages", "components", "demo"):
        expected |= {f"meteor_explorer/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / folder).rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts}
    assert expected <= names, sorted(expected - names)
    assert any(n.startswith("meteor_explorer/demo/ted-slk-eng/") for n in names)
    # every package of meteor_core (a new subpackage must be listed in pyproject.toml)
    for init in (ROOT / "meteor_core").rglob("__init__.py"):
        assert f"{init.relative_to(ROOT).as_posix()}" in names
    # no generic top-level names in site-packages: every file is under the project's own packages
    tops = {n.split("/")[0] for n in names}
    assert tops == {"meteor_core", "meteor_explorer", next(t for t in tops if t.endswith(".dist-info"))}


def test_meteor_app_starts_the_installed_explorer_from_any_folder(installed):
    """`meteor app` from a folder far from any checkout: streamlit serves the installed copy;
    with a browser, the page loads and shows the explorer."""
    venv, tmp, _ = installed
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    with streamlit_server(launch=[str(venv / "bin" / "meteor"), "app"], cwd=elsewhere, env=env) as (url, proc):
        # the same process (exec), now streamlit running the installed app.py
        command = Path(f"/proc/{proc.pid}/cmdline").read_bytes().split(b"\0")
        script = command[command.index(b"run") + 1]
        assert b"streamlit" in command and script.startswith(str(venv).encode())
        assert script.endswith(b"meteor_explorer/app.py")
        if os.path.exists(CHROMIUM) or os.environ.get("METEOR_REQUIRE_BROWSER") == "1":  # (else: served is enough)
            require_browser()
            with browser_page() as (page, errors):
                page.goto(url)
                page.wait_for_selector("h1", timeout=60_000)
                assert page.title() == "METEOR Explorer"
                # the compare page opens on the bundled TED demo: its data came along
                page.goto(url + "/compare")
                page.wait_for_function("() => document.body.innerText.includes('sys2')", timeout=120_000)
                assert not page.locator("[data-testid='stException']").count() and not errors


def test_meteor_app_without_streamlit_says_how_to_install_it(tmp_path):
    """A venv with meteor_core only (no streamlit visible): one line naming the extra."""
    venv = tmp_path / "bare"
    assert _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path).returncode == 0
    out = _run([str(venv / "bin" / "python"), "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                "from meteor_core.cli import main; sys.exit(main(['app']))", str(ROOT)], cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip() == ("error: the explorer needs streamlit, which is not installed: "
                                  "pip install 'meteor-explorer[app]'")


def test_the_installed_package_runs_compiled(installed):
    """With a C compiler (here), pip builds the compiled core: every accelerated module of the
    installed copy (not the checkout) runs compiled, --version says so, and the build printed
    no compiler warning."""
    venv, tmp, output = installed
    probe = _run([str(venv / "bin" / "python"), "-c",
                  "import meteor_core, json; from meteor_core import _accel;"
                  "running, why = _accel.status();"
                  "print(json.dumps([meteor_core.__file__, running, why, "
                  "[__import__(m, fromlist=['_']).__file__ for m in running]]))"], cwd=tmp)
    assert probe.returncode == 0, probe.stderr
    where, running, why, files = json.loads(probe.stdout)
    assert where.startswith(str(venv)) and why == {}
    built = len(_accel.BUILT)
    assert len(running) == built and all(f.startswith(str(venv)) and f.endswith(".so") for f in files)
    version = _run([str(venv / "bin" / "meteor"), "--version"], cwd=tmp)
    assert version.returncode == 0 and f"compiled core: active, {built} of {built} modules" in version.stdout
    assert f"[accel] compiled {built} modules with Cython" in output
    assert not COMPILER_WARNING.search(output), COMPILER_WARNING.search(output).group(0)


def test_without_a_compiler_the_install_is_pure_python_with_one_notice(tmp_path):
    """A C compiler that fails (CC=false): the install still succeeds, pure Python, with one line
    that says so and no compiler output."""
    venv, output = _install(tmp_path, {"CC": "false", "LDSHARED": "false"})
    notices = [line for line in output.splitlines() if "[accel]" in line]
    assert len(notices) == 1 and "could not be built" in notices[0] and "pure Python" in notices[0], notices
    version = _run([str(venv / "bin" / "meteor"), "--version"], cwd=tmp_path)
    assert version.returncode == 0 and "compiled core: not active, pure Python (not built)" in version.stdout
    scored = _run([str(venv / "bin" / "python"), "-c",
                   "from meteor_core import score; print(round(score('the cat sat', ['the cat sat']).score, 4))"],
                  cwd=tmp_path)
    assert scored.returncode == 0 and scored.stdout.strip() == "0.9815"


def test_an_installed_module_edited_after_the_build_runs_from_its_source(installed):
    """The hash manifest works in an installed package too: a .py edited after the install
    runs from its .py, and so does each C twin that mirrors it (_pair_stats mirrors stats's
    formula); the others stay compiled. (Last: it edits the installed copy.)"""
    venv, tmp, _ = installed
    probe = "import json; from meteor_core import _accel; print(json.dumps(_accel.status()))"
    where = _run([str(venv / "bin" / "python"), "-c", "import meteor_core.stats as s; print(s.__file__)"], cwd=tmp)
    stats = Path(where.stdout.strip()).with_name("stats.py")
    stats.write_text(stats.read_text(encoding="utf-8") + "\n# edited after the build\n", encoding="utf-8")
    out = _run([str(venv / "bin" / "python"), "-c", probe], cwd=tmp)
    running, why = json.loads(out.stdout)
    stale = {"meteor_core.stats"} | {twin for twin, mirrored in _accel.TWINS.items() if "meteor_core.stats" in mirrored}
    assert stale == {"meteor_core.stats", "meteor_core._pair_stats"}
    assert why == dict.fromkeys(stale, "its source changed since the build")
    assert len(running) == len(_accel.BUILT) - len(stale)
