// The NATS side of Benchmarks/run-e2e.sh: what a backend team would run instead of Tally's broker, measured on the
// same machine in the same run. A queue group of echo workers behind one nats-server, driven by a closed-loop load
// of request/reply with a fixed number in flight, as tally-load drives Tally.
//
//   nats-bench worker URL SUBJECT QUEUE [REPLY_BYTES]
//                                                  answers every request on SUBJECT with its own body (or with
//                                                  REPLY_BYTES bytes, the size of Tally's answer), until SIGTERM
//   nats-bench load URL SUBJECT IN_FLIGHT SECONDS BODY_BYTES
//                                                  prints one JSON line: requests, seconds, per second, p50/p99 µs,
//                                                  and the load's own CPU seconds
//
// Replies come back to one wildcard subscription (`_INBOX.<pid>.*`); the last token of a reply's subject names the
// in-flight slot it answers, whose next request is published from the reply's callback.
#include <nats/nats.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/// Connects with publishes sent as soon as they are made (`asap`, as `natsConnection_Request` does) or buffered for
/// the library's flusher thread (its default). Each side gets what serves it best, so that NATS is measured at its
/// best: workers answer at once (buffered replies add a millisecond or two to every round trip at one request in
/// flight, and cost throughput too), the load client sends at once with one request in flight and buffered with
/// many (batching its publishes gains a quarter of the throughput at 100 in flight).
static natsStatus connect_with(natsConnection **connection, const char *url, bool asap) {
    natsOptions *options = NULL;
    natsStatus status = natsOptions_Create(&options);
    if (status == NATS_OK) status = natsOptions_SetURL(options, url);
    if (status == NATS_OK) status = natsOptions_SetSendAsap(options, asap);
    if (status == NATS_OK) status = natsConnection_Connect(connection, options);
    natsOptions_Destroy(options);
    return status;
}

static int fail(const char *what, natsStatus status) {
    fprintf(stderr, "nats-bench: %s: %s\n", what, natsStatus_GetText(status));
    return 1;
}

// MARK: worker

static volatile sig_atomic_t stopping = 0;

static void on_signal(int signal) {
    (void)signal;
    stopping = 1;
}

/// The answer of a worker given REPLY_BYTES; NULL: it echoes.
static char *fixed_reply = NULL;
static int fixed_reply_bytes = 0;

static void echo(natsConnection *connection, natsSubscription *subscription, natsMsg *message, void *closure) {
    (void)subscription;
    (void)closure;
    const char *reply = natsMsg_GetReply(message);
    if (reply != NULL && fixed_reply != NULL) {
        natsConnection_Publish(connection, reply, fixed_reply, fixed_reply_bytes);
    } else if (reply != NULL) {
        natsConnection_Publish(connection, reply, natsMsg_GetData(message), natsMsg_GetDataLength(message));
    }
    natsMsg_Destroy(message);
}

static int worker(const char *url, const char *subject, const char *queue) {
    natsConnection *connection = NULL;
    natsSubscription *subscription = NULL;
    natsStatus status = connect_with(&connection, url, true);
    if (status != NATS_OK) return fail("connect", status);
    status = natsConnection_QueueSubscribe(&subscription, connection, subject, queue, echo, NULL);
    if (status != NATS_OK) return fail("queue subscribe", status);
    natsConnection_Flush(connection);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    printf("nats-bench worker ready\n");
    fflush(stdout);
    while (!stopping) usleep(50000);
    natsSubscription_Destroy(subscription);
    natsConnection_Destroy(connection);
    return 0;
}

// MARK: load

#define LATENCY_BUCKETS 2000000  // 1 µs each, up to 2 s

static struct {
    natsConnection *connection;
    const char *subject;
    char prefix[64];
    char *body;
    int body_bytes;
    uint64_t *started;  // per slot
    _Atomic uint64_t completed;
    _Atomic int sending;
    _Atomic int outstanding;
    uint32_t *latencies;  // histogram, µs
} load_state;

static void publish(int slot) {
    char reply[96];
    snprintf(reply, sizeof reply, "%s.%d", load_state.prefix, slot);
    load_state.started[slot] = now_us();
    atomic_fetch_add(&load_state.outstanding, 1);
    natsConnection_PublishRequest(
        load_state.connection, load_state.subject, reply, load_state.body, load_state.body_bytes);
}

static void on_reply(natsConnection *connection, natsSubscription *subscription, natsMsg *message, void *closure) {
    (void)connection;
    (void)subscription;
    (void)closure;
    const char *subject = natsMsg_GetSubject(message);
    const char *dot = strrchr(subject, '.');
    int slot = dot != NULL ? atoi(dot + 1) : 0;
    uint64_t elapsed = now_us() - load_state.started[slot];
    load_state.latencies[elapsed < LATENCY_BUCKETS ? elapsed : LATENCY_BUCKETS - 1] += 1;  // one callback thread
    atomic_fetch_add(&load_state.completed, 1);
    atomic_fetch_sub(&load_state.outstanding, 1);
    natsMsg_Destroy(message);
    if (atomic_load(&load_state.sending)) publish(slot);
}

static uint64_t percentile(double fraction, uint64_t count) {
    uint64_t target = (uint64_t)(fraction * (double)count);
    uint64_t seen = 0;
    for (uint64_t us = 0; us < LATENCY_BUCKETS; us++) {
        seen += load_state.latencies[us];
        if (seen > target) return us;
    }
    return LATENCY_BUCKETS;
}

static int load(const char *url, const char *subject, int in_flight, double seconds, int body_bytes) {
    natsSubscription *subscription = NULL;
    natsStatus status = connect_with(&load_state.connection, url, in_flight <= 1);
    if (status != NATS_OK) return fail("connect", status);
    load_state.subject = subject;
    snprintf(load_state.prefix, sizeof load_state.prefix, "_INBOX.bench%d", (int)getpid());
    char wildcard[80];
    snprintf(wildcard, sizeof wildcard, "%s.*", load_state.prefix);
    status = natsConnection_Subscribe(&subscription, load_state.connection, wildcard, on_reply, NULL);
    if (status != NATS_OK) return fail("subscribe", status);
    natsConnection_Flush(load_state.connection);
    load_state.body_bytes = body_bytes;
    load_state.body = malloc((size_t)body_bytes + 1);
    memset(load_state.body, 'x', (size_t)body_bytes);
    load_state.started = calloc((size_t)in_flight, sizeof(uint64_t));
    load_state.latencies = calloc(LATENCY_BUCKETS, sizeof(uint32_t));
    atomic_store(&load_state.sending, 1);
    uint64_t start = now_us();
    for (int slot = 0; slot < in_flight; slot++) publish(slot);
    usleep((useconds_t)(seconds * 1e6));
    atomic_store(&load_state.sending, 0);
    uint64_t end = now_us();
    uint64_t completed = atomic_load(&load_state.completed);
    // Let the last answers arrive, so that the connection closes quietly.
    for (int wait = 0; wait < 100 && atomic_load(&load_state.outstanding) > 0; wait++) usleep(10000);
    double elapsed = (double)(end - start) / 1e6;
    // The load shares the machine's cores with what it measures (Benchmarks/run-floor.sh reports it beside the
    // server's and the workers' CPU).
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec
        + (double)usage.ru_stime.tv_usec / 1e6;
    printf(
        "{\"requests\":%llu,\"seconds\":%.3f,\"per_second\":%.1f,\"p50_us\":%llu,\"p99_us\":%llu,"
        "\"cpu_seconds\":%.3f}\n",
        (unsigned long long)completed, elapsed, (double)completed / elapsed,
        (unsigned long long)percentile(0.5, completed), (unsigned long long)percentile(0.99, completed), cpu);
    natsSubscription_Destroy(subscription);
    natsConnection_Destroy(load_state.connection);
    return 0;
}

int main(int argc, char **argv) {
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "worker") == 0) {
        if (argc == 6) {
            fixed_reply_bytes = atoi(argv[5]);
            fixed_reply = malloc((size_t)fixed_reply_bytes + 1);
            memset(fixed_reply, 'r', (size_t)fixed_reply_bytes);
        }
        return worker(argv[2], argv[3], argv[4]);
    }
    if (argc == 7 && strcmp(argv[1], "load") == 0) {
        return load(argv[2], argv[3], atoi(argv[4]), atof(argv[5]), atoi(argv[6]));
    }
    fprintf(stderr, "usage: nats-bench worker URL SUBJECT QUEUE [REPLY_BYTES] | load URL SUBJECT IN_FLIGHT SECONDS BODY_BYTES\n");
    return 64;
}
