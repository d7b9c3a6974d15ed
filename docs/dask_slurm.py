"""Score a corpus with METEOR on a SLURM cluster, through Dask (dask-jobqueue's SLURMCluster).

    # once, on a filesystem the compute nodes share:
    python -m venv venv && venv/bin/pip install '.[dask]' dask-jobqueue
    NLTK_DATA=$PWD/nltk_data venv/bin/python -m meteor_core setup        # WordNet 3.0, for every node
    # then, on the login node (the script submits the worker jobs and waits for them):
    NLTK_DATA=$PWD/nltk_data venv/bin/python docs/dask_slurm.py --slurm-jobs 8 --queue normal \\
        -- --hyp hyp.txt --ref ref.txt --format jsonl > scores.jsonl

Everything after ``--`` is what ``python -m meteor_core`` (score) takes; the script starts the
cluster and runs exactly that command with ``--scheduler`` pointing at it, so the output is the
one of a local run. Each SLURM job runs ``--processes`` Dask worker processes of one thread each
(a worker scores one partition at a time, see meteor_core/dask_runner.py; every process loads
WordNet once, so give a process 1 GB or more). ``--dry-run`` prints the job script SLURM would be
given and stops.
"""
from __future__ import annotations

import argparse
import os
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slurm-jobs", type=int, default=4, help="SLURM jobs to submit")
    parser.add_argument("--processes", type=int, default=4, help="worker processes (and cores) a job")
    parser.add_argument("--memory", default="6GB", help="memory a job (shared by its processes)")
    parser.add_argument("--walltime", default="02:00:00")
    parser.add_argument("--queue", help="SLURM partition")
    parser.add_argument("--account", help="SLURM account")
    parser.add_argument("--dry-run", action="store_true", help="print the job script and stop")
    parser.add_argument("meteor_args", nargs=argparse.REMAINDER, help="-- then the arguments of python -m meteor_core")
    args = parser.parse_args()
    meteor_args = args.meteor_args[1:] if args.meteor_args[:1] == ["--"] else args.meteor_args

    from dask.distributed import Client
    from dask_jobqueue import SLURMCluster

    cluster = SLURMCluster(
        queue=args.queue, account=args.account, cores=args.processes, processes=args.processes,
        memory=args.memory, walltime=args.walltime,
        # the workers find WordNet where the setup put it, and the same Python environment
        job_script_prologue=[f"export NLTK_DATA={os.environ.get('NLTK_DATA', '$HOME/nltk_data')}"],
        python=sys.executable,
    )
    if args.dry_run:
        print(cluster.job_script())
        cluster.close()
        return 0
    with cluster, Client(cluster) as client:
        cluster.scale(jobs=args.slurm_jobs)
        client.wait_for_workers(1)  # scoring starts with the first worker; later ones join as SLURM starts them
        from meteor_core.cli import main as meteor

        return meteor(["score", *meteor_args, "--scheduler", cluster.scheduler_address])


if __name__ == "__main__":
    sys.exit(main())
