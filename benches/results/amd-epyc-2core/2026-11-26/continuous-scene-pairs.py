#!/usr/bin/env python3
"""Whole-scene continuous on − off, interleaved, for Prism and Box2D in the same runs.

usage: python3 continuous-scene-pairs.py PAIRS THREADS PRISM_BENCH SCENE...

For each scene, PAIRS pairs of one run without and one with --continuous (one repeat each);
prints each run's ms/step and contact count per engine and the medians of on − off."""
import subprocess, sys, re, statistics
pairs, threads, binary = int(sys.argv[1]), sys.argv[2], sys.argv[3]
scenes = sys.argv[4:]
def run(scene, cont):
    cmd = [binary, '--scene', scene, '--engine', 'prism,box2d', '--threads', threads, '--repeats', '1']
    if cont: cmd.append('--continuous')
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    ms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) > 10 and f[0] == scene: ms[f[1]] = (float(f[5]), int(f[8]))
    return ms
for scene in scenes:
    d = {'prism': [], 'box2d': []}
    for i in range(pairs):
        off, on = run(scene, False), run(scene, True)
        for e in d: d[e].append(on[e][0] - off[e][0])
        print(scene, i, 'off', off, 'on', on, flush=True)
    print(scene, 'median on-off ms/step: prism %+.3f box2d %+.3f' % (statistics.median(d['prism']), statistics.median(d['box2d'])), flush=True)
