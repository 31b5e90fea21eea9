#!/usr/bin/python3
# Frames per second of floatadm.Scorer at 1080p, by thread count: the library's
# own threads (float_adm_context_set_threads) behind one Python call per frame.
#
#   PYTHONPATH=build/python /usr/bin/python3 bench/python/bench_scorer.py [--threads 1,2]
#       [--frames 30] [--repeats 5] [--depth 8]
#
# Each run scores the same frames (a 1920x1080 noise pattern and a blurred copy,
# made once); the median of the repeats is printed with the smallest and largest.
#
# Copyright (c) 2026 the float_adm authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import os
import statistics
import time

import numpy as np

import floatadm


def frames(depth, count):
    rng = np.random.default_rng(1)
    dtype = np.uint8 if depth == 8 else np.uint16
    top = (1 << depth) - 1
    pairs = []
    for _ in range(count):
        ref = rng.integers(0, top + 1, (1080, 1920)).astype(dtype)
        dis = ((ref.astype(np.uint32) + np.roll(ref, 1, axis=1) + np.roll(ref, 1, axis=0) +
                np.roll(ref, 1, axis=(0, 1)) + 2) // 4).astype(dtype)
        pairs.append((ref, dis))
    return pairs


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--depth", type=int, default=8)
    args = parser.parse_args()
    pairs = frames(args.depth, min(args.frames, 4))
    print("floatadm %s, 1920x1080 %d-bit, %d frames x %d repeats, %d CPUs, load %.1f"
          % (floatadm.version(), args.depth, args.frames, args.repeats, os.cpu_count(),
             os.getloadavg()[0]))
    for threads in (int(t) for t in args.threads.split(",")):
        with floatadm.Scorer(1920, 1080, args.depth, threads=threads) as scorer:
            for ref, dis in pairs:  # warm-up: caches, page faults, the threads' start
                scorer.score(ref, dis)
            rates = []
            for _ in range(args.repeats):
                began = time.perf_counter()
                for i in range(args.frames):
                    scorer.score(*pairs[i % len(pairs)])
                rates.append(args.frames / (time.perf_counter() - began))
        print("threads %d: %.2f fps (median; %.2f to %.2f)"
              % (threads, statistics.median(rates), min(rates), max(rates)))


if __name__ == "__main__":
    main()
