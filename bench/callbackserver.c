/*
 * callbackserver: the webhook benchmark's callback server in C (bench/webhooks.ts, issue 21).
 *
 * The benchmark's svc server, its load client and the callback server share the machine's 2 cores.
 * Written with Node's https server the callback took 0.11-0.19 ms of CPU per call, about as much as the
 * svc server's own webhook side, so the benchmark's ratio measured Node's HTTP server as much as
 * svc (as h2watch.c replaces Node's http2 client for the watch benchmark). This one answers as a
 * webhook server written in Go would, at a fraction of the CPU:
 *
 *   - HTTPS (OpenSSL, the serving certificate and key given), HTTP/1.1 with keep-alive, requests
 *     framed by Content-Length (what kube's and svc's webhook clients send; chunked bodies get 411);
 *   - every request body is parsed as JSON in full (a malformed one gets 400); the review's
 *     apiVersion and request.uid are echoed;
 *   - the answer: allowed, and on /mutate a JSONPatch adding the label bench.svc.io/mutated=true,
 *     with Content-Type and Content-Length;
 *   - one thread, epoll, non-blocking sockets.
 *
 *   callbackserver <cert.pem> <key.pem>
 *
 * stdout: "ready <port>" once it listens on 127.0.0.1 (an ephemeral port). Each line "stats" read
 * on stdin is answered "stats <connections> <handshakes> <resumed> <requests>" (TLS connections
 * accepted, handshakes completed, of which session resumptions, requests answered): what shows
 * that the client keeps its connections alive. It exits when stdin closes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_REQUEST (4 << 20)

/* [{"op":"add","path":"/metadata/labels","value":{"bench.svc.io/mutated":"true"}}], base64 (the Node server's PATCH). */
static const char *PATCH = "W3sib3AiOiJhZGQiLCJwYXRoIjoiL21ldGFkYXRhL2xhYmVscyIsInZhbHVlIjp7ImJlbmNoLnN2Yy5pby9tdXRhdGVkIjoidHJ1ZSJ9fV0=";

struct conn {
  int fd;
  SSL *ssl;
  int handshaken;
  char *in;
  size_t len, cap;
  char *out; /* bytes SSL_write could not take yet */
  size_t outlen;
};

static long n_connections, n_handshakes, n_resumed, n_requests;

/* ---- JSON: a full parse that keeps the spans of the members the answer needs ---- */

struct span { const char *p; size_t n; };
struct json { const char *p, *end; int depth; struct span api_version, uid; };

static void ws(struct json *j) { while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++; }

/* A string starting at j->p ('"'); its raw contents (escapes kept) in *s. 0 on error. */
static int string(struct json *j, struct span *s) {
  if (j->p >= j->end || *j->p != '"') return 0;
  const char *start = ++j->p;
  while (j->p < j->end && *j->p != '"') {
    unsigned char c = (unsigned char)*j->p;
    if (c < 0x20) return 0;
    if (c == '\\') {
      if (++j->p >= j->end) return 0;
      if (*j->p == 'u') {
        for (int i = 0; i < 4; i++) {
          if (++j->p >= j->end) return 0;
          char h = *j->p;
          if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) return 0;
        }
      } else if (!strchr("\"\\/bfnrt", *j->p)) return 0;
    }
    j->p++;
  }
  if (j->p >= j->end) return 0;
  if (s) { s->p = start; s->n = (size_t)(j->p - start); }
  j->p++;
  return 1;
}

static int literal(struct json *j, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0) return 0;
  j->p += n;
  return 1;
}

static int number(struct json *j) {
  const char *s = j->p;
  if (j->p < j->end && *j->p == '-') j->p++;
  if (j->p >= j->end) return 0;
  if (*j->p == '0') j->p++;
  else if (*j->p >= '1' && *j->p <= '9') while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
  else return 0;
  if (j->p < j->end && *j->p == '.') {
    j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return 0;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
  }
  if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
    j->p++;
    if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return 0;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
  }
  return j->p > s;
}

/* path: 0 elsewhere, 1 the top-level object, 2 the top-level "request" object. */
static int value(struct json *j, int path);

static int object(struct json *j, int path) {
  j->p++; /* '{' */
  ws(j);
  if (j->p < j->end && *j->p == '}') { j->p++; return 1; }
  for (;;) {
    struct span k;
    ws(j);
    if (!string(j, &k)) return 0;
    ws(j);
    if (j->p >= j->end || *j->p != ':') return 0;
    j->p++;
    ws(j);
    int sub = 0;
    struct span *keep = NULL;
    if (path == 1 && k.n == 10 && memcmp(k.p, "apiVersion", 10) == 0) keep = &j->api_version;
    if (path == 1 && k.n == 7 && memcmp(k.p, "request", 7) == 0) sub = 2;
    if (path == 2 && k.n == 3 && memcmp(k.p, "uid", 3) == 0) keep = &j->uid;
    if (keep && j->p < j->end && *j->p == '"') {
      if (!string(j, keep)) return 0;
    } else if (!value(j, sub)) return 0;
    ws(j);
    if (j->p < j->end && *j->p == ',') { j->p++; continue; }
    if (j->p < j->end && *j->p == '}') { j->p++; return 1; }
    return 0;
  }
}

static int value(struct json *j, int path) {
  if (j->p >= j->end) return 0;
  if (++j->depth > 1000) return 0;
  int ok;
  switch (*j->p) {
    case '{': ok = object(j, path); break;
    case '[':
      j->p++;
      ws(j);
      if (j->p < j->end && *j->p == ']') { j->p++; ok = 1; break; }
      for (ok = 0;;) {
        ws(j);
        if (!value(j, 0)) break;
        ws(j);
        if (j->p < j->end && *j->p == ',') { j->p++; continue; }
        if (j->p < j->end && *j->p == ']') { j->p++; ok = 1; }
        break;
      }
      break;
    case '"': ok = string(j, NULL); break;
    case 't': ok = literal(j, "true"); break;
    case 'f': ok = literal(j, "false"); break;
    case 'n': ok = literal(j, "null"); break;
    default: ok = number(j);
  }
  j->depth--;
  return ok;
}

/* ---- connections ---- */

static int ep;

static void close_conn(struct conn *c) {
  epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
  SSL_free(c->ssl);
  close(c->fd);
  free(c->in);
  free(c->out);
  free(c);
}

/* Sends what SSL_write takes; keeps the rest for EPOLLOUT. 0 when the connection failed. */
static int send_bytes(struct conn *c, const char *b, size_t n) {
  if (c->outlen > 0) {
    c->out = realloc(c->out, c->outlen + n);
    memcpy(c->out + c->outlen, b, n);
    c->outlen += n;
    return 1;
  }
  int w = SSL_write(c->ssl, b, (int)n);
  if (w > 0) return 1; /* SSL_write writes all of it unless partial writes are enabled */
  int e = SSL_get_error(c->ssl, w);
  if (e != SSL_ERROR_WANT_WRITE && e != SSL_ERROR_WANT_READ) return 0;
  c->out = malloc(n);
  memcpy(c->out, b, n);
  c->outlen = n;
  struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.ptr = c };
  epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
  return 1;
}

static int flush_out(struct conn *c) {
  if (c->outlen == 0) return 1;
  int w = SSL_write(c->ssl, c->out, (int)c->outlen);
  if (w <= 0) {
    int e = SSL_get_error(c->ssl, w);
    return e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ;
  }
  free(c->out);
  c->out = NULL;
  c->outlen = 0;
  struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
  epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
  return 1;
}

static int simple(struct conn *c, const char *status) {
  char b[256];
  int n = snprintf(b, sizeof b, "HTTP/1.1 %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", status);
  send_bytes(c, b, (size_t)n);
  return 0; /* and close */
}

/* Case-insensitive header lookup in head[0, n): the value's span, or 0. */
static int header(const char *head, size_t n, const char *name, struct span *v) {
  size_t k = strlen(name);
  const char *p = memchr(head, '\n', n);
  while (p && (size_t)(p + 1 - head) < n) {
    const char *line = p + 1;
    const char *eol = memchr(line, '\n', n - (size_t)(line - head));
    if (!eol) break;
    if ((size_t)(eol - line) > k && line[k] == ':' && strncasecmp(line, name, k) == 0) {
      const char *s = line + k + 1, *e = eol;
      while (s < e && (*s == ' ' || *s == '\t')) s++;
      while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) e--;
      v->p = s;
      v->n = (size_t)(e - s);
      return 1;
    }
    p = eol;
  }
  return 0;
}

/* Answers every complete request in c->in. 0 when the connection is to be closed. */
static int serve(struct conn *c) {
  size_t at = 0;
  int keep = 1;
  while (keep) {
    char *head = c->in + at;
    size_t avail = c->len - at;
    char *end = avail >= 4 ? memmem(head, avail, "\r\n\r\n", 4) : NULL;
    if (!end) {
      if (avail > 64 * 1024) return simple(c, "431 Request Header Fields Too Large");
      break;
    }
    size_t head_len = (size_t)(end - head) + 4;
    if (avail < 5 || memcmp(head, "POST ", 5) != 0) return simple(c, "405 Method Not Allowed");
    char *sp = memchr(head + 5, ' ', head_len - 5);
    if (!sp) return simple(c, "400 Bad Request");
    struct span path = { head + 5, (size_t)(sp - head - 5) };
    const char *q = memchr(path.p, '?', path.n);
    if (q) path.n = (size_t)(q - path.p);
    struct span v;
    if (header(head, head_len, "Transfer-Encoding", &v)) return simple(c, "411 Length Required");
    if (!header(head, head_len, "Content-Length", &v)) return simple(c, "411 Length Required");
    char num[24];
    if (v.n == 0 || v.n >= sizeof num) return simple(c, "400 Bad Request");
    memcpy(num, v.p, v.n);
    num[v.n] = 0;
    char *numEnd;
    unsigned long body_len = strtoul(num, &numEnd, 10);
    if (*numEnd || body_len > MAX_REQUEST) return simple(c, "413 Payload Too Large");
    if (avail < head_len + body_len) break; /* the rest of the body is still coming */
    if (header(head, head_len, "Connection", &v) && v.n == 5 && strncasecmp(v.p, "close", 5) == 0) keep = 0;

    struct json j = { .p = head + head_len, .end = head + head_len + body_len };
    ws(&j);
    int ok = j.p < j.end && *j.p == '{' && value(&j, 1);
    ws(&j);
    if (!ok || j.p != j.end) return simple(c, "400 Bad Request");
    int mutate = path.n == 7 && memcmp(path.p, "/mutate", 7) == 0;
    char body[1024];
    int bn = snprintf(body, sizeof body, "{\"apiVersion\":\"%.*s\",\"kind\":\"AdmissionReview\",\"response\":{\"uid\":\"%.*s\",\"allowed\":true%s%s%s}}",
                      (int)(j.api_version.n > 200 ? 0 : j.api_version.n), j.api_version.p ? j.api_version.p : "",
                      (int)(j.uid.n > 200 ? 0 : j.uid.n), j.uid.p ? j.uid.p : "",
                      mutate ? ",\"patchType\":\"JSONPatch\",\"patch\":\"" : "", mutate ? PATCH : "", mutate ? "\"" : "");
    char out[1400];
    int on = snprintf(out, sizeof out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s\r\n%s", bn, keep ? "" : "Connection: close\r\n", body);
    if (!send_bytes(c, out, (size_t)on)) return 0;
    n_requests++;
    at += head_len + body_len;
  }
  if (at > 0) {
    memmove(c->in, c->in + at, c->len - at);
    c->len -= at;
  }
  return keep;
}

/* EPOLLIN: the handshake, then every decrypted byte, then the requests they complete. */
static void readable(struct conn *c) {
  if (!c->handshaken) {
    int r = SSL_accept(c->ssl);
    if (r <= 0) {
      int e = SSL_get_error(c->ssl, r);
      if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) close_conn(c);
      return;
    }
    c->handshaken = 1;
    n_handshakes++;
    if (SSL_session_reused(c->ssl)) n_resumed++;
  }
  for (;;) {
    if (c->cap - c->len < 16384) {
      if (c->cap > MAX_REQUEST + 65536) { close_conn(c); return; }
      c->cap = c->cap ? c->cap * 2 : 32768;
      c->in = realloc(c->in, c->cap);
    }
    int r = SSL_read(c->ssl, c->in + c->len, (int)(c->cap - c->len));
    if (r > 0) { c->len += (size_t)r; continue; }
    int e = SSL_get_error(c->ssl, r);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) break;
    close_conn(c); /* closed or failed */
    return;
  }
  if (!serve(c)) close_conn(c); /* a closing answer was written with the rest (one is never left pending: it is small) */
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: callbackserver <cert.pem> <key.pem>\n");
    return 2;
  }
  SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
  if (!ctx || SSL_CTX_use_certificate_chain_file(ctx, argv[1]) != 1 || SSL_CTX_use_PrivateKey_file(ctx, argv[2], SSL_FILETYPE_PEM) != 1) {
    ERR_print_errors_fp(stderr);
    return 1;
  }
  SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = 0 };
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(lfd, 512) != 0) {
    perror("listen");
    return 1;
  }
  socklen_t alen = sizeof addr;
  getsockname(lfd, (struct sockaddr *)&addr, &alen);
  ep = epoll_create1(0);
  struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
  epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
  static int stdin_tag;
  struct epoll_event sev = { .events = EPOLLIN, .data.ptr = &stdin_tag };
  epoll_ctl(ep, EPOLL_CTL_ADD, 0, &sev);
  printf("ready %d\n", ntohs(addr.sin_port));
  fflush(stdout);

  struct epoll_event evs[64];
  char line[256];
  size_t line_len = 0;
  for (;;) {
    int n = epoll_wait(ep, evs, 64, -1);
    if (n < 0 && errno == EINTR) continue;
    for (int i = 0; i < n; i++) {
      void *tag = evs[i].data.ptr;
      if (tag == NULL) {
        for (;;) {
          int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK);
          if (fd < 0) break;
          setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          struct conn *c = calloc(1, sizeof *c);
          c->fd = fd;
          c->ssl = SSL_new(ctx);
          SSL_set_fd(c->ssl, fd);
          n_connections++;
          struct epoll_event cev = { .events = EPOLLIN, .data.ptr = c };
          epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
        }
      } else if (tag == &stdin_tag) {
        ssize_t r = read(0, line + line_len, sizeof line - 1 - line_len);
        if (r <= 0) return 0; /* the benchmark is gone */
        line_len += (size_t)r;
        char *nl;
        while ((nl = memchr(line, '\n', line_len))) {
          if (nl - line == 5 && memcmp(line, "stats", 5) == 0) {
            printf("stats %ld %ld %ld %ld\n", n_connections, n_handshakes, n_resumed, n_requests);
            fflush(stdout);
          }
          line_len -= (size_t)(nl + 1 - line);
          memmove(line, nl + 1, line_len);
        }
        if (line_len == sizeof line - 1) line_len = 0;
      } else {
        struct conn *c = tag;
        if ((evs[i].events & EPOLLOUT) && !flush_out(c)) { close_conn(c); continue; }
        if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) readable(c);
      }
    }
  }
}
