"""Agreement of meteor_core's meteor15 preset with the real Meteor 1.5 jar (needs Java; not in CI).

The jar ships in PyPI's pycocoevalcap 1.2; this script downloads that wheel once (pip, no
dependencies) into ~/.cache/meteor-explorer and runs `java -jar meteor-1.5.jar` on the TED
data (or takes METEOR_JAR / METEOR_PARAPHRASE). Each setting scores the same 2,400 segments
(1,200 x 2 systems), in two input forms:
  tok  : pre-tokenised text, jar -lower,  ours tokenizer=whitespace  (isolates the scorer)
  norm : detokenised text,   jar -norm,   ours tokenizer=meteor-norm (adds the normaliser)
with modules exact+stem and exact+stem+synonym, synonyms from the jar's own files (and, with
--wordnet, from NLTK's WordNet too); with --paraphrase, all four modules with the jar's
paraphrase table. Printed per setting: the share of segments whose score equals the jar's
(within 1e-9), is within 0.001 and within 0.01, how many differ by more than 1e-9, and the
corpus score beside the jar's."""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from meteor_core import MeteorConfig, score_corpus  # noqa: E402
from meteor_core.jar_resources import cache_dir  # noqa: E402

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ted-slk-eng"


def _from_wheel(name: str, member: str) -> Path:
    target = cache_dir() / name
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        wheels = list(target.parent.glob("pycocoevalcap-1.2-*.whl"))
        if not wheels:
            subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "pycocoevalcap==1.2",
                            "-d", str(target.parent)], check=True)
            wheels = list(target.parent.glob("pycocoevalcap-1.2-*.whl"))
        with zipfile.ZipFile(wheels[0]) as z:
            target.write_bytes(z.read(member))
    return target


def meteor_jar() -> Path:
    if os.environ.get("METEOR_JAR", "none").lower() != "none":
        return Path(os.environ["METEOR_JAR"])
    return _from_wheel("meteor-1.5.jar", "pycocoevalcap/meteor/meteor-1.5.jar")


def paraphrase_table() -> Path:
    """Meteor 1.5's English paraphrase table (the jar finds it beside itself as data/paraphrase-en.gz)."""
    if os.environ.get("METEOR_PARAPHRASE"):
        return Path(os.environ["METEOR_PARAPHRASE"])
    return _from_wheel("paraphrase-en.gz", "pycocoevalcap/meteor/data/paraphrase-en.gz")


def jar_scores(hyps, refs, modules, norm: bool) -> tuple[list[float], float]:
    """The jar's segment scores and its corpus ("Final score") for one hypothesis per reference."""
    with tempfile.TemporaryDirectory() as tmp:
        h, r = Path(tmp) / "hyp", Path(tmp) / "ref"
        h.write_text("\n".join(hyps) + "\n", encoding="utf-8")
        r.write_text("\n".join(refs) + "\n", encoding="utf-8")
        extra = ["-a", str(paraphrase_table())] if "paraphrase" in modules else []
        out = subprocess.run(["java", "-Xmx2G", "-jar", str(meteor_jar()), str(h), str(r), "-l", "en",
                              "-norm" if norm else "-lower", "-m", " ".join(modules), *extra],
                             capture_output=True, text=True, check=True, encoding="utf-8").stdout
    segments = [float(x) for x in re.findall(r"^Segment \d+ score:\s+(\S+)", out, re.M)]
    return segments, float(re.search(r"^Final score:\s+(\S+)", out, re.M).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", type=int, default=1200, help="per system (default: all 1,200)")
    parser.add_argument("--show", type=int, default=0, help="print the N largest disagreements per setting")
    parser.add_argument("--paraphrase", action="store_true",
                        help="also all four modules with the jar's paraphrase table (~10 s to load the first time)")
    parser.add_argument("--wordnet", action="store_true", help="also exact+stem+synonym with NLTK's WordNet")
    args = parser.parse_args()
    os.environ.setdefault("METEOR_JAR", str(meteor_jar()))  # our jar resources come from the same jar
    settings = [(("exact", "stem"), "jar"), (("exact", "stem", "synonym"), "jar")]
    if args.wordnet:
        settings.append((("exact", "stem", "synonym"), "wordnet"))
    if args.paraphrase:
        settings.append((("exact", "stem", "synonym", "paraphrase"), "jar"))
    print(f"{'input':5s} {'modules (synonyms)':38s} {'n':>5s} {'=jar':>7s} {'<0.001':>7s} {'<0.01':>7s} {'differ':>6s}"
          f"  {'corpus: ours':>19s} {'jar':>19s} {'diff':>9s}")
    for form, suffix, norm, tokenizer in (("tok", ".eng", False, "whitespace"),
                                          ("norm", ".detok.eng", True, "meteor-norm")):
        ref = (DATA / f"ted.ref{suffix}").read_text(encoding="utf-8").splitlines()[: args.segments]
        pairs = [(h, r) for name in ("sys1", "sys2")
                 for h, r in zip((DATA / f"ted.{name}{suffix}").read_text(encoding="utf-8").splitlines()[: args.segments], ref)]
        hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
        for modules, source in settings:
            theirs, their_corpus = jar_scores(hyps, refs, modules, norm)
            config = MeteorConfig.meteor15(tokenizer=tokenizer, stages=modules, synonym_source=source,
                                           **({"paraphrase_table": "jar"} if "paraphrase" in modules else {}))
            result = score_corpus(hyps, [[r] for r in refs], config)
            ours = [s.score for s in result.segments]
            diffs = [abs(a - b) for a, b in zip(ours, theirs)]
            n = len(diffs)
            label = f"{'+'.join(modules)} ({source if 'synonym' in modules else '-'})"
            print(f"{form:5s} {label:38s} {n:5d} {sum(d <= 1e-9 for d in diffs) / n:7.1%}"
                  f" {sum(d <= 0.001 for d in diffs) / n:7.1%} {sum(d <= 0.01 for d in diffs) / n:7.1%}"
                  f" {sum(d > 1e-9 for d in diffs):6d}"
                  f"  {result.score:19.16f} {their_corpus:19.16f} {abs(result.score - their_corpus):9.1e}")
            for k in sorted(range(n), key=lambda k: -diffs[k])[: args.show]:
                if diffs[k] > 1e-9:
                    print(f"    ours {ours[k]:.6f} jar {theirs[k]:.6f}\n      hyp: {hyps[k]}\n      ref: {refs[k]}")


if __name__ == "__main__":
    main()
