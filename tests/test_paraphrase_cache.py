"""The parsed copies of paraphrase tables kept on disk are bounded: only large tables get one
(an upload never does), and only the most recently used few are kept."""
import time

from meteor_core import jar_resources


def _table(path, phrase):
    path.write_text(f"0.5\n{phrase}\n{phrase} too\n0.25\nlarge cat\nbig cat\n", encoding="utf-8")
    return str(path)


def _copies(folder):
    return sorted(p.name for p in folder.glob("paraphrases-*.marshal"))


def test_a_small_table_leaves_no_copy(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("METEOR_EXPLORER_CACHE", str(cache))
    jar_resources.paraphrase_table.cache_clear()
    table = jar_resources.paraphrase_table(_table(tmp_path / "small.txt", "a cat"))
    assert table.pairs["a cat"] == ("a cat too",)
    assert not cache.exists() or _copies(cache) == []
    jar_resources.paraphrase_table.cache_clear()


def test_only_the_most_recently_used_copies_are_kept(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("METEOR_EXPLORER_CACHE", str(cache))
    monkeypatch.setattr(jar_resources, "PARSED_CACHE_MIN_BYTES", 0)
    monkeypatch.setattr(jar_resources, "KEPT_PARSED", 2)
    paths = [_table(tmp_path / f"t{k}.txt", f"phrase {k}") for k in range(4)]
    copy_of = {}
    for k, path in enumerate(paths):
        before = set(_copies(cache))
        jar_resources.paraphrase_table.cache_clear()
        assert jar_resources.paraphrase_table(path).pairs[f"phrase {k}"] == (f"phrase {k} too",)
        (copy_of[k],) = set(_copies(cache)) - before
        assert len(_copies(cache)) == min(k + 1, 2)
        time.sleep(0.02)  # distinct modification times
    assert set(_copies(cache)) == {copy_of[2], copy_of[3]}
    # Reading t2 again loads its copy and marks it recent: a new table then evicts t3's copy.
    jar_resources.paraphrase_table.cache_clear()
    assert jar_resources.paraphrase_table(paths[2]).pairs["phrase 2"] == ("phrase 2 too",)
    time.sleep(0.02)
    jar_resources.paraphrase_table.cache_clear()
    jar_resources.paraphrase_table(paths[0])
    assert set(_copies(cache)) == {copy_of[0], copy_of[2]}
    jar_resources.paraphrase_table.cache_clear()
