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

Only this module uses dask, and only when called (importing it does not import dask), so the
core, the CLI and the app work without dask installed; without it these functions raise an
ImportError that says what to install.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import partial
from typing import Iterable, Iterator, Sequence

from . import parallel
from .config import MeteorConfig
from .scorer import CorpusResult, SegmentResult, corpus_from_segments, number_segments, score_chunk

PARTITION_SEGMENTS = 500  # ~0.05-0.2 s of work a partition: a task's overhead (~1 ms) is lost in it
CONNECT_SECONDS = 10

# One partition at a time per worker process (see the module docstring).
_SCORING = threading.Lock()


class SchedulerUnreachable(ConnectionError):
    """The scheduler address given does not answer."""


def score_partition(config: MeteorConfig, partition: Sequence[tuple]) -> list[SegmentResult]:
    """Run on a worker: score (index, hypothesis, references) items."""
    with _SCORING:
        return score_chunk(config, partition)


@contextmanager
def _connected(scheduler):
    """A client for ``scheduler`` (a Client, used as is, or an address, connected and closed here)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ImportError("scoring on a Dask cluster needs dask.distributed: "
                          "pip install 'dask[distributed]' (or .[dask])") from None
    if isinstance(scheduler, Client):
        yield scheduler
        return
    try:
        client = Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        raise SchedulerUnreachable(f"no Dask scheduler answers at {scheduler} ({exc})") from None
    with client:
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
        yield from parallel.ordered_map(partial(score_partition, config), number_segments(hypotheses, references),
                                        chunk_items=partition_segments, executor=client.get_executor(pure=False),
                                        workers=workers)


def score_corpus_dask(scheduler, hypotheses: Iterable[str], references: Iterable[Sequence[str]],
                      config: MeteorConfig | None = None, partition_segments: int = PARTITION_SEGMENTS) -> CorpusResult:
    """``scorer.score_corpus`` on a Dask cluster: the same CorpusResult as a local run."""
    config = config or MeteorConfig.meteor2005()
    return corpus_from_segments(score_segments_dask(scheduler, hypotheses, references, config, partition_segments),
                                config)
