"""Make WordNet 3.0 available to NLTK on a fresh machine.

Order of attempts: already installed -> ``nltk.download`` (where the hub is reachable) ->
Debian's ``wordnet-base``/``wordnet-sense-index`` (installed with apt-get when missing and
we are root) copied into an NLTK data root with the ``lexnames`` file Debian omits.
NLTK refuses symlinks out of its data roots, hence the copy.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

DEBIAN_WORDNET = Path(os.environ.get("WNSEARCHDIR", "/usr/share/wordnet"))
DEBIAN_PACKAGES = ("wordnet-base", "wordnet-sense-index")

# WordNet 3.0 lexicographer files (man 5 lexnames): number, name, syntactic category
# (1 noun, 2 verb, 3 adjective, 4 adverb). NLTK needs this file; Debian does not ship it.
LEXNAMES = """\
00 adj.all 3
01 adj.pert 3
02 adv.all 4
03 noun.Tops 1
04 noun.act 1
05 noun.animal 1
06 noun.artifact 1
07 noun.attribute 1
08 noun.body 1
09 noun.cognition 1
10 noun.communication 1
11 noun.event 1
12 noun.feeling 1
13 noun.food 1
14 noun.group 1
15 noun.location 1
16 noun.motive 1
17 noun.object 1
18 noun.person 1
19 noun.phenomenon 1
20 noun.plant 1
21 noun.possession 1
22 noun.process 1
23 noun.quantity 1
24 noun.relation 1
25 noun.shape 1
26 noun.state 1
27 noun.substance 1
28 noun.time 1
29 verb.body 2
30 verb.change 2
31 verb.cognition 2
32 verb.communication 2
33 verb.competition 2
34 verb.consumption 2
35 verb.contact 2
36 verb.creation 2
37 verb.emotion 2
38 verb.motion 2
39 verb.perception 2
40 verb.possession 2
41 verb.social 2
42 verb.stative 2
43 verb.weather 2
44 adj.ppl 3
"""

NEEDED_FILES = [
    f"{kind}.{pos}" for kind in ("data", "index") for pos in ("noun", "verb", "adj", "adv")
] + [f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv")]
OPTIONAL_FILES = ["index.sense", "cntlist.rev"]


def default_data_dir() -> Path:
    """Where to install: $NLTK_DATA's first entry if set, else ~/nltk_data (on NLTK's path)."""
    env = os.environ.get("NLTK_DATA")
    if env:
        return Path(env.split(os.pathsep)[0])
    return Path.home() / "nltk_data"


def _log(msg: str) -> None:
    print(f"[setup] {msg}", file=sys.stderr)


def _loads() -> bool:
    # Fresh interpreter: NLTK caches a failed lazy load, and so would our own lru_cache.
    code = "from nltk.corpus import wordnet as w; w.ensure_loaded(); assert w.synsets('big')"
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def _try_nltk_download(target: Path) -> bool:
    try:
        import nltk
        return bool(nltk.download("wordnet", download_dir=str(target), quiet=True, raise_on_error=True))
    except Exception as exc:  # no network, hub down, ...: fall through to Debian
        _log(f"nltk.download('wordnet') failed ({str(exc)[:120]}); trying Debian's WordNet")
        return False


def _apt_install() -> bool:
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        _log("Debian WordNet missing and apt-get unavailable (or not root)")
        return False
    _log(f"installing Debian packages {' '.join(DEBIAN_PACKAGES)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run = lambda *cmd: subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode == 0
    return run("apt-get", "install", "-y", "-qq", *DEBIAN_PACKAGES) or (
        run("apt-get", "update", "-qq") and run("apt-get", "install", "-y", "-qq", *DEBIAN_PACKAGES)
    )


def install_from_debian(target: Path, source: Path = DEBIAN_WORDNET) -> None:
    dest = target / "corpora" / "wordnet"
    dest.mkdir(parents=True, exist_ok=True)
    missing = [f for f in NEEDED_FILES if not (source / f).is_file()]
    if missing:
        raise FileNotFoundError(f"{source} lacks {missing}")
    for name in NEEDED_FILES + [f for f in OPTIONAL_FILES if (source / f).is_file()]:
        shutil.copyfile(source / name, dest / name)
    (dest / "lexnames").write_text(LEXNAMES)
    (dest / "LICENSE").write_text("WordNet 3.0, Princeton University. Copied from Debian's wordnet-base.\n")


def ensure_wordnet(target: Path | None = None) -> bool:
    """Make WordNet loadable; returns True on success, logs each attempt."""
    if _loads():
        return True
    target = target or default_data_dir()
    if _try_nltk_download(target) and _loads():
        _log(f"WordNet downloaded into {target}")
        return True
    if not (DEBIAN_WORDNET / "data.noun").is_file() and not _apt_install():
        return False
    try:
        install_from_debian(target)
    except OSError as exc:
        _log(f"copying Debian's WordNet failed: {exc}")
        return False
    if target not in map(Path, __import__("nltk").data.path) and not os.environ.get("NLTK_DATA"):
        _log(f"note: {target} is not on NLTK's search path; set NLTK_DATA={target}")
    ok = _loads()
    _log(f"WordNet 3.0 installed from {DEBIAN_WORDNET} into {target}" if ok else "WordNet still not loadable")
    return ok


def main() -> int:
    if ensure_wordnet():
        _log("WordNet 3.0 is ready")
        return 0
    _log("WordNet 3.0 could not be installed; the synonym stage will refuse to run until it is.")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
