"""Peak memory of `python -m meteor_core` (score) as the corpus grows: the CLI streams, so
100,000 segments should cost what 1,000 do.

    .venv/bin/python bench/bench_memory.py [--segments 1000,100000] [--formats jsonl,text]
                                           [--jobs 2] [--synonyms both|yes|no] [--novel-words 0]
                                           [--code DIR]

The corpus is the tokenised TED set (../shared/data/ted-slk-eng, 1,200 segments, sys1 against
the reference), repeated to the size asked. ``--novel-words K`` adds K made-up words to every
segment (new in each), so that the vocabulary grows with the corpus as in real data (the
per-word memos then grow too, up to their cap). ``--code DIR`` measures another checkout
(e.g. an older commit in a worktree) with the same inputs.

Every ~0.1 s the script reads the peak resident set (VmHWM in /proc/PID/status: Linux only) of
the CLI process and of each of its worker processes, and prints the largest seen per process
kind. Targets (issue 15): without synonyms every process stays under 300 MB at 100,000
segments; with synonyms, within 50 MB of what 1,000 segments take.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TED = ROOT.parent / "shared" / "data" / "ted-slk-eng"


def peak_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:  # the parent's pid is the 4th field, 2nd after the name
            found.append(int(stat.parent.name))
    return found


def measure(command: list[str], cwd: Path) -> tuple[float, int, int, int]:
    """(seconds, peak KB of the CLI process, largest peak KB of a worker, workers seen)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    main_peak, worker_peaks = 0, {}
    while process.poll() is None:
        main_peak = max(main_peak, peak_kb(process.pid))
        for child in children(process.pid):
            worker_peaks[child] = max(worker_peaks.get(child, 0), peak_kb(child))
        time.sleep(0.1)
    seconds = time.perf_counter() - start
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()[-2000:]}")
    return seconds, main_peak, max(worker_peaks.values(), default=0), len(worker_peaks)


def write_corpus(folder: Path, segments: int, novel_words: int) -> tuple[Path, Path]:
    hyps = (TED / "ted.sys1.eng").read_text(encoding="utf-8").splitlines()
    refs = (TED / "ted.ref.eng").read_text(encoding="utf-8").splitlines()
    hyp_path, ref_path = folder / f"hyp.{segments}", folder / f"ref.{segments}"
    with hyp_path.open("w", encoding="utf-8") as h, ref_path.open("w", encoding="utf-8") as r:
        for k in range(segments):
            extra = "".join(f" novel{k}x{j}" for j in range(novel_words))  # matched exactly, new words
            h.write(hyps[k % len(hyps)] + extra + "\n")
            r.write(refs[k % len(refs)] + extra + "\n")
    return hyp_path, ref_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", default="1000,100000")
    parser.add_argument("--formats", default="jsonl,text")
    parser.add_argument("--jobs", default="2", help="comma-separated --jobs values")
    parser.add_argument("--synonyms", default="both", choices=["both", "yes", "no"])
    parser.add_argument("--novel-words", type=int, default=0)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose CLI is measured")
    args = parser.parse_args()
    sizes = [int(s) for s in args.segments.split(",")]
    synonyms = {"both": [False, True], "yes": [True], "no": [False]}[args.synonyms]
    print(f"tokenised TED (sys1 vs ref) repeated; novel words a segment: {args.novel_words}; code: {args.code}")
    print(f"{'synonyms':>8} {'format':>6} {'jobs':>4} {'segments':>9} {'seconds':>8} {'CLI MB':>7} "
          f"{'worker MB':>9} {'workers':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        files = {n: write_corpus(Path(tmp), n, args.novel_words) for n in sizes}
        for with_synonyms in synonyms:
            for fmt in args.formats.split(","):
                for jobs in args.jobs.split(","):
                    for n in sizes:
                        hyp, ref = files[n]
                        command = [sys.executable, "-m", "meteor_core", "--hyp", str(hyp), "--ref", str(ref),
                                   "--format", fmt]
                        if "--jobs" in (args.code / "meteor_core" / "cli" / "common.py").read_text():
                            command += ["--jobs", jobs]
                        if not with_synonyms:
                            command.append("--no-synonyms")
                        seconds, main_kb, worker_kb, workers = measure(command, args.code)
                        print(f"{'yes' if with_synonyms else 'no':>8} {fmt:>6} {jobs:>4} {n:>9,} {seconds:>8.1f} "
                              f"{main_kb / 1024:>7.0f} {worker_kb / 1024:>9.0f} {workers:>7}", flush=True)


if __name__ == "__main__":
    main()
