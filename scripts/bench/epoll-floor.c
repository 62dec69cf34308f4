/*
 * epoll-floor: the C baseline for setd's fan-out benchmark (issue 15). A plain edge-triggered epoll chat
 * server speaking just enough of setd's protocol for `set-bench --chat-rate`: the greeting, HELLO, JOIN
 * (an empty snapshot), CHAT fanned out to every member of the room (the sender included, as setd does),
 * PING, QUIT, and `OK` replies. One thread, one epoll set, one read buffer; every connection's output is
 * gathered during a pass over the ready descriptors and written once at the end of the pass.
 *
 *   gcc -O2 -o epoll-floor scripts/bench/epoll-floor.c && ./epoll-floor [PORT]
 *
 * Prints "listening on port N" like setd. Not a server for people: no limits, no validation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXFD 65536
#define MAXROOMS 4096
#define LINEMAX 1024

struct conn {
    int fd, room, dirty, closing;
    char name[32];
    char in[LINEMAX + 1];
    size_t inlen;
    char *out;
    size_t outlen, outcap, outstart;
};

struct room {
    char name[32];
    int *members;
    int count, cap;
};

static struct conn *conns[MAXFD];
static struct room rooms[MAXROOMS];
static int roomcount;
static int dirty[MAXFD];
static int dirtycount;
static int ep;

static void append(struct conn *c, const char *bytes, size_t n) {
    if (c->outlen + n > c->outcap) {
        size_t cap = c->outcap ? c->outcap : 4096;
        while (cap < c->outlen + n) cap *= 2;
        c->out = realloc(c->out, cap);
        c->outcap = cap;
    }
    memcpy(c->out + c->outlen, bytes, n);
    c->outlen += n;
    if (!c->dirty) {
        c->dirty = 1;
        dirty[dirtycount++] = c->fd;
    }
}

static void say(struct conn *c, const char *text) { append(c, text, strlen(text)); }

static void leave(struct conn *c) {
    if (c->room < 0) return;
    struct room *r = &rooms[c->room];
    for (int i = 0; i < r->count; i++)
        if (r->members[i] == c->fd) {
            r->members[i] = r->members[--r->count];
            break;
        }
    c->room = -1;
}

static void drop(struct conn *c) {
    leave(c);
    close(c->fd); /* also removes it from the epoll set */
    conns[c->fd] = NULL;
    c->fd = -1; /* a dirty entry for a dropped connection is skipped at flush time */
    free(c->out);
    free(c);
}

static int findroom(const char *name) {
    for (int i = 0; i < roomcount; i++)
        if (strcmp(rooms[i].name, name) == 0) return i;
    if (roomcount == MAXROOMS) return -1;
    snprintf(rooms[roomcount].name, sizeof rooms[roomcount].name, "%s", name);
    return roomcount++;
}

static void handle(struct conn *c, char *line) {
    char reply[LINEMAX + 128];
    char *arg = strchr(line, ' ');
    if (arg) *arg++ = 0;
    else arg = line + strlen(line);
    if (strcasecmp(line, "HELLO") == 0) {
        snprintf(c->name, sizeof c->name, "%s", arg);
        snprintf(reply, sizeof reply, "OK HELLO %s t%d\n", c->name, c->fd);
        say(c, reply);
    } else if (strcasecmp(line, "JOIN") == 0) {
        char *space = strchr(arg, ' ');
        if (space) *space = 0;
        leave(c);
        int i = findroom(arg);
        if (i < 0) {
            say(c, "ERR JOIN TOOMANYROOMS full\n");
            return;
        }
        struct room *r = &rooms[i];
        if (r->count == r->cap) {
            r->cap = r->cap ? r->cap * 2 : 16;
            r->members = realloc(r->members, r->cap * sizeof(int));
        }
        r->members[r->count++] = c->fd;
        c->room = i;
        snprintf(reply, sizeof reply, "OK JOIN %s 0\n", arg);
        say(c, reply);
    } else if (strcasecmp(line, "CHAT") == 0) {
        if (c->room < 0) {
            say(c, "ERR CHAT NOROOM not in a room\n");
            return;
        }
        /* Formatted once, appended to every member's buffer. */
        int n = snprintf(reply, sizeof reply, "CHAT %s %s\n", c->name, arg);
        struct room *r = &rooms[c->room];
        for (int i = 0; i < r->count; i++) append(conns[r->members[i]], reply, (size_t)n);
        say(c, "OK CHAT\n");
    } else if (strcasecmp(line, "PING") == 0) {
        say(c, "OK PING\n");
    } else if (strcasecmp(line, "QUIT") == 0) {
        say(c, "OK QUIT\n");
        c->closing = 1;
    } else if (*line) {
        snprintf(reply, sizeof reply, "ERR %s UNKNOWN not in the floor server\n", line);
        say(c, reply);
    }
}

/* Reads until EAGAIN (edge-triggered epoll reports readiness once), framing lines as they come. */
static int readable(struct conn *c) {
    static char buf[65536];
    for (;;) {
        ssize_t n = read(c->fd, buf, sizeof buf);
        if (n == 0) return -1;
        if (n < 0) return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
        for (ssize_t i = 0; i < n; i++) {
            char ch = buf[i];
            if (ch == '\n') {
                if (c->inlen && c->in[c->inlen - 1] == '\r') c->inlen--;
                c->in[c->inlen] = 0;
                handle(c, c->in);
                c->inlen = 0;
            } else if (c->inlen < LINEMAX) {
                c->in[c->inlen++] = ch;
            }
        }
        if ((size_t)n < sizeof buf) return 0; /* a short read drained the socket: no EAGAIN read needed */
    }
}

/* Writes what the socket takes; the rest waits for EPOLLOUT (already registered, edge-triggered). */
static int writable(struct conn *c) {
    while (c->outstart < c->outlen) {
        ssize_t n = send(c->fd, c->out + c->outstart, c->outlen - c->outstart, MSG_NOSIGNAL);
        if (n < 0) return errno == EAGAIN ? 0 : -1;
        c->outstart += (size_t)n;
    }
    c->outstart = c->outlen = 0;
    return c->closing ? -1 : 0;
}

static void accepted(int fd) {
    if (fd >= MAXFD) {
        close(fd);
        return;
    }
    int yes = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    struct conn *c = calloc(1, sizeof *c);
    c->fd = fd;
    c->room = -1;
    conns[fd] = c;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, .data.fd = fd};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    say(c, "SETD 1 welcome to setd; type HELP\n");
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    int port = argc > 1 ? atoi(argv[1]) : 0;
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int yes = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) || listen(lfd, 4096)) {
        perror("epoll-floor");
        return 1;
    }
    socklen_t len = sizeof addr;
    getsockname(lfd, (struct sockaddr *)&addr, &len);
    printf("listening on port %d\n", ntohs(addr.sin_port));
    fflush(stdout);
    ep = epoll_create1(0);
    struct epoll_event lev = {.events = EPOLLIN, .data.fd = lfd};
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &lev);
    struct epoll_event events[512];
    for (;;) {
        int n = epoll_wait(ep, events, 512, -1);
        for (int i = 0; i < n; i++) {
            int fd = events[i].data.fd;
            if (fd == lfd) {
                int cfd;
                while ((cfd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) accepted(cfd);
                continue;
            }
            struct conn *c = conns[fd];
            if (!c) continue;
            uint32_t e = events[i].events;
            if ((e & EPOLLIN) && readable(c) < 0) {
                drop(c);
                continue;
            }
            if ((e & (EPOLLERR | EPOLLHUP)) || ((e & EPOLLRDHUP) && !(e & EPOLLIN))) {
                drop(c);
                continue;
            }
            if ((e & EPOLLOUT) && !c->dirty && c->outlen && writable(c) < 0) drop(c);
        }
        /* One write per connection per pass. */
        for (int i = 0; i < dirtycount; i++) {
            struct conn *c = conns[dirty[i]];
            if (!c || !c->dirty) continue;
            c->dirty = 0;
            if (writable(c) < 0) drop(c);
        }
        dirtycount = 0;
    }
}
