"""Scoring a corpus on a Dask cluster (dask.distributed): beyond one machine.

    from dask.distributed import Client, LocalCluster
    from meteor_core.dask_runner import score_corpus_dask
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        result = score_corpus_dask(client, hypotheses, references, config)

The corpus is cut into partitions of ``PARTITION_SEGMENTS`` segments, each scored on a worker
by the same code as a local run (``scorer.score_chunk``); the results come back in order and
the corpus result is the sum of their statistics, so it is exactly a local run's. Only a
window of partitions is in flight (``parallel.ordered_map``), so an iterator of any length can
be streamed through the cluster.

Workers need meteor_core importable (``pip install .[dask]`` on every node, or a shared
checkout on PYTHONPATH) and WordNet (``python -m meteor_core setup``) when synonyms are used.
Each worker process loads its resources once, on its first partition: the resources module
memoises them per process. A worker scores one partition at a time whatever its thread count:
the scorer is written for one thread (per-word memos and lazily made resources are shared by
the whole process), and threads of one process share one interpreter lock, so they would add
no speed to pure-Python scoring anyway. Start workers with one thread each and as many
processes as cores (``dask worker ADDRESS --nworkers N --nthreads 1``,
``LocalCluster(threads_per_worker=1)``).

An address is checked before any work is sent: a server must accept the connection and answer
Dask's handshake within ``CONNECT_SECONDS`` (10 s), and the client must register within as long
again; anything else (nothing listening, a web server, a server that never answers or sends a
byte at a time, tls:// without certificates in Dask's configuration, a transport that is not
installed) raises ``SchedulerUnreachable`` with a one-line message. A cluster that fails during
the run (the scheduler lost, a task it cannot run) raises ``ClusterFailed``; scoring's own errors
come through unchanged.

Only this module uses dask, and only when called (importing it does not import dask), so the
core, the CLI and the app work without dask installed; without it these functions raise an
ImportError that says what to install.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from contextlib import contextmanager
from functools import partial
from typing import Iterable, Iterator, Sequence

from . import parallel
from .config import MeteorConfig
from .deadline import OverBudget
from .jar_resources import JarMissingError
from .resources import WordNetMissingError
from .scorer import CorpusResult, SegmentResult, corpus_from_segments, number_segments, score_chunk

PARTITION_SEGMENTS = 500  # ~0.05-0.2 s of work a partition: a task's overhead (~1 ms) is lost in it
# A scheduler address has this long to accept the connection and answer Dask's handshake, and
# as long again for the client to register. dask.distributed bounds the connection and not the
# handshake: a server that accepts and never answers would be waited for forever.
CONNECT_SECONDS = 10

# One partition at a time per worker process (see the module docstring).
_SCORING = threading.Lock()


class SchedulerUnreachable(ConnectionError):
    """No Dask scheduler could be reached or spoken to at the address given; the message is one
    line, meant to be shown as is."""


class ClusterFailed(ConnectionError):
    """The cluster failed during the run (the scheduler lost, a worker killed, a task it could not
    run); the message is one line. Scoring's own errors (bad input, a missing resource on a
    worker) are raised as they are."""


# What scoring raises itself, on a worker as here: passed on unchanged, not taken for the cluster's.
_SCORING_ERRORS = (ValueError, WordNetMissingError, JarMissingError, OverBudget)


def score_partition(config: MeteorConfig, partition: Sequence[tuple]) -> list[SegmentResult]:
    """Run on a worker: score (index, hypothesis, references) items."""
    with _SCORING:
        return score_chunk(config, partition)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:160] + "…"


def _connection_args(address: str) -> tuple[object, dict]:
    """(the Security dask's configuration describes, the connection arguments it gives a client),
    refusing an address no client can use: an unknown scheme, tls:// without the
    certificates it needs, a transport that is not installed."""
    from distributed.comm import parse_address, registry
    from distributed.security import Security

    try:
        scheme, _ = parse_address(address)
        registry.get_backend(scheme)
    except (ValueError, TypeError) as exc:
        raise SchedulerUnreachable(f"{address!r} is not a Dask scheduler address ({_one_line(exc)}); "
                                   "give one such as tcp://HOST:8786") from None
    if scheme == "ucx":
        raise SchedulerUnreachable(f"{address}: Dask's ucx:// transport is not installed here "
                                   "(it comes with distributed-ucxx); give the scheduler's tcp:// address")
    security = Security()  # from dask's configuration: distributed.comm.tls.*
    args = security.get_connection_args("client")
    if scheme in ("tls", "wss") and args.get("ssl_context") is None:
        raise SchedulerUnreachable(f"{address}: a {scheme}:// scheduler needs TLS certificates: set "
                                   "distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and "
                                   "distributed.comm.tls.client.key in Dask's configuration")
    return security, args


async def _handshake(address: str, connection_args: dict) -> None:
    """Connect and exchange Dask's handshake, within CONNECT_SECONDS in all."""
    from distributed.comm import connect

    comm = await asyncio.wait_for(connect(address, timeout=CONNECT_SECONDS, **connection_args), CONNECT_SECONDS)
    try:
        if not isinstance(comm.remote_info, dict) or "pickle-protocol" not in comm.remote_info:
            raise ValueError("its handshake is not Dask's")
    finally:
        comm.abort()


def _check_scheduler(address: str, connection_args: dict) -> None:
    """SchedulerUnreachable, saying what went wrong, unless a server at ``address`` answers
    Dask's handshake within CONNECT_SECONDS, whatever it sends instead (an HTTP page, a byte a
    second, nothing at all)."""
    try:
        asyncio.run(_handshake(address, connection_args))
    except (asyncio.TimeoutError, TimeoutError):
        raise SchedulerUnreachable(f"no Dask scheduler answers at {address} within {CONNECT_SECONDS} s "
                                   "(nothing listens there, or it does not speak Dask's protocol)") from None
    except OSError as exc:
        if str(exc).startswith("Timed out trying to connect"):  # (distributed's wording)
            raise SchedulerUnreachable(f"no Dask scheduler answers at {address} ({_one_line(exc)})") from None
        raise SchedulerUnreachable(f"{address} closed the connection during Dask's handshake "
                                   f"({_one_line(exc)}); is it a Dask scheduler?") from None
    except Exception as exc:  # the reply could not be read as Dask's (e.g. an HTTP server's page)
        raise SchedulerUnreachable(f"{address} does not answer as a Dask scheduler ({type(exc).__name__}: "
                                   f"{_one_line(exc)})") from None


def _client(address: str):
    """A Client connected to the scheduler at ``address``, or SchedulerUnreachable within
    2 x CONNECT_SECONDS. The handshake is checked first (``_check_scheduler``); a scheduler that
    stops answering after it must not hang the caller either, so both run in a thread that is
    waited for only so long (a client it makes after that is closed at once). A thread of its
    own also keeps the handshake's event loop apart from any loop the caller runs (Jupyter)."""
    from dask.distributed import Client

    security, connection_args = _connection_args(address)
    lock = threading.Lock()
    made: dict = {}

    def make() -> None:
        try:
            _check_scheduler(address, connection_args)
            client = Client(address, timeout=CONNECT_SECONDS, security=security, set_as_default=False)
        except BaseException as exc:  # noqa: BLE001 (handed to the waiting thread below)
            with lock:
                made["error"] = exc
            return
        with lock:
            if not made.get("abandoned"):
                made["client"] = client
                return
        client.close()

    thread = threading.Thread(target=make, name="meteor-dask-connect", daemon=True)
    thread.start()
    thread.join(2 * CONNECT_SECONDS + 1)
    with lock:
        client, error = made.get("client"), made.get("error")
        made["abandoned"] = client is None
    if client is not None:
        return client
    if isinstance(error, SchedulerUnreachable):
        raise error
    if error is not None:
        raise SchedulerUnreachable(f"cannot talk to the Dask scheduler at {address} ({type(error).__name__}: "
                                   f"{_one_line(error)})") from None
    raise SchedulerUnreachable(f"the Dask scheduler at {address} stopped answering while the client connected")


@contextmanager
def _connected(scheduler):
    """A client for ``scheduler`` (a Client, used as is, or an address, checked, connected and
    closed here)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ImportError("scoring on a Dask cluster needs dask.distributed: "
                          "pip install 'dask[distributed]' (or .[dask])") from None
    if isinstance(scheduler, Client):
        yield scheduler
        return
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise SchedulerUnreachable(f"a Dask scheduler is a Client or an address such as tcp://HOST:8786, "
                                   f"not {scheduler!r}"[:200])
    with _client(scheduler.strip()) as client:
        yield client


def score_segments_dask(scheduler, hypotheses: Iterable[str], references: Iterable[Sequence[str]],
                        config: MeteorConfig | None = None,
                        partition_segments: int = PARTITION_SEGMENTS) -> Iterator[SegmentResult]:
    """``scorer.score_segments`` on a Dask cluster: every SegmentResult, in input order.
    ``scheduler``: a ``dask.distributed.Client``, or a scheduler's address (tcp://HOST:PORT)."""
    config = config or MeteorConfig.meteor2005()
    with _connected(scheduler) as client:
        # the window follows the cluster: workers that join later (a SLURM job starting) get work
        workers = lambda: sum(client.nthreads().values())  # noqa: E731
        try:
            yield from parallel.ordered_map(partial(score_partition, config), number_segments(hypotheses, references),
                                            chunk_items=partition_segments, executor=client.get_executor(pure=False),
                                            workers=workers)
        except _SCORING_ERRORS:
            raise
        except Exception as exc:
            raise ClusterFailed(_failure_message(exc, client)) from None


def _failure_message(exc: Exception, client) -> str:
    where = getattr(getattr(client, "scheduler", None), "address", None) or "the Dask cluster"
    if isinstance(exc, ImportError) or "deserializ" in str(exc):
        return (f"the Dask cluster at {where} cannot run the scoring ({type(exc).__name__}: {_one_line(exc)}); "
                "the scheduler and every worker need meteor_core installed (pip install .[dask])")
    if isinstance(exc, (concurrent.futures.CancelledError, asyncio.CancelledError)):
        return (f"the Dask cluster at {where} dropped the work during the run (the scheduler lost, or "
                f"restarted, and not back within {CONNECT_SECONDS} s?)")
    return f"the Dask cluster at {where} failed during the run ({type(exc).__name__}: {_one_line(exc)})"


def score_corpus_dask(scheduler, hypotheses: Iterable[str], references: Iterable[Sequence[str]],
                      config: MeteorConfig | None = None, partition_segments: int = PARTITION_SEGMENTS) -> CorpusResult:
    """``scorer.score_corpus`` on a Dask cluster: the same CorpusResult as a local run."""
    config = config or MeteorConfig.meteor2005()
    return corpus_from_segments(score_segments_dask(scheduler, hypotheses, references, config, partition_segments),
                                config)
