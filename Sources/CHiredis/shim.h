// hiredis (Debian libhiredis-dev), the Redis client behind RedisStore. Its blocking calls take
// argument vectors and a struct timeval, which Swift calls directly: no wrappers are needed.
#ifndef MUSICGRAPH_CHIREDIS_SHIM_H
#define MUSICGRAPH_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>
#endif
