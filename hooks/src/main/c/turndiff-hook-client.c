/*
 * turndiff-hook-client RUNTIME [--git-root] [--auto-track]
 * turndiff-hook-client --command ARGS...   (the launchers' read-only commands through the service: see
 *                                          command_main, near the end)
 *
 * The hook command `turndiff hooks install` writes when this client is built: the fast path of
 * bin/turndiff-hook (the script beside it) in one process, and the script itself for everything else.
 * Design and figures: docs/runtime-hooks.md ("The hook client").
 *
 * Why a hand-written C program: a hook call's cost is the programs it starts. On the 2-core VMs this was
 * measured on, an exec of even a trivial static program costs ~4-7 ms, `dash` ~4 ms, and `curl` ~26-45 ms
 * (it loads 33 shared libraries); the script starts four programs (dash, ls, readlink, curl) and took 41 ms
 * at p50 against 3 ms for the same request from a running client. The target is 15 ms. The runtime's own
 * exec of the hook command is the one start a call cannot avoid, so this program does the whole usual call
 * itself, links nothing but libc (statically when the build can), and speaks the few lines of HTTP/1.1 the
 * service's Unix socket needs: a POST with Content-Length and `Connection: close`, the answer read to its
 * end, its status line parsed, and a body in Content-Length or chunked framing.
 *
 * It takes the fast path only when every check the script makes on its own fast path passes, read from the
 * same files the same way: the run directory a directory of this user's (not a link) with mode 0700 exactly,
 * the store's key remembered in <run dir>/keys, the discovery file well formed, its process alive with the
 * recorded start time, the service's socket a socket of this user's in the run directory, and, when the
 * runtime's process is known, its version remembered in <key>.versions. On anything else, and when the
 * socket refuses the connection or the service closes it before the request went out, it runs the script
 * (execv, same pid, same arguments, same environment, the payload on stdin: untouched when it was not read
 * yet, else from an in-memory copy), which then does what it always did: the cold start and its spool, the
 * identity challenge over TCP, the runtime's version lookup, the refusal of a run directory that is not ours
 * alone, and every log line. Once the request was sent, it behaves as the script does after its one curl: a
 * 200's body goes to stdout as it is, another 2xx prints nothing, anything else is logged to
 * <run dir>/<key>.hook.log; it never sends a call twice.
 *
 * Like the script it never writes to stderr, always exits 0, bounds every wait (TURNDIFF_HOOK_TIMEOUT
 * seconds for the delivery, default 10; 1 s for the connection), and never puts the payload on a command
 * line. The socket path needs no token (the service serves only its own uid there, the run directory's mode
 * keeps everyone else out), so this program never reads the token.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PATH 4096
#define MAX_QUERY 512
#define LOG_ROTATE_BYTES 1048576L

/* A growable byte buffer (the payload, the answer, a file's text). */
struct bytes {
  char *data;
  size_t length;
  size_t capacity;
};

static int bytes_reserve(struct bytes *buffer, size_t more) {
  if (buffer->length + more + 1 <= buffer->capacity) {
    return 0;
  }
  size_t capacity = buffer->capacity ? buffer->capacity : 8192;
  while (capacity < buffer->length + more + 1) {
    capacity *= 2;
  }
  char *data = realloc(buffer->data, capacity);
  if (data == NULL) {
    return -1;
  }
  buffer->data = data;
  buffer->capacity = capacity;
  return 0;
}

/* Reads the open descriptor `fd` to its end into `buffer`; -1 on a read error or more than `limit` bytes. */
static int read_all(int fd, struct bytes *buffer, size_t limit) {
  for (;;) {
    if (bytes_reserve(buffer, 65536) != 0) {
      return -1;
    }
    ssize_t got = read(fd, buffer->data + buffer->length, buffer->capacity - buffer->length - 1);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      return -1;
    }
    if (got == 0) {
      buffer->data[buffer->length] = '\0';
      return 0;
    }
    buffer->length += (size_t)got;
    if (buffer->length > limit) {
      return -1;
    }
  }
}

/* The whole of a small regular file (the script reads these with the shell's builtin read). */
static int read_file(const char *path, struct bytes *buffer) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return -1;
  }
  struct stat status;
  int result = -1;
  if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode)) {
    result = read_all(fd, buffer, 16 * 1024 * 1024);
  }
  close(fd);
  return result;
}

static int write_all(int fd, const char *data, size_t length) {
  while (length > 0) {
    ssize_t wrote = write(fd, data, length);
    if (wrote < 0 && errno == EINTR) {
      continue;
    }
    if (wrote <= 0) {
      return -1;
    }
    data += wrote;
    length -= (size_t)wrote;
  }
  return 0;
}

/* The script's is_number: one or more ASCII digits. */
static int is_number(const char *text) {
  if (*text == '\0') {
    return 0;
  }
  for (; *text; text++) {
    if (*text < '0' || *text > '9') {
      return 0;
    }
  }
  return 1;
}

/* The script's is_hex: one or more of [0-9a-f]. */
static int is_hex(const char *text) {
  if (*text == '\0') {
    return 0;
  }
  for (; *text; text++) {
    if (!((*text >= '0' && *text <= '9') || (*text >= 'a' && *text <= 'f'))) {
      return 0;
    }
  }
  return 1;
}

/* The script's is_version: [0-9A-Za-z][0-9A-Za-z._-]*, at most 64 characters. */
static int is_version(const char *text) {
  size_t length = strlen(text);
  if (length == 0 || length > 64) {
    return 0;
  }
  for (size_t i = 0; i < length; i++) {
    char c = text[i];
    int alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-'))) {
      return 0;
    }
  }
  return 1;
}

static int joined(char *out, size_t size, const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  int length = vsnprintf(out, size, format, arguments);
  va_end(arguments);
  return length >= 0 && (size_t)length < size ? 0 : -1;
}

/* What one call needs, found in the order the script finds it. */
struct call {
  char **argv;
  const char *runtime;
  char options_query[64];
  char store[MAX_PATH];
  char run_dir[MAX_PATH];
  char key[65];
  char log_file[MAX_PATH];
  char port[32];
  char socket_file[MAX_PATH];
  char runtime_query[96];
  char version_query[96];
  int payload_read;
  struct bytes payload;
};

/*
 * Runs bin/turndiff-hook, the script beside this executable, in this process: same arguments, same
 * environment, the payload on stdin (the runtime's stdin when it was not read yet, else an in-memory file
 * holding the bytes read). Only returns when the script cannot be run.
 */
static void run_script(struct call *call) {
  char self[MAX_PATH];
  ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) {
    return;
  }
  self[length] = '\0';
  char *slash = strrchr(self, '/');
  if (slash == NULL) {
    return;
  }
  char script[MAX_PATH];
  if (joined(script, sizeof script, "%.*s/turndiff-hook", (int)(slash - self), self) != 0) {
    return;
  }
  if (call->payload_read) {
    int copy = memfd_create("turndiff-hook-payload", 0);
    if (copy < 0 || write_all(copy, call->payload.data, call->payload.length) != 0 ||
        lseek(copy, 0, SEEK_SET) != 0 || dup2(copy, STDIN_FILENO) < 0) {
      return;
    }
    close(copy);
  }
  call->argv[0] = script;
  execv(script, call->argv);
}

/*
 * Appends one line to the hook log as the script's log() does: "<UTC time> <runtime> <message>", the log
 * moved to .1 once it passes 1 MiB. Only on a path where something went wrong.
 */
static void log_line(const struct call *call, const char *format, ...) {
  if (call->log_file[0] == '\0') {
    return;
  }
  struct stat status;
  if (stat(call->log_file, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > LOG_ROTATE_BYTES) {
    char rotated[MAX_PATH + 2];
    if (joined(rotated, sizeof rotated, "%s.1", call->log_file) == 0) {
      rename(call->log_file, rotated);
    }
  }
  char message[1024];
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(message, sizeof message, format, arguments);
  va_end(arguments);
  char stamp[32];
  time_t now = time(NULL);
  struct tm utc;
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &utc));
  char line[1200];
  int length = snprintf(line, sizeof line, "%s %s %s\n", stamp, call->runtime, message);
  int fd = open(call->log_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0) {
    write_all(fd, line, length < (int)sizeof line ? (size_t)length : sizeof line - 1);
    close(fd);
  }
}

/* The store, as the script (and every turndiff client) names it; -1 where the script would stop. */
static int find_store(struct call *call) {
  const char *db = getenv("TURNDIFF_DB");
  const char *data_home = getenv("XDG_DATA_HOME");
  const char *home = getenv("HOME");
  if (db != NULL && *db != '\0') {
    if (*db == '/') {
      return joined(call->store, sizeof call->store, "%s", db);
    }
    char cwd[MAX_PATH];
    if (getcwd(cwd, sizeof cwd) == NULL) {
      return -1;
    }
    return joined(call->store, sizeof call->store, "%s/%s", cwd, db);
  }
  if (data_home != NULL && *data_home == '/') {
    return joined(call->store, sizeof call->store, "%s/turndiff/turndiff.db", data_home);
  }
  if (home != NULL && *home != '\0') {
    size_t length = strlen(home);
    if (home[length - 1] == '/') {
      length--; /* ${HOME%/}: one trailing slash */
    }
    return joined(call->store, sizeof call->store, "%.*s/.local/share/turndiff/turndiff.db", (int)length, home);
  }
  return -1;
}

/* The run directory; used only when it is a directory of ours, not a link, mode 0700 exactly (`drwx------`). */
static int find_run_dir(struct call *call) {
  const char *runtime_dir = getenv("XDG_RUNTIME_DIR");
  int made;
  if (runtime_dir != NULL && *runtime_dir == '/') {
    size_t length = strlen(runtime_dir);
    if (runtime_dir[length - 1] == '/') {
      length--;
    }
    made = joined(call->run_dir, sizeof call->run_dir, "%.*s/turndiff", (int)length, runtime_dir);
  } else {
    const char *slash = strrchr(call->store, '/');
    made = joined(call->run_dir, sizeof call->run_dir, "%.*s/.turndiff-run", (int)(slash - call->store), call->store);
  }
  struct stat status;
  if (made != 0 || lstat(call->run_dir, &status) != 0) {
    return -1;
  }
  return S_ISDIR(status.st_mode) && status.st_uid == geteuid() && (status.st_mode & 07777) == 0700 ? 0 : -1;
}

/* The store's key as remembered in <run dir>/keys ("<key> <store>" lines); -1 when it is not there yet. */
static int find_key(struct call *call) {
  char keys_file[MAX_PATH];
  struct bytes keys = {0};
  if (joined(keys_file, sizeof keys_file, "%s/keys", call->run_dir) != 0 || read_file(keys_file, &keys) != 0) {
    free(keys.data);
    return -1;
  }
  int found = -1;
  size_t store_length = strlen(call->store);
  /* whole lines only: the shell's read loop skips a last line without its newline */
  for (char *line = keys.data; found != 0;) {
    char *end = memchr(line, '\n', keys.length - (size_t)(line - keys.data));
    if (end == NULL) {
      break;
    }
    char *space = memchr(line, ' ', (size_t)(end - line));
    if (space != NULL && (size_t)(end - space - 1) == store_length && memcmp(space + 1, call->store, store_length) == 0) {
      /* the first line of this store decides, as in the script: a malformed key there is the script's to mend */
      if (space - line == 64) {
        memcpy(call->key, line, 64);
        call->key[64] = '\0';
        found = is_hex(call->key) ? 0 : -1;
      }
      break;
    }
    line = end + 1;
  }
  free(keys.data);
  return found;
}

/* The value of a discovery line `  "name": value,` (quotes kept), or NULL when the line is another's. */
static char *discovery_value(char *line, const char *name) {
  char prefix[48];
  snprintf(prefix, sizeof prefix, "  \"%s\": ", name);
  if (strncmp(line, prefix, strlen(prefix)) != 0) {
    return NULL;
  }
  char *value = strstr(line, "\": ") + 3;
  size_t length = strlen(value);
  if (length > 0 && value[length - 1] == ',') {
    value[length - 1] = '\0';
  }
  return value;
}

/* Field `number` (1 = the state) of /proc/PID/stat after the command name, into `out`. */
static int stat_field(const char *pid, int number, char *out, size_t size, char *command, size_t command_size) {
  char path[64];
  char text[4096];
  if (joined(path, sizeof path, "/proc/%s/stat", pid) != 0) {
    return -1;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return -1;
  }
  ssize_t length = read(fd, text, sizeof text - 1);
  close(fd);
  if (length <= 0) {
    return -1;
  }
  text[length] = '\0';
  char *open_paren = strchr(text, '(');
  char *close_paren = strrchr(text, ')');
  if (open_paren == NULL || close_paren == NULL || close_paren < open_paren || close_paren[1] != ' ') {
    return -1;
  }
  if (command != NULL) {
    size_t name = (size_t)(close_paren - open_paren - 1);
    if (name >= command_size) {
      name = command_size - 1;
    }
    memcpy(command, open_paren + 1, name);
    command[name] = '\0';
  }
  char *field = close_paren + 2;
  for (int index = 1; index < number; index++) {
    field = strchr(field, ' ');
    if (field == NULL) {
      return -1;
    }
    field++;
  }
  size_t span = strcspn(field, " \n");
  if (span == 0 || span >= size) {
    return -1;
  }
  memcpy(out, field, span);
  out[span] = '\0';
  return 0;
}

/*
 * The script's usable() on its fast path: the discovery file read, its process alive with the start time it
 * recorded, and the service's socket a socket of ours in the run directory. -1 sends the call to the script.
 */
static int find_service(struct call *call) {
  char discovery[MAX_PATH];
  struct bytes text = {0};
  if (joined(discovery, sizeof discovery, "%s/%s.json", call->run_dir, call->key) != 0 ||
      read_file(discovery, &text) != 0) {
    free(text.data);
    return -1;
  }
  char instance[128] = "";
  char pid[32] = "";
  char start_ticks[32] = "";
  char *save = NULL;
  for (char *line = strtok_r(text.data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
    char *value;
    if ((value = discovery_value(line, "instance")) != NULL) {
      size_t length = strlen(value);
      if (length >= 2 && value[0] == '"' && value[length - 1] == '"') {
        snprintf(instance, sizeof instance, "%.*s", (int)length - 2, value + 1);
      }
    } else if ((value = discovery_value(line, "pid")) != NULL) {
      snprintf(pid, sizeof pid, "%s", value);
    } else if ((value = discovery_value(line, "proc_start_ticks")) != NULL) {
      snprintf(start_ticks, sizeof start_ticks, "%s", value);
    } else if ((value = discovery_value(line, "port")) != NULL) {
      snprintf(call->port, sizeof call->port, "%s", value);
    }
  }
  free(text.data);
  if (!is_hex(instance) || !is_number(pid) || !is_number(call->port) ||
      !(strcmp(start_ticks, "null") == 0 || is_number(start_ticks))) {
    return -1;
  }
  long number = strtol(pid, NULL, 10);
  if (number <= 0 || number > INT_MAX || kill((pid_t)number, 0) != 0) {
    return -1;
  }
  char ticks_now[32];
  if (strcmp(start_ticks, "null") != 0 && access("/proc/self", F_OK) == 0 &&
      (stat_field(pid, 20, ticks_now, sizeof ticks_now, NULL, 0) != 0 || strcmp(ticks_now, start_ticks) != 0)) {
    return -1;
  }
  struct stat status;
  if (joined(call->socket_file, sizeof call->socket_file, "%s/%.16s.sock", call->run_dir, call->key) != 0 ||
      stat(call->socket_file, &status) != 0 || !S_ISSOCK(status.st_mode) || status.st_uid != geteuid()) {
    return -1;
  }
  return 0;
}

/*
 * The runtime's process, as the script finds it: the parent, or through up to three shells the first
 * ancestor that is not one, with its start time. Empty runtime_query when it cannot be told.
 */
static void find_runtime_process(struct call *call, char *candidate, size_t size) {
  static const char *shells[] = {"sh", "bash", "dash", "zsh", "ash", "ksh", "mksh", "busybox"};
  snprintf(candidate, size, "%ld", (long)getppid());
  for (int hops = 0; hops < 3 && is_number(candidate) && strtol(candidate, NULL, 10) > 1;) {
    char command[64];
    char parent[32];
    char ticks[32];
    if (stat_field(candidate, 2, parent, sizeof parent, command, sizeof command) != 0 ||
        stat_field(candidate, 20, ticks, sizeof ticks, NULL, 0) != 0) {
      return;
    }
    int shell = 0;
    for (size_t i = 0; i < sizeof shells / sizeof *shells; i++) {
      shell |= strcmp(command, shells[i]) == 0;
    }
    if (!shell) {
      if (is_number(ticks)) {
        snprintf(call->runtime_query, sizeof call->runtime_query, "pid=%s&pid_start=%s", candidate, ticks);
      }
      return;
    }
    snprintf(candidate, size, "%s", parent);
    hops++;
  }
}

/*
 * The runtime's version as remembered in <key>.versions for this runtime process ("<pid> <ticks> <version
 * or ->"). -1 when it is not remembered yet: the script looks it up (the runtime's package.json) and
 * remembers it, once per runtime process.
 */
static int find_runtime_version(struct call *call, const char *candidate) {
  if (call->runtime_query[0] == '\0') {
    return 0;
  }
  const char *ticks = strstr(call->runtime_query, "&pid_start=") + strlen("&pid_start=");
  char versions_file[MAX_PATH];
  struct bytes versions = {0};
  if (joined(versions_file, sizeof versions_file, "%s/%s.versions", call->run_dir, call->key) != 0 ||
      read_file(versions_file, &versions) != 0) {
    free(versions.data);
    return -1;
  }
  int found = -1;
  for (char *line = versions.data; found != 0;) {
    char *end = memchr(line, '\n', versions.length - (size_t)(line - versions.data));
    if (end == NULL) {
      break;
    }
    *end = '\0';
    char *seen_pid = strtok(line, " ");
    char *seen_ticks = seen_pid ? strtok(NULL, " ") : NULL;
    char *seen_version = seen_ticks ? strtok(NULL, "") : NULL;
    if (seen_ticks != NULL && strcmp(seen_pid, candidate) == 0 && strcmp(seen_ticks, ticks) == 0) {
      found = 0;
      if (seen_version != NULL) {
        seen_version += strspn(seen_version, " ");
        size_t length = strlen(seen_version);
        while (length > 0 && seen_version[length - 1] == ' ') {
          seen_version[--length] = '\0';
        }
        if (is_version(seen_version)) {
          snprintf(call->version_query, sizeof call->version_query, "runtime_version=%s", seen_version);
        }
      }
    }
    line = end + 1;
  }
  free(versions.data);
  return found;
}

static long long now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Waits until `fd` is ready for `events` or the deadline passes; 0 when ready. */
static int wait_for(int fd, short events, long long deadline) {
  for (;;) {
    long long left = deadline - now_ms();
    if (left <= 0) {
      return -1;
    }
    struct pollfd poller = {.fd = fd, .events = events};
    int ready = poll(&poller, 1, left > INT_MAX ? INT_MAX : (int)left);
    if (ready > 0) {
      return 0;
    }
    if (ready < 0 && errno != EINTR) {
      return -1;
    }
  }
}

/* Connects to the service's socket within a second (curl's --connect-timeout 1); -1 when it cannot. */
static int connect_service(const struct call *call) {
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  if (strlen(call->socket_file) >= sizeof address.sun_path) {
    return -1;
  }
  strcpy(address.sun_path, call->socket_file);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    return -1;
  }
  long long deadline = now_ms() + 1000;
  /* a listener whose backlog is full makes a non-blocking connect fail with EAGAIN: retried until the
     deadline */
  while (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    if (errno != EAGAIN && errno != EINTR) {
      close(fd);
      return -1;
    }
    if (now_ms() >= deadline) {
      close(fd);
      return -1;
    }
    struct timespec pause = {.tv_nsec = 5 * 1000000};
    nanosleep(&pause, NULL);
  }
  return fd;
}

/* Sends all of `data` before the deadline; how many bytes went out in *sent. */
static int send_all(int fd, const char *data, size_t length, long long deadline, size_t *sent) {
  while (length > 0) {
    ssize_t wrote = send(fd, data, length, MSG_NOSIGNAL);
    if (wrote < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (wait_for(fd, POLLOUT, deadline) != 0) {
        return -1;
      }
      continue;
    }
    if (wrote <= 0) {
      return -1;
    }
    *sent += (size_t)wrote;
    data += wrote;
    length -= (size_t)wrote;
  }
  return 0;
}

/* Reads the answer to its end (the service closes after it: `Connection: close`) before the deadline. */
static int receive_all(int fd, struct bytes *answer, long long deadline) {
  for (;;) {
    if (bytes_reserve(answer, 16384) != 0) {
      return -1;
    }
    ssize_t got = recv(fd, answer->data + answer->length, answer->capacity - answer->length - 1, 0);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (wait_for(fd, POLLIN, deadline) != 0) {
        return -1;
      }
      continue;
    }
    if (got < 0) {
      return -1;
    }
    if (got == 0) {
      answer->data[answer->length] = '\0';
      return 0;
    }
    answer->length += (size_t)got;
    if (answer->length > 64 * 1024 * 1024) {
      return -1;
    }
  }
}

/* Whether the header block [headers, end) has `name: value` (names and values compared case-insensitively). */
static const char *header_value(const char *headers, const char *end, const char *name) {
  size_t name_length = strlen(name);
  for (const char *line = headers; line < end;) {
    const char *line_end = memmem(line, (size_t)(end - line), "\r\n", 2);
    if (line_end == NULL) {
      line_end = end;
    }
    if ((size_t)(line_end - line) > name_length && strncasecmp(line, name, name_length) == 0 &&
        line[name_length] == ':') {
      const char *value = line + name_length + 1;
      while (value < line_end && (*value == ' ' || *value == '\t')) {
        value++;
      }
      return value;
    }
    line = line_end + 2;
  }
  return NULL;
}

/* Decodes a chunked body in place; its length, or -1 when it is malformed or cut short. */
static long dechunk(char *body, size_t length) {
  size_t read_at = 0;
  size_t write_at = 0;
  for (;;) {
    char *size_end = memmem(body + read_at, length - read_at, "\r\n", 2);
    if (size_end == NULL) {
      return -1;
    }
    char *digits_end;
    unsigned long size = strtoul(body + read_at, &digits_end, 16);
    if (digits_end == body + read_at) {
      return -1;
    }
    read_at = (size_t)(size_end - body) + 2;
    if (size == 0) {
      return (long)write_at;
    }
    if (size > length - read_at || length - read_at - size < 2) {
      return -1;
    }
    memmove(body + write_at, body + read_at, size);
    write_at += size;
    read_at += size + 2;
  }
}

/*
 * The answer's status, and its body in (*body, *body_length); -1 when it is not an HTTP/1.x answer whose
 * body arrived whole.
 */
static int parse_answer(struct bytes *answer, const char **body, size_t *body_length, const char **header_block,
                        const char **header_block_end) {
  char *data = answer->data;
  if (answer->length < 12 || strncmp(data, "HTTP/1.", 7) != 0 || data[8] != ' ') {
    return -1;
  }
  for (int i = 9; i < 12; i++) {
    if (data[i] < '0' || data[i] > '9') {
      return -1;
    }
  }
  int status = (data[9] - '0') * 100 + (data[10] - '0') * 10 + (data[11] - '0');
  char *headers_end = memmem(data, answer->length, "\r\n\r\n", 4);
  if (headers_end == NULL) {
    return -1;
  }
  const char *headers = memchr(data, '\n', (size_t)(headers_end - data)) + 1;
  char *start = headers_end + 4;
  size_t available = answer->length - (size_t)(start - data);
  const char *encoding = header_value(headers, headers_end + 2, "Transfer-Encoding");
  const char *declared = header_value(headers, headers_end + 2, "Content-Length");
  if (encoding != NULL && strncasecmp(encoding, "chunked", 7) == 0) {
    long length = dechunk(start, available);
    if (length < 0) {
      return -1;
    }
    available = (size_t)length;
  } else if (declared != NULL) {
    char *digits_end;
    unsigned long length = strtoul(declared, &digits_end, 10);
    if (digits_end == declared || length > available) {
      return -1;
    }
    available = length;
  }
  *body = start;
  *body_length = available;
  if (header_block != NULL) {
    *header_block = headers;
    *header_block_end = headers_end + 2;
  }
  return status;
}

/* The script's deliver(), over the socket. Runs the script instead when the request could not go out. */
static void deliver(struct call *call) {
  const char *timeout_text = getenv("TURNDIFF_HOOK_TIMEOUT");
  long timeout = timeout_text != NULL && *timeout_text != '\0' && is_number(timeout_text) && strlen(timeout_text) < 7
                     ? strtol(timeout_text, NULL, 10)
                     : 10;
  long long deadline = now_ms() + timeout * 1000;
  int fd = connect_service(call);
  if (fd < 0) {
    run_script(call); /* nothing read or sent yet: the script does this call from the start */
    log_line(call, "the hook script beside turndiff-hook-client could not be run; this call was not delivered");
    return;
  }
  call->payload_read = 1;
  if (read_all(STDIN_FILENO, &call->payload, (size_t)1 << 31) != 0) {
    close(fd);
    log_line(call, "delivery to the socket of port %s failed: the payload could not be read from stdin", call->port);
    return;
  }
  char query[MAX_QUERY];
  snprintf(query, sizeof query, "%s%s%s%s%s", call->options_query,
           call->options_query[0] && call->runtime_query[0] ? "&" : "", call->runtime_query,
           (call->options_query[0] || call->runtime_query[0]) && call->version_query[0] ? "&" : "",
           call->version_query);
  char head[MAX_QUERY + 256];
  int head_length = snprintf(head, sizeof head,
                             "POST /v1/hooks/%s%s%s HTTP/1.1\r\n"
                             "Host: localhost\r\n"
                             "User-Agent: turndiff-hook-client\r\n"
                             "Content-Type: application/json\r\n"
                             "Content-Length: %zu\r\n"
                             "Connection: close\r\n"
                             "\r\n",
                             call->runtime, query[0] ? "?" : "", query, call->payload.length);
  size_t sent = 0;
  if (send_all(fd, head, (size_t)head_length, deadline, &sent) != 0 ||
      send_all(fd, call->payload.data, call->payload.length, deadline, &sent) != 0) {
    close(fd);
    if (sent == 0) {
      run_script(call); /* the service closed before a byte went out (it is stopping): the script spools */
    }
    log_line(call, "delivery to the socket of port %s failed: HTTP none, the request was cut off after %zu bytes",
             call->port, sent);
    return;
  }
  struct bytes answer = {0};
  int received = receive_all(fd, &answer, deadline);
  close(fd);
  const char *body = NULL;
  size_t body_length = 0;
  int status = received == 0 ? parse_answer(&answer, &body, &body_length, NULL, NULL) : -1;
  if (status == 200) {
    /* the note for the model's context, as it is */
    write_all(STDOUT_FILENO, body, body_length);
  } else if (status < 200 || status > 299) {
    if (status < 0) {
      log_line(call, "delivery to the socket of port %s failed: HTTP none, %s", call->port,
               received == 0 ? "not an HTTP answer" : "no whole answer within the timeout");
    } else {
      log_line(call, "delivery to the socket of port %s failed: HTTP %d", call->port, status);
    }
  }
  free(answer.data);
}

/*
 * ---- turndiff-hook-client --command ARGS...: the command line's read-only commands through the service ----
 *
 * The launchers (the checkout's ./turndiff, a release's bin/turndiff) run this first for every command
 * line. For `turns`, `show`, `diff`, `log` and `status`, when the service of the store the command names
 * runs, it sends the arguments, the working directory, whether stdin and stdout are a terminal and the
 * variables that shape a terminal's view to POST /v1/commands on the service's socket; the service runs the
 * command line's own code over its open store and answers with the command's stdout, stderr and exit code,
 * which this program reproduces (through the pager the view names, as the JVM would have run it). On
 * anything else (another command, no service, another store's, an old service without the endpoint, an
 * option the service leaves to the JVM, a failure before the whole answer arrived) it exits
 * COMMAND_DECLINED having printed nothing, and the launcher runs the JVM: these commands only read, so a
 * command the service may have run is safely run again. Design and figures: docs/service.md ("Commands
 * through the service").
 *
 * The service is found as the hook path finds it (the run directory ours and 0700, the discovery file, its
 * process alive with its start time, the socket ours), under the store's key computed here: the SHA-256 of
 * the store's path string as turndiff names it (`--db` made absolute as java.nio makes it, else
 * $TURNDIFF_DB, $XDG_DATA_HOME, $HOME). The service checks again that the store is its own.
 */
#define COMMAND_DECLINED 125
#define COMMAND_TIMEOUT_MS 60000

/* SHA-256 (FIPS 180-4) of `length` bytes at `data`, as 64 lowercase hex digits into `hex`. */
static void sha256_hex(const unsigned char *data, size_t length, char hex[65]) {
  static const uint32_t k[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
  /* the message, its 0x80, zeros, and its length in bits, in whole 64-byte blocks */
  size_t blocks = (length + 9 + 63) / 64;
  for (size_t block = 0; block < blocks; block++) {
    unsigned char chunk[64];
    for (size_t i = 0; i < 64; i++) {
      size_t at = block * 64 + i;
      uint64_t bits = (uint64_t)length * 8;
      chunk[i] = at < length                  ? data[at]
                 : at == length               ? 0x80
                 : at >= blocks * 64 - 8 ? (unsigned char)(bits >> (8 * (blocks * 64 - 1 - at)))
                                              : 0;
    }
    uint32_t w[64];
    for (int i = 0; i < 16; i++) {
      w[i] = (uint32_t)chunk[4 * i] << 24 | (uint32_t)chunk[4 * i + 1] << 16 | (uint32_t)chunk[4 * i + 2] << 8 |
             chunk[4 * i + 3];
    }
    for (int i = 16; i < 64; i++) {
      uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
      uint32_t t1 = hh + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
#undef ROTR
  for (int i = 0; i < 8; i++) {
    snprintf(hex + 8 * i, 9, "%08x", h[i]);
  }
}

/* `--db PATH` as turndiff names the store: absolute against the working directory, as java.nio's Path makes
   it (repeated slashes made one, a trailing one dropped; `.` and `..` kept). */
static int store_of_option(struct call *call, const char *db) {
  char cwd[MAX_PATH];
  size_t used = 0;
  if (*db != '/') {
    if (getcwd(cwd, sizeof cwd) == NULL || joined(call->store, sizeof call->store, "%s", cwd) != 0) {
      return -1;
    }
    used = strlen(call->store);
    if (used > 1) {
      call->store[used++] = '/';
    }
  }
  for (const char *c = db; *c; c++) {
    if (*c == '/' && used > 0 && call->store[used - 1] == '/') {
      continue;
    }
    if (used + 2 >= sizeof call->store) {
      return -1;
    }
    call->store[used++] = *c;
  }
  if (used > 1 && call->store[used - 1] == '/') {
    used--;
  }
  call->store[used] = '\0';
  return 0;
}

/* Appends the NUL-terminated field `name=value` to the request's body. */
static int add_field(struct bytes *body, const char *name, const char *value) {
  size_t name_length = strlen(name);
  size_t value_length = strlen(value);
  if (bytes_reserve(body, name_length + value_length + 2) != 0) {
    return -1;
  }
  memcpy(body->data + body->length, name, name_length);
  body->data[body->length + name_length] = '=';
  memcpy(body->data + body->length + name_length + 1, value, value_length);
  body->length += name_length + value_length + 1;
  body->data[body->length++] = '\0';
  return 0;
}

/* The decimal value of header `name`, within [0, limit]; -1 when it is missing or not one. */
static long header_number(const char *headers, const char *end, const char *name, long limit) {
  const char *value = header_value(headers, end, name);
  if (value == NULL || *value < '0' || *value > '9') {
    return -1;
  }
  char *digits_end;
  long number = strtol(value, &digits_end, 10);
  return number <= limit && (*digits_end == '\r' || *digits_end == ' ') ? number : -1;
}

/*
 * Shows `length` bytes of a view through `sh -c pager`, as the JVM's Terminal.page does: LESS=FRX and
 * LV=-c unless set, the pager's output on our stdout; written as it is when the pager cannot start. A pager
 * quit before the end drops the rest.
 */
static void page(const char *pager, const char *text, size_t length) {
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0) {
    write_all(STDOUT_FILENO, text, length);
    return;
  }
  pid_t child = fork();
  if (child == 0) {
    dup2(pipe_ends[0], STDIN_FILENO);
    signal(SIGPIPE, SIG_DFL);
    setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRX", 1);
    setenv("LV", getenv("LV") ? getenv("LV") : "-c", 1);
    execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
    _exit(127);
  }
  close(pipe_ends[0]);
  if (child < 0) {
    close(pipe_ends[1]);
    write_all(STDOUT_FILENO, text, length);
    return;
  }
  write_all(pipe_ends[1], text, length);
  close(pipe_ends[1]);
  while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {
  }
}

/*
 * Reproduces the command the service ran from its answer: stdout (the part the view names through its
 * pager), then stderr, and its exit code. COMMAND_DECLINED for an answer that is not one.
 */
static int reproduce(struct bytes *answer) {
  const char *body = NULL;
  const char *headers = NULL;
  const char *headers_end = NULL;
  size_t body_length = 0;
  if (parse_answer(answer, &body, &body_length, &headers, &headers_end) != 200) {
    return COMMAND_DECLINED;
  }
  long exit_code = header_number(headers, headers_end, "Turndiff-Exit", 255);
  long out_length = header_number(headers, headers_end, "Turndiff-Stdout-Bytes", (long)body_length);
  if (exit_code < 0 || out_length < 0) {
    return COMMAND_DECLINED;
  }
  const char *pager_value = header_value(headers, headers_end, "Turndiff-Pager");
  long paged_from = header_number(headers, headers_end, "Turndiff-Pager-From", out_length);
  if (pager_value != NULL && paged_from >= 0) {
    const char *pager_end = memmem(pager_value, (size_t)(headers_end - pager_value), "\r\n", 2);
    char pager[1024];
    if (pager_end == NULL || joined(pager, sizeof pager, "%.*s", (int)(pager_end - pager_value), pager_value) != 0) {
      return COMMAND_DECLINED;
    }
    write_all(STDOUT_FILENO, body, (size_t)paged_from);
    page(pager, body + paged_from, (size_t)(out_length - paged_from));
  } else {
    write_all(STDOUT_FILENO, body, (size_t)out_length);
  }
  write_all(STDERR_FILENO, body + out_length, body_length - (size_t)out_length);
  return (int)exit_code;
}

/* The request's body: where and how the command runs, then its arguments. -1 when it cannot be built. */
static int command_request(struct call *call, int argc, char **argv, struct bytes *body) {
  static const char *shaping[] = {"TERM", "NO_COLOR", "TURNDIFF_PAGER", "PAGER", "LESS", "LV", "TZ"};
  char cwd[MAX_PATH];
  if (getcwd(cwd, sizeof cwd) == NULL || add_field(body, "cwd", cwd) != 0 || add_field(body, "store", call->store) != 0 ||
      add_field(body, "tty", isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) ? "1" : "0") != 0) {
    return -1;
  }
  for (size_t i = 0; i < sizeof shaping / sizeof *shaping; i++) {
    const char *value = getenv(shaping[i]);
    char variable[MAX_PATH];
    if (value != NULL && (joined(variable, sizeof variable, "%s=%s", shaping[i], value) != 0 ||
                          add_field(body, "env", variable) != 0)) {
      return -1;
    }
  }
  for (int i = 0; i < argc; i++) {
    if (add_field(body, "arg", argv[i]) != 0) {
      return -1;
    }
  }
  return 0;
}

/*
 * The store the command line names, when this mode serves it: one of the five commands, no option before
 * it but --db, none of the options that change how the store is opened; -1 otherwise.
 */
static int command_store(struct call *call, int argc, char **argv) {
  static const char *served[] = {"turns", "show", "diff", "log", "status"};
  static const char *opening[] = {"--db-password-file", "--size-limit", "--full-hash", "--boundary"};
  const char *db = NULL;
  const char *command = NULL;
  int databases = 0;
  for (int i = 0; i < argc; i++) {
    const char *argument = argv[i];
    if (strcmp(argument, "--db") == 0 || strncmp(argument, "--db=", 5) == 0) {
      if (argument[4] == '\0' && i + 1 >= argc) {
        return -1;
      }
      db = argument[4] == '=' ? argument + 5 : argv[++i];
      databases++;
      continue;
    }
    for (size_t o = 0; o < sizeof opening / sizeof *opening; o++) {
      size_t length = strlen(opening[o]);
      if (strncmp(argument, opening[o], length) == 0 && (argument[length] == '\0' || argument[length] == '=')) {
        return -1;
      }
    }
    if (command == NULL) {
      if (argument[0] == '-') {
        return -1; /* --help, --version and the like before the command: the JVM's */
      }
      command = argument;
    }
  }
  int known = 0;
  for (size_t c = 0; command != NULL && c < sizeof served / sizeof *served; c++) {
    known |= strcmp(command, served[c]) == 0;
  }
  if (!known || databases > 1) {
    return -1;
  }
  if (db != NULL) {
    return *db == '\0' || strncmp(db, "jdbc:", 5) == 0 ? -1 : store_of_option(call, db);
  }
  return find_store(call);
}

static int command_main(int argc, char **argv) {
  struct call call = {.argv = argv, .runtime = ""};
  if (command_store(&call, argc, argv) != 0 || find_run_dir(&call) != 0) {
    return COMMAND_DECLINED;
  }
  sha256_hex((const unsigned char *)call.store, strlen(call.store), call.key);
  if (find_service(&call) != 0) {
    return COMMAND_DECLINED;
  }
  struct bytes body = {0};
  if (command_request(&call, argc, argv, &body) != 0) {
    return COMMAND_DECLINED;
  }
  int fd = connect_service(&call);
  if (fd < 0) {
    return COMMAND_DECLINED;
  }
  char head[256];
  int head_length = snprintf(head, sizeof head,
                             "POST /v1/commands HTTP/1.1\r\n"
                             "Host: localhost\r\n"
                             "User-Agent: turndiff-hook-client\r\n"
                             "Content-Type: application/octet-stream\r\n"
                             "Content-Length: %zu\r\n"
                             "Connection: close\r\n"
                             "\r\n",
                             body.length);
  long long deadline = now_ms() + COMMAND_TIMEOUT_MS;
  size_t sent = 0;
  struct bytes answer = {0};
  int result = COMMAND_DECLINED;
  if (send_all(fd, head, (size_t)head_length, deadline, &sent) == 0 &&
      send_all(fd, body.data, body.length, deadline, &sent) == 0 && receive_all(fd, &answer, deadline) == 0) {
    result = reproduce(&answer);
  }
  close(fd);
  free(body.data);
  free(answer.data);
  return result;
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  if (argc > 1 && strcmp(argv[1], "--command") == 0) {
    return command_main(argc - 2, argv + 2);
  }
  umask(077);
  /* nothing ever goes to stderr: runtimes read it (Gemini shows it when stdout is empty) */
  int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd >= 0) {
    dup2(null_fd, STDERR_FILENO);
  }
  struct call call = {.argv = argv, .runtime = argc > 1 ? argv[1] : ""};
  if (strcmp(call.runtime, "claude-code") != 0 && strcmp(call.runtime, "gemini") != 0 &&
      strcmp(call.runtime, "codex") != 0) {
    return 0;
  }
  for (int i = 2; i < argc; i++) {
    const char *option = strcmp(argv[i], "--git-root") == 0    ? "root=git"
                         : strcmp(argv[i], "--auto-track") == 0 ? "track=auto"
                                                                 : NULL;
    if (option != NULL) {
      size_t used = strlen(call.options_query);
      snprintf(call.options_query + used, sizeof call.options_query - used, "%s%s", used ? "&" : "", option);
    }
  }
  char candidate[32];
  if (find_store(&call) != 0 || find_run_dir(&call) != 0 || find_key(&call) != 0) {
    run_script(&call);
    return 0;
  }
  joined(call.log_file, sizeof call.log_file, "%s/%s.hook.log", call.run_dir, call.key);
  find_runtime_process(&call, candidate, sizeof candidate);
  if (find_service(&call) != 0 || find_runtime_version(&call, candidate) != 0) {
    run_script(&call);
    log_line(&call, "the hook script beside turndiff-hook-client could not be run; this call was not delivered");
    return 0;
  }
  deliver(&call);
  return 0;
}
