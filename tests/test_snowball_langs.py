"""meteor_core.snowball_langs gives the Meteor 1.5 jar's stems, word for word: against the jar
itself where Java is installed (tests/jar_oracle.py), and by hand-checked stems, the Java runtime's
own search and properties everywhere."""
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as hs

import jar_oracle
from conftest import ROOT
from meteor_core import snowball_langs
from meteor_core.snowball_langs import _runtime
from meteor_core.snowball_langs._runtime import AmongTable, from_java_chars, to_java_chars

LANGUAGES = snowball_langs.LANGUAGES


def _require_java() -> None:
    reason = jar_oracle.java_status()
    if reason is not None:
        if jar_oracle.java_required():
            pytest.fail(f"METEOR_REQUIRE_JAVA=1 but {reason}")
        pytest.skip(reason)


# ---------------------------------------------------------------------------------------------
# Against the jar


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_stems_as_the_jar_stems_it(language):
    _require_java()
    pytest.importorskip("wordfreq", reason="wordfreq (the word lists) is not installed")
    words = jar_oracle.real_words(language)
    assert len(words) > 20_000
    words += jar_oracle.made_up_words(language, words)
    expected = jar_oracle.jar_stems(language, words)
    stem = snowball_langs.stemmer(language)
    mismatches = [(w, want, stem(w)) for w, want in zip(words, expected) if stem(w) != want]
    assert not mismatches, (f"{len(mismatches)} of {len(words)} words differ (word, jar, port), first ones:\n"
                            + "\n".join(map(repr, mismatches[:20])))


def test_the_oracle_speaks_utf8_both_ways_and_does_not_lower_case():
    _require_java()
    words = ["häuser", "Häuser", "HÄUSER", "straße", "😀häuser", "ёлка", "日本"]
    # (German's postlude turns the prelude's marker "U" back into "u", and so any "U" of the word)
    assert jar_oracle.jar_stems("german", words) == ["haus", "Haus", "HÄuSER", "strass", "😀haus", "ёлка", "日本"]


def test_the_oracle_refuses_what_the_jars_stemmer_main_cannot_pass_through():
    for word in ("", "2010", "1,5", "-", "3.14-2", "a b", "a\tb", "\x01a", "a\ud800"):
        assert not jar_oracle.passes_through(word)
        with pytest.raises(ValueError):
            jar_oracle.jar_stems("german", ["haus", word])
    assert jar_oracle.passes_through("covid-19") and jar_oracle.passes_through("😀") and jar_oracle.passes_through("١٢a")


# ---------------------------------------------------------------------------------------------
# Without Java: stems checked against the jar by hand, once

JAR_STEMS = {
    "danish": {"fiskerne": "fisk", "løst": "løst", "hedens": "hed", "undervisningen": "undervisning",
               "HUSENE": "HUSENE", "hmmm": "hmmm"},
    "dutch": {"lichamelijkheden": "licham", "opheffen": "opheff", "kinderen": "kinder", "gevaarlijke": "gevar",
              "café": "caf"},
    "english": {"realization": "realiz", "REALIZATION": "REALIZATION", "running": "run", "skies": "sky",
                "generalization": "general", "separativeed": "separative"},
    "finnish": {"taloseen": "talos", "kaupungeissa": "kaupung", "vihreiden": "vihreid", "voitaisiin": "voitais",
                "kirjoittaa": "kirjoit"},
    "french": {"continuellement": "continuel", "momentanément": "momentan", "aiguë": "aiguë", "éd": "ed",
               "nationalités": "national"},
    "german": {"häuser": "haus", "Häuser": "Haus", "straße": "strass", "ergebnisse": "ergebniss",
               "aufeinanderfolgenden": "aufeinanderfolg"},
    "hungarian": {"testület": "testül", "esszé": "esz", "oké": "oke", "lehetőségeket": "lehetőség",
                  "házakban": "ház"},
    "italian": {"esperienza": "esperient", "abbandonata": "abbandon", "gattini": "gattin", "perché": "perc"},
    "norwegian": {"havnedistrikter": "havnedistrikt", "hetene": "het", "undersøkelsene": "undersøk", "ERE": "ERE"},
    "portuguese": {"segurança": "seguranc", "revolução": "revoluçã", "cantaríamos": "cant", "informações": "inform",
                   "cãozinhos": "cãozinh"},
    "romanian": {"variația": "variaț", "variaţia": "variaţ", "frumoasele": "frumoas", "copiilor": "cop",
                 "învăţământ": "învăţământ"},
    "russian": {"всё": "всё", "её": "её", "книгами": "книг", "красивейший": "красив", "бежавшая": "бежа"},
    "spanish": {"informacion": "informacion", "información": "inform", "chicas": "chic", "corriendo": "corr",
                "cantaríamos": "cant"},
    "swedish": {"klokheten": "klok", "fåglarna": "fågl", "springande": "spring", "undersökningar": "undersökning",
                "ÄPPLEN": "ÄPPLEN"},
    "turkish": {"kitaplarımızdan": "kitap", "evlerimizde": "ev", "gözlükçülük": "gözlükçülük",
                "İstanbul": "İstanbul", "çocukların": "çocuk", "ağaçlar": "ağaç"},
}
# Positions are Java's UTF-16 code units: an emoji is two of them (checked against the jar).
JAR_STEMS_OUTSIDE_BMP = {"danish": {"😀😀ene": "😀😀en", "😀ene": "😀en"}}


@pytest.mark.parametrize("language", LANGUAGES)
def test_known_stems(language):
    stem = snowball_langs.stemmer(language)
    cases = {**JAR_STEMS[language], **JAR_STEMS_OUTSIDE_BMP.get(language, {})}
    assert {w: stem(w) for w in cases} == cases


def test_the_known_stems_are_the_jars():
    _require_java()
    for language in LANGUAGES:
        cases = {**JAR_STEMS[language], **JAR_STEMS_OUTSIDE_BMP.get(language, {})}
        assert dict(zip(cases, jar_oracle.jar_stems(language, list(cases)))) == cases, language


def test_finnish_endings_with_a_routine_never_match():
    """In the jar, -seen (condition LONG) and -den, -tten, -siin (condition VI) are never taken as
    such (see _runtime): the word loses only its -n. NLTK, which runs the conditions, gives
    "tilant", "huone", "vihr"."""
    stem = snowball_langs.stemmer("finnish")
    assert [stem(w) for w in ("tilanteeseen", "huoneeseen", "vihreiden")] == ["tilantees", "huonees", "vihreid"]


# ---------------------------------------------------------------------------------------------
# The package


def test_stemmer_names_the_choices_for_an_unknown_language():
    with pytest.raises(ValueError, match="choose one of danish, dutch.*turkish"):
        snowball_langs.stemmer("klingon")
    with pytest.raises(ValueError):
        snowball_langs.stemmer("German")


def test_a_language_is_imported_on_its_first_lookup_and_nltk_never():
    code = ("import sys; from meteor_core import snowball_langs as s; "
            "before = sorted(m for m in sys.modules if m.startswith('meteor_core.snowball_langs.')); "
            "print(s.stemmer('dutch')('kinderen'), before, "
            "sorted(m for m in sys.modules if m.startswith('meteor_core.snowball_langs.')), "
            "any(m.split('.')[0] == 'nltk' for m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=True).stdout.strip()
    assert out == ("kinder [] ['meteor_core.snowball_langs._runtime', 'meteor_core.snowball_langs.dutch'] False")


def test_the_generated_modules_are_what_the_translator_makes_of_the_java():
    repo = os.environ.get("METEOR_REPO", "/work/.mirror/cmu-mtlab+meteor/repo/.git")
    if not Path(repo).exists():
        pytest.skip("the Meteor repository's Java source is not here (set METEOR_REPO to its git directory)")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import snowball_java_to_python as translator
    finally:
        sys.path.remove(str(ROOT / "tools"))
    for language in LANGUAGES:
        made = translator.translate(language, translator.read_java(language, None))
        assert made == (ROOT / "meteor_core" / "snowball_langs" / f"{language}.py").read_text(encoding="utf-8"), language


# ---------------------------------------------------------------------------------------------
# The runtime: Java's find_among, step for step, against the table lookup that replaces it


def java_find_among_b(current: str, cursor: int, limit_backward: int, v: tuple) -> tuple[int, int]:
    """SnowballProgram.find_among_b as the jar runs it: (result, cursor after)."""
    i, j, c, lb = 0, len(v), cursor, limit_backward
    common_i = common_j = 0
    first_key_inspected = False
    while True:
        k = i + ((j - i) >> 1)
        diff = 0
        common = min(common_i, common_j)
        w = v[k]
        for i2 in range(len(w.s) - 1 - common, -1, -1):
            if c - common == lb:
                diff = -1
                break
            diff = ord(current[c - 1 - common]) - ord(w.s[i2])
            if diff != 0:
                break
            common += 1
        if diff < 0:
            j, common_j = k, common
        else:
            i, common_i = k, common
        if j - i <= 1:
            if i > 0 or j == i or first_key_inspected:
                break
            first_key_inspected = True
    while True:
        w = v[i]
        if common_i >= len(w.s):
            cursor = c - len(w.s)
            if not w.method:  # (a routine's call fails in the jar: see _runtime)
                return w.result, cursor
        i = w.substring_i
        if i < 0:
            return 0, cursor


def java_find_among(current: str, cursor: int, limit: int, v: tuple) -> tuple[int, int]:
    """SnowballProgram.find_among (forwards) as the jar runs it."""
    i, j, c, l = 0, len(v), cursor, limit
    common_i = common_j = 0
    first_key_inspected = False
    while True:
        k = i + ((j - i) >> 1)
        diff = 0
        common = min(common_i, common_j)
        w = v[k]
        for i2 in range(common, len(w.s)):
            if c + common == l:
                diff = -1
                break
            diff = ord(current[c + common]) - ord(w.s[i2])
            if diff != 0:
                break
            common += 1
        if diff < 0:
            j, common_j = k, common
        else:
            i, common_i = k, common
        if j - i <= 1:
            if i > 0 or j == i or first_key_inspected:
                break
            first_key_inspected = True
    while True:
        w = v[i]
        if common_i >= len(w.s):
            cursor = c + len(w.s)
            if not w.method:
                return w.result, cursor
        i = w.substring_i
        if i < 0:
            return 0, cursor


def _all_tables():
    """(name, table, backwards) for every among table of every stemmer, in the direction the
    stemmer searches it (Java sorts a table for one direction only)."""
    for language in LANGUAGES:
        snowball_langs.stemmer(language)
        module = sys.modules[f"meteor_core.snowball_langs.{language}"]
        source = (Path(module.__file__).parent / f"{language}.py").read_text(encoding="utf-8")  # (its __file__ may be a .so)
        for name, value in vars(module).items():
            if isinstance(value, AmongTable):
                directions = set(re.findall(rf"find_among(_b)?\({name}\)", source))
                assert len(directions) == 1, (language, name, directions)
                yield f"{language}.{name}", value, directions == {"_b"}


def test_the_table_lookup_finds_what_javas_binary_search_finds():
    """Brute force: every entry of every table, cut and extended, at every cursor and limit."""
    rng = random.Random(1)
    checked = 0
    for name, table, backwards in _all_tables():
        strings = [e.s for e in table.entries]
        alphabet = sorted(set("".join(strings))) + ["x", "\ud83d"]
        texts = set(strings)
        for s in strings:
            texts.update({s[1:], s[:-1], "x" + s, s + "x", rng.choice(strings) + s, s + rng.choice(strings)})
        texts.update("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(200))
        for text in texts:
            for cursor in range(len(text) + 1):
                program = _runtime.SnowballProgram(text)
                program.cursor = cursor
                if backwards:
                    for edge in {0, max(0, cursor - 2), cursor}:
                        program.cursor, program.limit_backward = cursor, edge
                        got = program.find_among_b(table), program.cursor
                        assert got == java_find_among_b(text, cursor, edge, table.entries), (name, text, cursor, edge)
                else:
                    for edge in {len(text), min(len(text), cursor + 2), cursor}:
                        program.cursor, program.limit = cursor, edge
                        got = program.find_among(table), program.cursor
                        assert got == java_find_among(text, cursor, edge, table.entries), (name, text, cursor, edge)
                checked += 1
    assert checked > 100_000


def test_a_walk_through_routine_entries_that_ends_on_none_leaves_the_cursor_as_java_does():
    table = AmongTable(_runtime.Among("n", -1, 7, ""), _runtime.Among("den", 0, -1, "r_VI"),
                       _runtime.Among("xen", -1, -1, "r_VI"))
    for text, result, cursor in (("maiden", 7, 5), ("xen", 0, 0), ("en", 7, 1), ("ab", 0, 2)):
        program = _runtime.SnowballProgram(text)
        program.cursor = len(text)
        assert (program.find_among_b(table), program.cursor) == (result, cursor)
        assert java_find_among_b(text, len(text), 0, table.entries) == (result, cursor)


def test_java_chars_split_characters_outside_the_bmp_into_surrogates_and_back():
    assert to_java_chars("a😀b") == "a\ud83d\ude00b"
    assert len(to_java_chars("😀😀")) == 4
    word = "häus😀er𝐚"
    assert from_java_chars(to_java_chars(word)) == word
    assert to_java_chars("häuser") == "häuser" and from_java_chars("a\ud83d") == "a\ud83d"  # a lone surrogate stays


# ---------------------------------------------------------------------------------------------
# Properties

_TEXT = hs.text(hs.characters(codec=None, exclude_categories=()), max_size=14) | hs.text(
    alphabet="aeiouyäöüåæøéèêëàáâãçñßşţșțğıİёйъьыэюяабвгдежзклмнопрстуфхцчшщ'-0😀\u0301", max_size=14)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(hs.sampled_from(LANGUAGES), _TEXT)
def test_any_string_stems_to_a_string_the_same_every_time(language, word):
    stem = snowball_langs.stemmer(language)
    out = stem(word)
    assert isinstance(out, str)
    assert stem(word) == out
    assert isinstance(stem(out), str) and stem(out) == stem(out)
