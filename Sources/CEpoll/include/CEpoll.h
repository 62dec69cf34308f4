// Glibc's Swift module leaves out <sys/epoll.h>; SetSocket, the one syscall layer, imports it from here.
#include <sys/epoll.h>
