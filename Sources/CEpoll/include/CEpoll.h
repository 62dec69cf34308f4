// Glibc's Swift module leaves out <sys/epoll.h> and <sys/eventfd.h>; SetSocket, the one syscall layer,
// imports them from here (the eventfd wakes an event loop's own thread, see EventLoop).
#include <sys/epoll.h>
#include <sys/eventfd.h>
