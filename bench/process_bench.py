#!/usr/bin/python3
"""Times commands as whole processes, as a user does: each command N times after one
warm-up, the commands taking turns (A B C A B C ...) so that a drift of the machine's speed
touches all alike; prints each command's median and minimum wall time and CPU time (user +
sys of the process and its children, from the operating system's accounting).

  bench/process_bench.py [--reps=N] NAME=COMMAND...

Prints "RESULT|NAME|wall_ms|cpu_ms" lines (medians) for process_bench.sh. A command is split
as a shell splits words; its output is discarded.
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv):
    before = os.times()
    start = time.perf_counter()
    status = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return status, wall * 1e3, cpu * 1e3


def main():
    reps = 7
    commands = []
    for arg in sys.argv[1:]:
        if arg.startswith("--reps="):
            reps = max(1, int(arg[len("--reps="):]))
        else:
            name, _, command = arg.partition("=")
            commands.append((name, shlex.split(command)))
    walls = {name: [] for name, _ in commands}
    cpus = {name: [] for name, _ in commands}
    for rep in range(reps + 1):
        for name, argv in commands:
            status, wall, cpu = run_once(argv)
            if status not in (0, 1):
                sys.exit(f"{name}: exit status {status}: {' '.join(argv)}")
            if rep > 0:  # the first round warms the page cache
                walls[name].append(wall)
                cpus[name].append(cpu)
        print(f"\rround {rep}/{reps}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    for name, _ in commands:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"{name:28} wall {wall:8.1f} ms (min {min(walls[name]):.1f})   "
              f"cpu {cpu:8.1f} ms (min {min(cpus[name]):.1f})")
        print(f"RESULT|{name}|{wall:.3f}|{cpu:.3f}")


if __name__ == "__main__":
    main()
