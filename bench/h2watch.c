/*
 * h2watch: the watch fan-out's native watchers (bench/watch.ts, issue 4).
 *
 * The fan-out's 1,000 watchers share the machine's 2 cores with the server;
 * written with Node's http2 client they took most of a core, so the server's
 * latency was measured on a machine its own load generator saturated (as a
 * Node HTTP client would for the apply benchmark, which uses wrk). This is the
 * wrk of watches: the same watch streams — HTTP/2 over TLS with the admin
 * client certificate, multiplexed over a few sessions, flow-control windows
 * as client-go's transport sets them (4 MiB per stream, 1 GiB per
 * connection) — read by one C thread with libnghttp2 and OpenSSL.
 *
 * Every event line is read: its type, metadata.resourceVersion and data.seq
 * (the bench's configmaps carry a sequence number); each ADDED event's
 * arrival time (CLOCK_MONOTONIC, milliseconds, the clock of Node's
 * process.hrtime) goes into a table indexed by watcher and sequence number.
 *
 *   h2watch <host> <port> <ca> <cert> <key> <path> <watchers> <sessions> <writes> <out>
 *
 * stdout: "ready" once every stream has its 200; "done" once every watcher
 * has seen <writes> events. On "close" (or EOF) on stdin it writes the table
 * (watchers × writes doubles, 0 = never seen) to <out>, prints
 * "stats <deliveries> <duplicates> <outOfOrder> <otherEvents> <closedEarly>"
 * and exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define STREAM_WINDOW (4 << 20)
#define CONN_WINDOW (1 << 30)

struct watcher {
  int index;
  int status;
  int seen;
  long last_rv;
  char *partial;
  size_t partial_len, partial_cap;
};

struct session {
  int fd;
  SSL *ssl;
  nghttp2_session *h2;
  int want_write; /* the last send would have blocked */
};

static double *table;
static int watchers_n, writes_n;
static long deliveries, duplicates, out_of_order, other_events, closed_early;
static int responses, complete, announced_done, closing;

static void die(const char *what) {
  fprintf(stderr, "h2watch: %s\n", what);
  ERR_print_errors_fp(stderr);
  exit(1);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The quoted decimal right after `name` in [p, end); -1 if absent or empty. */
static long digits_after(const char *p, const char *end, const char *name) {
  size_t n = strlen(name);
  const char *at = memmem(p, (size_t)(end - p), name, n);
  if (!at) return -1;
  const char *d = at + n;
  long v = 0;
  const char *q = d;
  while (q < end && *q >= '0' && *q <= '9') v = v * 10 + (*q++ - '0');
  return (q == d || q >= end || *q != '"') ? -1 : v;
}

static void on_line(struct watcher *w, const char *p, const char *end, double t) {
  static const char open_type[] = "{\"type\":\"ADDED\"";
  size_t n = sizeof open_type - 1;
  if ((size_t)(end - p) < n || memcmp(p, open_type, n) != 0) {
    other_events++;
    return;
  }
  long rv = digits_after(p, end, "\"resourceVersion\":\"");
  long seq = digits_after(p, end, "\"seq\":\"");
  if (rv < 0 || seq < 0 || seq >= writes_n) {
    other_events++;
    return;
  }
  if (rv <= w->last_rv) out_of_order++;
  w->last_rv = rv;
  double *slot = &table[(size_t)w->index * (size_t)writes_n + (size_t)seq];
  if (*slot != 0) {
    duplicates++;
    return;
  }
  *slot = t;
  deliveries++;
  if (++w->seen == writes_n && ++complete == watchers_n && !announced_done) {
    announced_done = 1;
    printf("done\n");
    fflush(stdout);
  }
}

/* Appends [p, end) to the start of a line cut across DATA frames. */
static void keep(struct watcher *w, const char *p, const char *end) {
  size_t need = w->partial_len + (size_t)(end - p);
  if (need > w->partial_cap) {
    w->partial_cap = need * 2;
    w->partial = realloc(w->partial, w->partial_cap);
    if (!w->partial) die("out of memory");
  }
  memcpy(w->partial + w->partial_len, p, (size_t)(end - p));
  w->partial_len = need;
}

static int on_data(nghttp2_session *h2, uint8_t flags, int32_t stream_id, const uint8_t *data, size_t len, void *user) {
  (void)flags;
  (void)user;
  struct watcher *w = nghttp2_session_get_stream_user_data(h2, stream_id);
  if (!w) return 0;
  double t = now_ms();
  const char *p = (const char *)data, *end = p + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) {
      keep(w, p, end);
      break;
    }
    if (w->partial_len > 0) {
      keep(w, p, nl);
      on_line(w, w->partial, w->partial + w->partial_len, t);
      w->partial_len = 0;
    } else if (nl > p) {
      on_line(w, p, nl, t);
    }
    p = nl + 1;
  }
  return 0;
}

static int on_header(nghttp2_session *h2, const nghttp2_frame *frame, const uint8_t *name, size_t namelen, const uint8_t *value, size_t valuelen, uint8_t flags, void *user) {
  (void)flags;
  (void)user;
  if (frame->hd.type != NGHTTP2_HEADERS || namelen != 7 || memcmp(name, ":status", 7) != 0) return 0;
  struct watcher *w = nghttp2_session_get_stream_user_data(h2, frame->hd.stream_id);
  if (!w) return 0;
  w->status = atoi((const char *)value);
  (void)valuelen;
  if (w->status != 200) {
    fprintf(stderr, "h2watch: watch %d: status %d\n", w->index, w->status);
    exit(1);
  }
  if (++responses == watchers_n) {
    printf("ready\n");
    fflush(stdout);
  }
  return 0;
}

static int on_close(nghttp2_session *h2, int32_t stream_id, uint32_t error_code, void *user) {
  (void)error_code;
  (void)user;
  struct watcher *w = nghttp2_session_get_stream_user_data(h2, stream_id);
  if (w && w->seen < writes_n && !closing) closed_early++;
  return 0;
}

static ssize_t send_cb(nghttp2_session *h2, const uint8_t *data, size_t len, int flags, void *user) {
  (void)h2;
  (void)flags;
  struct session *s = user;
  int n = SSL_write(s->ssl, data, (int)len);
  if (n > 0) return n;
  int err = SSL_get_error(s->ssl, n);
  if (err == SSL_ERROR_WANT_WRITE || err == SSL_ERROR_WANT_READ) {
    s->want_write = 1;
    return NGHTTP2_ERR_WOULDBLOCK;
  }
  return NGHTTP2_ERR_CALLBACK_FAILURE;
}

static void connect_session(struct session *s, const char *host, const char *port, SSL_CTX *ctx, nghttp2_session_callbacks *cbs) {
  struct addrinfo hints = {0}, *ai;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(host, port, &hints, &ai) != 0) die("cannot resolve the server");
  s->fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
  if (s->fd < 0 || connect(s->fd, ai->ai_addr, ai->ai_addrlen) != 0) die("cannot connect to the server");
  freeaddrinfo(ai);
  int one = 1;
  setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  s->ssl = SSL_new(ctx);
  SSL_set_fd(s->ssl, s->fd);
  SSL_set_tlsext_host_name(s->ssl, host);
  if (SSL_connect(s->ssl) != 1) die("TLS handshake failed");
  const unsigned char *proto;
  unsigned int plen;
  SSL_get0_alpn_selected(s->ssl, &proto, &plen);
  if (plen != 2 || memcmp(proto, "h2", 2) != 0) die("the server did not choose HTTP/2");
  fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
  if (nghttp2_session_client_new(&s->h2, cbs, s) != 0) die("nghttp2_session_client_new");
  nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, STREAM_WINDOW}, {NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
  nghttp2_submit_settings(s->h2, NGHTTP2_FLAG_NONE, settings, 2);
  nghttp2_session_set_local_window_size(s->h2, NGHTTP2_FLAG_NONE, 0, CONN_WINDOW);
}

/* Reads what TLS has for `s` and feeds it to nghttp2; 0 when the connection ended. */
static int pump_in(struct session *s) {
  uint8_t buf[65536];
  for (;;) {
    int n = SSL_read(s->ssl, buf, sizeof buf);
    if (n > 0) {
      if (nghttp2_session_mem_recv(s->h2, buf, (size_t)n) < 0) die("HTTP/2 protocol error");
      continue;
    }
    int err = SSL_get_error(s->ssl, n);
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) return 1;
    return 0;
  }
}

int main(int argc, char **argv) {
  if (argc != 11) {
    fprintf(stderr, "usage: h2watch <host> <port> <ca> <cert> <key> <path> <watchers> <sessions> <writes> <out>\n");
    return 2;
  }
  const char *host = argv[1], *port = argv[2], *path = argv[6], *out = argv[10];
  watchers_n = atoi(argv[7]);
  int sessions_n = atoi(argv[8]);
  writes_n = atoi(argv[9]);
  if (watchers_n <= 0 || sessions_n <= 0 || writes_n <= 0) die("watchers, sessions and writes must be positive");
  table = calloc((size_t)watchers_n * (size_t)writes_n, sizeof *table);
  struct watcher *ws = calloc((size_t)watchers_n, sizeof *ws);
  struct session *ss = calloc((size_t)sessions_n, sizeof *ss);
  if (!table || !ws || !ss) die("out of memory");

  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  if (!ctx || SSL_CTX_load_verify_locations(ctx, argv[3], NULL) != 1) die("cannot load the CA");
  if (SSL_CTX_use_certificate_file(ctx, argv[4], SSL_FILETYPE_PEM) != 1 || SSL_CTX_use_PrivateKey_file(ctx, argv[5], SSL_FILETYPE_PEM) != 1) die("cannot load the client certificate");
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
  static const unsigned char alpn[] = {2, 'h', '2'};
  SSL_CTX_set_alpn_protos(ctx, alpn, sizeof alpn);

  nghttp2_session_callbacks *cbs;
  nghttp2_session_callbacks_new(&cbs);
  nghttp2_session_callbacks_set_send_callback(cbs, send_cb);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, on_data);
  nghttp2_session_callbacks_set_on_header_callback(cbs, on_header);
  nghttp2_session_callbacks_set_on_stream_close_callback(cbs, on_close);
  for (int k = 0; k < sessions_n; k++) connect_session(&ss[k], host, port, ctx, cbs);

  for (int i = 0; i < watchers_n; i++) {
    struct watcher *w = &ws[i];
    w->index = i;
    struct session *s = &ss[i % sessions_n];
    nghttp2_nv hdrs[] = {
        {(uint8_t *)":method", (uint8_t *)"GET", 7, 3, NGHTTP2_NV_FLAG_NONE},
        {(uint8_t *)":scheme", (uint8_t *)"https", 7, 5, NGHTTP2_NV_FLAG_NONE},
        {(uint8_t *)":authority", (uint8_t *)host, 10, strlen(host), NGHTTP2_NV_FLAG_NONE},
        {(uint8_t *)":path", (uint8_t *)path, 5, strlen(path), NGHTTP2_NV_FLAG_NONE},
        {(uint8_t *)"accept", (uint8_t *)"application/json", 6, 16, NGHTTP2_NV_FLAG_NONE},
    };
    if (nghttp2_submit_request(s->h2, NULL, hdrs, 5, NULL, w) < 0) die("nghttp2_submit_request");
  }

  struct pollfd *pfds = calloc((size_t)sessions_n + 1, sizeof *pfds);
  int open_sessions = sessions_n;
  char cmd[64];
  size_t cmd_len = 0;
  while (!closing) {
    for (int k = 0; k < sessions_n; k++) {
      struct session *s = &ss[k];
      if (s->h2 && !s->want_write && nghttp2_session_want_write(s->h2)) {
        if (nghttp2_session_send(s->h2) != 0) die("HTTP/2 send failed");
      }
      pfds[k].fd = s->h2 ? s->fd : -1;
      pfds[k].events = POLLIN | (s->want_write ? POLLOUT : 0);
    }
    pfds[sessions_n].fd = 0;
    pfds[sessions_n].events = POLLIN;
    if (poll(pfds, (nfds_t)sessions_n + 1, 1000) < 0 && errno != EINTR) die("poll failed");
    for (int k = 0; k < sessions_n; k++) {
      struct session *s = &ss[k];
      if (!s->h2) continue;
      if (pfds[k].revents & POLLOUT) s->want_write = 0;
      if (pfds[k].revents & (POLLIN | POLLHUP | POLLERR)) {
        if (!pump_in(s)) {
          nghttp2_session_del(s->h2);
          s->h2 = NULL;
          if (--open_sessions == 0 && !closing) fprintf(stderr, "h2watch: every session closed\n");
        }
      }
    }
    if (pfds[sessions_n].revents & (POLLIN | POLLHUP)) {
      ssize_t n = read(0, cmd + cmd_len, sizeof cmd - 1 - cmd_len);
      if (n <= 0) closing = 1;
      else {
        cmd_len += (size_t)n;
        cmd[cmd_len] = 0;
        if (strstr(cmd, "close")) closing = 1;
        if (cmd_len >= sizeof cmd - 1) cmd_len = 0;
      }
    }
  }

  FILE *f = fopen(out, "wb");
  if (!f || fwrite(table, sizeof *table, (size_t)watchers_n * (size_t)writes_n, f) != (size_t)watchers_n * (size_t)writes_n || fclose(f) != 0) die("cannot write the table");
  printf("stats %ld %ld %ld %ld %ld\n", deliveries, duplicates, out_of_order, other_events, closed_early);
  fflush(stdout);
  return 0;
}
