/* The baseline of bench/http-gateway.sh: libmicrohttpd answering every request with one fixed
 * body, with the daemon flags our HTTPServer uses (internal polling thread pool of 2, epoll,
 * turbo), so the ratio shows what our Swift layers (suspend/resume, GraphQL, JSON, metrics,
 * logging) cost on top of the library itself.
 *
 * Usage: bare_mhd BODY_FILE        prints "port N" once listening; runs until SIGINT/SIGTERM.
 * Build: gcc -O2 -o bare_mhd bench/bare_mhd.c $(pkg-config --cflags --libs libmicrohttpd) */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct MHD_Response *canned;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **con_cls) {
  (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
  /* First call: headers only. Then drain any body, then answer. */
  if (*con_cls == NULL) {
    *con_cls = (void *)1;
    return MHD_YES;
  }
  if (*upload_data_size > 0) {
    *upload_data_size = 0;
    return MHD_YES;
  }
  return MHD_queue_response(connection, MHD_HTTP_OK, canned);
}

static volatile sig_atomic_t stopping = 0;
static void on_signal(int number) { (void)number; stopping = 1; }

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: bare_mhd BODY_FILE\n");
    return 2;
  }
  FILE *file = fopen(argv[1], "rb");
  if (file == NULL) { perror("body file"); return 1; }
  static char body[65536];
  size_t length = fread(body, 1, sizeof body, file);
  fclose(file);
  canned = MHD_create_response_from_buffer(length, body, MHD_RESPMEM_PERSISTENT);
  MHD_add_response_header(canned, "Content-Type", "application/graphql-response+json; charset=utf-8");
  struct MHD_Daemon *daemon = MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO, 0, NULL, NULL, answer, NULL,
      MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)2, MHD_OPTION_CONNECTION_LIMIT, (unsigned int)1000,
      MHD_OPTION_END);
  if (daemon == NULL) { fprintf(stderr, "MHD_start_daemon failed\n"); return 1; }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  printf("port %u\n", info == NULL ? 0u : (unsigned)info->port);
  fflush(stdout);
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  while (!stopping) pause();
  MHD_stop_daemon(daemon);
  MHD_destroy_response(canned);
  return 0;
}
