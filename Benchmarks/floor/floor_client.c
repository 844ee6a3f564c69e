// The load of Benchmarks/run-floor.sh: a closed-loop MDP/0.1 client that keeps a fixed number of requests in flight
// and counts their replies. The same program drives the floor (floor-broker and floor-workers) and Tally
// (tally-broker and tally-workers), so that both are measured with the same client costs on the same CPUs.
//
// Every request is a valid Tally v1 `system.ping` whose id is unique in the run and names the in-flight slot it
// was sent from:
//
//   {"version":1,"id":"fNNNNNNNNNNNxx…","method":"system.ping","params":{}}
//
// (NNNNNNNNNNN: the request's number in 11 hex digits, the slot's count of requests so far times the in-flight count
// plus the slot, so that the number gives back its slot; then padding to the body size asked for). The shortest
// body is 68 bytes, tally-load's ping with its 12-character ids. A Tally worker's answer repeats the id and the
// floor's echo returns the request itself, so the id is found at the head of either and every reply is matched to
// the one request it answers: a reply that answers no request in flight (a second answer, a late one) is counted
// apart, and so are error answers.
//
//   floor-client ENDPOINT [--service NAME] [--in-flight N] [--seconds S | --requests N] [--body-bytes B]
//                         [--timeout S]
//
// prints one JSON line: requests sent, replies, unanswered, unexpected, malformed and error replies, the sending
// window in seconds, replies per second over it, latency p50/p99 in µs, the mean reply size and the client's own
// CPU seconds. It exits 0 when every request got exactly one reply and none was an error. With FLOOR_CURVE set it
// encrypts (floor_curve.h).
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "floor_curve.h"

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

// MARK: latency histogram

// 1 µs buckets up to 100 ms, where every figure of interest lies, then 1 ms buckets up to 100 s: exact where it
// matters and a bounded table (800 KB) whatever the run's length.
#define FINE_BUCKETS 100000
#define COARSE_BUCKETS 100000
static uint32_t fine[FINE_BUCKETS];
static uint32_t coarse[COARSE_BUCKETS];

static void record_latency(uint64_t us) {
    if (us < FINE_BUCKETS) {
        fine[us] += 1;
    } else {
        uint64_t ms = us / 1000;
        coarse[ms < COARSE_BUCKETS ? ms : COARSE_BUCKETS - 1] += 1;
    }
}

static uint64_t percentile(double fraction, uint64_t count) {
    if (count == 0) return 0;
    uint64_t target = (uint64_t)(fraction * (double)count);
    uint64_t seen = 0;
    for (uint64_t us = 0; us < FINE_BUCKETS; us++) {
        seen += fine[us];
        if (seen > target) return us;
    }
    for (uint64_t ms = FINE_BUCKETS / 1000; ms < COARSE_BUCKETS; ms++) {
        seen += coarse[ms];
        if (seen > target) return ms * 1000;
    }
    return (uint64_t)COARSE_BUCKETS * 1000;
}

// MARK: request bodies

static const char body_head[] = "{\"version\":1,\"id\":\"";
static const char body_tail[] = "\",\"method\":\"system.ping\",\"params\":{}}";
// "f" and the request's number in hex.
#define NUMBER_DIGITS 11
#define ID_FIXED (1 + NUMBER_DIGITS)
// Tally takes ids of 1 to 128 characters.
#define ID_MAX 128

static char *body;
static size_t body_size;
static size_t id_offset;

static const char hex[] = "0123456789abcdef";

static void write_number(char *to, uint64_t value) {
    for (int index = NUMBER_DIGITS - 1; index >= 0; index--) {
        to[index] = hex[value & 15];
        value >>= 4;
    }
}

/// The number written by `write_number`; -1 for anything else.
static int64_t read_number(const char *from) {
    uint64_t value = 0;
    for (int index = 0; index < NUMBER_DIGITS; index++) {
        char digit = from[index];
        if (digit >= '0' && digit <= '9') value = value << 4 | (uint64_t)(digit - '0');
        else if (digit >= 'a' && digit <= 'f') value = value << 4 | (uint64_t)(digit - 'a' + 10);
        else return -1;
    }
    return (int64_t)value;
}

/// Lays out the body once; each request then writes only its number.
static int prepare_body(size_t wanted) {
    size_t fixed = sizeof body_head - 1 + sizeof body_tail - 1;
    if (wanted < fixed + ID_FIXED || wanted > fixed + ID_MAX) {
        fprintf(stderr, "floor-client: --body-bytes must be %zu to %zu\n", fixed + ID_FIXED, fixed + ID_MAX);
        return -1;
    }
    size_t id_size = wanted - fixed;
    body_size = wanted;
    body = malloc(body_size + 1);
    id_offset = sizeof body_head - 1;
    memcpy(body, body_head, id_offset);
    char *id = body + id_offset;
    memset(id, 'x', id_size);
    id[0] = 'f';
    memcpy(id + id_size, body_tail, sizeof body_tail - 1);
    body[body_size] = 0;
    return 0;
}

// MARK: the loop

struct slot {
    int busy;
    /// The number of the request in flight, and how many the slot has sent.
    uint64_t number;
    uint64_t count;
    uint64_t started_us;
};

static struct {
    void *socket;
    const char *service;
    size_t service_size;
    struct slot *slots;
    int in_flight;
    uint64_t sent;
    uint64_t outstanding;
} load;

static int send_request(int slot) {
    uint64_t number = load.slots[slot].count++ * (uint64_t)load.in_flight + (uint64_t)slot;
    write_number(body + id_offset + 1, number);
    load.slots[slot].busy = 1;
    load.slots[slot].number = number;
    load.slots[slot].started_us = now_us();
    if (zmq_send(load.socket, "", 0, ZMQ_SNDMORE) < 0 || zmq_send(load.socket, "MDPC01", 6, ZMQ_SNDMORE) < 0
        || zmq_send(load.socket, load.service, load.service_size, ZMQ_SNDMORE) < 0
        || zmq_send(load.socket, body, body_size, 0) < 0) {
        fprintf(stderr, "floor-client: send: %s\n", zmq_strerror(errno));
        return -1;
    }
    load.sent += 1;
    load.outstanding += 1;
    return 0;
}

/// The in-flight slot that a reply's body answers, or -1 if it answers none. Reads the body's first `"id":"`: the
/// head of a Tally response and of the floor's echo alike.
static int match_reply(const char *reply, size_t size) {
    const char key[] = "\"id\":\"";
    const char *found = memmem(reply, size, key, sizeof key - 1);
    if (found == NULL) return -1;
    const char *id = found + sizeof key - 1;
    if ((size_t)(reply + size - id) < ID_FIXED + 1 || id[0] != 'f') return -1;
    int64_t number = read_number(id + 1);
    if (number < 0) return -1;
    int slot = (int)((uint64_t)number % (uint64_t)load.in_flight);
    if (!load.slots[slot].busy || load.slots[slot].number != (uint64_t)number) return -1;
    return slot;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec
        + (double)usage.ru_stime.tv_usec / 1e6;
}

static void usage(void) {
    fprintf(stderr,
        "usage: floor-client ENDPOINT [--service NAME] [--in-flight N] [--seconds S | --requests N] "
        "[--body-bytes B] [--timeout S]\n");
}

int main(int argc, char **argv) {
    if (argc < 2 || argv[1][0] == '-') {
        usage();
        return 64;
    }
    const char *endpoint = argv[1];
    const char *service = "tally.history";
    int in_flight = 1;
    double seconds = 5;
    uint64_t requests = 0;
    size_t body_bytes = 100;
    double timeout = 5;
    for (int index = 2; index < argc; index++) {
        const char *option = argv[index];
        if (index + 1 >= argc) {
            usage();
            return 64;
        }
        const char *value = argv[++index];
        if (strcmp(option, "--service") == 0) service = value;
        else if (strcmp(option, "--in-flight") == 0) in_flight = atoi(value);
        else if (strcmp(option, "--seconds") == 0) seconds = atof(value);
        else if (strcmp(option, "--requests") == 0) requests = strtoull(value, NULL, 10);
        else if (strcmp(option, "--body-bytes") == 0) body_bytes = (size_t)atol(value);
        else if (strcmp(option, "--timeout") == 0) timeout = atof(value);
        else {
            usage();
            return 64;
        }
    }
    if (in_flight < 1 || in_flight > 999999 || timeout <= 0) {
        usage();
        return 64;
    }
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (prepare_body(body_bytes) != 0) return 64;

    void *context = zmq_ctx_new();
    load.socket = zmq_socket(context, ZMQ_DEALER);
    load.service = service;
    load.service_size = strlen(service);
    int linger = 0;
    zmq_setsockopt(load.socket, ZMQ_LINGER, &linger, sizeof linger);
    // Wakes the loop now and then with no reply, to notice the end of the run and a stalled broker.
    int receive_timeout = 100;
    zmq_setsockopt(load.socket, ZMQ_RCVTIMEO, &receive_timeout, sizeof receive_timeout);
    int hwm = 100000;
    zmq_setsockopt(load.socket, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(load.socket, ZMQ_RCVHWM, &hwm, sizeof hwm);
    if (floor_curve(load.socket, "client") != 0) return 1;
    if (zmq_connect(load.socket, endpoint) != 0) {
        fprintf(stderr, "floor-client: connect %s: %s\n", endpoint, zmq_strerror(errno));
        return 1;
    }
    load.slots = calloc((size_t)in_flight, sizeof(struct slot));
    load.in_flight = in_flight;

    uint64_t replies = 0, replies_in_window = 0, unexpected = 0, malformed = 0, error_replies = 0;
    uint64_t reply_bytes = 0;
    uint64_t start = now_us();
    uint64_t end = start + (uint64_t)(seconds * 1e6);
    uint64_t timeout_us = (uint64_t)(timeout * 1e6);
    uint64_t last_heard = start;
    uint64_t stopped_at = 0;
    int sending = 1;
    int initial = requests > 0 && requests < (uint64_t)in_flight ? (int)requests : in_flight;
    for (int slot = 0; slot < initial; slot++) {
        if (send_request(slot) != 0) return 1;
    }
    if (requests > 0 && load.sent >= requests) {
        sending = 0;
        stopped_at = start;
    }

    zmq_msg_t frames[5];
    while (load.outstanding > 0) {
        int count = 0;
        int more = 1;
        int received = 1;
        while (more) {
            zmq_msg_t *frame = &frames[count < 5 ? count : 4];
            if (count >= 5) zmq_msg_close(frame);
            zmq_msg_init(frame);
            if (zmq_msg_recv(frame, load.socket, 0) < 0) {
                zmq_msg_close(frame);
                received = 0;
                break;
            }
            more = zmq_msg_more(frame);
            count += 1;
        }
        uint64_t now = now_us();
        if (received) {
            last_heard = now;
            if (count != 4 || zmq_msg_size(&frames[0]) != 0 || zmq_msg_size(&frames[1]) != 6
                || memcmp(zmq_msg_data(&frames[1]), "MDPC01", 6) != 0) {
                malformed += 1;
            } else {
                const char *reply = zmq_msg_data(&frames[3]);
                size_t size = zmq_msg_size(&frames[3]);
                int slot = match_reply(reply, size);
                if (slot < 0) {
                    unexpected += 1;
                } else {
                    record_latency(now - load.slots[slot].started_us);
                    load.slots[slot].busy = 0;
                    load.outstanding -= 1;
                    replies += 1;
                    reply_bytes += size;
                    if (sending) replies_in_window += 1;
                    if (memmem(reply, size, "\"error\":", 8) != NULL) error_replies += 1;
                    int more_to_send = requests > 0 ? load.sent < requests : now < end;
                    if (sending && more_to_send && send_request(slot) != 0) break;
                }
            }
            for (int index = 0; index < (count < 5 ? count : 5); index++) zmq_msg_close(&frames[index]);
        } else if (errno != EAGAIN && errno != EINTR) {
            fprintf(stderr, "floor-client: receive: %s\n", zmq_strerror(errno));
            break;
        }
        if (sending && (requests > 0 ? load.sent >= requests : now >= end)) {
            sending = 0;
            stopped_at = now;
        }
        // Bounded whatever the peer does: give up once the replies still owed are a timeout late, or nothing at
        // all has come for a timeout.
        if (!sending && now - stopped_at > timeout_us) break;
        if (now - last_heard > timeout_us) break;
    }
    uint64_t finished = now_us();
    // By time: the replies of the sending window over its length. By count: all replies over the whole run.
    uint64_t window_end = requests > 0 || stopped_at == 0 ? finished : stopped_at;
    double window = (double)(window_end - start) / 1e6;
    double per_second = window > 0 ? (double)(requests > 0 ? replies : replies_in_window) / window : 0;
    printf(
        "{\"in_flight\":%d,\"body_bytes\":%zu,\"sent\":%llu,\"replies\":%llu,\"unanswered\":%llu,\"unexpected\":%llu,"
        "\"malformed\":%llu,\"error_replies\":%llu,\"seconds\":%.3f,\"per_second\":%.1f,\"p50_us\":%llu,"
        "\"p99_us\":%llu,\"reply_bytes\":%.1f,\"cpu_seconds\":%.3f}\n",
        in_flight, body_size, (unsigned long long)load.sent, (unsigned long long)replies,
        (unsigned long long)load.outstanding, (unsigned long long)unexpected, (unsigned long long)malformed,
        (unsigned long long)error_replies, window, per_second, (unsigned long long)percentile(0.5, replies),
        (unsigned long long)percentile(0.99, replies), replies ? (double)reply_bytes / (double)replies : 0.0,
        cpu_seconds());
    fflush(stdout);
    zmq_close(load.socket);
    zmq_ctx_term(context);
    return load.outstanding == 0 && unexpected == 0 && malformed == 0 && error_replies == 0 ? 0 : 1;
}
