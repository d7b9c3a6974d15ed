"""Work over many items on every core: results in input order, memory bounded by a window.

``ordered_map(function, items, jobs)`` cuts ``items`` (any iterable, read lazily) into chunks,
calls ``function(chunk)`` (a picklable function returning one result per item) in worker
processes and yields the results one by one in input order. At most ``IN_FLIGHT_PER_JOB``
chunks per job are submitted ahead of the one being yielded, so neither the input nor the
results pile up, whatever the corpus size. This module knows nothing of METEOR: the scorer
passes its chunk function (``scorer.score_segments``), and ``dask_runner`` passes a Dask
cluster's executor instead of the local pool.

Choices (measured on this machine, 2 cores, TED segments of ~0.1–0.5 ms each):
* How workers start. ``fork`` when no other thread runs here (the CLI, scripts; the helper
  threads of this module's own pools do not count): workers start in milliseconds and share,
  copy-on-write, what the parent has loaded (a new pool's first chunk is scored here, before
  the fork, so that this includes the stemmer, WordNet and the memos of the corpus's commonest
  words). With other threads running (Streamlit
  runs each page in a thread), a fork could copy a lock that another thread holds into the
  child and deadlock it, so ``forkserver`` (``spawn`` where that does not exist) starts them
  from a clean single-threaded process instead; each worker then imports the library and loads
  its resources itself, once (they are memoised per process). As always with those two, a
  script run directly needs the ``if __name__ == "__main__":`` guard.
* One pool per number of jobs, kept between calls and closed after ``POOL_IDLE_SECONDS``
  unused: a page that scores several systems, or the difference walk that rescores a corpus
  once per factor, pays the workers' start (and their resource loading) once.
* When a pool pays. Below ``MIN_PARALLEL_ITEMS`` items (1,000) everything runs in this process
  as one job: starting a forked pool and the first round trips cost ~0.05–0.2 s, as much as
  scoring a few hundred segments. Workers that must start from scratch (no running pool, and
  no fork) take seconds before their first result (importing the library and NLTK, loading
  WordNet: a cold forkserver pool scored 4,800 TED segments in 6.1 s here, then 1.4 s once
  warm, against 1.1 s in one process), so a new pool of that kind is started only from
  ``MIN_COLD_PARALLEL_ITEMS`` items (40,000).
* ``CHUNK_ITEMS`` (200) items a chunk: pickling a chunk and its results costs ~7 µs a segment
  (measured), against ~65 µs or more to score one. ``IN_FLIGHT_PER_JOB`` (4) chunks per job
  are submitted ahead: results are yielded in order, so a chunk that runs late (its process
  descheduled) must not leave the other workers without work meanwhile; that is still at most
  ~800 results per job in memory. Neither limits the gain: chunks of 50 to 400 items with 2 to
  8 ahead all ran 2 jobs at 1.46-1.52x of one (4,800 TED pairs, in the same run).
* Interrupting. Workers ignore SIGINT: Ctrl-C reaches a terminal's whole process group, and a
  worker interrupted halfway through writing its result to the pipe leaves the pool unable to
  shut down. The caller is woken every ``WAKE_SECONDS`` while it waits for a result (a signal
  that the OS hands to one of the pool's helper threads would otherwise wait for the result), and
  on KeyboardInterrupt or SystemExit the pool's workers are terminated at once instead of
  finishing the chunks already queued (``stop_pools``), so the program ends within a second.
"""
from __future__ import annotations

import concurrent.futures
import concurrent.futures.process
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import chain, islice
from typing import Callable, Iterable, Iterator, Sequence, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

CHUNK_ITEMS = 200
IN_FLIGHT_PER_JOB = 4
MIN_PARALLEL_ITEMS = 1_000
MIN_COLD_PARALLEL_ITEMS = 40_000
POOL_IDLE_SECONDS = 300.0
WAKE_SECONDS = 0.1  # how often a caller waiting for a result wakes to take a signal


def available_cores() -> int:
    """The cores this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def resolve_jobs(jobs: int | None) -> int:
    """``jobs`` as a number of processes: None or 0 means every available core."""
    if jobs is None or jobs == 0:
        return available_cores()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise ValueError(f"jobs must be a whole number >= 0 (0: every core), not {jobs!r}")
    return jobs


def start_method() -> str:
    """How new worker processes start here (see the module docstring)."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and not _foreign_threads():
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _foreign_threads() -> list[threading.Thread]:
    """Threads other than this one and the helpers of this module's own pools (their manager
    and queue-feeder threads, and the idle timers), whose locks a new worker never touches."""
    current = threading.current_thread()
    return [t for t in threading.enumerate()
            if t is not current and not isinstance(t, _ManagerThread) and t.name not in _HELPER_NAMES]


_ManagerThread = getattr(concurrent.futures.process, "_ExecutorManagerThread", ())
_IDLE_TIMER_NAME = "meteor-pool-idle-timer"
_HELPER_NAMES = ("QueueFeederThread", _IDLE_TIMER_NAME)


def chunked(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def ordered_map(function: Callable[[list[Item]], Sequence[Result]], items: Iterable[Item], jobs: int | None = 1,
                chunk_items: int | None = None, executor: Executor | None = None,
                workers: int | Callable[[], int] = 1) -> Iterator[Result]:
    """``function(chunk)`` over chunks of ``items``, the results yielded one by one in input order.

    ``chunk_items`` items a chunk (default ``CHUNK_ITEMS``). Without ``executor``: in this
    process when ``jobs`` is 1 or the items are too few for a pool to pay (see the module
    docstring), else in the shared pool of ``jobs`` processes (None or 0: every core). With
    ``executor`` (e.g. a Dask client's), every chunk goes there and ``workers`` (how many chunks
    it runs at once, or a function asked again as chunks finish: a cluster grows) sets the window. An exception raised by ``function`` is raised here, after
    the results of the chunks before it.
    """
    chunk_items = chunk_items or CHUNK_ITEMS
    chunks = chunked(items, chunk_items)
    if executor is not None:
        yield from _windowed(function, chunks, executor, workers)
        return
    jobs = resolve_jobs(jobs)
    head: list[list[Item]] = []
    if jobs > 1:  # read ahead just far enough to know whether a pool pays
        needed = MIN_PARALLEL_ITEMS if _pool_is_cheap(jobs) else MIN_COLD_PARALLEL_ITEMS
        head = list(islice(chunks, -(-needed // chunk_items)))
        if sum(map(len, head)) < needed:
            jobs = 1
    if jobs == 1:
        for chunk in chain(head, chunks):
            yield from function(chunk)
        return
    if jobs not in _SharedPool.running:  # the first chunk here: forked workers then inherit what it
        yield from function(head.pop(0))  # loaded (stemmer, WordNet...) and the words it memoised
    pool = _SharedPool.get(jobs)
    try:
        yield from _windowed(function, chain(head, chunks), pool.executor, jobs)
    except BrokenProcessPool:
        pool.discard()  # a worker died (killed, out of memory): the next call starts a new pool
        raise
    except (KeyboardInterrupt, SystemExit):
        pool.terminate()  # the queued chunks' results are not wanted: stop now, not after them
        raise
    finally:
        pool.release()


def _windowed(function, chunks: Iterator[list], executor: Executor, workers: int | Callable[[], int]) -> Iterator:
    """Keep ``IN_FLIGHT_PER_JOB`` chunks per worker submitted; yield the oldest's results as it
    finishes (the later ones keep running meanwhile)."""
    count = workers if callable(workers) else (lambda: workers)
    window: deque = deque()
    try:
        while True:
            wanted = max(1, count()) * IN_FLIGHT_PER_JOB - len(window)
            window.extend(executor.submit(function, chunk) for chunk in islice(chunks, max(wanted, 1)))
            if not window:
                return
            yield from _result(window.popleft())
    except (KeyboardInterrupt, SystemExit):
        window.clear()  # the caller terminates the pool: a cancelled future would upset its cleanup
        raise
    finally:
        for future in window:  # an error, or the caller stopped early: drop what is still queued
            future.cancel()


def _result(future: concurrent.futures.Future):
    """``future.result()``, waking every WAKE_SECONDS: Python runs a signal's handler in the main
    thread only when that thread runs, and a wait without a timeout does not run it if the
    signal was delivered to another thread (the pool's own threads take a share of them)."""
    while not future.done():
        concurrent.futures.wait([future], timeout=WAKE_SECONDS)
    return future.result()


def _ignore_interrupts() -> None:
    """A worker's initializer: SIGINT is for the parent (see the module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool_is_cheap(jobs: int) -> bool:
    """Whether workers for ``jobs`` exist already or start by a fork (see the module docstring)."""
    return jobs in _SharedPool.running or start_method() == "fork"


class _SharedPool:
    """A process pool per number of jobs, shared by the calls (and threads) that need one, and
    shut down once nobody has used it for POOL_IDLE_SECONDS."""

    running: dict[int, "_SharedPool"] = {}
    _lock = threading.Lock()

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.executor = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(start_method()),
                                            initializer=_ignore_interrupts)
        self.users = 0
        self.last_used = time.monotonic()
        self._timer: threading.Timer | None = None

    @classmethod
    def get(cls, jobs: int) -> "_SharedPool":
        with cls._lock:
            pool = cls.running.get(jobs)
            if pool is None:
                pool = cls.running[jobs] = cls(jobs)
            pool.users += 1
            return pool

    def release(self) -> None:
        with self._lock:
            self.users -= 1
            self.last_used = stamp = time.monotonic()
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(POOL_IDLE_SECONDS, self._close_if_idle, args=(stamp,))
            self._timer.daemon = True
            self._timer.name = _IDLE_TIMER_NAME
            self._timer.start()

    def _close_if_idle(self, stamp: float) -> None:
        with self._lock:
            if self.users or self.last_used != stamp or self.running.get(self.jobs) is not self:
                return
            del self.running[self.jobs]
        self.executor.shutdown(wait=False, cancel_futures=True)

    def discard(self, wait: bool = False) -> None:
        with self._lock:
            if self.running.get(self.jobs) is self:
                del self.running[self.jobs]
            if self._timer is not None:
                self._timer.cancel()
        self.executor.shutdown(wait=wait, cancel_futures=True)


    def terminate(self) -> None:
        """End the workers now, whatever they are doing (their queued work is dropped), and
        forget the pool, leaving nothing for the interpreter's exit to wait on. Python 3.14 has
        ProcessPoolExecutor.terminate_workers; before it, the executor's own attributes are the
        only handles on its processes, pipes and thread (read with getattr: without them this is
        the plain shutdown)."""
        with self._lock:
            if self.running.get(self.jobs) is self:
                del self.running[self.jobs]
            if self._timer is not None:
                self._timer.cancel()
        executor = self.executor
        processes = list((getattr(executor, "_processes", None) or {}).values())
        manager = getattr(executor, "_executor_manager_thread", None)
        calls, results = getattr(executor, "_call_queue", None), getattr(executor, "_result_queue", None)
        # (no cancel_futures: Python 3.11's cleanup of a broken pool fails on a cancelled future)
        executor.shutdown(wait=False)
        for process in processes:
            process.terminate()
        deadline = time.monotonic() + 0.5
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(0.2)
        # The chunks queued for the dead workers are never read: the thread feeding them must
        # not be waited for at exit (multiprocessing would, forever).
        if calls is not None:
            calls.cancel_join_thread()
        # A worker ended halfway through writing a result leaves the pool's thread waiting for
        # the rest; once this end of the pipe is closed as well, it reads the end of the file
        # instead, finds the pool broken and cleans up. It is joined here so that it is not
        # still closing its pipes when the interpreter's exit wakes it.
        writer = getattr(results, "_writer", None)
        if writer is not None:
            writer.close()
        if manager is not None and manager is not threading.current_thread():
            manager.join(1.0)


def shutdown_pools() -> None:
    """Stop every shared pool's workers now (they are started again when next needed)."""
    for pool in list(_SharedPool.running.values()):
        pool.discard(wait=True)


def stop_pools() -> None:
    """Terminate every shared pool's workers at once, without waiting for their work: for a
    program that is being interrupted (the CLI on Ctrl-C)."""
    for pool in list(_SharedPool.running.values()):
        pool.terminate()
