"""What a user should know about a configuration and its input before trusting the number, one
sentence each: modules the jar would run that are missing here (a paraphrase table not on this
machine), text not in Unicode NFC under a preset that takes text as given, text that looks like
another language than the one chosen. The CLI prints them on stderr, the app above its results;
neither changes a score. Each note ends with how to act on it, worded by the caller (``fixes``).
"""
from __future__ import annotations

import unicodedata
from typing import Iterable

from .config import MeteorConfig, missing_default_modules
from .language_check import mismatch_note

NOTE_SAMPLE = 500  # segments (of each input) read for the notes on the input: enough to tell, cheap

# How to act on each note, on the command line (the app passes its own words).
CLI_FIXES = {"paraphrase": "give one with --paraphrase-table PATH",
             "nfc": "--normalize nfc composes it first",
             "language": "choose the language of the translations (--lang {code})"}


def config_notes(config: MeteorConfig, texts: Iterable[str] | None = None, modules_chosen: bool = False,
                 fixes: dict[str, str] = CLI_FIXES) -> list[str]:
    """The notes for ``config`` and a sample of its input ``texts`` (missing modules only when the
    user did not choose the modules)."""
    notes = []
    missing = () if modules_chosen else missing_default_modules(config)
    if missing:
        lang = config.language_info
        notes.append(f"scoring without {' and '.join(missing)}: Meteor 1.5's {lang.display} paraphrase table "
                     f"(data/paraphrase-{lang.jar_short}.gz beside the jar) is not on this machine, so the modules "
                     f"are {' '.join(config.stages)} (the signature lists them); the jar itself would stop here. "
                     f"To score as the jar does, {fixes['paraphrase']}")
    texts = list(texts or ())
    if texts:
        if config.normalize == "none" and not all(unicodedata.is_normalized("NFC", t) for t in texts):
            notes.append("some text is not in Unicode NFC (decomposed accents, as some macOS tools write them): "
                         f"{config.name} scores it as given, as its peer does; {fixes['nfc']}")
        mismatch = mismatch_note(texts, config.language, fixes["language"])
        if mismatch:
            notes.append(mismatch)
    return notes
