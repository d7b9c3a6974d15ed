"""Meteor 1.5's languages and tasks: the jar's tables (Constants.java), its refusals, the positional
weights rule, the configuration, the CLI and the note for text in another language. Agreement with
the jar itself is tests/test_languages_jar.py."""
import subprocess
import sys

import pytest

from meteor_core import MeteorConfig, languages, score
from meteor_core.jar_resources import jar_available, paraphrase_available

needs_jar = pytest.mark.skipif(not jar_available(), reason="needs the Meteor 1.5 jar (pycocoevalcap)")


def test_every_name_the_jar_accepts():
    """Constants.normLanguageName's names, and ISO codes where the jar has its own (cz, se)."""
    names = {"english": "en", "en": "en", "czech": "cs", "cz": "cs", "cs": "cs", "french": "fr", "german": "de",
             "de": "de", "spanish": "es", "arabic-buckwalter-reduced": "ar-bw-red", "ar-bw-red": "ar-bw-red",
             "portuguese": "pt", "russian": "ru", "danish": "da", "romanian": "ro", "hungarian": "hu",
             "turkish": "tr", "finnish": "fi", "dutch": "nl", "italian": "it", "norwegian": "no", "swedish": "sv",
             "se": "sv", "sv": "sv", "other": "other", "xx": "other", "EN": "en", " De ": "de"}
    for name, code in names.items():
        assert languages.language(name).code == code
    assert len(languages.LANGUAGES) == 18  # the jar's 17 and other
    with pytest.raises(languages.LanguageError, match="unknown language 'klingon'.*'other'"):
        languages.language("klingon")


@pytest.mark.parametrize("code,task,params,weights", [
    # Constants.PARAM_RANK / WEIGHT_RANK, and the language-independent task for the others
    ("en", "rank", (0.85, 0.20, 0.60, 0.75), (1.0, 0.6, 0.8, 0.6)),
    ("cs", "rank", (0.95, 0.20, 0.60, 0.80), (1.0, 0.4, 0.0, 0.0)),
    ("fr", "rank", (0.90, 1.40, 0.60, 0.65), (1.0, 0.2, 0.4, 0.0)),
    ("es", "rank", (0.65, 1.30, 0.50, 0.80), (1.0, 0.8, 0.6, 0.0)),
    ("de", "rank", (0.95, 1.00, 0.55, 0.55), (1.0, 0.8, 0.2, 0.0)),
    ("ru", "rank", (0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.0)),
    ("en", "adq", (0.75, 1.40, 0.45, 0.70), (1.0, 1.0, 0.6, 0.8)),
    ("en", "hter", (0.40, 1.50, 0.35, 0.55), (1.0, 0.2, 0.6, 0.8)),
    ("en", "util", (0.65, 0.1, 0.55, 0.65), (1.0, 0.0, 0.0, 0.8)),
    ("pt", "li", (0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.5)),
    ("de", "li", (0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.5)),
    ("other", "rank", (0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.5)),  # other: li whatever the task
    ("fi", "tune", (0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5, 0.5)),
    ("en", "universal", (0.70, 1.40, 0.30, 0.70), (1.0, 0.6, 0.0, 0.0)),
])
def test_the_jars_parameter_tables(code, task, params, weights):
    assert languages.parameters(languages.language(code), task) == (params, weights)


def test_default_tasks_and_modules():
    """Constants.getDefaultTask and getModules."""
    expected = {"en": ("rank", ("exact", "stem", "synonym", "paraphrase")), "cs": ("rank", ("exact", "paraphrase")),
                "fr": ("rank", ("exact", "stem", "paraphrase")), "de": ("rank", ("exact", "stem", "paraphrase")),
                "ru": ("rank", ("exact", "stem", "paraphrase")), "ar-bw-red": ("li", ("exact", "stem")),
                "pt": ("li", ("exact", "stem")), "tr": ("li", ("exact", "stem")), "other": ("li", ("exact",))}
    for code, (task, modules) in expected.items():
        lang = languages.language(code)
        assert languages.default_task(lang) == task and languages.default_modules(lang, task) == modules
    assert languages.default_modules(languages.language("de"), "universal") == ("exact", "paraphrase")


def test_the_jars_positional_weights_rule():
    """The jar sizes the task's weights to the default modules, then gives -m's modules those
    weights by position: -l en -m "exact stem paraphrase" weighs paraphrases 0.8 (the synonym slot)."""
    en, de = languages.language("en"), languages.language("de")
    assert languages.module_settings(en, "rank", ("exact", "stem", "paraphrase")) == (
        ("exact", "stem", "paraphrase"), (1.0, 0.6, 0.0, 0.8))
    assert languages.module_settings(de, "rank") == (("exact", "stem", "paraphrase"), (1.0, 0.8, 0.0, 0.2))
    assert languages.module_settings(de, "rank", ("exact", "stem")) == (("exact", "stem"), (1.0, 0.8, 0.0, 0.0))
    # more modules than the task's defaults: the extra ones weigh 0 (the jar pads with 0.0)
    assert languages.module_settings(en, "universal", ("exact", "stem", "paraphrase")) == (
        ("exact", "stem", "paraphrase"), (1.0, 0.6, 0.0, 0.0))
    # -w replaces the weights, still by position
    assert languages.module_settings(en, "rank", ("exact", "paraphrase"), (1.0, 0.3)) == (
        ("exact", "paraphrase"), (1.0, 0.0, 0.0, 0.3))
    config = MeteorConfig.meteor15(modules=["exact", "stem", "paraphrase"])
    assert config.module_weights == (1.0, 0.6, 0.0, 0.8) and "|w:1,0.6,0.8|" in config.signature()
    # stages= keeps each module's own weight instead
    assert MeteorConfig.meteor15(stages=("exact", "stem", "paraphrase")).module_weights == (1.0, 0.6, 0.8, 0.6)


@pytest.mark.parametrize("kwargs,message", [
    ({"language": "cs", "modules": "exact stem"}, r"No stemmer for language \(czech\)"),
    ({"language": "other", "modules": "exact stem"}, r"No stemmer for language \(other\)"),
    ({"language": "de", "modules": "exact synonym"}, "synonym module is English only"),
    ({"language": "pt", "task": "rank"}, "no rank parameters for Portuguese"),
    ({"modules": "stem exact"}, "in the order exact stem synonym paraphrase"),
    ({"modules": "exact exact"}, "once each"),
    ({"modules": "exact typo"}, "unknown module"),
    ({"task": "fluency"}, "unknown task"),
    ({"language": "pt", "tokenizer": "meteor-norm"}, r"No normalizer for language \(portuguese\)"),
])
def test_what_the_jar_refuses_is_refused(kwargs, message):
    with pytest.raises(languages.LanguageError, match=message):
        MeteorConfig.meteor15(**kwargs)


@pytest.mark.parametrize("kwargs,message", [
    ({"language": "de"}, "English"),  # nltk: NLTK's meteor_score is English
])
def test_the_nltk_preset_is_english(kwargs, message):
    with pytest.raises(languages.LanguageError, match=message):
        MeteorConfig.nltk(**kwargs)


def test_no_language_is_scored_with_another_ones_resources():
    with pytest.raises(languages.LanguageError, match="Porter stemmer is English"):
        MeteorConfig.meteor2005(language="de", stemmer="porter")
    with pytest.raises(languages.LanguageError, match="synonyms are English only"):
        MeteorConfig.meteor2005(language="fr", stages=("exact", "stem", "synonym"), stemmer="snowball")
    with pytest.raises(languages.LanguageError, match="no stem table"):
        MeteorConfig.meteor2005(language="de", stemmer="table")
    german = MeteorConfig.meteor2005(language="de")
    assert german.stages == ("exact", "stem") and german.stemmer == "snowball" and "|lang:de|" in german.signature()
    assert MeteorConfig.meteor2005(language="cs").stages == ("exact",)  # the jar has no Czech stemmer
    assert MeteorConfig.meteor2005(language="ar-bw-red").stemmer == "table"


def test_languages_without_a_normaliser_take_the_jars_lower():
    pt = MeteorConfig.meteor15(language="pt")
    assert (pt.tokenizer, pt.lowercase, pt.task, pt.stages) == ("meteor-space", True, "li", ("exact", "stem"))
    assert (pt.alpha, pt.beta, pt.gamma, pt.delta) == (0.75, 1.4, 0.7, 0.5)


@needs_jar
def test_without_the_languages_table_meteor15_scores_without_paraphrases_and_says_so():
    from meteor_core.notes import config_notes
    de = MeteorConfig.meteor15(language="de")
    assert not paraphrase_available("de")  # pycocoevalcap ships the English table only
    assert de.stages == ("exact", "stem") and de.module_weights == (1.0, 0.8, 0.0, 0.0)
    assert "|m:exact+stem|" in de.signature()
    (note,) = config_notes(de)
    assert "without paraphrase" in note and "paraphrase-de.gz" in note
    assert config_notes(MeteorConfig.meteor15(language="de", modules="exact stem"), modules_chosen=True) == []
    if paraphrase_available("en"):
        assert config_notes(MeteorConfig.meteor15()) == []


@needs_jar
def test_each_languages_function_words_and_prefixes_come_from_the_jar():
    """The jar weighs its English function words whatever the language (its MeteorConfiguration
    never moves the word list off English): meteor15 does too; the language's own list is there
    when asked for (the jar's -s)."""
    from meteor_core import resources
    english = resources.function_words("jar", "en")
    assert resources.function_words("jar", "de") == english and "the" in english
    german = resources.function_words("language", "de")
    assert {"die", "der", "und"} <= german and "the" not in german
    assert resources.function_words("language", "pt") == frozenset()  # the jar's list is empty
    assert MeteorConfig.meteor15(language="de").function_words == "jar"
    assert "|fw:language|" in MeteorConfig.meteor15(language="de", function_words="language").signature()
    assert resources.nonbreaking_prefixes("de")["Dr"] == 1
    assert resources.nonbreaking_prefixes("fr") != resources.nonbreaking_prefixes("en")


@needs_jar
def test_the_arabic_stem_table_is_looked_up_by_java_hash():
    from meteor_core import jar_resources, resources
    assert jar_resources.java_hash("Aa") == jar_resources.java_hash("BB") == 2112  # Java's String.hashCode
    assert jar_resources.java_hash("polygenelubricants") == -2**31
    table = jar_resources.stem_table("ar-bw-red")
    assert len(table) > 500_000
    stem = resources.stemmer("table", "ar-bw-red")
    word = next(iter(_some_table_words()))
    assert stem(word) == table[jar_resources.java_hash(word)]
    assert stem("notaword-xyz") == "notaword-xyz"


def _some_table_words():
    import gzip
    import io
    import zipfile
    from meteor_core.jar_resources import require_jar
    with zipfile.ZipFile(require_jar()) as z:
        text = gzip.GzipFile(fileobj=io.BytesIO(z.read("stem/arabic-buckwalter-reduced.gz"))).read(4096).decode()
    return [line.split()[0] for line in text.splitlines()[:-1] if len(line.split()) >= 3]


@needs_jar
def test_text_plainly_in_another_language_gets_a_note():
    from meteor_core.language_check import mismatch_note
    german = ["Ich möchte Sie alle bitten, für eine Sekunde die sehr einfache Tatsache in Betracht zu ziehen, "
              "dass das meiste, was wir über das Universum wissen, aus dem Licht kommt."] * 3
    english = ["I want to ask you all to consider for a second the very simple fact that most of what we know "
               "about the universe comes to us from light."] * 3
    assert "looks like German, not English" in mismatch_note(german, "en")
    assert "looks like English, not German" in mismatch_note(english, "de")
    assert "--lang de" in mismatch_note(german, "pt")
    assert mismatch_note(german, "de") is None and mismatch_note(english, "en") is None
    assert mismatch_note(["kurz"], "en") is None  # too little text to tell


def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "meteor_core", *args], capture_output=True, text=True)


@needs_jar
def test_cli_language_task_modules_weights(tmp_path):
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("Die Katze sitzt auf der Matte, und der Hund ist nicht mit ihr im Haus .\n"
                   "Er läuft schnell zu dem Bahnhof, denn es ist schon spät und die Bahn wartet nicht .\n", encoding="utf-8")
    ref.write_text("Die Katzen saßen auf der Matte, aber der Hund war nicht bei ihnen im Haus .\n"
                   "Er lief schnell zum Bahnhof, weil es schon spät war und die Bahn nicht wartet .\n", encoding="utf-8")
    out = _cli("--preset", "meteor15", "--lang", "de", "--modules", "exact", "stem", "--hyp", str(hyp), "--ref", str(ref))
    assert out.returncode == 0, out.stderr
    assert "|lang:de|task:rank|m:exact+stem|" in out.stdout and "note:" not in out.stderr
    expected = MeteorConfig.meteor15(language="de", modules="exact stem")
    from meteor_core import score_corpus
    want = score_corpus(hyp.read_text(encoding="utf-8").splitlines(), [[r] for r in ref.read_text(encoding="utf-8").splitlines()],
                        expected).score
    assert f"METEOR = {want:.4f}" in out.stdout
    out = _cli("--preset", "meteor15", "--lang", "en", "--task", "adq", "--modules", "exact", "paraphrase",
               "--weights", "1", "0.5", "--hyp", str(hyp), "--ref", str(ref))
    assert out.returncode == 0 and "|task:adq|m:exact+paraphrase|a:0.75|b:1.4|g:0.45|d:0.7|w:1,0.5|" in out.stdout
    assert "looks like German, not English" in out.stderr  # the note, on stderr; the score still printed


@pytest.mark.parametrize("args,message", [
    (["--preset", "meteor15", "--lang", "cz", "--modules", "exact", "stem"], r"No stemmer for language \(czech\)"),
    (["--preset", "meteor15", "--lang", "klingon"], "unknown language"),
    (["--preset", "meteor2005", "--task", "adq"], "--task is Meteor 1.5's"),
    (["--preset", "nltk", "--lang", "de"], "nltk preset reproduces NLTK's meteor_score, which is English"),
    (["--preset", "meteor15", "--weights", "x"], "--weights takes numbers"),
    (["--preset", "meteor15", "--lang", "pt", "--tokenizer", "meteor-norm"], r"No normalizer for language \(portuguese\)"),
])
def test_cli_refusals_are_one_line(tmp_path, args, message):
    import re
    hyp = tmp_path / "h.txt"
    hyp.write_text("a b\n", encoding="utf-8")
    out = _cli(*args, "--hyp", str(hyp), "--ref", str(hyp))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1 and re.search(message, out.stderr)


def test_cli_says_when_text_is_not_nfc_for_a_preset_that_takes_it_as_given(tmp_path):
    import unicodedata
    hyp = tmp_path / "h.txt"
    hyp.write_text(unicodedata.normalize("NFD", "Le café est fermé\n"), encoding="utf-8")
    out = _cli("--preset", "nltk", "--hyp", str(hyp), "--ref", str(hyp))
    assert out.returncode == 0 and "not in Unicode NFC" in out.stderr and "--normalize nfc" in out.stderr
    assert "|uni:none|" in out.stdout
    out = _cli("--preset", "nltk", "--normalize", "nfc", "--hyp", str(hyp), "--ref", str(hyp))
    assert "not in Unicode NFC" not in out.stderr and "|uni:nfc|" in out.stdout
    out = _cli("--preset", "meteor2005", "--hyp", str(hyp), "--ref", str(hyp))
    assert "not in Unicode NFC" not in out.stderr  # meteor2005 composes it


def test_types_are_checked_with_the_fields_name():
    """Issue 30, item 16: a wrong type fails at once, naming the field."""
    from meteor_core import METEOR
    with pytest.raises(TypeError, match=r"config must be a MeteorConfig \(MeteorConfig.preset\('meteor15'\)"):
        score("a", ["a"], config="meteor15")
    with pytest.raises(TypeError, match="lowercase must be True or False"):
        METEOR(lowercase="no")
    with pytest.raises(TypeError, match="module_weights must be 4 numbers"):
        MeteorConfig.meteor15(module_weights="1111")
    with pytest.raises(TypeError, match="paraphrase_table must be a path"):
        MeteorConfig.meteor15(paraphrase_table=5)
    with pytest.raises(TypeError, match="stages must be a sequence"):
        MeteorConfig.meteor2005(stages="exact")
    with pytest.raises(TypeError, match="language must be a string"):
        MeteorConfig(language=3)
    from pathlib import Path
    assert MeteorConfig.meteor15(paraphrase_table=Path("/x/t.gz")).paraphrase_table == "/x/t.gz"


@needs_jar
def test_compare_and_agree_say_when_the_text_is_in_another_language(tmp_path):
    import json
    german = ["Die Katze sitzt auf der Matte, und der Hund ist nicht mit ihr im Haus .",
              "Er läuft schnell zu dem Bahnhof, denn es ist schon spät und die Bahn wartet nicht ."]
    ref, a, b = (tmp_path / n for n in ("ref.txt", "a.txt", "b.txt"))
    for path in (ref, a, b):
        path.write_text("\n".join(german) + "\n", encoding="utf-8")
    out = _cli("compare", "--ref", str(ref), "--sys", str(a), "--sys", str(b), "--samples", "100")
    assert out.returncode == 0 and "looks like German, not English" in out.stderr
    out = _cli("compare", "--lang", "de", "--ref", str(ref), "--sys", str(a), "--sys", str(b), "--samples", "100")
    assert out.returncode == 0 and "looks like" not in out.stderr
    table = tmp_path / "t.jsonl"
    table.write_text("".join(json.dumps({"system": s, "seg_id": k, "hypothesis": h, "reference": h, "human": k + (s == "x")})
                             + "\n" for s in ("x", "y") for k, h in enumerate(german)), encoding="utf-8")
    out = _cli("agree", "--table", str(table), "--metrics", "meteor2005,bleu", "--samples", "100")
    assert "looks like German, not English" in out.stderr
    out = _cli("agree", "--table", str(table), "--metrics", "bleu", "--samples", "100")
    assert "looks like" not in out.stderr  # no METEOR asked for: its language does not matter
