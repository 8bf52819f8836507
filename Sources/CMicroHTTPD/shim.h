// libmicrohttpd with typed wrappers for its variadic calls, which Swift cannot call directly.
#ifndef MUSICGRAPH_CMICROHTTPD_SHIM_H
#define MUSICGRAPH_CMICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <malloc.h>

/// Gives the pages malloc holds free back to the system (`malloc_trim(0)`): after a connection
/// flood, libmicrohttpd's per-connection pools and the requests' buffers are freed, but glibc
/// keeps their pages, so the server's RSS would stay at the flood's peak.
static inline int mg_release_free_memory(void) { return malloc_trim(0); }

/// The `MHD_OPTION_URI_LOG_CALLBACK` signature: called once per request with the raw request
/// target (path and query, still percent-encoded); its result becomes the request's `*con_cls`.
typedef void *(*mg_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// `MHD_start_daemon` with the options MusicGraph uses, passed through `MHD_OPTION_ARRAY`.
/// `bind_address` decides host and port (port 0 = ephemeral); `cls` reaches all four callbacks.
/// A zero `listen_backlog` keeps MHD's default. Returns NULL when the daemon cannot start.
static inline struct MHD_Daemon *mg_mhd_start_daemon(
    unsigned int flags, const struct sockaddr *bind_address, unsigned int thread_pool_size,
    unsigned int connection_limit, unsigned int connection_timeout_seconds, unsigned int listen_backlog,
    MHD_AccessHandlerCallback access_handler, MHD_RequestCompletedCallback completed_handler,
    mg_mhd_uri_log_callback uri_log_handler, MHD_NotifyConnectionCallback connection_handler, void *cls) {
  struct MHD_OptionItem options[9];
  size_t count = 0;
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)bind_address};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)thread_pool_size, NULL};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL};
  options[count++] =
      (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)connection_timeout_seconds, NULL};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed_handler, cls};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log_handler, cls};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connection_handler, cls};
  if (listen_backlog > 0) {
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)listen_backlog, NULL};
  }
  options[count] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
  return MHD_start_daemon(flags, 0, NULL, NULL, access_handler, cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon is bound to (the ephemeral one when started with port 0); 0 if unknown.
static inline uint16_t mg_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

/// `MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds)`.
static inline enum MHD_Result mg_mhd_set_connection_timeout(struct MHD_Connection *connection,
                                                            unsigned int seconds) {
  return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// The connection's socket (`MHD_CONNECTION_INFO_CONNECTION_FD`); -1 if unknown.
static inline int mg_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

/// The client's address (`MHD_CONNECTION_INFO_CLIENT_ADDRESS`); NULL if unknown.
static inline const struct sockaddr *mg_mhd_connection_client_address(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return info == NULL ? NULL : info->client_addr;
}

/// The pointer the connection-notify callback stored for this socket
/// (`MHD_CONNECTION_INFO_SOCKET_CONTEXT`); NULL if none.
static inline void *mg_mhd_connection_socket_context(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == NULL ? NULL : info->socket_context;
}

#endif
