"""The Python side of the codec scripts (run-decode.sh, run-encode.sh): how fast a Python codec goes, measured the
same way for both."""

import time


def mb_per_second(codec, value, size):
    """MB/s of `codec(value)` over `size` bytes: the median of 7 rounds, each long enough (~2 MB of work) that the
    clock's resolution does not count."""
    repeats = max(5, int(2_000_000 / size))
    times = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(repeats):
            codec(value)
        times.append((time.perf_counter() - start) / repeats)
    return size / sorted(times)[3] / 1e6


def interleaved_medians(measures, rounds=5):
    """The median of `rounds` runs of each of `measures` (functions answering MB/s), run in turn round after round:
    a slow spell of this shared machine (another tenant, a slower core) falls on all of them alike instead of on
    whichever was measured then, so the ratios between them hold from run to run."""
    results = [[] for _ in measures]
    for _ in range(rounds):
        for index, measure in enumerate(measures):
            results[index].append(measure())
    return [sorted(values)[len(values) // 2] for values in results]
