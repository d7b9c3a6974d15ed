"""What the server holds after the issue's soak (eight Chromium sessions each upload and score a
2,445-row table on the compare page, filter it, then close): a census at each step.

    .venv/bin/python bench/soak_census.py [--sessions 8] [--rows 2445] [--ttl 40]
                                          [--pymalloc] [--tracemalloc] [--out DIR]

The script starts the app in a server process of its own (``serve``: Streamlit run in-process,
with a SIGUSR1 handler that writes a census), drives the sessions with Chromium, and asks for a
census at the start, once one visitor has opened the compare page, at the peak, and after the
browsers closed and the session janitor released them (``--ttl``: Streamlit's reconnect window,
shortened so that the janitor closes the sessions sooner; the default is 120 s). Each census
(JSON in --out) has: the resident set split into anonymous and file-backed memory, glibc's
heap (in use, free, in mmap), Python's small-object arenas (sys._debugmallocstats), the live
objects by type (gc-tracked objects and the strings, bytes and arrays they hold), Streamlit's
sessions, caches (entries and bytes per cached function) and uploaded files, and with
--tracemalloc the allocation sites that grew since the one-visitor census; after the close, the
chain of referrers of a scored segment or an uploaded file still alive. The server runs on the
allocator run.sh gives it (PYTHONMALLOC=malloc; --pymalloc: Python's own). The printout compares
the four.
"""
from __future__ import annotations

import argparse
import collections
import ctypes
import ctypes.util
import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


# ---- in the server ---------------------------------------------------------------------------

def _smaps() -> dict:
    """Resident KiB by kind of mapping: the heap, anonymous mappings, files."""
    kinds = collections.Counter()
    name = "?"
    for line in open("/proc/self/smaps"):
        first = line.split()[0]
        if "-" in first and not first.endswith(":"):
            parts = line.split()
            name = parts[5] if len(parts) > 5 else "[anon]"
        elif first == "Rss:":
            kb = int(line.split()[1])
            if name.startswith("/") and not name.startswith("/memfd:"):
                kinds["file"] += kb
            elif name in ("[heap]", "[anon]", "[stack]") or name.startswith("[stack") or name.startswith("/memfd:"):
                kinds[name if name in ("[heap]", "[anon]") else "other anon"] += kb
            else:
                kinds["other " + name] += kb
    return {k: round(v / 1024, 1) for k, v in kinds.items()}


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def _glibc() -> dict:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.mallinfo2.restype = _Mallinfo2
        m = libc.mallinfo2()
    except (OSError, AttributeError):
        return {}
    mib = 1 << 20
    return {"arenas MiB": round(m.arena / mib, 1), "in use MiB": round(m.uordblks / mib, 1),
            "free MiB": round(m.fordblks / mib, 1), "mmap MiB": round(m.hblkhd / mib, 1), "mmap blocks": m.hblks}


def _pymalloc() -> dict:
    """sys._debugmallocstats' totals (it writes to the C stderr: caught through a pipe file)."""
    with tempfile.TemporaryFile() as f:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(f.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        text = f.read().decode(errors="replace")
    wanted = {"# arenas allocated current": "arenas", "# bytes in allocated blocks": "allocated bytes",
              "# bytes in available blocks": "available bytes", "Total": "total bytes"}
    out = {}
    for line in text.splitlines():
        for prefix, name in wanted.items():
            if line.startswith(prefix) and name not in out:
                out[name] = int(line.split("=")[-1].replace(",", "").strip())
    if "arenas" in out:
        out["arenas MiB"] = round(out["arenas"] / 4, 1)  # 256 KiB arenas on 64-bit builds
    return out


def _arrow() -> dict:
    """pyarrow's memory pool (Streamlit sends dataframes as Arrow): its own allocator's holdings."""
    if "pyarrow" not in sys.modules:
        return {}
    import pyarrow as pa

    pool = pa.default_memory_pool()
    return {"backend": pool.backend_name, "allocated MiB": round(pool.bytes_allocated() / 2**20, 1),
            "peak MiB": round(pool.max_memory() / 2**20, 1)}


def _objects() -> dict:
    """gc-tracked objects by type (count, shallow MiB), and the untracked strings, bytes and numpy
    arrays they refer to (counted once each)."""
    by_type: dict[str, list] = collections.defaultdict(lambda: [0, 0])
    held: dict[str, list] = collections.defaultdict(lambda: [0, 0])
    seen = set()
    for obj in gc.get_objects():
        t = type(obj)
        entry = by_type[f"{t.__module__}.{t.__qualname__}"]
        entry[0] += 1
        try:
            entry[1] += sys.getsizeof(obj)
        except TypeError:
            pass
        for ref in gc.get_referents(obj):
            if gc.is_tracked(ref) or id(ref) in seen:
                continue
            kind = type(ref).__name__
            if kind in ("str", "bytes", "ndarray", "int", "float"):
                seen.add(id(ref))
                size = getattr(ref, "nbytes", None) if kind == "ndarray" else None
                held[kind][0] += 1
                held[kind][1] += size if size is not None else sys.getsizeof(ref)
    top = sorted(by_type.items(), key=lambda kv: -kv[1][1])[:30]
    count, size = sum(v[0] for v in by_type.values()), sum(v[1] for v in by_type.values())
    return {"tracked": {k: [n, round(b / 2**20, 2)] for k, (n, b) in top},
            "tracked total": [count, round(size / 2**20, 1)],
            "held": {k: [n, round(b / 2**20, 2)] for k, (n, b) in held.items()}}


def _streamlit() -> dict:
    from streamlit import runtime

    if not runtime.exists():
        return {}
    rt = runtime.get_instance()
    out: dict = {}
    mgr = rt._session_mgr
    out["sessions"] = {"active": len(mgr.list_active_sessions()), "listed": len(mgr.list_sessions())}
    storage = getattr(mgr, "_session_storage", None)
    cache = getattr(storage, "_cache", None)
    if cache is not None:
        out["sessions"]["in storage"] = len(cache)
    stats = collections.defaultdict(lambda: [0, 0])
    for family, family_stats in rt.stats_mgr.get_stats().items():
        for stat in family_stats:
            name = getattr(stat, "cache_name", None)
            key = f"{getattr(stat, 'category_name', family)}:{name}" if name is not None else family
            stats[key][0] += 1
            stats[key][1] += getattr(stat, "byte_length", 0) or 0
    out["caches"] = {k: [n, round(b / 2**20, 2)] for k, (n, b) in sorted(stats.items(), key=lambda kv: -kv[1][1])}
    return out


def _holders(type_names=("SegmentResult", "UploadedFile"), depth=12) -> dict:
    """For one live object of each type: the chain of objects that refer to it, nearest first
    (what keeps a closed session's data alive). Each step takes the first referrer that is not
    a frame nor this function's own lists."""
    import types

    out = {}
    objects = gc.get_objects()
    for name in type_names:
        target = next((o for o in objects if type(o).__name__ == name), None)
        if target is None:
            continue
        chain: list = []
        mine = {id(objects), id(chain)}
        seen = {id(target)}
        for _ in range(depth):
            referrers = gc.get_referrers(target)
            mine.add(id(referrers))
            candidates = [r for r in referrers if id(r) not in seen and id(r) not in mine
                          and not isinstance(r, types.FrameType)]
            mine.add(id(candidates))
            if not candidates:
                break
            target = candidates[0]
            seen.add(id(target))
            text = f"{type(target).__module__}.{type(target).__qualname__}"
            if isinstance(target, dict):
                text += " keys " + ", ".join(map(str, list(target)[:8]))
            elif isinstance(target, types.FunctionType):
                text += " " + target.__qualname__
            elif isinstance(target, (list, tuple)):
                text += f" of {len(target)}"
            chain.append(f"{text} [+{len(candidates) - 1} other referrers]")
        out[name] = chain
    del objects
    return out


_counter = 0


def census(out_dir: str) -> None:
    """Write one census to out_dir/census-N.json."""
    global _counter
    _counter += 1
    gc.collect()
    data = {"rss MiB": _rss_self(), "smaps MiB": _smaps(), "glibc": _glibc(), "pymalloc": _pymalloc(),
            "arrow": _arrow(), "holders": _holders(), "streamlit": _streamlit(), "objects": _objects()}
    import tracemalloc

    if tracemalloc.is_tracing():
        snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        path = Path(out_dir) / f"trace-{_counter}.pickle"
        snap.dump(str(path))
        data["tracemalloc MiB"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
    (Path(out_dir) / f"census-{_counter}.json").write_text(json.dumps(data, indent=1))


def _rss_self() -> float:
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def serve(out_dir: str, streamlit_args: list[str]) -> None:
    """Run the app in this process; SIGUSR1 writes a census (in a thread of its own)."""
    if os.environ.get("SOAK_TRACEMALLOC") == "1":
        import tracemalloc

        tracemalloc.start(12)
    signal.signal(signal.SIGUSR1, lambda *_: threading.Thread(target=census, args=(out_dir,)).start())
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *streamlit_args]
    cli.main()


# ---- the driver ------------------------------------------------------------------------------

def _ask(proc, out_dir: Path, label: str, labels: list) -> dict:
    n = len(labels) + 1
    proc.send_signal(signal.SIGUSR1)
    path = out_dir / f"census-{n}.json"
    for _ in range(600):
        if path.exists():
            time.sleep(0.5)
            try:
                data = json.loads(path.read_text())
                break
            except json.JSONDecodeError:
                continue
        time.sleep(0.5)
    else:
        raise RuntimeError(f"no census {label}")
    labels.append(label)
    print(f"[{time.strftime('%H:%M:%S')}] {label}: RSS {data['rss MiB']} MiB, smaps {data['smaps MiB']}, "
          f"glibc {data['glibc']}, pymalloc arenas {data['pymalloc'].get('arenas MiB')} MiB, "
          f"arrow {data.get('arrow')}, "
          f"sessions {data['streamlit'].get('sessions')}", flush=True)
    return data


def drive(args) -> None:
    from playwright.sync_api import sync_playwright

    from browser import CHROMIUM, CHROMIUM_ARGS, stop_server, wait_for_run
    from test_browser_hardening import _large_tables, upload_and_filter

    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("census-*.json"):
        old.unlink()
    files = _large_tables(out_dir, args.sessions, args.rows)
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    from meteor_core.cli.app import server_environment

    env = dict(server_environment(), SOAK_TRACEMALLOC="1" if args.tracemalloc else "0")
    if args.pymalloc:
        env["PYTHONMALLOC"] = "pymalloc"
    proc = subprocess.Popen([sys.executable, __file__, "serve", "--out", str(out_dir), "--",
                             "--server.headless", "true", "--server.port", str(port), "--server.address",
                             "127.0.0.1", "--browser.gatherUsageStats", "false",
                             "--server.disconnectedSessionTTL", str(args.ttl),
                             "--server.fileWatcherType", "none"],  # an edit in the checkout must not stall the pages
                            cwd=ROOT, env=env, stdout=open(out_dir / "server.log", "w"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    labels: list = []
    try:
        import urllib.request

        for _ in range(200):
            try:
                if urllib.request.urlopen(url + "/_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                time.sleep(0.3)
        time.sleep(3)
        _ask(proc, out_dir, "start", labels)
        peak = 0.0
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                pages = [browser.new_context(viewport={"width": 1200, "height": 1400}).new_page()
                         for _ in range(args.sessions)]
                pages[0].goto(url + "/compare")
                pages[0].get_by_label("Search words (reference or outputs)").wait_for(timeout=300_000)
                wait_for_run(pages[0], timeout=300_000)
                _ask(proc, out_dir, "one visitor", labels)
                upload_and_filter(pages, url, files)
                peak = _ask(proc, out_dir, "peak (all sessions open)", labels)["rss MiB"]
            finally:
                browser.close()
        closed = time.time()
        while time.time() - closed < args.ttl + 40:
            time.sleep(10)
        _ask(proc, out_dir, f"{args.ttl + 40} s after the browsers closed", labels)
    finally:
        stop_server(proc)
    report(out_dir, labels, peak)


def report(out_dir: Path, labels: list, peak: float) -> None:
    data = [json.loads((out_dir / f"census-{k + 1}.json").read_text()) for k in range(len(labels))]
    print("\nRSS MiB: " + ", ".join(f"{label} {d['rss MiB']}" for label, d in zip(labels, data)))
    warm, after = data[1], data[-1]
    print("\nStreamlit caches after (entries, MiB):")
    for k, v in after["streamlit"].get("caches", {}).items():
        print(f"  {k}: {v}  (one visitor: {warm['streamlit'].get('caches', {}).get(k)})")
    print("\nWhat holds a survivor after:", json.dumps(after.get("holders"), indent=1))
    print("\nTracked objects that grew from one visitor to after (count, shallow MiB):")
    rows = []
    for k, (n, mib) in after["objects"]["tracked"].items():
        n0, mib0 = warm["objects"]["tracked"].get(k, [0, 0])
        rows.append((mib - mib0, n - n0, k))
    for dm, dn, k in sorted(rows, reverse=True)[:15]:
        print(f"  {k}: {dn:+,} objects, {dm:+.2f} MiB")
    print("  held:", {k: (v, warm["objects"]["held"].get(k)) for k, v in after["objects"]["held"].items()})
    trace = [out_dir / f"trace-{k + 1}.pickle" for k in (1, len(labels) - 1)]
    if all(p.exists() for p in trace):
        import tracemalloc

        before, later = (tracemalloc.Snapshot.load(str(p)) for p in trace)
        print("\ntracemalloc, one visitor to after (top 25 by line):")
        for stat in later.compare_to(before, "lineno")[:25]:
            print("  ", stat)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        i = sys.argv.index("--")
        serve(sys.argv[sys.argv.index("--out") + 1], sys.argv[i + 1:])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--rows", type=int, default=2445)
    parser.add_argument("--ttl", type=int, default=40, help="Streamlit's reconnect window, s (default 40)")
    parser.add_argument("--pymalloc", action="store_true", help="the server on Python's own allocator")
    parser.add_argument("--tracemalloc", action="store_true", help="trace allocations (slower, more memory)")
    parser.add_argument("--out", default=str(ROOT / "test-artifacts" / "soak-census"))
    drive(parser.parse_args())


if __name__ == "__main__":
    main()
