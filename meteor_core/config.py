"""All the knobs of a METEOR run, in one immutable object.

Three presets: ``meteor2005`` (Banerjee & Lavie 2005, the default), ``nltk`` (a faithful copy of
``nltk.translate.meteor_score``, quirks included) and ``meteor15`` (the Meteor 1.5 jar with its
defaults for a language and task, paraphrases included where the jar's table is present).
"""
from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, replace

from . import languages

STAGES = ("exact", "stem", "synonym", "paraphrase")
DEFAULT_STAGES = ("exact", "stem", "synonym")
ALIGNERS = ("optimal", "greedy", "meteor-beam")
# Where the synonym stage looks words up: "words" = the surface words (the paper);
# "stems" = the Porter stems left by the stem stage (what NLTK does).
SYNONYM_LOOKUPS = ("words", "stems")
# Where synonyms come from: NLTK's WordNet 3.0, or the synonym files inside the user's Meteor 1.5
# jar (meteor_core.jar_resources; what meteor15 uses by default).
SYNONYM_SOURCES = ("wordnet", "jar")
SCORINGS = ("2005", "meteor1x")
PRESET_NAMES = ("meteor2005", "nltk", "meteor15")  # MeteorConfig.preset(name) accepts these
# Unicode normalisation of the text before tokenising: meteor2005 composes (NFC) so that decomposed
# accents (as some macOS tools write them) do not split words; the presets that reproduce a peer
# (nltk, meteor15) take the text as given, as NLTK and the jar do.
UNICODE_FORMS = ("NFC", "NFKC", "none")
# Function words, read from the user's jar: none; "jar", the list the jar uses in every language
# (its English one: "meteor-en" is another name for it, kept so that older configurations stay
# valid; stored as "jar"); "language", the language's own list (the jar's -s function/<lang>.words).
FUNCTION_WORD_LISTS = ("none", "jar", "meteor-en", "language")
# The one table of parameter ranges: MeteorConfig checks it, and the CLI, the URL and the app's
# sliders take their bounds from it, so a value is accepted everywhere or nowhere. β's bound is
# generous (papers and tuned Meteor settings use 0.2 to 3); any finite β >= 0 keeps the score in [0, 1].
PARAMETER_RANGES = {"alpha": (0.0, 1.0), "beta": (0.0, 10.0), "gamma": (0.0, 1.0), "delta": (0.0, 1.0)}
MODULE_WEIGHT_RANGE = (0.0, 1.0)  # above 1 a weighted match could count for more than a word (score > 1)


def _finite_in(value, low: float, high: float) -> float | None:
    """``value`` as a float if it is a number (or a number's text) within [low, high], else None."""
    if isinstance(value, bool):
        return None
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return x if math.isfinite(x) and low <= x <= high else None


def check_parameter(name: str, value) -> float:
    """``value`` (a number or its text, as from a URL or the command line) as a float, if it is a
    finite number within ``PARAMETER_RANGES[name]``; else ValueError saying the range."""
    low, high = PARAMETER_RANGES[name]
    x = _finite_in(value, low, high)
    if x is None:
        shown = value if isinstance(value, str) and len(value) <= 30 else repr(value)[:30]
        raise ValueError(f"{name} must be a finite number from {low:g} to {high:g}; got {shown}")
    return x


def check_module_weights(weights) -> tuple[float, ...]:
    low, high = MODULE_WEIGHT_RANGE
    try:
        checked = tuple(_finite_in(w, low, high) for w in weights)
    except TypeError:
        checked = ()
    if len(checked) != len(STAGES) or None in checked:
        raise ValueError(f"module_weights needs {len(STAGES)} weights ({', '.join(STAGES)}), each a finite number "
                         f"from {low:g} to {high:g}; got {weights!r}"[:200])
    return checked


@dataclass(frozen=True)
class MeteorConfig:
    alpha: float = 0.9
    beta: float = 3.0
    gamma: float = 0.5
    stages: tuple[str, ...] = DEFAULT_STAGES
    lowercase: bool = True
    tokenizer: str = "punct"
    stemmer: str = "porter"
    aligner: str = "optimal"
    synonym_lookup: str = "words"
    synonym_source: str = "wordnet"
    name: str = "meteor2005"
    # Meteor 1.x terms (used when scoring == "meteor1x"): content-word weight δ, one weight per
    # stage (STAGES order), and the function-word list that tells content from function words.
    scoring: str = "2005"
    delta: float = 1.0
    module_weights: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0)
    function_words: str = "none"
    # A Meteor-format paraphrase table (gzip or text: probability, phrase, paraphrase lines), or
    # "jar" for the jar's own for the language (data/paraphrase-<lang>.gz beside it); the
    # "paraphrase" stage needs it and the meteor-beam aligner (Meteor 1.x only).
    paraphrase_table: str | None = None
    # The text's language (meteor_core.languages: en, cs, de, ...): its stemmer, function words,
    # -norm rules and paraphrase table; the task picks Meteor 1.5's parameters (rank, adq, ...).
    language: str = "en"
    task: str = "rank"
    normalize: str = "NFC"  # Unicode form applied before tokenising (UNICODE_FORMS)
    # Meteor 1.x: count lengths and matches in characters (the jar's -ch). The jar's command line
    # turns it on only with -ch, whatever the task (its util task sets it, and the option parser
    # then resets it), so it is a choice of its own here too.
    char_based: bool = False

    def __post_init__(self):
        _check_types(self)
        # Accept lists from JSON/CLI callers but store a hashable tuple (configs are cache keys).
        object.__setattr__(self, "stages", tuple(self.stages))
        object.__setattr__(self, "module_weights", check_module_weights(self.module_weights))
        if self.paraphrase_table is not None:
            object.__setattr__(self, "paraphrase_table", os.fspath(self.paraphrase_table))
        lang = languages.language(self.language)
        object.__setattr__(self, "language", lang.code)
        object.__setattr__(self, "task", languages.task(self.task))
        form = {f.lower(): f for f in UNICODE_FORMS}.get(self.normalize.lower())
        if form is None:
            raise ValueError(f"normalize must be one of {', '.join(UNICODE_FORMS)}; got {self.normalize!r}")
        object.__setattr__(self, "normalize", form)
        for name in PARAMETER_RANGES:  # finite and within range (NaN would pass a plain comparison)
            object.__setattr__(self, name, check_parameter(name, getattr(self, name)))
        unknown = [s for s in self.stages if s not in STAGES]
        if unknown:
            raise ValueError(f"unknown stage(s) {unknown}; choose from {list(STAGES)}")
        if list(self.stages) != [s for s in STAGES if s in self.stages]:
            raise ValueError(f"stages must keep the order {list(STAGES)}")
        if self.scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {SCORINGS}")
        if self.function_words not in FUNCTION_WORD_LISTS:
            raise ValueError(f"function_words must be one of {FUNCTION_WORD_LISTS}")
        if self.function_words == "meteor-en":  # the same list as "jar", under its older name
            object.__setattr__(self, "function_words", "jar")
        if "paraphrase" in self.stages and (self.paraphrase_table is None or self.aligner != "meteor-beam"):
            raise ValueError("the paraphrase stage needs paraphrase_table (a Meteor-format file) "
                             "and the meteor-beam aligner (preset meteor15)")
        if self.char_based and self.scoring != "meteor1x":
            raise ValueError("char_based counts characters in Meteor 1.x statistics: it needs scoring='meteor1x' (meteor15)")
        if self.aligner not in ALIGNERS:
            raise ValueError(f"aligner must be one of {ALIGNERS}")
        if self.synonym_lookup not in SYNONYM_LOOKUPS:
            raise ValueError(f"synonym_lookup must be one of {SYNONYM_LOOKUPS}")
        if self.synonym_source not in SYNONYM_SOURCES:
            raise ValueError(f"synonym_source must be one of {SYNONYM_SOURCES}")
        if self.synonym_source == "jar" and self.synonym_lookup != "words":
            raise ValueError("the jar's synonyms relate words: synonym_source='jar' needs synonym_lookup='words'")
        from .tokenize import TOKENIZERS  # local import: tokenize has no reason to know config
        if self.tokenizer not in TOKENIZERS:
            raise ValueError(f"unknown tokenizer {self.tokenizer!r}; choose from {sorted(TOKENIZERS)}")
        from .resources import STEMMERS
        if self.stemmer not in STEMMERS:
            raise ValueError(f"unknown stemmer {self.stemmer!r}; choose from {sorted(STEMMERS)}")
        _check_language(self, lang)

    @classmethod
    def meteor2005(cls, language: str = "en", **overrides) -> "MeteorConfig":
        """The paper's algorithm: optimal alignment, synonyms of the words themselves. In another
        language than English: that language's Snowball stemmer (the jar's), no synonym stage
        (WordNet is English), exact matches only where the jar has no stemmer."""
        lang = languages.language(language)
        if lang.code == "en":
            return replace(cls(), **overrides)
        base = cls(language=lang.code, stages=("exact", "stem") if lang.stemmer else ("exact",),
                   stemmer=lang.stemmer or "snowball")
        return replace(base, **overrides)

    @classmethod
    def nltk(cls, language: str = "en", **overrides) -> "MeteorConfig":
        """Reproduces nltk.translate.meteor_score.meteor_score on whitespace tokens (English only:
        NLTK's meteor_score stems with Porter and looks synonyms up in WordNet)."""
        lang = languages.language(language)
        if lang.code != "en":
            raise languages.LanguageError(f"the nltk preset reproduces NLTK's meteor_score, which is English "
                                          f"(Porter stems, WordNet synonyms); for {lang.display} use meteor15 "
                                          "or meteor2005")
        base = cls(tokenizer="whitespace", aligner="greedy", synonym_lookup="stems", name="nltk", normalize="none")
        return replace(base, **overrides)

    @classmethod
    def meteor15(cls, language: str = "en", task: str | None = None, modules=None, weights=None,
                 **overrides) -> "MeteorConfig":
        """The Meteor 1.5 jar with its defaults for ``language`` and ``task`` (Denkowski & Lavie
        2014; edu.cmu.meteor.util.Constants): English ranks with α 0.85, β 0.2, γ 0.6, δ 0.75 and
        the modules exact, stem, synonym, paraphrase weighted 1.0, 0.6, 0.8, 0.6, as
        ``java -jar meteor-1.5.jar SYS REF -l en -norm`` does (what pycocoevalcap runs).

        ``task``: rank (the default for en, cs, fr, es, de, ru), adq, hter, li (the default for the
        other languages), util, tune, universal. ``modules``/``weights`` are the jar's ``-m``/``-w``:
        the weights go to the modules by position, as the jar gives them (so ``modules=("exact",
        "stem", "paraphrase")`` weighs paraphrases by the synonym slot's weight). A stage set given
        as ``stages=`` instead keeps each module's own weight.

        The paraphrase module is in the defaults only where the jar's table for the language is
        present (pycocoevalcap ships data/paraphrase-en.gz); without it the modules say so (the
        signature lists them). With no jar at all the modules are the jar's, and scoring says
        that the jar is missing. Tokenisation is the jar's ``-norm`` for the six languages it has a
        normaliser for, and ``-lower`` (whitespace tokens, lowercased) for the others. Function
        words, -norm prefixes, synonyms and stem tables are read from the user's Meteor 1.5 jar
        (METEOR_JAR, pycocoevalcap; see jar_resources): without one, scoring raises
        jar_resources.JarMissingError. NLTK's WordNet synonyms stay selectable
        (synonym_source="wordnet")."""
        from .jar_resources import jar_available, paraphrase_available
        lang = languages.language(language)
        task = languages.default_task(lang) if task is None else languages.task(task)
        (alpha, beta, gamma, delta), _ = languages.parameters(lang, task)
        if modules is not None:
            modules = tuple(modules.split() if isinstance(modules, str) else modules)
        if weights is not None:
            weights = tuple(float(w) for w in (weights.split() if isinstance(weights, str) else weights))
        chosen, module_weights = languages.module_settings(lang, task, modules, weights)
        table = overrides.get("paraphrase_table", "jar")
        if (modules is None and "paraphrase" in chosen and table == "jar" and jar_available()
                and not paraphrase_available(lang.code)):
            # The jar would stop at its missing table; scoring without it says so in the modules.
            chosen, module_weights = languages.module_settings(
                lang, task, tuple(m for m in chosen if m != "paraphrase"), weights)
        base = cls(alpha=alpha, beta=beta, gamma=gamma, delta=delta, stages=chosen, module_weights=module_weights,
                   scoring="meteor1x", function_words="jar", stemmer=lang.stemmer or "snowball",
                   synonym_source="jar", tokenizer="meteor-norm" if lang.normalizer else "meteor-space",
                   aligner="meteor-beam", name="meteor15", paraphrase_table="jar", language=lang.code,
                   task=task, normalize="none")
        return replace(base, **overrides)

    @classmethod
    def preset(cls, preset_name: str, /, **overrides) -> "MeteorConfig":
        presets = {"meteor2005": cls.meteor2005, "nltk": cls.nltk, "meteor15": cls.meteor15}
        if preset_name not in presets:
            raise ValueError(f"unknown preset {preset_name!r}; choose from {sorted(presets)}")
        return presets[preset_name](**overrides)

    @property
    def language_info(self) -> languages.Language:
        return languages.language(self.language)

    @property
    def uses_synonyms(self) -> bool:
        return "synonym" in self.stages

    def signature(self) -> str:
        """A short string that pins down how a score was computed (like sacrebleu's)."""
        # Kept on the instance: scoring asks once per segment, and hashing all the fields for a
        # cache lookup costs more than the lookup saves.
        try:
            return self.__dict__["_signature"]
        except KeyError:
            object.__setattr__(self, "_signature", _signature(self))
            return self.__dict__["_signature"]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["stages"] = list(self.stages)
        d["module_weights"] = list(self.module_weights)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "MeteorConfig":
        return cls(**d)


def missing_default_modules(config: MeteorConfig) -> tuple[str, ...]:
    """The modules the jar runs by default for the configuration's language and task that this
    meteor15 configuration leaves out only because their resource is not on this machine (the
    paraphrase table), so that the CLI and the app can say so. Empty for the other presets."""
    if config.name != "meteor15" or "paraphrase" in config.stages:
        return ()
    lang = languages.language(config.language)
    if "paraphrase" not in languages.default_modules(lang, config.task):
        return ()
    from .jar_resources import jar_available, paraphrase_available
    if not jar_available():  # (no jar at all: scoring says that, and nothing else matters)
        return ()
    return () if paraphrase_available(lang.code) else ("paraphrase",)


# The type each field must have (numbers and the module weights are checked with their ranges):
# a wrong type fails here with the field's name, not later as an AttributeError deep in scoring,
# and "no" is never taken for True.
_TEXT_FIELDS = ("tokenizer", "stemmer", "aligner", "synonym_lookup", "synonym_source", "name", "scoring",
                "function_words", "language", "task", "normalize")


def _check_types(config: "MeteorConfig") -> None:
    for name in _TEXT_FIELDS:
        value = getattr(config, name)
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a string; got {type(value).__name__} {value!r}"[:200])
    for name in ("lowercase", "char_based"):
        value = getattr(config, name)
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False; got {type(value).__name__} {value!r}"[:200])
    if isinstance(config.stages, (str, bytes)) or not all(isinstance(s, str) for s in _iterable(config.stages, "stages")):
        raise TypeError(f"stages must be a sequence of stage names such as ('exact', 'stem'); got {config.stages!r}"[:200])
    if isinstance(config.module_weights, (str, bytes)):
        raise TypeError(f"module_weights must be {len(STAGES)} numbers ({', '.join(STAGES)}); got a string {config.module_weights!r}"[:200])
    table = config.paraphrase_table
    if table is not None and not isinstance(table, (str, os.PathLike)):
        raise TypeError(f"paraphrase_table must be a path (or 'jar', or None); got {type(table).__name__} {table!r}"[:200])


def _iterable(value, name: str):
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{name} must be a sequence; got {type(value).__name__} {value!r}"[:200]) from None


def _check_language(config: "MeteorConfig", lang: languages.Language) -> None:
    """Refuse what would score text with another language's resources, and what the jar refuses."""
    stages = config.stages
    if config.tokenizer in ("meteor-norm", "meteor-norm-nopunct") and lang.normalizer is None:
        raise languages.LanguageError(
            f"No normalizer for language ({lang.jar_name}): Meteor 1.5's -norm exists for "
            f"{', '.join(c for c, x in languages.LANGUAGES.items() if x.normalizer)} only; for {lang.display} "
            "use tokenizer 'meteor-space' (the jar's -lower: whitespace tokens, lowercased)")
    if "synonym" in stages and lang.code != "en":
        raise languages.LanguageError(f"synonyms are English only (WordNet, the jar's english.synsets): "
                                      f"{lang.display} text has no synonym stage; leave 'synonym' out of the stages")
    if "stem" in stages:
        if config.stemmer in ("porter", "porter-original") and lang.code != "en":
            raise languages.LanguageError(f"the Porter stemmer is English; for {lang.display} use stemmer='snowball'")
        if config.stemmer == "snowball" and lang.stemmer != "snowball":
            raise languages.LanguageError(f"No stemmer for language ({lang.jar_name}): Meteor 1.5 has no Snowball "
                                          f"stemmer for {lang.display}; leave 'stem' out of the stages")
        if config.stemmer == "table" and lang.stemmer != "table":
            raise languages.LanguageError(f"Meteor 1.5 has no stem table for {lang.display}")


# How a tokenizer is named in a signature (sacrebleu-style short tags).
_TOKENIZER_TAGS = {"meteor-norm": "norm", "meteor-norm-nopunct": "norm-nopunct", "meteor-space": "space"}


def _signature(config: MeteorConfig) -> str:
    """sacrebleu-style: ``meteor|preset:meteor15|lang:en|task:rank|m:exact+stem+synonym+paraphrase|
    a:0.85|b:0.2|g:0.6|d:0.75|w:1,0.6,0.8,0.6|stem:snowball|syn:meteor1.5-jar|para:jar|tok:norm|uni:none|v:0.2.0``.
    The fields every score depends on are always there: the language, the modules (stages) run,
    α, β, γ, the stemmer (``none`` when the stage is off), the synonyms, the tokenizer and the
    Unicode normalisation; for the Meteor 1.x formula also the task, δ and the weights of the
    modules run; a paraphrase table by file name. The knobs a preset fixes (case, aligner,
    formula, function words) are named only when changed from the preset, so a preset's
    signature stays short and any change shows."""
    from .version import __version__
    base = MeteorConfig.preset(config.name, language=config.language) if config.name in PRESET_NAMES else MeteorConfig()
    stages = config.stages
    parts = [f"meteor|preset:{config.name}", f"lang:{config.language}"]
    if config.scoring == "meteor1x":
        parts.append(f"task:{config.task}")
    parts += ["m:" + "+".join(stages), f"a:{config.alpha:g}", f"b:{config.beta:g}", f"g:{config.gamma:g}"]
    if config.scoring == "meteor1x":
        weights = [w for stage, w in zip(STAGES, config.module_weights) if stage in stages]
        parts += [f"d:{config.delta:g}", "w:" + ",".join(f"{w:g}" for w in weights)]
    parts.append("stem:" + (config.stemmer if "stem" in stages else "none"))
    synonyms = ("meteor1.5-jar" if config.synonym_source == "jar"  # the jar's own synonym files
                else "wordnet-3.0" + ("-stems" if config.synonym_lookup == "stems" else ""))
    parts.append("syn:" + (synonyms if "synonym" in stages else "none"))
    if "paraphrase" in stages:
        parts.append("para:" + config.paraphrase_table.replace("\\", "/").rsplit("/", 1)[-1])
    parts.append("tok:" + _TOKENIZER_TAGS.get(config.tokenizer, config.tokenizer))
    parts.append("uni:" + config.normalize.lower())
    if config.lowercase != base.lowercase:
        parts.append("lc:" + ("yes" if config.lowercase else "no"))
    if config.aligner != base.aligner:
        parts.append(f"align:{config.aligner}")
    if config.scoring != base.scoring:
        parts.append(f"formula:{config.scoring}")
    if config.function_words != base.function_words:
        parts.append(f"fw:{config.function_words}")
    if config.char_based:
        parts.append("ch:yes")
    return "|".join(parts + [f"v:{__version__}"])
