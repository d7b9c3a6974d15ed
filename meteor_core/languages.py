"""Meteor 1.5's languages and tasks: what the jar takes for each (edu.cmu.meteor.util.Constants).

For every language the jar scores: its names (the jar's long and short names, ISO codes), its
stemmer (a Snowball stemmer, the jar's lookup table for Arabic, or none), whether its ``-norm``
normaliser exists (English, Czech, French, Spanish, German, Russian only: the jar refuses
``-norm`` for the others, "No normalizer for language"), how that normaliser splits apostrophes,
and its default task. For every task: α, β, γ, δ and the four module weights per language
(``PARAM_*``/``WEIGHT_*``), and the modules a language runs by default (``Constants.getModules``).

The jar sizes its weight list to the modules by *position*: ``-l de`` runs exact, stem and
paraphrase with the first three of German's weights (1.0, 0.8, 0.2), so paraphrases weigh 0.2,
the number in the table's synonym slot. ``module_settings`` applies that rule.

Nothing here reads the jar; the word lists, prefixes and tables it names are read from the user's
jar by ``jar_resources``.
"""
from __future__ import annotations

from dataclasses import dataclass

MODULES = ("exact", "stem", "synonym", "paraphrase")  # the jar's module ids 0-3 (config.STAGES)


@dataclass(frozen=True)
class Language:
    code: str  # ours: ISO 639-1 where one exists (the signature and the CLI print it)
    jar_name: str  # the jar's long name: names its resource files (function/german.words)
    jar_short: str  # the jar's short name: names its paraphrase table (paraphrase-de.gz)
    aliases: tuple[str, ...]
    stemmer: str | None  # "snowball", "table" (the jar's lookup table) or None (no stem module)
    normalizer: str | None  # apostrophes of -norm: "en" (split right), "fr" (split left), "other"; None: no -norm

    @property
    def tuned(self) -> bool:
        """Whether the jar has its own parameters for this language (Constants.isSupported):
        the others take the language-independent task (li) by default."""
        return self.normalizer is not None

    @property
    def display(self) -> str:
        if self.code == "other":
            return "'other' (any language)"
        return self.jar_name.replace("-", " ").capitalize()


# In the jar's order of language ids (LANG_EN = 0 ... LANG_SE = 16), then other (99).
_LANGUAGES = (
    Language("en", "english", "en", ("english",), "snowball", "en"),
    Language("cs", "czech", "cz", ("cz", "czech"), None, "other"),
    Language("fr", "french", "fr", ("french",), "snowball", "fr"),
    Language("es", "spanish", "es", ("spanish",), "snowball", "other"),
    Language("de", "german", "de", ("german",), "snowball", "other"),
    Language("ar-bw-red", "arabic-buckwalter-reduced", "ar-bw-red", ("arabic-buckwalter-reduced",), "table", None),
    Language("pt", "portuguese", "pt", ("portuguese",), "snowball", None),
    Language("ru", "russian", "ru", ("russian",), "snowball", "other"),
    Language("da", "danish", "da", ("danish",), "snowball", None),
    Language("ro", "romanian", "ro", ("romanian",), "snowball", None),
    Language("hu", "hungarian", "hu", ("hungarian",), "snowball", None),
    Language("tr", "turkish", "tr", ("turkish",), "snowball", None),
    Language("fi", "finnish", "fi", ("finnish",), "snowball", None),
    Language("nl", "dutch", "nl", ("dutch",), "snowball", None),
    Language("it", "italian", "it", ("italian",), "snowball", None),
    Language("no", "norwegian", "no", ("norwegian", "nb"), "snowball", None),
    Language("sv", "swedish", "se", ("se", "swedish"), "snowball", None),
    Language("other", "other", "other", ("xx",), None, None),
)
LANGUAGES: dict[str, Language] = {lang.code: lang for lang in _LANGUAGES}
_BY_NAME = {name: lang for lang in _LANGUAGES for name in (lang.code, lang.jar_name, lang.jar_short, *lang.aliases)}
_ID = {lang.code: k for k, lang in enumerate(_LANGUAGES[:-1])}  # the jar's language id (row of its tables)

TASKS = ("rank", "adq", "hter", "li", "util", "tune", "universal")
TASK_NAMES = {"rank": "ranking", "adq": "adequacy", "hter": "HTER", "li": "language-independent",
              "util": "translator utility (character-based)", "tune": "tuning", "universal": "universal"}

# Constants.PARAM_* and WEIGHT_* (α, β, γ, δ; exact, stem, synonym, paraphrase), rows in the
# jar's language order. A row of zeros is a language the jar has no parameters for.
_Z = (0.0, 0.0, 0.0, 0.0)
_PARAMS = {
    "adq": ((0.75, 1.40, 0.45, 0.70),) + (_Z,) * 16,
    "rank": ((0.85, 0.20, 0.60, 0.75), (0.95, 0.20, 0.60, 0.80), (0.90, 1.40, 0.60, 0.65), (0.65, 1.30, 0.50, 0.80),
             (0.95, 1.00, 0.55, 0.55), _Z, _Z, (0.75, 1.40, 0.70, 0.50)) + (_Z,) * 9,
    "hter": ((0.40, 1.50, 0.35, 0.55),) + (_Z,) * 16,
    "util": ((0.65, 0.1, 0.55, 0.65),) + (_Z,) * 16,
}
_WEIGHTS = {
    "adq": ((1.0, 1.0, 0.6, 0.8),) + (_Z,) * 16,
    "rank": ((1.0, 0.6, 0.8, 0.6), (1.0, 0.4, 0.0, 0.0), (1.0, 0.2, 0.4, 0.0), (1.0, 0.8, 0.6, 0.0),
             (1.0, 0.8, 0.2, 0.0), _Z, _Z, (1.0, 0.5, 0.5, 0.0)) + (_Z,) * 9,
    "hter": ((1.0, 0.2, 0.6, 0.8),) + (_Z,) * 16,
    "util": ((1.0, 0.0, 0.0, 0.8),) + (_Z,) * 16,
}
_PARAM_LI, _WEIGHT_LI = (0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.5)
_PARAM_TUNE, _WEIGHT_TUNE = (0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5, 0.5)
_PARAM_U, _WEIGHT_U = (0.70, 1.40, 0.30, 0.70), (1.0, 0.6, 0.0, 0.0)

# Constants.getModules: the modules each language runs by default (the universal task: exact and
# paraphrase, whatever the language).
_DEFAULT_MODULES = {
    "en": MODULES, "fr": ("exact", "stem", "paraphrase"), "es": ("exact", "stem", "paraphrase"),
    "de": ("exact", "stem", "paraphrase"), "cs": ("exact", "paraphrase"), "ar-bw-red": ("exact", "stem"),
    "ru": ("exact", "stem", "paraphrase"), "other": ("exact",),
}


class LanguageError(ValueError):
    """A language, task or module choice the jar does not offer (the message says what it does)."""


def language(name: str) -> Language:
    """A language by any of its names (ISO code, the jar's short or long name), case-insensitively."""
    found = _BY_NAME.get(str(name).strip().lower())
    if found is None:
        raise LanguageError(f"unknown language {name!r}; Meteor 1.5 scores {', '.join(LANGUAGES)} "
                            "(also the jar's names: cz, se, english, german, ...); text in any other "
                            "language: 'other' (exact matches only)")
    return found


def task(name: str) -> str:
    found = str(name).strip().lower()
    if found == "default":
        return "rank"
    if found not in TASKS:
        raise LanguageError(f"unknown task {name!r}; choose from {', '.join(TASKS)}")
    return found


def default_task(lang: Language) -> str:
    """Constants.getDefaultTask: rank for the tuned languages, li (language-independent) otherwise."""
    return "rank" if lang.tuned else "li"


def parameters(lang: Language, task_name: str) -> tuple[tuple[float, float, float, float], tuple[float, ...]]:
    """((α, β, γ, δ), the four module weights) as Constants.getParameters/getModuleWeights give
    them; LanguageError where the jar's table holds only zeros (it has no such parameters)."""
    if task_name == "universal":
        return _PARAM_U, _WEIGHT_U
    if lang.code == "other" or task_name == "li":
        return _PARAM_LI, _WEIGHT_LI
    if task_name == "tune":
        return _PARAM_TUNE, _WEIGHT_TUNE
    params, weights = _PARAMS[task_name][_ID[lang.code]], _WEIGHTS[task_name][_ID[lang.code]]
    if params == _Z:
        tuned = [t for t in ("rank", "adq", "hter", "util") if _PARAMS[t][_ID[lang.code]] != _Z]
        raise LanguageError(f"Meteor 1.5 has no {task_name} parameters for {lang.display} (its table holds zeros, "
                            f"which score nothing); tasks for {lang.display}: "
                            f"{', '.join(tuned + ['li', 'tune', 'universal'])}")
    return params, weights


def default_modules(lang: Language, task_name: str) -> tuple[str, ...]:
    """Constants.getModules."""
    if task_name == "universal":
        return ("exact", "paraphrase")
    return _DEFAULT_MODULES.get(lang.code, ("exact", "stem"))


def check_modules(lang: Language, modules: tuple[str, ...]) -> None:
    """Refuse, as the jar does when it builds its aligner, the modules a language lacks."""
    if "stem" in modules and lang.stemmer is None:
        raise LanguageError(f"No stemmer for language ({lang.jar_name}): Meteor 1.5 has no stem module for "
                            f"{lang.display}; leave 'stem' out of the modules")
    if "synonym" in modules and lang.code != "en":
        raise LanguageError(f"Meteor 1.5's synonym module is English only (WordNet): the jar cannot load a "
                            f"synonym dictionary for {lang.jar_name}; leave 'synonym' out of the modules")


def positional_weights(modules: tuple[str, ...], weights: tuple[float, ...]) -> tuple[float, ...]:
    """The jar's rule: the k-th module gets the k-th weight of ``weights`` (0 past its end), whatever
    module that weight was listed for. Returns one weight per module of MODULES (0 for modules not run)."""
    by_module = dict.fromkeys(MODULES, 0.0)
    for k, module in enumerate(modules):
        by_module[module] = float(weights[k]) if k < len(weights) else 0.0
    return tuple(by_module[m] for m in MODULES)


def module_settings(lang: Language, task_name: str, modules: tuple[str, ...] | None = None,
                    weights: tuple[float, ...] | None = None) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """(modules run, one weight per module of MODULES) as the jar's MeteorConfiguration makes them
    from ``-l``, ``-t``, ``-w`` and ``-m``, in its order: the task's weights sized to the task's
    default modules; ``weights`` (-w) replace them; ``modules`` (-m) then take the weights by
    position (0 past the end). Modules are given in MODULES order."""
    defaults = default_modules(lang, task_name)
    _, table_weights = parameters(lang, task_name)
    sized = tuple(table_weights[:len(defaults)]) if weights is None else tuple(weights)
    chosen = defaults if modules is None else tuple(modules)
    unknown = [m for m in chosen if m not in MODULES]
    if unknown:
        raise LanguageError(f"unknown module(s) {', '.join(map(str, unknown))}; choose from {', '.join(MODULES)}")
    if list(chosen) != sorted(set(chosen), key=MODULES.index):
        raise LanguageError(f"modules must be given once each, in the order {' '.join(MODULES)}; got {' '.join(chosen)}")
    if not chosen:
        raise LanguageError("at least one module is needed")
    if modules is None and len(sized) < len(chosen):
        raise LanguageError(f"{len(chosen)} modules ({' '.join(chosen)}) need {len(chosen)} weights; got {len(sized)}")
    check_modules(lang, chosen)
    return chosen, positional_weights(chosen, sized)
