"""meteor15 against the Meteor 1.5 jar, language by language (needs Java and the jar; the tests run
the same comparisons on smaller samples: tests/test_languages_jar.py).

Each setting scores the same segments both ways and prints the share of segments whose scores are
equal within 1e-9, the largest difference, and the corpus scores side by side:

* English, the jar's defaults: `-l en -norm` (exact, stem, synonym, paraphrase; the table beside
  the jar) against `MeteorConfig.meteor15()`, on the TED set (detokenised, 2 systems x 1,200).
* German, real MT output: the WMT21 TED en->de MQM set (13 systems x 264 segments, the official
  reference), `-l de -norm -m "exact stem"` (the jar has no German paraphrase table here) against
  `MeteorConfig.meteor15(language="de")`.
* Every other language the jar scores: generated sentences in that language (words from
  `wordfreq`, with accents dropped or added, case, compounds, clitics, numbers, punctuation
  perturbed), `-l xx` with `-norm` where the jar has a normaliser and `-lower` otherwise.

    python bench/meteor15_languages.py [--languages en,de,fr] [--show 3] [--segments N]
"""
from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from meteor_core import MeteorConfig, languages, score_corpus  # noqa: E402
from meteor_core.jar_resources import require_jar  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"


def jar_scores(hyps: list[str], refs: list[str], flags: list[str]) -> tuple[list[float], float]:
    """The jar's segment scores and its corpus score ("Final score"), one reference a segment."""
    with tempfile.TemporaryDirectory() as tmp:
        h, r = Path(tmp) / "hyp", Path(tmp) / "ref"
        h.write_text("\n".join(hyps) + "\n", encoding="utf-8")
        r.write_text("\n".join(refs) + "\n", encoding="utf-8")
        out = subprocess.run(["java", "-Xmx2G", "-Dfile.encoding=UTF-8", "-jar", str(require_jar()), str(h), str(r),
                              *flags], capture_output=True, text=True, check=True, encoding="utf-8").stdout
    segments = [float(x) for x in re.findall(r"^Segment \d+ score:\s+(\S+)", out, re.M)]
    return segments, float(re.search(r"^Final score:\s+(\S+)", out, re.M).group(1))


def compare(label: str, hyps: list[str], refs: list[str], flags: list[str], config: MeteorConfig, show: int) -> dict:
    theirs, their_corpus = jar_scores(hyps, refs, flags)
    result = score_corpus(hyps, [[r] for r in refs], config, jobs=None)
    ours = [s.score for s in result.segments]
    diffs = [abs(a - b) for a, b in zip(ours, theirs)]
    row = {"setting": label, "flags": " ".join(flags), "segments": len(diffs),
           "equal": sum(d <= 1e-9 for d in diffs) / len(diffs), "largest": max(diffs),
           "corpus_ours": result.score, "corpus_jar": their_corpus, "signature": config.signature()}
    print(f"{label:34s} {len(diffs):6d} {row['equal']:8.2%} {row['largest']:9.1e} "
          f"{result.score:19.16f} {their_corpus:19.16f}  ({' '.join(flags)})", flush=True)
    for k in sorted(range(len(diffs)), key=lambda k: -diffs[k])[:show]:
        if diffs[k] > 1e-9:
            print(f"    ours {ours[k]:.6f} jar {theirs[k]:.6f}\n      hyp: {hyps[k]}\n      ref: {refs[k]}")
    return row


def ted(segments: int) -> tuple[list[str], list[str]]:
    folder = ROOT / "demo" / "ted-slk-eng"
    ref = (folder / "ted.ref.detok.eng").read_text(encoding="utf-8").splitlines()[:segments]
    hyps, refs = [], []
    for name in ("sys1", "sys2"):
        hyps += (folder / f"ted.{name}.detok.eng").read_text(encoding="utf-8").splitlines()[:segments]
        refs += ref
    return hyps, refs


def mqm_german(segments: int | None = None) -> tuple[list[str], list[str]]:
    """Every system's output on the first ``segments`` segments (all 264 by default)."""
    rows = [json.loads(line) for line in (SHARED / "mqm-ted-ende-part" / "segments.jsonl").read_text(encoding="utf-8").splitlines()]
    if segments is not None:
        keep = sorted({r["seg_id"] for r in rows})[:segments]
        rows = [r for r in rows if r["seg_id"] in set(keep)]
    return [r["hypothesis"] for r in rows], [r["reference"] for r in rows]


def generated(lang: languages.Language, count: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """Sentence pairs in a language: a reference of frequent words with punctuation and numbers,
    and a perturbed copy (words dropped, swapped, inflected, accents dropped, case changed,
    clitics and compounds), so that every module has something to match."""
    from wordfreq import top_n_list
    wordfreq_code = {"no": "nb", "ar-bw-red": None, "other": "en"}.get(lang.code, lang.code)
    words = top_n_list(wordfreq_code, 5000) if wordfreq_code else [
        "ktb", "yktb", "ktAb", "mktb", "Alktb", "qAl", "yqwl", "qwl", "byt", "Albyt", "wld", "Alwld", "ElY", "fy", "mn"]
    rng = random.Random(seed)
    punct = [",", ".", "!", "?", ";", ":", "(", ")", "\"", "'", "-", "...", "«", "»", "—"]
    refs, hyps = [], []
    for _ in range(count):
        ref = [rng.choice(words) for _ in range(rng.randint(3, 25))]
        for _ in range(rng.randint(0, 3)):
            ref.insert(rng.randrange(len(ref) + 1), rng.choice(punct + [str(rng.randint(0, 3000)), f"{rng.randint(1, 99)},{rng.randint(0, 9)}"]))
        hyp = list(ref)
        for _ in range(rng.randint(0, 6)):
            if not hyp:
                break
            k = rng.randrange(len(hyp))
            move = rng.random()
            if move < 0.2:
                del hyp[k]
            elif move < 0.35:
                j = rng.randrange(len(hyp))
                hyp[k], hyp[j] = hyp[j], hyp[k]
            elif move < 0.55:  # inflect: another word sharing a prefix (a stem match, often)
                same = [w for w in words if w[:4] == hyp[k][:4] and w != hyp[k]]
                if same:
                    hyp[k] = rng.choice(same)
            elif move < 0.65:
                hyp[k] = hyp[k].upper() if rng.random() < 0.5 else hyp[k].capitalize()
            elif move < 0.75:
                import unicodedata
                hyp[k] = "".join(c for c in unicodedata.normalize("NFD", hyp[k]) if not unicodedata.combining(c))
            elif move < 0.85 and k + 1 < len(hyp):  # a compound, or a clitic
                hyp[k:k + 2] = [hyp[k] + ("'" if rng.random() < 0.5 else "") + hyp[k + 1]]
            else:
                hyp.insert(k, rng.choice(words))
        refs.append(" ".join(ref))
        hyps.append(" ".join(hyp))
    return hyps, refs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--languages", default=",".join(languages.LANGUAGES), help="comma-separated codes")
    parser.add_argument("--segments", type=int, default=1200, help="TED segments per system (all: 1200)")
    parser.add_argument("--generated", type=int, default=1000, help="generated pairs per other language")
    parser.add_argument("--show", type=int, default=0, help="print the N largest disagreements per setting")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    codes = [languages.language(c).code for c in args.languages.split(",")]
    print(f"{'setting':34s} {'n':>6s} {'= jar':>8s} {'largest':>9s} {'corpus: ours':>19s} {'the jar':>19s}")
    rows = []
    for code in codes:
        lang = languages.language(code)
        if code == "en":
            rows.append(compare("en: TED, the jar's defaults", *ted(args.segments), ["-l", "en", "-norm"],
                                MeteorConfig.meteor15(), args.show))
            continue
        if code == "de":
            rows.append(compare("de: WMT21 TED en-de MQM, 13 systems", *mqm_german(), ["-l", "de", "-norm", "-m", "exact stem"],
                                MeteorConfig.meteor15(language="de", modules="exact stem"), args.show))
        modules = tuple(m for m in languages.default_modules(lang, languages.default_task(lang)) if m != "paraphrase")
        norm = "-norm" if lang.normalizer else "-lower"
        hyps, refs = generated(lang, args.generated)
        rows.append(compare(f"{code}: generated, {norm[1:]}", hyps, refs,
                            ["-l", lang.jar_short, norm, "-m", " ".join(modules)],
                            MeteorConfig.meteor15(language=code, modules=modules), args.show))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
