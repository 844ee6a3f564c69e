// CURVE for the floor's programs, as Benchmarks/run-floor.sh's systems floor-curve and tally-curve run them: when
// FLOOR_CURVE names a directory, each program encrypts with the keys there, in the files `tally keys --out` and
// floor-keys write (a Z85 key and a newline per file), so that Tally's binaries take the same ones:
//
//   broker   FLOOR_CURVE/broker.key                          the CURVE server; it admits any client key (no ZAP
//                                                            handler: the floor checks nothing)
//   worker   FLOOR_CURVE/worker.key, FLOOR_CURVE/broker.pub  a CURVE client that pins the broker's key
//   client   FLOOR_CURVE/client.key, FLOOR_CURVE/broker.pub  likewise
//
// Without FLOOR_CURVE, nothing is encrypted.
#ifndef FLOOR_CURVE_H
#define FLOOR_CURVE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

/// Reads the Z85 key of DIRECTORY/NAME into `key` (40 characters and a NUL); 0 when it is there.
static int floor_read_key(const char *directory, const char *name, char key[41]) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    size_t count = fread(key, 1, 40, file);
    fclose(file);
    key[40] = 0;
    return count == 40 ? 0 : -1;
}

/// Sets `socket` up for CURVE as ROLE ("broker", "worker" or "client") when FLOOR_CURVE is set, before it binds or
/// connects. Returns 0 when it is set up or nothing was asked, -1 (said on standard error) when a key is missing.
static int floor_curve(void *socket, const char *role) {
    const char *directory = getenv("FLOOR_CURVE");
    if (!directory || !*directory) return 0;
    char secret[41], public_key[41], server_key[41];
    char name[64];
    snprintf(name, sizeof name, "%s.key", role);
    if (floor_read_key(directory, name, secret) != 0) {
        fprintf(stderr, "floor-%s: no CURVE key in %s/%s\n", role, directory, name);
        return -1;
    }
    if (strcmp(role, "broker") == 0) {
        int on = 1;
        zmq_setsockopt(socket, ZMQ_CURVE_SERVER, &on, sizeof on);
        zmq_setsockopt(socket, ZMQ_CURVE_SECRETKEY, secret, 40);
        return 0;
    }
    if (floor_read_key(directory, "broker.pub", server_key) != 0 || zmq_curve_public(public_key, secret) != 0) {
        fprintf(stderr, "floor-%s: no broker key in %s/broker.pub, or a bad %s\n", role, directory, name);
        return -1;
    }
    zmq_setsockopt(socket, ZMQ_CURVE_SERVERKEY, server_key, 40);
    zmq_setsockopt(socket, ZMQ_CURVE_PUBLICKEY, public_key, 40);
    zmq_setsockopt(socket, ZMQ_CURVE_SECRETKEY, secret, 40);
    return 0;
}

#endif
