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
