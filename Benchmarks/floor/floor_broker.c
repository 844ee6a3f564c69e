// The floor of Benchmarks/run-floor.sh: an MDP/0.1 broker with no logic at all, so that what Tally's broker costs
// per request can be read as a multiple of what libzmq alone costs for the same frames on the same machine in the
// same run. It keeps no queue, no credit, no heartbeats and checks nothing beyond what it must not crash on:
//
//   client  → broker   [client, "", "MDPC01", service, body]                      (5 frames)
//   broker  → worker   [worker, "", "MDPW01", 0x02, client, "", body]             (7 frames)
//   worker  → broker   [worker, "", "MDPW01", 0x03, client, "", body]             (7 frames)
//   broker  → client   [client, "", "MDPC01", service, body]                      (5 frames)
//
// A request is dealt round robin over the workers that said READY; with none, it is dropped (the harness waits for
// its workers before it sends). Received frames are sent on as the same zmq_msg_t, so libzmq moves them rather than
// this program copying them, as a broker that keeps bodies in their messages does.
//
//   floor-broker ENDPOINT [--poll]
//                              binds a ROUTER there (tcp://127.0.0.1:0 picks a port) and prints the endpoint it
//                              bound, then serves until SIGTERM or SIGINT, or until its parent is gone; with
//                              FLOOR_CURVE set, as a CURVE server (floor_curve.h)
//
// It waits in a blocking receive, the least libzmq asks of a loop with one socket. With --poll it waits in zmq_poll
// instead and then reads without blocking until the socket is empty, the shape of a broker that waits on more than
// one thing at once (Tally's loop also polls its command inbox and its connection monitor): what the loop's shape
// costs, apart from what the broker does.
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <zmq.h>

#include "floor_curve.h"

// MDP messages have at most 7 frames here; a longer one is read to its end into the last slot and dropped.
#define MAX_FRAMES 8
// The harness runs two workers; room for more costs nothing.
#define MAX_WORKERS 64

static volatile sig_atomic_t stopping = 0;

static void on_signal(int signal) {
    (void)signal;
    stopping = 1;
}

/// A worker connection that said READY: its routing id, and the service it named, which every reply carries back
/// to its client (the broker keeps no request, so the worker's registration is where the service is known).
struct worker {
    unsigned char id[256];
    size_t id_size;
    unsigned char service[256];
    size_t service_size;
};

static struct worker workers[MAX_WORKERS];
static int worker_count = 0;
static unsigned next_worker = 0;

static int frame_is(zmq_msg_t *frame, const char *text, size_t size) {
    return zmq_msg_size(frame) == size && memcmp(zmq_msg_data(frame), text, size) == 0;
}

static int find_worker(zmq_msg_t *id) {
    for (int index = 0; index < worker_count; index++) {
        size_t size = workers[index].id_size;
        if (size == zmq_msg_size(id) && memcmp(workers[index].id, zmq_msg_data(id), size) == 0) return index;
    }
    return -1;
}

static void add_worker(zmq_msg_t *id, zmq_msg_t *service) {
    if (find_worker(id) >= 0 || worker_count == MAX_WORKERS) return;
    if (zmq_msg_size(id) > sizeof workers[0].id || zmq_msg_size(service) > sizeof workers[0].service) return;
    struct worker *worker = &workers[worker_count];
    worker->id_size = zmq_msg_size(id);
    memcpy(worker->id, zmq_msg_data(id), worker->id_size);
    worker->service_size = zmq_msg_size(service);
    memcpy(worker->service, zmq_msg_data(service), worker->service_size);
    worker_count += 1;
    // The harness counts these lines to know that both workers are there before it measures.
    fprintf(stderr, "floor-broker: worker ready (%d)\n", worker_count);
}

static void remove_worker(zmq_msg_t *id) {
    int index = find_worker(id);
    if (index < 0) return;
    workers[index] = workers[worker_count - 1];
    worker_count -= 1;
}

/// Sends [worker, "", "MDPW01", 0x02, client, "", body] to the next worker; the client's id and the body go as the
/// messages they arrived in.
static void dispatch(void *router, zmq_msg_t *frames) {
    if (worker_count == 0) return;
    struct worker *worker = &workers[next_worker++ % (unsigned)worker_count];
    zmq_send(router, worker->id, worker->id_size, ZMQ_SNDMORE);
    zmq_send(router, "", 0, ZMQ_SNDMORE);
    zmq_send(router, "MDPW01", 6, ZMQ_SNDMORE);
    zmq_send(router, "\x02", 1, ZMQ_SNDMORE);
    zmq_msg_send(&frames[0], router, ZMQ_SNDMORE);
    zmq_send(router, "", 0, ZMQ_SNDMORE);
    zmq_msg_send(&frames[4], router, 0);
}

/// Sends a worker's REPLY [worker, "", "MDPW01", 0x03, client, "", body] to its client as
/// [client, "", "MDPC01", service, body].
static void deliver(void *router, zmq_msg_t *frames) {
    int index = find_worker(&frames[0]);
    if (index < 0) return;
    zmq_msg_send(&frames[4], router, ZMQ_SNDMORE);
    zmq_send(router, "", 0, ZMQ_SNDMORE);
    zmq_send(router, "MDPC01", 6, ZMQ_SNDMORE);
    zmq_send(router, workers[index].service, workers[index].service_size, ZMQ_SNDMORE);
    zmq_msg_send(&frames[6], router, 0);
}

static void handle(void *router, zmq_msg_t *frames, int count) {
    if (count < 4 || zmq_msg_size(&frames[1]) != 0) return;
    if (count == 5 && frame_is(&frames[2], "MDPC01", 6)) {
        dispatch(router, frames);
    } else if (frame_is(&frames[2], "MDPW01", 6) && zmq_msg_size(&frames[3]) == 1) {
        unsigned char command = *(unsigned char *)zmq_msg_data(&frames[3]);
        if (command == 0x01 && count >= 5) {
            add_worker(&frames[0], &frames[4]);
        } else if (command == 0x03 && count == 7) {
            deliver(router, frames);
        } else if (command == 0x05) {
            remove_worker(&frames[0]);
        }
    }
}

/// Reads one whole message into `frames`, the first frame with `flags` (ZMQ_DONTWAIT: only if one is waiting);
/// returns its frame count (those past MAX_FRAMES are read and dropped into the last slot), or -1 with errno set.
static int receive(void *router, zmq_msg_t *frames, int flags) {
    int count = 0;
    int more = 1;
    while (more) {
        zmq_msg_t *frame = &frames[count < MAX_FRAMES ? count : MAX_FRAMES - 1];
        if (count >= MAX_FRAMES) zmq_msg_close(frame);
        zmq_msg_init(frame);
        if (zmq_msg_recv(frame, router, count == 0 ? flags : 0) < 0) {
            int error = errno;
            zmq_msg_close(frame);
            int kept = count < MAX_FRAMES ? count : MAX_FRAMES;
            for (int index = 0; index < kept; index++) zmq_msg_close(&frames[index]);
            errno = error;
            return -1;
        }
        more = zmq_msg_more(frame);
        count += 1;
    }
    return count;
}

/// Handles a received message and lets go of its frames. A frame sent on is empty by then (libzmq took its
/// content); closing it is still required, and harmless.
static void serve(void *router, zmq_msg_t *frames, int count) {
    if (count <= MAX_FRAMES) handle(router, frames, count);
    for (int index = 0; index < (count < MAX_FRAMES ? count : MAX_FRAMES); index++) zmq_msg_close(&frames[index]);
}

int main(int argc, char **argv) {
    int poll = argc == 3 && strcmp(argv[2], "--poll") == 0;
    if (argc != 2 && !poll) {
        fprintf(stderr, "usage: floor-broker ENDPOINT [--poll]\n");
        return 64;
    }
    // A harness killed outright must not leave its broker behind.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    // No SA_RESTART: the blocking receive must return EINTR, so that a signal stops the loop. The signal reaches this
    // thread: libzmq's own threads block every signal.
    struct sigaction action = {0};
    action.sa_handler = on_signal;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    void *context = zmq_ctx_new();
    void *router = zmq_socket(context, ZMQ_ROUTER);
    int linger = 0;
    zmq_setsockopt(router, ZMQ_LINGER, &linger, sizeof linger);
    // libzmq's default high-water marks (1,000 messages) are far above what the harness keeps in flight; raised so
    // that a larger in-flight count is not dropped silently by a ROUTER that cannot queue it.
    int hwm = 100000;
    zmq_setsockopt(router, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(router, ZMQ_RCVHWM, &hwm, sizeof hwm);
    if (floor_curve(router, "broker") != 0) return 1;
    if (zmq_bind(router, argv[1]) != 0) {
        fprintf(stderr, "floor-broker: bind %s: %s\n", argv[1], zmq_strerror(errno));
        return 1;
    }
    char endpoint[256];
    size_t endpoint_size = sizeof endpoint;
    zmq_getsockopt(router, ZMQ_LAST_ENDPOINT, endpoint, &endpoint_size);
    printf("%s\n", endpoint);
    fflush(stdout);

    zmq_msg_t frames[MAX_FRAMES];
    while (!stopping) {
        if (poll) {
            zmq_pollitem_t item = {router, 0, ZMQ_POLLIN, 0};
            if (zmq_poll(&item, 1, -1) < 0) {
                if (errno == EINTR) continue;
                break;
            }
            // At most a bounded batch per wake-up, as a loop with other sockets to serve must.
            for (int batch = 0; batch < 1000; batch++) {
                int count = receive(router, frames, ZMQ_DONTWAIT);
                if (count < 0) break;
                serve(router, frames, count);
            }
        } else {
            int count = receive(router, frames, 0);
            // A receive interrupted between two frames of one message would desynchronize the frames that
            // follow; it happens only on the signal that stops the broker.
            if (count < 0) {
                if (errno == EINTR) continue;
                break;
            }
            serve(router, frames, count);
        }
    }
    zmq_close(router);
    zmq_ctx_term(context);
    return 0;
}
