"""`meteor app [streamlit options]`: finds the explorer and hands every option to streamlit
(tests/test_packaging.py starts it for real from an installed copy)."""
import os
import sys

import pytest

from conftest import ROOT
from meteor_core.cli import app, main


@pytest.fixture
def execs(monkeypatch):
    """The command `meteor app` would exec, caught instead of run."""
    caught = []

    def fake_exec(path, command, env):
        caught.append((path, command, env))
        raise SystemExit(0)

    monkeypatch.setattr(os, "execve", fake_exec)
    return caught


def test_in_a_checkout_it_runs_the_checkouts_app(execs, monkeypatch):
    monkeypatch.delenv("PYTHONMALLOC", raising=False)
    assert app.app_script() == ROOT / "app.py"
    with pytest.raises(SystemExit):
        main(["app", "--server.port", "8600", "--server.headless", "true", "--theme.base=dark"])
    (path, command, env), = execs
    assert env["PYTHONMALLOC"] == "malloc"  # the C allocator, which gives a closed session's memory back
    assert env["PATH"] == os.environ["PATH"]
    assert path == sys.executable
    assert command == [sys.executable, str(ROOT / "serve.py"), "run", str(ROOT / "app.py"), "--browser.gatherUsageStats",
                       "false", "--server.port", "8600", "--server.headless", "true", "--theme.base=dark"]


def test_an_app_without_serve_py_runs_under_plain_streamlit(tmp_path):
    (tmp_path / "app.py").write_text("")
    assert app.streamlit_command(tmp_path / "app.py", ["--server.port", "1"]) == [
        sys.executable, "-m", "streamlit", "run", str(tmp_path / "app.py"), "--browser.gatherUsageStats", "false",
        "--server.port", "1"]


def test_other_subcommands_still_refuse_unknown_options(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["explain", "--server.port", "8600"])
    assert caught.value.code == 2 and "unrecognized arguments: --server.port" in capsys.readouterr().err


def test_a_missing_explorer_or_streamlit_is_one_line(monkeypatch, capsys, execs):
    monkeypatch.setattr(app, "app_script", lambda: None)
    assert main(["app"]) == 2
    assert capsys.readouterr().err == ("error: the explorer's pages are not installed beside meteor_core: "
                                       "pip install 'meteor-explorer[app]'\n")
    real_find_spec = app.importlib.util.find_spec
    monkeypatch.setattr(app.importlib.util, "find_spec",
                        lambda name, *a: None if name == "streamlit" else real_find_spec(name, *a))
    assert main(["app", "--server.port", "1"]) == 2
    assert "needs streamlit, which is not installed: pip install 'meteor-explorer[app]'" in capsys.readouterr().err
    assert execs == []


def test_an_allocator_the_caller_chose_is_kept(execs, monkeypatch):
    monkeypatch.setenv("PYTHONMALLOC", "pymalloc_debug")
    with pytest.raises(SystemExit):
        main(["app"])
    (_, _, env), = execs
    assert env["PYTHONMALLOC"] == "pymalloc_debug"
