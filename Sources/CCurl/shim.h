// libcurl with typed wrappers for its variadic calls, which Swift cannot call directly.
#ifndef MUSICGRAPH_CCURL_SHIM_H
#define MUSICGRAPH_CCURL_SHIM_H
#include <curl/curl.h>

/// `curl_easy_setopt` for options taking a `long` (flags, timeouts in ms, sizes).
static inline CURLcode mg_curl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
  return curl_easy_setopt(easy, option, value);
}

/// `curl_easy_setopt` for options taking a pointer: strings (libcurl copies them), buffers, lists.
static inline CURLcode mg_curl_easy_setopt_pointer(CURL *easy, CURLoption option, const void *value) {
  return curl_easy_setopt(easy, option, value);
}

/// `curl_easy_setopt` for options taking a `curl_off_t` (the `*_LARGE` sizes).
static inline CURLcode mg_curl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(easy, option, value);
}

/// `curl_easy_setopt` for `CURLOPT_WRITEFUNCTION` and `CURLOPT_HEADERFUNCTION`.
static inline CURLcode mg_curl_easy_setopt_write_callback(CURL *easy, CURLoption option,
                                                          curl_write_callback callback) {
  return curl_easy_setopt(easy, option, callback);
}

/// `curl_multi_setopt` for options taking a `long`.
static inline CURLMcode mg_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

/// `curl_easy_getinfo` for `long` results (`CURLINFO_RESPONSE_CODE`, …).
static inline CURLcode mg_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
  return curl_easy_getinfo(easy, info, value);
}

/// `curl_easy_getinfo` for `curl_off_t` results (`CURLINFO_TOTAL_TIME_T`, in microseconds, …).
static inline CURLcode mg_curl_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(easy, info, value);
}

/// The result code of a `CURLMSG_DONE` message (the field sits in a union Swift imports awkwardly).
static inline CURLcode mg_curl_msg_result(const CURLMsg *message) { return message->data.result; }

#endif
