// CURVE key pairs for Benchmarks/run-floor.sh's CURVE systems, in the files `tally keys --out` writes: for each NAME,
// DIRECTORY/NAME.key (the secret key, mode 0600) and DIRECTORY/NAME.pub (the public key), Z85 text and a newline.
//
//   floor-keys DIRECTORY NAME...
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

/// Writes `text` and a newline to PATH, created with MODE; 0 on success.
static int write_key(const char *path, const char *text, mode_t mode) {
    int descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    if (descriptor < 0) return -1;
    size_t size = strlen(text);
    int written = write(descriptor, text, size) == (ssize_t)size && write(descriptor, "\n", 1) == 1;
    return close(descriptor) == 0 && written ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: floor-keys DIRECTORY NAME...\n");
        return 64;
    }
    if (!zmq_has("curve")) {
        fprintf(stderr, "floor-keys: this libzmq has no CURVE\n");
        return 1;
    }
    for (int index = 2; index < argc; index++) {
        char public_key[41], secret_key[41], path[4096];
        if (zmq_curve_keypair(public_key, secret_key) != 0) {
            fprintf(stderr, "floor-keys: zmq_curve_keypair: %s\n", zmq_strerror(zmq_errno()));
            return 1;
        }
        snprintf(path, sizeof path, "%s/%s.key", argv[1], argv[index]);
        if (write_key(path, secret_key, 0600) != 0) {
            perror(path);
            return 1;
        }
        snprintf(path, sizeof path, "%s/%s.pub", argv[1], argv[index]);
        if (write_key(path, public_key, 0644) != 0) {
            perror(path);
            return 1;
        }
    }
    return 0;
}
