"""Explore one pair: type a candidate and references, see the alignment and every term of the score.

This page only wires inputs to meteor_core and meteor_core results to the views in components/.
User text is only ever shown through widgets, dataframes, st.text and escaped Plotly labels,
never as HTML or Markdown.

Speed: scores and figures are cached per (input, configuration); the views are lazy tabs, so a
rerun builds only the open one. State: the inputs are kept across pages (page_state) and
mirrored in the URL, so a link reopens the same pair.
"""
from __future__ import annotations

import os

import streamlit as st

from app_pages import page_state
from components import alignment_chart, alignment_export, breakdown, link_check, tables
from components import language_choice
from components.examples import BY_TITLE, EXAMPLES
from components.inputs import check_pair
from components.missing_resources import MISSING_RESOURCES, show_missing
from components.paraphrase_tables import DIRECTORY_VARIABLE, configured_tables, store_upload
from components.plain_text import markdown_literal
from meteor_core import MeteorConfig, score
from meteor_core.jar_resources import jar_available, paraphrase_available
from meteor_core.languages import LANGUAGES, module_settings
from meteor_core.config import DEFAULT_STAGES as STAGES, PARAMETER_RANGES, PRESET_NAMES, check_parameter
from meteor_core.explain import counted, diff_alignments, lesson, number
from meteor_core.export import alignment_json, alignment_tsv
from meteor_core.textio import MAX_FILE_BYTES, InputError

PAGE = "explore"
PRESETS = PRESET_NAMES
DEFAULT = EXAMPLES[0]
NO_EXAMPLE = "(your own text)"
MAX_REFERENCES = 16  # a link cannot open thousands of reference boxes
NO_TABLE, UPLOAD_TABLE = "(none)", "Upload a table…"
LANG = language_choice.KEY
VIEWS = ("Alignment", "Score breakdown", "Words", "References", "meteor2005 vs NLTK", "Export")
# Widget keys whose values outlive a visit to another page (ref_k and the reference chooser are added per run).
KEPT = ("hyp", "example", "preset", "alpha", "beta", "gamma", "delta", "paraphrase_choice", "stage_paraphrase",
        "view", "nltk_same_tokens", "normalize", LANG, *(f"stage_{s}" for s in STAGES))


def jar_table(language: str) -> str:
    """The paraphrase choice naming the jar's own table for ``language``."""
    return f"the jar's (paraphrase-{LANGUAGES[language].jar_short}.gz)"


def _table_choices(language: str) -> list[str]:
    """The paraphrase tables meteor15 can take: the jar's own first (where it is on this machine),
    none, the server's, an upload."""
    own = [jar_table(language)] if paraphrase_available(language) else []
    return [*own, NO_TABLE, *configured_tables(), UPLOAD_TABLE]


def _table_chosen() -> None:
    """A table chosen: its paraphrase stage on (the checkbox, drawn once the table is there, starts
    ticked; a value kept from before the choice must not untick it)."""
    st.session_state.pop("stage_paraphrase", None)
    st.session_state.pop(page_state.PREFIX + "stage_paraphrase", None)


def _set_stages(base: MeteorConfig) -> None:
    """The stage checkboxes, the paraphrase table and NFC as ``base`` (a preset) has them."""
    for stage in STAGES:
        st.session_state[f"stage_{stage}"] = stage in base.stages
    st.session_state.stage_paraphrase = "paraphrase" in base.stages
    st.session_state.paraphrase_choice = jar_table(base.language) if "paraphrase" in base.stages else NO_TABLE
    st.session_state.normalize = base.normalize != "none"


def _paraphrase_weighed(base: MeteorConfig, stages: tuple[str, ...]) -> tuple[float, ...]:
    """The preset's module weights, with a weight for paraphrases where the preset has none (the
    jar's table for the language is not on this machine, or the language does not run paraphrases
    by default): the one the jar's default modules give it, else the one ``-m`` with these stages
    would give it (the jar's rule: weights by position)."""
    weights = list(base.module_weights)
    if not weights[-1]:
        lang = base.language_info
        weights[-1] = module_settings(lang, base.task)[1][-1] or module_settings(lang, base.task, stages)[1][-1]
    return tuple(weights)


# --- state: widget values live in st.session_state, are kept across pages and mirrored in the URL --


def _from_url() -> None:
    """Inputs from the query parameters (a shared link, or the difference page's link back)."""
    q = st.query_params
    if "a" in q:  # the difference page's parameters, not a pair for this page
        q = {}
    problems = []  # what the link asked for that cannot be used, said once above the page
    refs = (q.get_all("ref") if q else []) or list(DEFAULT.references)
    if len(refs) > MAX_REFERENCES:
        problems.append(f"The link has {len(refs):,} references; the first {MAX_REFERENCES} are used.")
        refs = refs[:MAX_REFERENCES]
    st.session_state.hyp = q.get("hyp", DEFAULT.hypothesis)
    st.session_state.n_refs = len(refs)
    for k, r in enumerate(refs):
        st.session_state[f"ref_{k}"] = r
    lang = q.get("lang", st.session_state.get(LANG, "en"))  # the link's, else the one chosen on another page
    if lang not in LANGUAGES:
        problems.append(f"lang must be one of {', '.join(LANGUAGES)}; got {lang[:30]}. Using English (en).")
        lang = "en"
    st.session_state[LANG] = lang
    preset = q.get("preset", "meteor2005")
    if preset not in PRESETS:
        problems.append(f"preset must be one of {', '.join(PRESETS)}; got {preset[:30]}. Using meteor2005.")
        preset = "meteor2005"
    if preset not in language_choice.presets(lang):
        problems.append(f"{language_choice.NLTK_NOTE} Using meteor15 for {LANGUAGES[lang].display}.")
        preset = "meteor15"
    st.session_state.preset = preset
    base = MeteorConfig.preset(preset, language=lang)
    for name in PARAMETER_RANGES:  # the library's own check: the same ranges and messages everywhere
        value = getattr(base, name)
        if name in q:
            try:
                value = check_parameter(name, q[name])
            except ValueError as exc:
                problems.append(f"{exc}. Using the preset's {value:g}.")
        st.session_state[name] = value
    st.session_state.url_problems = problems
    if q.get("view") in VIEWS:  # the open tab: a reload or a shared link opens the same view
        st.session_state.view = q["view"]
    _set_stages(base)
    stages = q.get("stages")
    if stages is not None:
        chosen = stages.split(",")
        for stage in STAGES:
            st.session_state[f"stage_{stage}"] = stage in chosen
        st.session_state.stage_paraphrase = "paraphrase" in chosen
        if "paraphrase" in chosen and preset == "meteor15" and paraphrase_available(lang):
            st.session_state.paraphrase_choice = jar_table(lang)  # a link cannot name a path: the jar's table
    if "nfc" in q:
        st.session_state.normalize = q["nfc"] == "1"
    # a link carrying an example's own texts (the difference page's link back) keeps its lesson
    texts = (st.session_state.hyp, tuple(refs))
    st.session_state.example = next((e.title for e in EXAMPLES if (e.hypothesis, e.references) == texts), NO_EXAMPLE)


def _start() -> None:
    """Before any widget: give back what Streamlit dropped while another page was shown; a new
    session, or a link carrying a pair (the difference page's), starts from the URL; else the
    default example."""
    entered = page_state.entered(PAGE)
    page_state.restore(KEPT + tuple(f"ref_{k}" for k in range(st.session_state.get("n_refs", 0))))
    linked = "hyp" in st.query_params and "a" not in st.query_params  # "a": the difference page's own URL
    if "hyp" not in st.session_state or (entered and linked):
        _from_url()  # a new session, or the page opened by a link carrying a pair
    elif st.session_state.get("_lang_drawn", st.session_state.get(LANG)) != st.session_state.get(LANG):
        _language_changed()  # chosen on another page: this page's parameters follow, saying so
    # The example selector names an example only while the text is still that example's.
    example = BY_TITLE.get(st.session_state.get("example"))
    if example is not None and _texts() != (example.hypothesis, example.references):
        st.session_state.example = NO_EXAMPLE


def _texts() -> tuple[str, tuple[str, ...]]:
    return (st.session_state.get("hyp", ""),
            tuple(st.session_state.get(f"ref_{k}", "") for k in range(st.session_state.get("n_refs", 1))))


def _load_example() -> None:
    example = BY_TITLE.get(st.session_state.example)
    if example is None:
        return
    st.session_state.hyp = example.hypothesis
    st.session_state.n_refs = len(example.references)
    for k, r in enumerate(example.references):
        st.session_state[f"ref_{k}"] = r


def _language_changed() -> None:
    """Another language: the preset's parameters for it (nltk, English only, gives way to meteor15)."""
    lang = st.session_state[LANG]
    if st.session_state.preset not in language_choice.presets(lang):
        st.session_state.preset = "meteor15"
        st.session_state.language_note = f"{language_choice.NLTK_NOTE} The preset is now meteor15."
    _reset_parameters()


def _reset_parameters() -> None:
    """The preset's own α, β, γ, δ, stages and NFC for the language; what this changes is said once
    above the page (a preset or language change must not silently undo the user's parameters)."""
    lang = st.session_state.get(LANG, "en")
    base = MeteorConfig.preset(st.session_state.preset, language=lang)
    shown = MeteorConfig.preset(st.session_state.get("_preset_drawn", base.name))  # whose sliders the user saw
    changed = [f"{symbol} {st.session_state[name]:g} → {getattr(base, name):g}"
               for name, symbol in (("alpha", "α"), ("beta", "β"), ("gamma", "γ"), ("delta", "δ"))
               if name in st.session_state and st.session_state[name] != getattr(base, name)
               and (name != "delta" or base.scoring == shown.scoring == "meteor1x")]
    changed += [f"{stage} {'on' if stage in base.stages else 'off'}" for stage in STAGES
                if st.session_state.get(f"stage_{stage}", stage in base.stages) != (stage in base.stages)]
    paraphrase = "paraphrase" in base.stages
    was_on = shown.name == "meteor15" and st.session_state.get("stage_paraphrase", paraphrase)  # only meteor15 has it
    if was_on != paraphrase:
        changed.append(f"paraphrase {'on' if paraphrase else 'off'}")
    if "normalize" in st.session_state and st.session_state.normalize != (base.normalize != "none"):
        changed.append(f"Unicode NFC {'on' if base.normalize != 'none' else 'off'}")
    if changed:
        language = "" if lang == "en" else f" for {LANGUAGES[lang].display}"
        st.session_state.preset_note = (f"{base.name}'s own parameters and stages{language} are set: "
                                        f"{', '.join(changed)}. Move the sliders again for values of your own.")
    st.session_state.alpha, st.session_state.beta, st.session_state.gamma = base.alpha, base.beta, base.gamma
    st.session_state.delta = base.delta
    _set_stages(base)


def _add_reference() -> None:
    if st.session_state.n_refs < MAX_REFERENCES:
        st.session_state[f"ref_{st.session_state.n_refs}"] = ""
        st.session_state.n_refs += 1


def _remove_reference() -> None:
    if st.session_state.n_refs > 1:
        st.session_state.n_refs -= 1
        st.session_state.pop(f"ref_{st.session_state.n_refs}", None)
        st.session_state.pop(page_state.PREFIX + f"ref_{st.session_state.n_refs}", None)


def _url_params(hyp: str, refs: list[str], config: MeteorConfig) -> dict:
    return {
        "hyp": hyp, "ref": refs, "lang": config.language, "preset": st.session_state.preset,
        "alpha": f"{config.alpha:g}", "beta": f"{config.beta:g}", "gamma": f"{config.gamma:g}",
        **({"delta": f"{config.delta:g}"} if config.scoring == "meteor1x" else {}),
        "stages": ",".join(config.stages),
        **({"nfc": "1" if config.normalize != "none" else "0"}
           if config.normalize != MeteorConfig.preset(config.name, language=config.language).normalize else {}),
        **({"view": st.session_state.view} if st.session_state.get("view", VIEWS[0]) != VIEWS[0] else {}),
    }


def _mirror_to_url(params: dict) -> None:
    st.query_params.from_dict(params)


_start()

# --- inputs --------------------------------------------------------------------------------

with st.sidebar:
    st.header("Settings")
    st.selectbox("Built-in example", [NO_EXAMPLE] + [e.title for e in EXAMPLES], key="example",
                 on_change=_load_example, help="Each example shows one thing METEOR does.")
    lang = language_choice.choose(st, on_change=_language_changed)
    language = LANGUAGES[lang]
    st.selectbox("Preset", language_choice.presets(lang), key="preset", on_change=_reset_parameters,
                 help="meteor2005: the paper's optimal alignment. nltk: a faithful copy of "
                      "nltk.translate.meteor_score (whitespace tokens, greedy alignment; English only). meteor15: "
                      "Meteor 1.5's defaults for the language (weighted matches, δ, its beam aligner).")
    if lang != "en":
        st.caption(language_choice.NLTK_NOTE)
    st.slider("α (weight of precision in Fmean's denominator; high α favours recall)", *PARAMETER_RANGES["alpha"],
              step=0.05, key="alpha")
    st.slider("β (penalty exponent: the shape of the penalty curve)", *PARAMETER_RANGES["beta"], step=0.05, key="beta",
              help="Pen = γ·(c/m)^β. β > 1 (2005: 3) barely penalises a few chunks and punishes many; β < 1 "
                   "(Meteor 1.5: 0.2) penalises the first breaks of word order almost fully.")
    st.slider("γ (maximum penalty, reached when every match is its own chunk)", *PARAMETER_RANGES["gamma"],
              step=0.05, key="gamma")
    if st.session_state.preset == "meteor15":
        st.slider("δ (content-word weight)", *PARAMETER_RANGES["delta"], step=0.05, key="delta",
                  help="Meteor 1.x: content words count δ, function words 1 − δ.")
        st.caption("Function words, -norm tokenisation and synonyms: the Meteor 1.5 jar's own files." if jar_available()
                   else "meteor15 needs a Meteor 1.5 jar (its function words, -norm tokenisation and synonyms): "
                        "pip install pycocoevalcap, or set METEOR_JAR.")
    st.caption("Stages")
    lacking = {"stem": f"{language.display} has no stemmer in Meteor 1.5" if language.stemmer is None else "",
               "synonym": "" if lang == "en" else "Synonyms are English only (WordNet)"}
    for stage in STAGES:
        if lacking.get(stage):
            st.session_state[f"stage_{stage}"] = False
        st.checkbox(stage, key=f"stage_{stage}", disabled=bool(lacking.get(stage)), help=lacking.get(stage) or None)
    absent = [why for why in lacking.values() if why]
    if absent:
        st.caption("; ".join(absent) + ".")
    st.toggle("Unicode NFC (compose accents before tokenising)", key="normalize",
              help="meteor2005 composes text to NFC first; nltk and meteor15 take it as given, as NLTK and "
                   "the jar do.")
    paraphrase_path = paraphrase_name = ""  # the jar's table, one the server lists or an upload it stored
    if st.session_state.preset == "meteor15":
        server_tables = configured_tables()
        choices = _table_choices(lang)
        if st.session_state.get("paraphrase_choice") not in choices:
            st.session_state.paraphrase_choice = choices[0]  # a kept choice not offered here: the jar's, or none
        choice = st.selectbox(
            "Paraphrase table", choices, key="paraphrase_choice", on_change=_table_chosen,
            help="The jar's own table for the language (data/paraphrase-<lang>.gz beside it) when it is on this "
                 "machine; or a Meteor-format table (probability, phrase, paraphrase lines; gzip or text): the "
                 f"server offers the tables in the directory named by {DIRECTORY_VARIABLE}; or upload one "
                 f"(up to {MAX_FILE_BYTES // 2**20} MiB, also once decompressed).")
        if choice == UPLOAD_TABLE:
            upload = st.file_uploader("Paraphrase table file", type=["gz", "txt"], key="paraphrase_upload",
                                      max_upload_size=MAX_FILE_BYTES // 2**20)
            if upload is not None:
                try:
                    stored = st.session_state.get("paraphrase_stored")  # (upload id, path): store once
                    if not stored or stored[0] != upload.file_id or not os.path.exists(stored[1]):
                        stored = st.session_state.paraphrase_stored = (
                            upload.file_id, store_upload(upload.getvalue(), upload.name))
                    paraphrase_path, paraphrase_name = stored[1], upload.name
                except InputError as exc:
                    st.warning(markdown_literal(str(exc)))
        elif choice == jar_table(lang):
            paraphrase_path, paraphrase_name = "jar", choice
        elif choice != NO_TABLE:
            paraphrase_path, paraphrase_name = server_tables[choice], choice
        if paraphrase_path:
            st.checkbox("paraphrase", value=True, key="stage_paraphrase")
        else:
            st.caption("Without a table, meteor15 scores without paraphrases.")
    st.button("Reset to the preset's parameters", on_click=_reset_parameters)
    st.session_state._preset_drawn = st.session_state.preset
    st.session_state._lang_drawn = lang

st.title("METEOR Explorer")
for problem in st.session_state.pop("url_problems", []):  # said once: gone at the next interaction
    st.warning(markdown_literal(problem))
dropped_link = link_check.dropped_link_message()  # a link Streamlit ignored whole (over its limits)
if dropped_link:
    st.warning(markdown_literal(dropped_link))
if "language_note" in st.session_state:  # said once, after a language change
    st.info(st.session_state.pop("language_note"))
if "preset_note" in st.session_state:  # said once, after a preset change or the reset button
    st.info(st.session_state.pop("preset_note"))
example = BY_TITLE.get(st.session_state.example)
lesson_box = st.empty()  # filled once the configuration is known (the lesson is the preset's)

# value= as well as the key's value: drawn from session state alone, a text area shows empty until
# the run ends (seconds on a cold start), as number inputs show their minimum (.streamlit/config.toml
# silences the warning about the two sources, which always agree here).
hyp = st.text_area("Candidate translation", st.session_state.hyp, key="hyp", height=80, persist_state="session")
refs = [st.text_area(f"Reference {k + 1}", st.session_state.get(f"ref_{k}", ""), key=f"ref_{k}", height=80,
                     persist_state="session") for k in range(st.session_state.n_refs)]
# Rows of buttons and numbers are horizontal containers, not columns: they wrap on a narrow page
# (800 px with the sidebar open) instead of cutting their text ("Add r…", "METEOR 0.…").
buttons = st.container(horizontal=True)
buttons.button("Add reference", on_click=_add_reference, disabled=st.session_state.n_refs >= MAX_REFERENCES)
buttons.button("Remove last reference", on_click=_remove_reference, disabled=st.session_state.n_refs <= 1)
page_state.keep(KEPT + tuple(f"ref_{k}" for k in range(st.session_state.n_refs)))

stages = tuple(s for s in STAGES if st.session_state[f"stage_{s}"])
extra = {}
if st.session_state.preset == "meteor15":
    extra["delta"] = st.session_state.delta
    if paraphrase_path and st.session_state.get("stage_paraphrase"):
        stages += ("paraphrase",)
        extra["paraphrase_table"] = paraphrase_path
        extra["module_weights"] = _paraphrase_weighed(MeteorConfig.meteor15(language=lang), stages)
config = MeteorConfig.preset(st.session_state.preset, language=lang, alpha=st.session_state.alpha,
                             beta=st.session_state.beta, gamma=st.session_state.gamma, stages=stages,
                             normalize="NFC" if st.session_state.normalize else "none", **extra)
_mirror_to_url(_url_params(hyp, refs, config))
if example is not None:  # only while the text is still the example's (see _start)
    lesson_box.info(f"Example: {example.title}. {example.lesson(config.name).shown()}"
                    + ("" if config == MeteorConfig.preset(config.name) else
                       f" (Told for English under {config.name}'s own settings; the numbers below score it as "
                       f"{language.display}.)" if lang != "en" else
                       f" (Told for {config.name}'s own parameters and stages; the numbers below use yours.)"))

errors, warnings = check_pair(hyp, refs)
for message in errors:
    st.warning(message)
if errors:
    st.stop()
for message in warnings:
    st.caption(message)
ref_numbers = [k for k, r in enumerate(refs) if r.strip()]  # positions of the non-empty references
kept_refs = [refs[k] for k in ref_numbers]
language_choice.show_notes(config, [hyp, *kept_refs])


@st.cache_data(show_spinner=False, max_entries=256)
def _score(hyp: str, refs: tuple[str, ...], config_dict: dict):
    return score(hyp, list(refs), MeteorConfig.from_dict(config_dict))


@st.cache_resource(show_spinner=False, max_entries=64)
def _figure(hyp: str, refs: tuple[str, ...], config_dict: dict, shown: int, title: str | None = None,
            marked: tuple = ()):
    """The drawing of one (input, configuration, reference): built once, shared (never mutated:
    st.plotly_chart copies it)."""
    pair = _score(hyp, refs, config_dict).per_reference[shown]
    return alignment_chart.alignment_figure(pair, title=title, marked=set(marked))


try:
    result = _score(hyp, tuple(kept_refs), config.to_dict())
except MISSING_RESOURCES as exc:
    show_missing(exc, "score")
    st.stop()
except ValueError as exc:  # e.g. an unreadable paraphrase table (named, not its server path)
    st.error(markdown_literal(str(exc).replace(paraphrase_path, paraphrase_name) if paraphrase_path else str(exc)))
    st.stop()

# --- results -------------------------------------------------------------------------------

shown = result.best_reference
if len(kept_refs) > 1:
    labels = [f"Reference {ref_numbers[k] + 1}" + (" (best)" if k == result.best_reference else "")
              for k in range(len(kept_refs))]
    chooser = f"shown_reference_{len(kept_refs)}"
    page_state.restore([chooser])
    if st.session_state.get(chooser, len(kept_refs)) >= len(kept_refs):
        st.session_state[chooser] = result.best_reference
    shown = st.selectbox("Scores and drawing against", range(len(kept_refs)), format_func=lambda k: labels[k],
                         key=chooser)
    page_state.keep([chooser])
pair = result.per_reference[shown]

numbers = st.container(horizontal=True, gap="medium")
for label, value in (("METEOR", number(pair.score)), ("Precision", number(pair.precision)),
                     ("Recall", number(pair.recall)), ("Fmean", number(pair.fmean)), ("Penalty", number(pair.penalty)),
                     ("Chunks / matches", f"{pair.chunks} / {pair.matches}")):
    numbers.metric(label, value, width="content")
if len(kept_refs) > 1:
    best = ref_numbers[result.best_reference] + 1
    st.caption(f"The segment's score is the best of {len(kept_refs)} references: reference {best} "
               f"({number(result.score)}). The numbers above and the views below are for reference "
               f"{ref_numbers[shown] + 1}.")
if not result.optimal and config.aligner == "optimal":
    st.warning("The alignment search hit its time budget: this alignment is the best found, not proven optimal.")

other = "meteor15" if st.session_state.preset == "nltk" else "nltk" if lang == "en" else (
    "meteor2005" if st.session_state.preset == "meteor15" else "meteor15")
st.caption("Why would another METEOR score this pair differently?")
st.page_link("app_pages/difference.py", icon=":material/difference:",
             label=f"Open it in the difference page ({st.session_state.preset} vs {other})",
             query_params={"hyp": hyp, "ref": kept_refs[shown], "lang": lang, "a": st.session_state.preset, "b": other,
                           **{f"a_{name}": f"{getattr(config, name):g}" for name in ("alpha", "beta", "gamma")},
                           "a_syn": "1" if "synonym" in config.stages else "0"})

tabs = dict(zip(VIEWS, st.tabs(VIEWS, key="view", on_change="rerun")))
page_state.keep(["view"])
config_dict = config.to_dict()

if tabs["Alignment"].open:
    with tabs["Alignment"]:
        st.plotly_chart(_figure(hyp, tuple(kept_refs), config_dict, shown), width="stretch", key="alignment_chart")
        st.caption(f"{counted(pair.matches, 'match', 'matches')} in {counted(pair.chunks, 'chunk')}, "
                   f"{counted(pair.crossings, 'crossing line')}. "
                   "Hover a line for the stage and the word, stem or synset that links the two words. "
                   "Long sentences: labels alternate between two lines; drag sideways to see the rest.")
        # side by side where there is room, the curve below the words on a narrow page
        beside = st.container(horizontal=True, gap="medium")
        words, curve = beside.container(width=460), beside.container(width=300)
        with words:
            st.subheader("What this drawing says")
            for sentence in lesson(pair, config):
                st.text(sentence)  # holds the pair's own words: plain text, never Markdown
            st.markdown("**What each stage added**")
            st.dataframe(breakdown.stage_table(pair, config), hide_index=True, key="stage_table", width="stretch")
        with curve:
            st.plotly_chart(breakdown.penalty_curve_figure(pair, config), key="penalty_curve")

if tabs["Score breakdown"].open:
    with tabs["Score breakdown"]:
        st.dataframe(breakdown.terms_table(pair, config), hide_index=True, width="stretch")
        st.plotly_chart(breakdown.waterfall_figure(pair), key="waterfall_chart")

if tabs["Words"].open:
    with tabs["Words"]:
        st.dataframe(tables.word_table(pair), hide_index=True, width="stretch")

if tabs["References"].open:
    with tabs["References"]:
        st.dataframe(tables.reference_table(result), hide_index=True)

if tabs["meteor2005 vs NLTK"].open and lang != "en":
    tabs["meteor2005 vs NLTK"].info(f"{language_choice.NLTK_NOTE} The language chosen is {language.display}.")
elif tabs["meteor2005 vs NLTK"].open:
    with tabs["meteor2005 vs NLTK"]:
        same_tokens = st.toggle("NLTK side on the same tokens (isolates the aligner)", key="nltk_same_tokens",
                                help="Off: exactly what nltk.translate.meteor_score gives, on whitespace tokens. "
                                     "On: NLTK's greedy alignment run on meteor2005's tokens, so the two "
                                     "alignments can be compared word for word.")
        page_state.keep(["nltk_same_tokens"])
        plain_stages = tuple(s for s in stages if s != "paraphrase")  # neither has a paraphrase stage
        base_2005 = MeteorConfig.meteor2005(alpha=config.alpha, beta=config.beta, gamma=config.gamma,
                                            stages=plain_stages)
        nltk_config = MeteorConfig.nltk(alpha=config.alpha, beta=config.beta, gamma=config.gamma, stages=plain_stages,
                                        **({"tokenizer": base_2005.tokenizer} if same_tokens else {}))
        a = _score(hyp, tuple(kept_refs), base_2005.to_dict())
        b = _score(hyp, tuple(kept_refs), nltk_config.to_dict())
        pa, pb = a.per_reference[shown], b.per_reference[shown]
        comparable = pa.hyp_tokens == pb.hyp_tokens and pa.ref_tokens == pb.ref_tokens
        both = st.container(horizontal=True, gap="large")
        both.metric("meteor2005", number(pa.score), width="content")
        both.metric("nltk", number(pb.score), delta=number(pb.score - pa.score, signed=True), delta_color="off",
                    width="content")
        if comparable:
            diff = diff_alignments(pa.alignment, pb.alignment)
            only_a, only_b = diff.differing_pairs()
            if diff.identical:
                st.success("The two alignments are identical.")
            else:
                st.info(f"The alignments differ: {counted(len(diff.only_a), 'match', 'matches')} only in meteor2005, "
                        f"{len(diff.only_b)} only in NLTK, {len(diff.stage_differs)} found by a different stage. "
                        "Differing lines are dashed.")
        else:
            only_a = only_b = set()
            st.info(f"The tokenisations differ ({len(pa.hyp_tokens)}+{len(pa.ref_tokens)} tokens vs "
                    f"{len(pb.hyp_tokens)}+{len(pb.ref_tokens)}), so lines are not compared one by one. "
                    "Turn on 'same tokens' to compare the aligners alone.")
        st.plotly_chart(_figure(hyp, tuple(kept_refs), base_2005.to_dict(), shown, "meteor2005 (optimal alignment)",
                                tuple(sorted(only_a))), width="stretch", key="compare_a")
        st.plotly_chart(_figure(hyp, tuple(kept_refs), nltk_config.to_dict(), shown, "NLTK (greedy alignment)",
                                tuple(sorted(only_b))), width="stretch", key="compare_b")

if tabs["Export"].open:
    with tabs["Export"]:
        st.caption("The alignment drawn above (reference shown), as files: pictures for slides, data for "
                   "scripts, TikZ for LaTeX papers.")
        name = "meteor-alignment"
        downloads = st.container(horizontal=True)
        downloads.download_button("PNG", lambda: alignment_export.alignment_png(pair), f"{name}.png", "image/png",
                           key="export_png", on_click="ignore")
        downloads.download_button("SVG", lambda: alignment_export.alignment_svg(pair), f"{name}.svg", "image/svg+xml",
                           key="export_svg", on_click="ignore")
        downloads.download_button("JSON", lambda: alignment_json(pair, config.signature()), f"{name}.json",
                           "application/json", key="export_json", on_click="ignore")
        downloads.download_button("TSV rows", lambda: alignment_tsv(pair), f"{name}.tsv", "text/tab-separated-values",
                           key="export_tsv", on_click="ignore")
        downloads.download_button("TikZ (LaTeX)", lambda: alignment_export.alignment_tikz(pair), f"{name}.tex",
                           "text/x-tex", key="export_tikz", on_click="ignore")
        st.code(alignment_tsv(pair), language=None)

st.caption("Signature (how to reproduce this score):")
st.code(result.signature, language=None)  # as text: copied, it is the signature, no escapes or invisible joiners
