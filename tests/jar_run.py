"""Running the real Meteor 1.5 jar, for the tests (and benches) that compare with it.

A test that needs Java and the jar calls ``require_java()``: it skips without them, unless
``METEOR_REQUIRE_JAVA=1`` (set by ./run.sh test as root, where setup installs Java), where a
missing Java is a failure."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest


def require_java() -> Path:
    """The jar, when Java and a jar are present; else skip (or fail under METEOR_REQUIRE_JAVA=1)."""
    from meteor_core.jar_resources import find_jar
    jar = find_jar()
    if shutil.which("java") is None or jar is None or not jar.is_file():
        reason = "needs Java and a Meteor 1.5 jar (METEOR_JAR or pycocoevalcap)"
        if os.environ.get("METEOR_REQUIRE_JAVA") == "1":
            pytest.fail(reason + ", and METEOR_REQUIRE_JAVA=1")
        pytest.skip(reason)
    return jar


def jar_segment_scores(hyps: list[str], refs: list[str], flags: list[str]) -> tuple[list[float], float]:
    """The jar's segment scores and corpus score ("Final score") for one reference a segment,
    run as `java -jar meteor-1.5.jar HYP REF FLAGS`."""
    jar = require_java()
    with tempfile.TemporaryDirectory() as tmp:
        h, r = Path(tmp) / "h", Path(tmp) / "r"
        h.write_text("\n".join(hyps) + "\n", encoding="utf-8")
        r.write_text("\n".join(refs) + "\n", encoding="utf-8")
        out = subprocess.run(["java", "-Xmx2G", "-Dfile.encoding=UTF-8", "-jar", str(jar), str(h), str(r), *flags],
                             capture_output=True, text=True, encoding="utf-8", check=True).stdout
    return ([float(x) for x in re.findall(r"^Segment \d+ score:\s+(\S+)", out, re.M)],
            float(re.search(r"^Final score:\s+(\S+)", out, re.M).group(1)))


def jar_normalised(lines: list[str], language: str = "english", keep_punctuation: bool = True) -> list[list[str]]:
    """The jar's Normalizer (its -norm) on each line, split into tokens as the jar splits them."""
    jar = require_java()
    out = subprocess.run(["java", "-Dfile.encoding=UTF-8", "-cp", str(jar), "edu.cmu.meteor.util.Normalizer", language,
                          "true" if keep_punctuation else "false"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, encoding="utf-8", check=True)
    return [re.findall(r"[^ \t\n\r\f]+", line) for line in out.stdout.split("\n")[:len(lines)]]
