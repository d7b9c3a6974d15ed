"""All the knobs of a METEOR run, in one immutable object.

Two presets exist: ``meteor2005`` (Banerjee & Lavie 2005, the default) and
``nltk`` (a faithful copy of ``nltk.translate.meteor_score``, quirks included).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace

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
# Function words: none, or Meteor 1.5's English list, read from the user's jar ("meteor-en" is
# another name for it, kept so that older configurations stay valid; stored as "jar").
FUNCTION_WORD_LISTS = ("none", "jar", "meteor-en")
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
    # "jar" for the jar's own (data/paraphrase-en.gz beside it); the "paraphrase" stage needs it
    # and the meteor-beam aligner (Meteor 1.x only).
    paraphrase_table: str | None = None

    def __post_init__(self):
        # Accept lists from JSON/CLI callers but store a hashable tuple (configs are cache keys).
        object.__setattr__(self, "stages", tuple(self.stages))
        object.__setattr__(self, "module_weights", check_module_weights(self.module_weights))
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

    @classmethod
    def meteor2005(cls, **overrides) -> "MeteorConfig":
        """The paper's algorithm: optimal alignment, synonyms of the words themselves."""
        return replace(cls(), **overrides)

    @classmethod
    def nltk(cls, **overrides) -> "MeteorConfig":
        """Reproduces nltk.translate.meteor_score.meteor_score on whitespace tokens."""
        base = cls(tokenizer="whitespace", aligner="greedy", synonym_lookup="stems", name="nltk")
        return replace(base, **overrides)

    @classmethod
    def meteor15(cls, **overrides) -> "MeteorConfig":
        """Meteor 1.5's English defaults for its ranking task (Denkowski & Lavie 2014): α 0.85,
        β 0.2, γ 0.6, δ 0.75, module weights exact 1.0, stem 0.6, synonym 0.8 (paraphrase 0.6),
        Snowball stems, its function-word list, its synonym dictionary and its -norm tokenisation
        with lowercasing. The function words, the -norm prefixes and the synonyms are read from the
        user's Meteor 1.5 jar (METEOR_JAR, pycocoevalcap; see jar_resources), never bundled: without
        a jar, scoring raises jar_resources.JarMissingError. NLTK's WordNet synonyms stay
        selectable (synonym_source="wordnet"); the function words and -norm still need the jar."""
        base = cls(alpha=0.85, beta=0.2, gamma=0.6, delta=0.75, module_weights=(1.0, 0.6, 0.8, 0.6),
                   scoring="meteor1x", function_words="jar", stemmer="snowball", synonym_source="jar",
                   tokenizer="meteor-norm", aligner="meteor-beam", name="meteor15")
        return replace(base, **overrides)

    @classmethod
    def preset(cls, preset_name: str, /, **overrides) -> "MeteorConfig":
        presets = {"meteor2005": cls.meteor2005, "nltk": cls.nltk, "meteor15": cls.meteor15}
        if preset_name not in presets:
            raise ValueError(f"unknown preset {preset_name!r}; choose from {sorted(presets)}")
        return presets[preset_name](**overrides)

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


# How a tokenizer is named in a signature (sacrebleu-style short tags).
_TOKENIZER_TAGS = {"meteor-norm": "norm"}


def _signature(config: MeteorConfig) -> str:
    """sacrebleu-style: ``meteor|preset:meteor15|a:0.85|b:0.2|g:0.6|d:0.75|w:1,0.6,0.8,0.6|
    stem:snowball|syn:wordnet-3.0|tok:norm|v:0.1.0`` (``syn:meteor1.5-jar`` with the jar's own
    synonym files). The fields every score depends on are always there (δ and the module weights
    only for the Meteor 1.x formula); a stage turned off reads ``none``; the knobs a preset fixes (case, aligner, formula, function words) are named only
    when changed from the preset, so a preset's signature stays short and any change shows."""
    from .version import __version__
    base = MeteorConfig.preset(config.name) if config.name in PRESET_NAMES else MeteorConfig()
    parts = [f"meteor|preset:{config.name}", f"a:{config.alpha:g}", f"b:{config.beta:g}", f"g:{config.gamma:g}"]
    if config.scoring == "meteor1x":
        parts += [f"d:{config.delta:g}", "w:" + ",".join(f"{w:g}" for w in config.module_weights)]
    stages = config.stages
    parts.append("stem:" + (config.stemmer if "stem" in stages else "none"))
    synonyms = ("meteor1.5-jar" if config.synonym_source == "jar"  # the jar's own synonym files
                else "wordnet-3.0" + ("-stems" if config.synonym_lookup == "stems" else ""))
    parts.append("syn:" + (synonyms if "synonym" in stages else "none"))
    if "paraphrase" in stages:
        parts.append("para:" + config.paraphrase_table.replace("\\", "/").rsplit("/", 1)[-1])
    parts.append("tok:" + _TOKENIZER_TAGS.get(config.tokenizer, config.tokenizer))
    if "exact" not in stages:
        parts.append("exact:none")
    if config.lowercase != base.lowercase:
        parts.append("lc:" + ("yes" if config.lowercase else "no"))
    if config.aligner != base.aligner:
        parts.append(f"align:{config.aligner}")
    if config.scoring != base.scoring:
        parts.append(f"formula:{config.scoring}")
    if config.function_words != base.function_words:
        parts.append(f"fw:{config.function_words}")
    return "|".join(parts + [f"v:{__version__}"])
