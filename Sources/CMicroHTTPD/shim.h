// libmicrohttpd with typed wrappers for its variadic calls, which Swift cannot call directly.
#ifndef MUSICGRAPH_CMICROHTTPD_SHIM_H
#define MUSICGRAPH_CMICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
