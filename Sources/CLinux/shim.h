// Linux calls that Swift cannot reach directly, as static inline wrappers compiled here.
//
// prctl is variadic, which Swift does not import; mallopt and pthread_setname_np live behind headers or feature
// macros that the already-built libc module leaves out.
#pragma once
#include <stddef.h>

#if defined(__linux__)
#include <malloc.h>
#include <sys/prctl.h>

// Names the calling thread as the kernel shows it (perf, top -H, gdb, /proc/PID/task/TID/comm); the kernel keeps
// at most 15 bytes. Foundation's Thread.name does not reach the OS on Linux.
static inline int tally_name_current_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

// Sets glibc malloc's trim threshold (free memory at the top of a heap kept rather than given back with
// madvise/brk) and mmap threshold (allocations served by their own mmap, unmapped again on free).
// Returns 1 when both were accepted.
static inline int tally_tune_malloc(size_t trim_threshold, size_t mmap_threshold) {
    return mallopt(M_TRIM_THRESHOLD, (int)trim_threshold) && mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
}
#else
static inline int tally_name_current_thread(const char *name) {
    (void)name;
    return 0;
}

static inline int tally_tune_malloc(size_t trim_threshold, size_t mmap_threshold) {
    (void)trim_threshold;
    (void)mmap_threshold;
    return 0;
}
#endif
