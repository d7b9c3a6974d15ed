"""Agreement of meteor_core's meteor15 preset with the real Meteor 1.5 jar (not run in CI).

The jar ships in PyPI's pycocoevalcap 1.2; this script downloads that wheel once (pip, no
dependencies) into ~/.cache/meteor-explorer and runs `java -jar meteor-1.5.jar` on the TED
data. Settings compared, each on the same 2,400 segments (1,200 x 2 systems):
  tok  : pre-tokenised text, jar -lower,  ours tokenizer=whitespace  (isolates the scorer)
  norm : detokenised text,   jar -norm,   ours tokenizer=meteor-norm (adds the normaliser)
with modules exact+stem and exact+stem+synonym (and, with --paraphrase, all four with the
jar's own paraphrase table). Prints the share of segments within 0.01 and 0.001, the mean
absolute difference and the Pearson correlation."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from meteor_core import MeteorConfig, score  # noqa: E402

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ted-slk-eng"
CACHE = Path(os.environ.get("METEOR_EXPLORER_CACHE", Path.home() / ".cache" / "meteor-explorer"))


def _from_wheel(name: str, member: str) -> Path:
    target = CACHE / name
    if not target.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        wheels = list(CACHE.glob("pycocoevalcap-1.2-*.whl"))
        if not wheels:
            subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "pycocoevalcap==1.2",
                            "-d", str(CACHE)], check=True)
            wheels = list(CACHE.glob("pycocoevalcap-1.2-*.whl"))
        with zipfile.ZipFile(wheels[0]) as z:
            target.write_bytes(z.read(member))
    return target


def meteor_jar() -> Path:
    if os.environ.get("METEOR_JAR"):
        return Path(os.environ["METEOR_JAR"])
    return _from_wheel("meteor-1.5.jar", "pycocoevalcap/meteor/meteor-1.5.jar")


def paraphrase_table() -> Path:
    """Meteor 1.5's English paraphrase table (the jar finds it beside itself as data/paraphrase-en.gz)."""
    if os.environ.get("METEOR_PARAPHRASE"):
        return Path(os.environ["METEOR_PARAPHRASE"])
    return _from_wheel("paraphrase-en.gz", "pycocoevalcap/meteor/data/paraphrase-en.gz")


def jar_scores(hyps, refs, modules, norm: bool) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        h, r = Path(tmp) / "hyp", Path(tmp) / "ref"
        h.write_text("\n".join(hyps) + "\n")
        r.write_text("\n".join(refs) + "\n")
        extra = ["-a", str(paraphrase_table())] if "paraphrase" in modules else []
        out = subprocess.run(["java", "-Xmx2G", "-jar", str(meteor_jar()), str(h), str(r), "-l", "en",
                              "-norm" if norm else "-lower", "-m", " ".join(modules), *extra],
                             capture_output=True, text=True, check=True).stdout
    return [float(x) for x in re.findall(r"^Segment \d+ score:\s+(\S+)", out, re.M)]


def pearson(x, y) -> float:
    mx, my = statistics.fmean(x), statistics.fmean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    return sxy / ((sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y)) ** 0.5)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", type=int, default=1200, help="per system (default: all 1,200)")
    parser.add_argument("--show", type=int, default=0, help="print the N largest disagreements per setting")
    parser.add_argument("--paraphrase", action="store_true",
                        help="also all four modules with Meteor's paraphrase table (~20 s and ~2 GB to load)")
    args = parser.parse_args()
    for setting, suffix, norm, tokenizer in (("tok", ".eng", False, "whitespace"),
                                             ("norm", ".detok.eng", True, "meteor-norm")):
        ref = (DATA / f"ted.ref{suffix}").read_text().splitlines()[: args.segments]
        pairs = [(h, r) for name in ("sys1", "sys2")
                 for h, r in zip((DATA / f"ted.{name}{suffix}").read_text().splitlines()[: args.segments], ref)]
        hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
        settings = [("exact", "stem"), ("exact", "stem", "synonym")]
        if args.paraphrase:
            settings.append(("exact", "stem", "synonym", "paraphrase"))
        for modules in settings:
            theirs = jar_scores(hyps, refs, modules, norm)
            table = {"paraphrase_table": str(paraphrase_table())} if "paraphrase" in modules else {}
            config = MeteorConfig.meteor15(tokenizer=tokenizer, stages=modules, **table)
            ours = [score(h, [r], config).score for h, r in pairs]
            diffs = [abs(a - b) for a, b in zip(ours, theirs)]
            n = len(diffs)
            print(f"{setting:4s} {'+'.join(modules):22s} n={n}  within 0.01: {sum(d <= 0.01 for d in diffs) / n:6.1%}"
                  f"  within 0.001: {sum(d <= 0.001 for d in diffs) / n:6.1%}"
                  f"  mean |diff| {statistics.fmean(diffs):.5f}  pearson {pearson(ours, theirs):.5f}")
            worst = sorted(range(n), key=lambda k: -diffs[k])[: args.show]
            for k in worst:
                print(f"    ours {ours[k]:.4f} jar {theirs[k]:.4f}\n      hyp: {hyps[k]}\n      ref: {refs[k]}")


if __name__ == "__main__":
    main()
