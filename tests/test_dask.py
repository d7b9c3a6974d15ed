"""Scoring on a Dask cluster (LocalCluster of 2 worker processes): exactly a local run's
results, each worker loading its resources once; the core imports without dask."""
import contextlib
import json
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT, ted_lines

from meteor_core import MeteorConfig, score_corpus

distributed = pytest.importorskip("distributed")  # pinned in requirements.txt: present in CI

from meteor_core.dask_runner import SchedulerUnreachable, score_corpus_dask, score_segments_dask  # noqa: E402

# At most 40 words a side: quick to score (cut segments are compared in test_budget_cuts_*).
N = 300
SHORT = [(h, r) for h, r in zip(ted_lines("sys1"), ted_lines("ref")) if max(len(h.split()), len(r.split())) <= 40]
HYPS = [h for h, _ in SHORT[:N]]
REFS = [[r] for _, r in SHORT[:N]]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    with cluster, distributed.Client(cluster) as c:
        yield c


def _dicts(result):
    return [s.to_dict() for s in result.segments], result.to_dict()


@pytest.mark.parametrize("config", [MeteorConfig.meteor2005(), MeteorConfig.nltk(),
                                    MeteorConfig.meteor15(stages=("exact", "stem"))], ids=lambda c: c.name)
def test_cluster_result_is_the_local_result(client, config):
    local = score_corpus(HYPS, REFS, config)
    remote = score_corpus_dask(client, iter(HYPS), iter(REFS), config, partition_segments=23)
    assert _dicts(remote) == _dicts(local)


def test_both_workers_score_and_load_wordnet_once(client):
    config = MeteorConfig.meteor2005()
    for _ in range(2):
        results = list(score_segments_dask(client, HYPS, REFS, config, partition_segments=10))
        assert len(results) == N
    loads = client.run(lambda: __import__("meteor_core.resources", fromlist=["wordnet"]).wordnet.cache_info())
    assert len(loads) == 2
    # every worker loaded WordNet (misses) exactly once, and then reused it (hits)
    assert all(info.misses == 1 and info.hits > 0 for info in loads.values()), loads


def test_cli_scheduler_equals_local_run(client, tmp_path):
    (tmp_path / "h").write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    (tmp_path / "r").write_text("\n".join(r[0] for r in REFS) + "\n", encoding="utf-8")
    args = [sys.executable, "-m", "meteor_core", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r"),
            "--format", "jsonl"]
    local = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    remote = subprocess.run(args + ["--scheduler", client.scheduler.address], cwd=ROOT, capture_output=True, text=True)
    assert local.returncode == remote.returncode == 0, remote.stderr
    assert remote.stdout == local.stdout
    assert json.loads(remote.stdout.splitlines()[-1])["corpus"]["segments"] == N


def test_unreachable_scheduler_is_one_line(monkeypatch):
    import meteor_core.dask_runner as runner

    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1)
    with pytest.raises(SchedulerUnreachable, match="no Dask scheduler answers at tcp://127.0.0.1:9"):
        list(score_segments_dask("tcp://127.0.0.1:9", HYPS[:2], REFS[:2]))


def test_core_and_cli_import_without_dask():
    code = ("import sys, meteor_core, meteor_core.cli, meteor_core.cli.score, meteor_core.parallel, "
            "meteor_core.dask_runner\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_scheduler_without_dask_says_what_to_install(tmp_path):
    """dask made unimportable (as where it is not installed): one line naming the package."""
    (tmp_path / "h").write_text("a b\n")
    code = ("import sys; sys.modules['dask'] = sys.modules['distributed'] = None\n"
            "from meteor_core.cli import main\n"
            f"sys.exit(main(['--hyp', {str(tmp_path / 'h')!r}, '--ref', {str(tmp_path / 'h')!r}, "
            "'--scheduler', 'tcp://127.0.0.1:9']))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == ("error: scoring on a Dask cluster needs dask.distributed: "
                                  "pip install 'dask[distributed]' (or .[dask])")


# --- addresses where no usable scheduler answers (issue 30, item 4) ------------------------------
# Each must end in one line (SchedulerUnreachable; the CLI: "error: ...", exit 2) within the
# connect/handshake timeout, never a traceback or a hang.

@contextlib.contextmanager
def _server(answer):
    """A TCP server on 127.0.0.1 that calls ``answer(connection)`` for each client: its address."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=_quietly, args=(answer, conn, stop), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        listener.close()


def _quietly(answer, conn, stop):
    try:
        answer(conn, stop)
    except OSError:
        pass
    finally:
        conn.close()


def _silent(conn, stop):  # accepts, reads, never answers
    stop.wait(60)


def _http(conn, stop):  # a web server's reply
    conn.recv(65536)
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\n\r\n<html></html>")
    stop.wait(60)


def _dribble(conn, stop):  # one byte at a time
    while not stop.wait(0.05):
        conn.sendall(b"\x01")


def _closes(conn, stop):  # hangs up at once
    pass


SERVERS = {"silent": _silent, "http": _http, "dribble": _dribble, "closes": _closes}


@pytest.fixture
def short_timeout(monkeypatch):
    import meteor_core.dask_runner as runner

    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1)
    return 1


@pytest.mark.parametrize("kind", SERVERS)
def test_a_server_that_is_not_a_scheduler_is_one_error_within_the_timeout(kind, short_timeout):
    with _server(SERVERS[kind]) as address:
        start = time.monotonic()
        with pytest.raises(SchedulerUnreachable) as caught:
            list(score_segments_dask(address, HYPS[:2], REFS[:2]))
        took = time.monotonic() - start
    message = str(caught.value)
    assert address in message and "\n" not in message
    assert took < 2 * short_timeout + 2, took  # the handshake's bound, and the client's


def _cli(address: str, tmp_path) -> subprocess.CompletedProcess:
    (tmp_path / "h").write_text("a b c\n", encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "meteor_core", "--hyp", str(tmp_path / "h"), "--ref",
                           str(tmp_path / "h"), "--scheduler", address],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def _one_line_error(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 2 and out.stdout == "", out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    return lines[0]


def test_cli_against_a_silent_server_stops_after_the_timeout(tmp_path):
    """The issue's hang (> 900 s): now CONNECT_SECONDS (10 s) and one line."""
    from meteor_core.dask_runner import CONNECT_SECONDS

    with _server(_silent) as address:
        start = time.monotonic()
        line = _one_line_error(_cli(address, tmp_path))
        took = time.monotonic() - start
    assert f"no Dask scheduler answers at {address} within {CONNECT_SECONDS} s" in line
    assert took < CONNECT_SECONDS + 8, took


@pytest.mark.parametrize("kind", ["http", "dribble"])
def test_cli_against_a_server_speaking_another_protocol(kind, tmp_path):
    """Formerly ArrayMemoryError ("3.07 EiB") and struct.error tracebacks."""
    with _server(SERVERS[kind]) as address:
        line = _one_line_error(_cli(address, tmp_path))
    assert f"{address} does not answer as a Dask scheduler" in line


@pytest.mark.parametrize("address, says", [
    ("tls://127.0.0.1:9", "a tls:// scheduler needs TLS certificates"),
    ("ucx://127.0.0.1:9", "ucx:// transport is not installed"),
    ("inproc://x", "inproc://x"),
    ("foo://127.0.0.1:9", "'foo://127.0.0.1:9' is not a Dask scheduler address"),
])
def test_cli_addresses_no_client_can_use(address, says, tmp_path):
    """tls:// and ucx:// were TypeError tracebacks."""
    assert says in _one_line_error(_cli(address, tmp_path))


def test_a_scheduler_lost_during_the_run_is_one_error(short_timeout):
    """A scheduler with no workers, closed while the work waits: ClusterFailed, not a traceback."""
    from meteor_core.dask_runner import ClusterFailed

    cluster = distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=None,
                                       silence_logs=50)
    results = score_segments_dask(cluster.scheduler_address, HYPS, REFS, partition_segments=10)
    threading.Timer(1.0, cluster.close).start()
    start = time.monotonic()
    with pytest.raises(ClusterFailed, match=f"the Dask cluster at {cluster.scheduler_address}"):
        next(results)
    assert time.monotonic() - start < 30


def test_budget_cuts_are_the_local_ones_on_the_cluster(client):
    """Adversarial segments whose search the work budget cuts: the cluster's workers cut them
    where a local run does (the bound counts work, not a worker's time)."""
    sys.path.insert(0, str(ROOT))
    from bench.adversarial import cases

    hyps, refs = zip(*cases().values())
    config = MeteorConfig.meteor2005()
    local = score_corpus(list(hyps), [[r] for r in refs], config)
    remote = score_corpus_dask(client, iter(hyps), iter([[r] for r in refs]), config, partition_segments=2)
    assert _dicts(remote) == _dicts(local)
    assert sum(s.stopped_by == "work" for s in local.segments) >= 3
