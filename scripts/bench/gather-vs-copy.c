// The kernel's cost of writing many small lines to one TCP connection: one `sendmsg` of K buffers of L
// bytes each (mode 0, what setd did) against copying them into one buffer and one `send` (mode 1, what
// it does now), as the writing thread's CPU time per line, over loopback with a reader draining the
// other end. BENCHMARKS-fanout.md, "Flat out: lines copied together", has the figures.
//
//   gcc -O2 -pthread -o gather-vs-copy scripts/bench/gather-vs-copy.c
//   ./gather-vs-copy K L MODE ITERATIONS      e.g. ./gather-vs-copy 81 45 0 20000
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include <time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/uio.h>
static int rfd;
static void *reader(void *a) { char b[65536]; while (read(rfd, b, sizeof b) > 0) {} return 0; }
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
    int K = atoi(argv[1]), L = atoi(argv[2]), mode = atoi(argv[3]), N = atoi(argv[4]);
    int ls = socket(AF_INET, SOCK_STREAM, 0); struct sockaddr_in a = {0}; a.sin_family = AF_INET; a.sin_addr.s_addr = htonl(0x7f000001);
    bind(ls, (void*)&a, sizeof a); listen(ls, 1); socklen_t sl = sizeof a; getsockname(ls, (void*)&a, &sl);
    int w = socket(AF_INET, SOCK_STREAM, 0); connect(w, (void*)&a, sizeof a); rfd = accept(ls, 0, 0);
    int one = 1; setsockopt(w, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    pthread_t t; pthread_create(&t, 0, reader, 0);
    char **lines = malloc(K * sizeof *lines); for (int i = 0; i < K; i++) { lines[i] = malloc(L); memset(lines[i], 'a', L); }
    struct iovec *v = malloc(K * sizeof *v); char *scratch = malloc(65536);
    double c0 = cpu();
    for (int n = 0; n < N; n++) {
        if (mode == 0) {
            for (int i = 0; i < K; i++) { v[i].iov_base = lines[i]; v[i].iov_len = L; }
            struct msghdr m = {0}; m.msg_iov = v; m.msg_iovlen = K;
            size_t left = (size_t)K * L; ssize_t r = sendmsg(w, &m, MSG_NOSIGNAL); if (r != (ssize_t)left) { /* blocking socket: full */ }
        } else {
            size_t at = 0; for (int i = 0; i < K; i++) { memcpy(scratch + at, lines[i], L); at += L; }
            send(w, scratch, at, MSG_NOSIGNAL);
        }
    }
    double c1 = cpu();
    printf("K=%d L=%d %s: %.1f ns per line (writer thread CPU)\n", K, L, mode ? "copy+send" : "sendmsg", (c1 - c0) * 1e9 / ((double)N * K));
    return 0;
}
