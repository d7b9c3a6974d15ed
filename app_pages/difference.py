"""Why do two METEORs disagree? Two configurations on the same pair: both alignments, every
term side by side, and the waterfall that walks from A to B one factor at a time.

The inputs live in the URL (hyp, ref, a, b, a_alpha…, b_syn, order), so the explorer's link
opens its pair here and a link to this page reopens the same comparison; the widgets keep their
values across pages themselves (persist_state)."""
from __future__ import annotations

import streamlit as st

from app_pages import page_state
from components import difference_views, language_choice
from components.alignment_chart import alignment_figure
from components.inputs import check_pair
from components.missing_resources import MISSING_RESOURCES, show_missing
from components.plain_text import markdown_literal
from meteor_core import MeteorConfig
from meteor_core.analysis.difference import DEFAULT_ORDER, explain_difference
from meteor_core.compat import known
from meteor_core.config import PARAMETER_RANGES, PRESET_NAMES, check_parameter
from meteor_core.explain import counted, diff_alignments, number
from meteor_core.languages import LANGUAGES

PAGE = "difference"
# The presets, then the METEORs of packages (pycocoevalcap, hf-evaluate, ...: meteor_core.compat.known);
# a link may name one in any case or by an alias (?a=coco&b=HF).
PRESETS = known.choices()
EXAMPLE_HYP = "Alimentum is located in the city centre. It is not family-friendly."
EXAMPLE_REF = "There is a place in the city centre, Alimentum, that is not family-friendly."
DEFAULTS = {"A": "nltk", "B": "meteor15"}
SIDE_PARAMETERS = tuple((name, *PARAMETER_RANGES[name]) for name in ("alpha", "beta", "gamma"))  # the library's
LANG = language_choice.KEY
ENGLISH_ONLY = "nltk and the packages' METEORs are English only; both sides score the language chosen."


def _language() -> str:
    return st.session_state.get(LANG, "en")


def _choices(lang: str) -> list[str]:
    """The configurations that score ``lang``: every one in English, the presets that take the
    language otherwise."""
    return PRESETS if lang == "en" else list(language_choice.presets(lang))


def _base(preset: str, **overrides) -> MeteorConfig:
    """A preset in the language chosen (one language for both sides), or a package's METEOR."""
    if preset in PRESET_NAMES:
        return known.configuration(preset, language=_language(), **overrides)
    return known.configuration(preset, **overrides)


def _language_changed() -> None:
    """Another language: each side becomes a configuration that scores it, with its own parameters."""
    offered = _choices(_language())
    for side in "AB":
        if st.session_state.get(f"dif_{side}") not in offered:
            st.session_state[f"dif_{side}"] = "meteor2005" if side == "A" else "meteor15"
        _preset_defaults(side)


def _preset_defaults(side: str) -> None:
    base = _base(st.session_state[f"dif_{side}"])
    for name, _, _ in SIDE_PARAMETERS:
        st.session_state[f"dif_{side}_{name}"] = getattr(base, name)
    st.session_state[f"dif_{side}_syn"] = "synonym" in base.stages


def _from_url() -> None:
    """The query parameters (a link from the explorer or a shared one) over the defaults."""
    q = st.query_params if "a" in st.query_params else {}
    problems = []  # what the link asked for that cannot be used, said once above the page
    st.session_state.dif_hyp = q.get("hyp", EXAMPLE_HYP)
    st.session_state.dif_ref = q.get("ref", EXAMPLE_REF)
    lang = q.get("lang", _language())  # the link's, else the one chosen on another page
    if lang not in LANGUAGES:
        problems.append(f"lang must be one of {', '.join(LANGUAGES)}; got {lang[:30]}. Using English (en).")
        lang = "en"
    st.session_state[LANG] = lang
    for side in "AB":
        preset = q.get(side.lower(), DEFAULTS[side])
        try:
            preset = known.canonical(preset)
        except ValueError:
            problems.append(f"{side.lower()} must be one of {', '.join(PRESETS)}; got {preset[:30]}. "
                            f"Using {DEFAULTS[side]}.")
            preset = DEFAULTS[side]
        if preset not in _choices(lang):
            problems.append(f"{preset} scores English only; using {'meteor2005' if side == 'A' else 'meteor15'} "
                            f"for {LANGUAGES[lang].display}.")
            preset = "meteor2005" if side == "A" else "meteor15"
        st.session_state[f"dif_{side}"] = preset
        _preset_defaults(side)
        for name, _, _ in SIDE_PARAMETERS:  # the library's own check: the same ranges and messages
            if f"{side.lower()}_{name}" in q:
                try:
                    st.session_state[f"dif_{side}_{name}"] = check_parameter(name, q[f"{side.lower()}_{name}"])
                except ValueError as exc:
                    problems.append(f"{side.lower()}_{exc}. Using the preset's "
                                    f"{st.session_state[f'dif_{side}_{name}']:g}.")
        if f"{side.lower()}_syn" in q:
            st.session_state[f"dif_{side}_syn"] = q.get(f"{side.lower()}_syn") != "0"
    order = [f for f in q.get("order", "").split(",") if f in DEFAULT_ORDER]
    st.session_state.dif_order = list(dict.fromkeys(order)) if order else list(DEFAULT_ORDER)
    st.session_state.dif_url_problems = problems


def _start() -> None:
    entered = page_state.entered(PAGE)
    # "a" marks this page's own parameters (the explorer's URL has "preset" instead).
    if "dif_hyp" not in st.session_state or (entered and "a" in st.query_params):
        _from_url()  # a new session, or the page opened by a link carrying a pair
    elif st.session_state.get("_dif_lang_drawn", _language()) != _language():
        _language_changed()  # chosen on another page: both sides follow


def _url_params(config_a: MeteorConfig, config_b: MeteorConfig, order: list[str]) -> dict:
    params = {"hyp": st.session_state.dif_hyp, "ref": st.session_state.dif_ref, "lang": _language()}
    for side, config in (("a", config_a), ("b", config_b)):
        params[side] = st.session_state[f"dif_{side.upper()}"]
        base = _base(params[side])
        for name, _, _ in SIDE_PARAMETERS:
            if getattr(config, name) != getattr(base, name):
                params[f"{side}_{name}"] = f"{getattr(config, name):g}"
        if ("synonym" in config.stages) != ("synonym" in base.stages):
            params[f"{side}_syn"] = "1" if "synonym" in config.stages else "0"
    if list(order) != list(DEFAULT_ORDER):
        params["order"] = ",".join(order)
    return params


def _config(side: str) -> MeteorConfig:
    offered = _choices(_language())
    if st.session_state.get(f"dif_{side}") not in offered:  # kept from another language
        st.session_state[f"dif_{side}"] = "meteor2005" if side == "A" else "meteor15"
        _preset_defaults(side)
    preset = st.selectbox(f"Configuration {side}", offered, key=f"dif_{side}", on_change=_preset_defaults,
                          args=(side,), persist_state="session")
    base = _base(preset)
    with st.expander(f"Adjust {side} (custom)"):
        alpha = st.slider("α", *PARAMETER_RANGES["alpha"], step=0.05, key=f"dif_{side}_alpha",
                          persist_state="session")
        beta = st.slider("β (penalty exponent)", *PARAMETER_RANGES["beta"], step=0.05, key=f"dif_{side}_beta",
                         persist_state="session")
        gamma = st.slider("γ (maximum penalty)", *PARAMETER_RANGES["gamma"], step=0.05, key=f"dif_{side}_gamma",
                          persist_state="session")
        english = _language() == "en"
        synonyms = st.checkbox("synonym stage", key=f"dif_{side}_syn", persist_state="session",
                               disabled=not english, help=None if english else "Synonyms are English only (WordNet)")
        synonyms = synonyms and english
    stages = base.stages if synonyms else tuple(s for s in base.stages if s != "synonym")
    custom = (alpha, beta, gamma, stages) != (base.alpha, base.beta, base.gamma, base.stages)
    return _base(preset, alpha=alpha, beta=beta, gamma=gamma, stages=stages,
                 name=f"{preset} (custom)" if custom else base.name)


@st.cache_data(show_spinner="Walking from A to B…", max_entries=64)
def _difference(hyp: str, ref: str, a: dict, b: dict, order: tuple[str, ...]):
    return explain_difference(hyp, [ref], MeteorConfig.from_dict(a), MeteorConfig.from_dict(b), order)


@st.cache_resource(show_spinner=False, max_entries=64)
def _drawing(hyp: str, ref: str, a: dict, b: dict, order: tuple[str, ...], side: str, title: str, marked: tuple):
    d = _difference(hyp, ref, a, b, order)
    return alignment_figure((d.result_a if side == "A" else d.result_b).per_reference[0], title=title,
                            marked=set(marked))


_start()
with st.sidebar:
    st.header("Settings")
    language_choice.choose(st, on_change=_language_changed)
    st.session_state._dif_lang_drawn = _language()
    if _language() != "en":
        st.caption(ENGLISH_ONLY)

st.title("Why do two METEORs disagree?")
for problem in st.session_state.pop("dif_url_problems", []):  # said once: gone at the next interaction
    st.warning(markdown_literal(problem))
st.caption("NLTK, the Meteor 1.5 jar and the 2005 paper give different numbers for the same pair. "
           "Pick two configurations: the waterfall moves from A to B one factor at a time.")
# value= as well as the key's value: drawn from session state alone, a text area shows empty until
# the run ends (see the explorer).
hyp = st.text_area("Candidate translation", st.session_state.dif_hyp, key="dif_hyp", height=70, persist_state="session")
ref = st.text_area("Reference", st.session_state.dif_ref, key="dif_ref", height=70, persist_state="session")
c1, c2 = st.columns(2)
with c1:
    config_a = _config("A")
with c2:
    config_b = _config("B")
order = st.multiselect("Order of the factors (the attribution depends on it; unlisted ones go last)",
                       DEFAULT_ORDER, key="dif_order", persist_state="session")
st.query_params.from_dict(_url_params(config_a, config_b, order))
if st.session_state.dif_A in PRESET_NAMES:  # (the explorer takes presets, not packages' METEORs)
    st.page_link("app_pages/explore.py", label="Open this pair in the explorer (configuration A)",
                 icon=":material/compare_arrows:",
                 query_params={"hyp": hyp, "ref": ref, "lang": _language(), "preset": st.session_state.dif_A,
                               **{name: f"{getattr(config_a, name):g}" for name, _, _ in SIDE_PARAMETERS},
                               "stages": ",".join(config_a.stages)})

errors, _ = check_pair(hyp, [ref])
for message in errors:
    st.warning(message)
if errors:
    st.stop()
language_choice.show_notes([config_a, config_b], [hyp, ref])
key = (hyp, ref, config_a.to_dict(), config_b.to_dict(), tuple(order))
try:
    d = _difference(*key)
    result_a, result_b = d.result_a, d.result_b
except MISSING_RESOURCES as exc:
    show_missing(exc)
    st.stop()

numbers = st.container(horizontal=True, gap="large")  # wraps on a narrow page instead of cutting the numbers
numbers.metric(f"A: {config_a.name}", number(d.score_a), width="content")
numbers.metric(f"B: {config_b.name}", number(d.score_b), width="content")
numbers.metric("B − A", number(d.total, signed=True), width="content")
st.info(d.summary())
st.plotly_chart(difference_views.waterfall_figure(d), key="dif_waterfall")
st.dataframe(difference_views.steps_table(d), hide_index=True, key="dif_steps",
             column_config={c: st.column_config.NumberColumn(format="%.4f")
                            for c in ("precision", "recall", "fmean", "penalty", "score")})

st.subheader("Both alignments")
same_tokens = result_a.hyp_tokens == result_b.hyp_tokens and result_a.ref_tokens == result_b.ref_tokens
if same_tokens:
    diff = diff_alignments(result_a.alignment, result_b.alignment)
    only_a, only_b = diff.differing_pairs()
    st.caption(f"{counted(len(diff.only_a), 'match', 'matches')} only in A, {len(diff.only_b)} only in B, "
               f"{len(diff.stage_differs)} found by a different stage (dashed).")
else:
    only_a = only_b = set()
    st.caption("The two tokenise the text differently, so the drawings have different token positions; "
               "the tokenisation step of the waterfall shows what that costs.")
st.plotly_chart(_drawing(*key, "A", f"A: {config_a.name}", tuple(sorted(only_a))), width="stretch", key="dif_align_a")
st.plotly_chart(_drawing(*key, "B", f"B: {config_b.name}", tuple(sorted(only_b))), width="stretch", key="dif_align_b")
st.subheader("Every term side by side")
st.dataframe(difference_views.terms_side_by_side(d, result_a, result_b), hide_index=True, key="dif_terms")
