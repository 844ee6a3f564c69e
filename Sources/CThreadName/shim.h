// Names the calling thread as the kernel shows it (perf, top -H, gdb, /proc/PID/task/TID/comm).
//
// Foundation's Thread.name does not reach the OS on Linux, and the calls that do are out of Swift's reach:
// prctl is variadic and pthread_setname_np needs _GNU_SOURCE, which the already-built libc module lacks. A
// static inline wrapper compiled here calls prctl for Swift. The kernel keeps at most 15 bytes of the name.
#pragma once
#if defined(__linux__)
#include <sys/prctl.h>

static inline int tally_name_current_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
#else
static inline int tally_name_current_thread(const char *name) {
    (void)name;
    return 0;
}
#endif
