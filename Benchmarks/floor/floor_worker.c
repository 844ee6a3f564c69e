// The workers of Benchmarks/run-floor.sh's floor: an MDP/0.1 echo worker that answers every REQUEST with the
// request's own body, doing nothing else, so that the floor's cost is transport alone. It says READY once and then
// only answers: the floor's broker sends no heartbeats and expects none.
//
//   worker → broker   ["", "MDPW01", 0x01, service]                        READY
//   broker → worker   ["", "MDPW01", 0x02, client, "", body]               REQUEST
//   worker → broker   ["", "MDPW01", 0x03, client, "", body]               REPLY
//
// The client's address and the body are sent back as the messages they arrived in (libzmq moves them).
//
//   floor-worker ENDPOINT SERVICE      connects a DEALER to ENDPOINT and serves SERVICE until SIGTERM, SIGINT or
//                                      DISCONNECT, or until its parent is gone; with FLOOR_CURVE set, encrypted
//                                      (floor_curve.h)
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <zmq.h>

#include "floor_curve.h"

#define MAX_FRAMES 8

static volatile sig_atomic_t stopping = 0;

static void on_signal(int signal) {
    (void)signal;
    stopping = 1;
}

static int frame_is(zmq_msg_t *frame, const char *text, size_t size) {
    return zmq_msg_size(frame) == size && memcmp(zmq_msg_data(frame), text, size) == 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: floor-worker ENDPOINT SERVICE\n");
        return 64;
    }
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    struct sigaction action = {0};
    action.sa_handler = on_signal;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    void *context = zmq_ctx_new();
    void *dealer = zmq_socket(context, ZMQ_DEALER);
    int linger = 0;
    zmq_setsockopt(dealer, ZMQ_LINGER, &linger, sizeof linger);
    int hwm = 100000;
    zmq_setsockopt(dealer, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(dealer, ZMQ_RCVHWM, &hwm, sizeof hwm);
    if (floor_curve(dealer, "worker") != 0) return 1;
    if (zmq_connect(dealer, argv[1]) != 0) {
        fprintf(stderr, "floor-worker: connect %s: %s\n", argv[1], zmq_strerror(errno));
        return 1;
    }
    zmq_send(dealer, "", 0, ZMQ_SNDMORE);
    zmq_send(dealer, "MDPW01", 6, ZMQ_SNDMORE);
    zmq_send(dealer, "\x01", 1, ZMQ_SNDMORE);
    zmq_send(dealer, argv[2], strlen(argv[2]), 0);

    zmq_msg_t frames[MAX_FRAMES];
    while (!stopping) {
        int count = 0;
        int more = 1;
        int failed = 0;
        while (more) {
            zmq_msg_t *frame = &frames[count < MAX_FRAMES ? count : MAX_FRAMES - 1];
            if (count >= MAX_FRAMES) zmq_msg_close(frame);
            zmq_msg_init(frame);
            if (zmq_msg_recv(frame, dealer, 0) < 0) {
                zmq_msg_close(frame);
                failed = 1;
                break;
            }
            more = zmq_msg_more(frame);
            count += 1;
        }
        int kept = count < MAX_FRAMES ? count : MAX_FRAMES;
        if (!failed && count >= 4 && frame_is(&frames[1], "MDPW01", 6) && zmq_msg_size(&frames[2]) == 1) {
            unsigned char command = *(unsigned char *)zmq_msg_data(&frames[2]);
            if (command == 0x02 && count == 6) {
                zmq_send(dealer, "", 0, ZMQ_SNDMORE);
                zmq_send(dealer, "MDPW01", 6, ZMQ_SNDMORE);
                zmq_send(dealer, "\x03", 1, ZMQ_SNDMORE);
                zmq_msg_send(&frames[3], dealer, ZMQ_SNDMORE);
                zmq_send(dealer, "", 0, ZMQ_SNDMORE);
                zmq_msg_send(&frames[5], dealer, 0);
            } else if (command == 0x05) {
                stopping = 1;
            }
        }
        for (int index = 0; index < kept; index++) zmq_msg_close(&frames[index]);
        if (failed && errno != EINTR) break;
    }
    // DISCONNECT on the way out, as MDP asks; the floor's broker forgets the worker on it.
    zmq_send(dealer, "", 0, ZMQ_SNDMORE);
    zmq_send(dealer, "MDPW01", 6, ZMQ_SNDMORE);
    zmq_send(dealer, "\x05", 1, 0);
    // Long enough for the goodbye to leave, short enough that a broker already gone does not hold the exit.
    linger = 100;
    zmq_setsockopt(dealer, ZMQ_LINGER, &linger, sizeof linger);
    zmq_close(dealer);
    zmq_ctx_term(context);
    return 0;
}
