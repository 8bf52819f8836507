// OpenSSL's libcrypto (Debian libssl-dev): SHA-256 for the ids of persisted documents.
#ifndef MUSICGRAPH_CCRYPTO_SHIM_H
#define MUSICGRAPH_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
