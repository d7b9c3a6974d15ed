"""Paraphrase tables: read bounded whatever the path names, looked up as the jar looks them up, and
parsed once: a large table's parsed copy is mapped by later processes, only the most recently used
few copies are kept, and an upload (small) never leaves one."""
import gzip
import os
import subprocess
import sys
import time

import pytest

from meteor_core import jar_resources, paraphrase


def _table(path, phrase, extra=""):
    path.write_text(f"0.5\n{phrase}\n{phrase} too\n0.25\nlarge cat\nbig cat\n0.2\nlarge cat\nhuge\n{extra}", encoding="utf-8")
    return str(path)


def _copies(folder):
    return sorted(p.name for p in folder.glob("paraphrases-*.table"))


@pytest.fixture(autouse=True)
def _fresh():
    paraphrase.load.cache_clear()
    yield
    paraphrase.load.cache_clear()


def test_what_a_table_keeps_of_its_lookups_is_bounded_and_changes_no_answer(tmp_path, monkeypatch):
    """Lookups are kept (the same phrases recur from segment to segment), with and without a
    limit, up to FOUND_PHRASES phrases and FOUND_PARAPHRASES paraphrases."""
    monkeypatch.setattr(paraphrase, "FOUND_PHRASES", 3)
    monkeypatch.setattr(paraphrase, "FOUND_PARAPHRASES", 4)
    table = jar_resources.paraphrase_table(_table(tmp_path / "t.txt", "a cat"))
    for _ in range(3):
        for phrase in ("large cat", "a cat", "unknown", "large", "cat"):
            assert table.lookup(phrase) == {"large cat": ("big cat", "huge"), "a cat": ("a cat too",)}.get(phrase, ())
            assert table.lookup(phrase, limit=1) == table.lookup(phrase)[:1]
            assert len(table._found) <= 3 and table._found_size <= 4 + 2


def test_lookups_keep_the_files_order_and_the_jars_word_splitting(tmp_path):
    table = jar_resources.paraphrase_table(_table(tmp_path / "t.txt", "a\tcat", "0.1\n  a   cat \nfeline\n"))
    assert table.lookup("large cat") == ("big cat", "huge")
    assert table.lookup("a cat") == ("a cat too", "feline")  # tabs and runs of spaces: one space
    assert table.lookup("a  cat") == () and table.lookup("unknown") == ()
    assert table.count("large cat") == 2 and table.lookup("large cat", limit=1) == ("big cat",)
    assert table.max_words == 2 and table.pairs == 4 and table.phrases == 2
    assert table.paths("large cat sat".split(), 0) == [(2, "big cat"), (2, "huge")]
    assert dict(table.items()) == {"a cat": ("a cat too", "feline"), "large cat": ("big cat", "huge")}


def test_gzip_and_plain_text_read_alike(tmp_path):
    plain = _table(tmp_path / "t.txt", "a dog")
    packed = tmp_path / "t.gz"
    packed.write_bytes(gzip.compress(open(plain, "rb").read()))
    assert dict(paraphrase.parse(plain).items()) == dict(paraphrase.parse(str(packed)).items())


@pytest.mark.parametrize("content,message", [
    (b"0.5\nonly a phrase\n", "ends inside an entry"),
    ("0.5\ncaf\xe9\nx\n".encode("latin-1"), "not UTF-8"),
    (b"\x1f\x8b\x08\x00garbage", "not a readable"),
])
def test_bad_tables_are_one_clear_error(tmp_path, content, message):
    path = tmp_path / "bad.gz"
    path.write_bytes(content)
    with pytest.raises(paraphrase.TableError, match=message):
        paraphrase.parse(str(path))


def test_reading_is_bounded_whatever_the_path_names(monkeypatch):
    """/dev/zero is one endless line: refused at the line cap, never read to the end."""
    with pytest.raises(paraphrase.TableError, match="line longer than"):
        paraphrase.parse("/dev/zero")
    monkeypatch.setattr(paraphrase, "MAX_TABLE_BYTES", 1000)
    with pytest.raises(paraphrase.TableError, match="over"):
        paraphrase.parse("/dev/zero")


def test_the_byte_cap_holds_for_many_short_lines(tmp_path, monkeypatch):
    path = tmp_path / "big.txt"
    path.write_text("0.5\na\nb\n" * 1000, encoding="utf-8")
    monkeypatch.setattr(paraphrase, "MAX_TABLE_BYTES", 3000)
    with pytest.raises(paraphrase.TableError, match="over"):
        paraphrase.parse(str(path))
    monkeypatch.setattr(paraphrase, "MAX_TABLE_BYTES", 1 << 20)
    monkeypatch.setattr(paraphrase, "MAX_PAIRS", 10)
    with pytest.raises(paraphrase.TableError, match="pairs"):
        paraphrase.parse(str(path))


def test_a_small_table_leaves_no_copy(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("METEOR_EXPLORER_CACHE", str(cache))
    table = jar_resources.paraphrase_table(_table(tmp_path / "small.txt", "a cat"))
    assert table.lookup("a cat") == ("a cat too",)
    assert not cache.exists() or _copies(cache) == []


def test_a_large_tables_copy_is_mapped_by_the_next_process(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("METEOR_EXPLORER_CACHE", str(cache))
    monkeypatch.setattr(paraphrase, "CACHED_MIN_BYTES", 0)
    path = _table(tmp_path / "t.txt", "a cat")
    first = paraphrase.load(path)
    assert first.lookup("large cat") == ("big cat", "huge") and len(_copies(cache)) == 1
    code = ("import sys; from meteor_core import paraphrase; paraphrase.CACHED_MIN_BYTES = 0; "
            "t = paraphrase.load(sys.argv[1]); print(paraphrase.is_parsed(sys.argv[1]), t.lookup('large cat'), "
            "hasattr(t, 'parse_seconds'))")
    out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True,
                         env={**os.environ, "METEOR_EXPLORER_CACHE": str(cache)}, cwd=os.getcwd(), check=True)
    assert out.stdout.split("\n")[0] == "True ('big cat', 'huge') False"  # mapped, not parsed again


def test_only_the_most_recently_used_copies_are_kept(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("METEOR_EXPLORER_CACHE", str(cache))
    monkeypatch.setattr(paraphrase, "CACHED_MIN_BYTES", 0)
    monkeypatch.setattr(paraphrase, "KEPT_PARSED", 2)
    cache.mkdir()
    (cache / "paraphrases-0123456789abcdef.marshal").write_bytes(b"an earlier format")
    paths = [_table(tmp_path / f"t{k}.txt", f"phrase {k}") for k in range(4)]
    copy_of = {}
    for k, path in enumerate(paths):
        before = set(_copies(cache))
        paraphrase.load.cache_clear()
        assert paraphrase.load(path).lookup(f"phrase {k}") == (f"phrase {k} too",)
        (copy_of[k],) = set(_copies(cache)) - before
        assert len(_copies(cache)) == min(k + 1, 2)
        time.sleep(0.02)  # distinct modification times
    assert set(_copies(cache)) == {copy_of[2], copy_of[3]}
    assert not list(cache.glob("*.marshal"))
    # Reading t2 again maps its copy and marks it recent: a new table then evicts t3's copy.
    paraphrase.load.cache_clear()
    assert paraphrase.load(paths[2]).lookup("phrase 2") == ("phrase 2 too",)
    time.sleep(0.02)
    paraphrase.load.cache_clear()
    paraphrase.load(paths[0])
    assert set(_copies(cache)) == {copy_of[0], copy_of[2]}


def test_the_jars_table_equals_a_plain_reading_of_it():
    """Every phrase of the jar's English table, looked up in the compact form, gives what a plain
    reading of the file gives (in file order); and it loads fast from its parsed copy."""
    try:
        path = str(jar_resources.paraphrase_path("en"))
    except jar_resources.JarMissingError:
        pytest.skip("the jar's paraphrase table is not here")
    table = paraphrase.load(path)
    expected: dict[str, list[str]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        lines = iter(f)
        for k, _probability in enumerate(lines):
            phrase, para = " ".join(next(lines).split()), " ".join(next(lines).split())
            expected.setdefault(phrase, []).append(para)
            if k >= 300_000:  # a fifth of the file is plenty (the rest reads the same way)
                break
    for phrase, paras in list(expected.items())[:-1]:  # (the last phrase may continue past the sample)
        assert table.lookup(phrase)[:len(paras)] == tuple(paras), phrase
    started = time.perf_counter()
    paraphrase.load.cache_clear()
    paraphrase.load(path)
    assert time.perf_counter() - started < 1.0  # generous: a mapped copy loads in milliseconds
