// libcurl with typed wrappers for its variadic calls, which Swift cannot call directly.
#ifndef MUSICGRAPH_CCURL_SHIM_H
#define MUSICGRAPH_CCURL_SHIM_H
#include <curl/curl.h>
#endif
