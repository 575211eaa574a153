#!/usr/bin/env python3
"""Continuous collision's own cost in rain's free fall (its first 160 steps: no contact, nothing
to hit, the same course with and without --continuous).

usage: THREADS=2 python3 pairs.py PAIRS PRISM_BENCH...

For each pair and each binary: one run without --continuous, then one with it, each
`--scene rain --steps 160 --engine prism,box2d --threads $THREADS --repeats 9 --stages`.
Prints each run's Prism `finalize` and whole step and Box2D `transforms` and whole step
(ms/step), then the medians of the on − off differences per binary."""
import os
import re
import statistics
import subprocess
import sys

pairs = int(sys.argv[1])
binaries = sys.argv[2:]
threads = os.environ.get('THREADS', '2')


def run(binary, continuous):
    command = [binary, '--scene', 'rain', '--steps', '160', '--engine', 'prism,box2d',
               '--threads', threads, '--repeats', '9', '--stages']
    if continuous:
        command.append('--continuous')
    out = subprocess.run(command, capture_output=True, text=True).stdout
    stages = [line for line in out.splitlines() if 'ms/step:' in line]
    prism = dict(re.findall(r'(\w+) ([0-9.]+)', stages[0]))
    box2d = dict(re.findall(r'(\w+) ([0-9.]+)', stages[1]))
    return (float(prism['finalize']), float(prism['total']),
            float(box2d['transforms']), float(box2d['total']))


differences = {binary: [] for binary in binaries}
for i in range(pairs):
    for binary in binaries:
        off, on = run(binary, False), run(binary, True)
        differences[binary].append([b - a for a, b in zip(off, on)])
        print(binary, i, 'off', off, 'on', on, flush=True)
for binary in binaries:
    medians = [statistics.median(column) for column in zip(*differences[binary])]
    print(binary, 'median on-off: prism finalize %+.3f total %+.3f | '
          'box2d transforms %+.3f total %+.3f' % tuple(medians))
