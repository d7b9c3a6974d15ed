"""Names reach a terminal as text: control characters and invisible direction marks in file or
system names are written as escapes in the CLI's text output and error messages, while the exact
data formats keep every character."""
import json
import subprocess
import sys

from conftest import ROOT

EVIL = "sys\x1b]0;pwned\x07\u202eA"  # retitles a terminal window; reverses what follows
SHOWN = "sys\\x1b]0;pwned\\x07\\u202eA"


def _meteor(*args):
    return subprocess.run([sys.executable, "-m", "meteor_core", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def _files(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\na dog ran home\n", encoding="utf-8")
    evil = tmp_path / f"{EVIL}.txt"
    evil.write_text("the cat sat on a mat\na dog ran\n", encoding="utf-8")
    other = tmp_path / "b.txt"
    other.write_text("a cat sat\nthe dog ran home\n", encoding="utf-8")
    return ref, evil, other


def test_text_output_shows_control_characters_as_escapes(tmp_path):
    ref, evil, other = _files(tmp_path)
    out = _meteor("compare", "--ref", ref, "--sys", evil, "--sys", other, "--no-synonyms", "--samples", 100)
    assert out.returncode == 0, out.stderr
    assert SHOWN in out.stdout
    assert not any(c in out.stdout for c in "\x1b\x07\u202e")


def test_error_messages_show_control_characters_as_escapes(tmp_path):
    ref, _, _ = _files(tmp_path)
    out = _meteor("--hyp", tmp_path / "gone\x1b[2J.txt", "--ref", ref)
    assert out.returncode == 2
    assert "gone\\x1b[2J.txt" in out.stderr and "\x1b" not in out.stderr
    assert "Traceback" not in out.stderr


def test_exact_formats_keep_every_character(tmp_path):
    ref, evil, other = _files(tmp_path)
    out = _meteor("compare", "--ref", ref, "--sys", evil, "--sys", other, "--no-synonyms", "--samples", 100,
                  "--format", "json")
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout  # JSON escapes it itself
    names = [row["system"] for row in json.loads(out.stdout)["systems"]]
    assert any(name.startswith(EVIL) for name in names)
