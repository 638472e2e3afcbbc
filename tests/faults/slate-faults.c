/* slate-faults: an LD_PRELOAD library that makes file operations fail, or kills
   the process, at chosen calls, and shifts the wall clock. It interposes libc's
   dynamic symbols, which both Swift's Glibc module and libav's file protocol call.

   SLATE_FAULTS=OP:WHICH:ACTION[,OP:WHICH:ACTION...]
     OP      open openat read write pwrite fsync fdatasync rename renameat renameat2
             link linkat unlink unlinkat truncate ftruncate fallocate posix_fallocate
             ioctl epoll_wait opendir, or * for any of them
     WHICH   N (the Nth matching call of OP, from 1), N+ (the Nth and every later
             one) or * (every one)
     ACTION  kill (SIGKILL before the call), an errno name such as EIO, ENOSPC or
             EINVAL (the call fails with it),
             EINTR (fails with EINTR; the same operation's next call on that thread,
             its retry, goes through), short (read, write and pwrite move half the
             bytes asked for; other operations go through), slow (the call waits
             100 ms, then goes through)
   SLATE_FAULTS_PATH=TEXT   only calls on paths containing TEXT count, or on file
                            descriptors whose /proc/self/fd link contains it
   SLATE_FAULTS_TRACE=FILE  appends a line per counted call: pid, OP, its number,
                            path, and the action taken if any; and a line per
                            CLOCK_REALTIME reading when the clock is shifted
   SLATE_FAULTS_CLOCK_OFFSET=SECONDS  added to CLOCK_REALTIME (clock_gettime,
                            gettimeofday, time); negative moves it back

   Bookkeeping (the trace, /proc/self/fd) goes through raw system calls, so it
   is neither counted nor faulted. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum op {
    OP_OPEN, OP_OPENAT, OP_READ, OP_WRITE, OP_PWRITE, OP_FSYNC, OP_FDATASYNC, OP_RENAME, OP_RENAMEAT,
    OP_RENAMEAT2, OP_LINK, OP_LINKAT, OP_UNLINK, OP_UNLINKAT, OP_TRUNCATE, OP_FTRUNCATE, OP_FALLOCATE,
    OP_POSIX_FALLOCATE, OP_IOCTL, OP_EPOLL_WAIT, OP_OPENDIR, OP_COUNT, OP_ANY = OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
    "open", "openat", "read", "write", "pwrite", "fsync", "fdatasync", "rename", "renameat",
    "renameat2", "link", "linkat", "unlink", "unlinkat", "truncate", "ftruncate", "fallocate",
    "posix_fallocate", "ioctl", "epoll_wait", "opendir",
};

enum action { ACT_NONE, ACT_KILL, ACT_ERRNO, ACT_EINTR, ACT_SHORT, ACT_SLOW };

struct rule {
    int op;
    long from;     /* first call number it applies to */
    int onward;    /* and every later one */
    enum action action;
    int error;     /* for ACT_ERRNO */
};

#define MAX_RULES 32
static struct rule rules[MAX_RULES];
static int rule_count;
static const char *path_filter;
static int trace_fd = -1;
static int clock_shifted;
static long long clock_offset_ns;
static long counters[OP_COUNT];
static __thread unsigned retry_pending; /* bit per op: the next call is an EINTR's retry */

static void say(const char *text) { syscall(SYS_write, 2, text, strlen(text)); }

static void bad_setting(const char *name, const char *value) {
    say("slate-faults: cannot use ");
    say(name);
    say("=");
    say(value);
    say("\n");
    _exit(125);
}

/* The errno whose symbolic name is `name` ("EIO"), or 0. */
static int errno_named(const char *name) {
    for (int error = 1; error < 4096; error++) {
        const char *known = strerrorname_np(error);
        if (known && strcmp(known, name) == 0) return error;
    }
    return 0;
}

static int parse_rule(char *text, struct rule *rule) {
    char *which = strchr(text, ':');
    if (!which) return -1;
    *which++ = 0;
    char *action = strchr(which, ':');
    if (!action) return -1;
    *action++ = 0;

    rule->op = -1;
    if (strcmp(text, "*") == 0) rule->op = OP_ANY;
    for (int op = 0; op < OP_COUNT; op++)
        if (strcmp(text, op_names[op]) == 0) rule->op = op;
    if (rule->op < 0) return -1;

    if (strcmp(which, "*") == 0) {
        rule->from = 1;
        rule->onward = 1;
    } else {
        char *end;
        rule->from = strtol(which, &end, 10);
        rule->onward = strcmp(end, "+") == 0;
        if (end == which || rule->from < 1 || (*end && !rule->onward)) return -1;
    }

    if (strcmp(action, "kill") == 0) rule->action = ACT_KILL;
    else if (strcmp(action, "EINTR") == 0) rule->action = ACT_EINTR;
    else if (strcmp(action, "short") == 0) rule->action = ACT_SHORT;
    else if (strcmp(action, "slow") == 0) rule->action = ACT_SLOW;
    else if ((rule->error = errno_named(action)) != 0) rule->action = ACT_ERRNO;
    else return -1;
    return 0;
}

static void set_up(void) {
    const char *faults = getenv("SLATE_FAULTS");
    if (faults && *faults) {
        char *copy = strdup(faults), *save = NULL;
        for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
            if (rule_count == MAX_RULES || parse_rule(item, &rules[rule_count]) != 0) bad_setting("SLATE_FAULTS", faults);
            rule_count++;
        }
        free(copy);
    }
    const char *filter = getenv("SLATE_FAULTS_PATH");
    if (filter && *filter) path_filter = strdup(filter);
    const char *trace = getenv("SLATE_FAULTS_TRACE");
    if (trace && *trace) {
        trace_fd = (int)syscall(SYS_openat, AT_FDCWD, trace, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (trace_fd < 0) bad_setting("SLATE_FAULTS_TRACE", trace);
    }
    const char *offset = getenv("SLATE_FAULTS_CLOCK_OFFSET");
    if (offset && *offset) {
        char *end;
        double seconds = strtod(offset, &end);
        if (end == offset || *end) bad_setting("SLATE_FAULTS_CLOCK_OFFSET", offset);
        clock_offset_ns = (long long)(seconds * 1e9);
        clock_shifted = 1;
    }
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
__attribute__((constructor)) static void start(void) { pthread_once(&once, set_up); }

#define REAL(name) \
    static __typeof__(name) *real_##name; \
    if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

/* The path of a call: `path` as given, made absolute against `dirfd` (or the
   working folder) when relative; or the /proc/self/fd link of `fd`. */
static void describe(int fd, int dirfd, const char *path, char *out, size_t size) {
    char link[64];
    out[0] = 0;
    if (path && path[0] == '/') {
        snprintf(out, size, "%s", path);
        return;
    }
    char base[PATH_MAX] = "";
    int from = path ? dirfd : fd;
    if (from == AT_FDCWD) {
        long length = syscall(SYS_getcwd, base, sizeof base - 1);
        if (length < 0) base[0] = 0;
    } else {
        snprintf(link, sizeof link, "/proc/self/fd/%d", from);
        long length = syscall(SYS_readlinkat, AT_FDCWD, link, base, sizeof base - 1);
        base[length > 0 ? length : 0] = 0;
    }
    if (path) snprintf(out, size, "%s/%s", base, path);
    else snprintf(out, size, "%s", base);
}

static void trace_line(const char *op, long number, const char *path, const char *action) {
    if (trace_fd < 0) return;
    char line[PATH_MAX + 128];
    int length = snprintf(line, sizeof line, "%d\t%s\t%ld\t%s\t%s\n", (int)syscall(SYS_getpid), op, number, path,
                          action);
    if (length > (int)sizeof line - 1) length = sizeof line - 1;
    syscall(SYS_write, trace_fd, line, (size_t)length);
}

/* Counts a call of `op` on `path` (or `path2`) and says what to do with it. */
static enum action decide(int op, const char *path, const char *path2, int *error) {
    if (path_filter && !strstr(path, path_filter) && !(path2 && strstr(path2, path_filter))) return ACT_NONE;
    long number = __atomic_add_fetch(&counters[op], 1, __ATOMIC_SEQ_CST);
    enum action chosen = ACT_NONE;
    if (retry_pending & (1u << op)) {
        retry_pending &= ~(1u << op);
    } else {
        for (int i = 0; i < rule_count; i++) {
            const struct rule *rule = &rules[i];
            if (rule->op != op && rule->op != OP_ANY) continue;
            if (number < rule->from || (number > rule->from && !rule->onward)) continue;
            chosen = rule->action;
            *error = rule->error;
            break;
        }
    }
    static const char *const action_names[] = {"", "kill", "", "EINTR", "short", "slow"};
    trace_line(op_names[op], number, path, chosen == ACT_ERRNO ? strerrorname_np(*error) : action_names[chosen]);
    if (chosen == ACT_KILL) {
        syscall(SYS_kill, syscall(SYS_getpid), SIGKILL);
        for (;;) pause();
    }
    if (chosen == ACT_SLOW) {
        struct timespec pause_for = {0, 100 * 1000 * 1000};
        nanosleep(&pause_for, NULL);
        return ACT_NONE;
    }
    if (chosen == ACT_EINTR) {
        retry_pending |= 1u << op;
        *error = EINTR;
        return ACT_ERRNO;
    }
    return chosen;
}

/* Whether any call is counted at all. */
static int active(void) {
    pthread_once(&once, set_up);
    return rule_count > 0 || trace_fd >= 0;
}

static enum action decide_fd(int op, int fd, int *error) {
    if (!active()) return ACT_NONE;
    char path[PATH_MAX];
    describe(fd, AT_FDCWD, NULL, path, sizeof path);
    return decide(op, path, NULL, error);
}

static enum action decide_path(int op, int dirfd, const char *given, const char *given2, int dirfd2, int *error) {
    if (!active()) return ACT_NONE;
    char path[PATH_MAX], path2[PATH_MAX];
    describe(-1, dirfd, given, path, sizeof path);
    if (given2) describe(-1, dirfd2, given2, path2, sizeof path2);
    return decide(op, path, given2 ? path2 : NULL, error);
}

#define FAIL_WITH(value) \
    do { \
        errno = error; \
        return value; \
    } while (0)

static mode_t mode_of(int flags, va_list arguments) {
    return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE ? va_arg(arguments, mode_t) : 0;
}

#define OPEN_WRAPPER(name) \
    int name(const char *path, int flags, ...) { \
        va_list arguments; \
        va_start(arguments, flags); \
        mode_t mode = mode_of(flags, arguments); \
        va_end(arguments); \
        REAL(name); \
        int error = 0; \
        if (decide_path(OP_OPEN, AT_FDCWD, path, NULL, 0, &error) == ACT_ERRNO) FAIL_WITH(-1); \
        return real_##name(path, flags, mode); \
    }
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

#define OPENAT_WRAPPER(name) \
    int name(int dirfd, const char *path, int flags, ...) { \
        va_list arguments; \
        va_start(arguments, flags); \
        mode_t mode = mode_of(flags, arguments); \
        va_end(arguments); \
        REAL(name); \
        int error = 0; \
        if (decide_path(OP_OPENAT, dirfd, path, NULL, 0, &error) == ACT_ERRNO) FAIL_WITH(-1); \
        return real_##name(dirfd, path, flags, mode); \
    }
OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

/* What _FORTIFY_SOURCE builds call instead of open and openat. */
int __open_2(const char *, int);
int __open64_2(const char *, int);
int __openat_2(int, const char *, int);
int __openat64_2(int, const char *, int);

#define OPEN_2_WRAPPER(name) \
    int name(const char *path, int flags) { \
        REAL(name); \
        int error = 0; \
        if (decide_path(OP_OPEN, AT_FDCWD, path, NULL, 0, &error) == ACT_ERRNO) FAIL_WITH(-1); \
        return real_##name(path, flags); \
    }
OPEN_2_WRAPPER(__open_2)
OPEN_2_WRAPPER(__open64_2)

#define OPENAT_2_WRAPPER(name) \
    int name(int dirfd, const char *path, int flags) { \
        REAL(name); \
        int error = 0; \
        if (decide_path(OP_OPENAT, dirfd, path, NULL, 0, &error) == ACT_ERRNO) FAIL_WITH(-1); \
        return real_##name(dirfd, path, flags); \
    }
OPENAT_2_WRAPPER(__openat_2)
OPENAT_2_WRAPPER(__openat64_2)

int creat(const char *path, mode_t mode) { return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode); }
int creat64(const char *path, mode_t mode) { return open64(path, O_WRONLY | O_CREAT | O_TRUNC, mode); }

static size_t shortened(size_t count) { return count > 1 ? count / 2 : count; }

ssize_t read(int fd, void *buffer, size_t count) {
    REAL(read);
    int error = 0;
    switch (decide_fd(OP_READ, fd, &error)) {
    case ACT_ERRNO: FAIL_WITH(-1);
    case ACT_SHORT: return real_read(fd, buffer, shortened(count));
    default: return real_read(fd, buffer, count);
    }
}

#define PREAD_WRAPPER(name, offset_type) \
    ssize_t name(int fd, void *buffer, size_t count, offset_type offset) { \
        REAL(name); \
        int error = 0; \
        switch (decide_fd(OP_READ, fd, &error)) { \
        case ACT_ERRNO: FAIL_WITH(-1); \
        case ACT_SHORT: return real_##name(fd, buffer, shortened(count), offset); \
        default: return real_##name(fd, buffer, count, offset); \
        } \
    }
PREAD_WRAPPER(pread, off_t)
PREAD_WRAPPER(pread64, off64_t)

ssize_t write(int fd, const void *buffer, size_t count) {
    REAL(write);
    int error = 0;
    switch (decide_fd(OP_WRITE, fd, &error)) {
    case ACT_ERRNO: FAIL_WITH(-1);
    case ACT_SHORT: return real_write(fd, buffer, shortened(count));
    default: return real_write(fd, buffer, count);
    }
}

#define PWRITE_WRAPPER(name, offset_type) \
    ssize_t name(int fd, const void *buffer, size_t count, offset_type offset) { \
        REAL(name); \
        int error = 0; \
        switch (decide_fd(OP_PWRITE, fd, &error)) { \
        case ACT_ERRNO: FAIL_WITH(-1); \
        case ACT_SHORT: return real_##name(fd, buffer, shortened(count), offset); \
        default: return real_##name(fd, buffer, count, offset); \
        } \
    }
PWRITE_WRAPPER(pwrite, off_t)
PWRITE_WRAPPER(pwrite64, off64_t)

#define FD_WRAPPER(name, op) \
    int name(int fd) { \
        REAL(name); \
        int error = 0; \
        if (decide_fd(op, fd, &error) == ACT_ERRNO) FAIL_WITH(-1); \
        return real_##name(fd); \
    }
FD_WRAPPER(fsync, OP_FSYNC)
FD_WRAPPER(fdatasync, OP_FDATASYNC)

#define FTRUNCATE_WRAPPER(name, offset_type) \
    int name(int fd, offset_type length) { \
        REAL(name); \
        int error = 0; \
        if (decide_fd(OP_FTRUNCATE, fd, &error) == ACT_ERRNO) FAIL_WITH(-1); \
        return real_##name(fd, length); \
    }
FTRUNCATE_WRAPPER(ftruncate, off_t)
FTRUNCATE_WRAPPER(ftruncate64, off64_t)

#define TRUNCATE_WRAPPER(name, offset_type) \
    int name(const char *path, offset_type length) { \
        REAL(name); \
        int error = 0; \
        if (decide_path(OP_TRUNCATE, AT_FDCWD, path, NULL, 0, &error) == ACT_ERRNO) FAIL_WITH(-1); \
        return real_##name(path, length); \
    }
TRUNCATE_WRAPPER(truncate, off_t)
TRUNCATE_WRAPPER(truncate64, off64_t)

#define FALLOCATE_WRAPPER(name, offset_type) \
    int name(int fd, int mode, offset_type offset, offset_type length) { \
        REAL(name); \
        int error = 0; \
        if (decide_fd(OP_FALLOCATE, fd, &error) == ACT_ERRNO) FAIL_WITH(-1); \
        return real_##name(fd, mode, offset, length); \
    }
FALLOCATE_WRAPPER(fallocate, off_t)
FALLOCATE_WRAPPER(fallocate64, off64_t)

/* posix_fallocate returns the error instead of setting errno. */
#define POSIX_FALLOCATE_WRAPPER(name, offset_type) \
    int name(int fd, offset_type offset, offset_type length) { \
        REAL(name); \
        int error = 0; \
        if (decide_fd(OP_POSIX_FALLOCATE, fd, &error) == ACT_ERRNO) return error; \
        return real_##name(fd, offset, length); \
    }
POSIX_FALLOCATE_WRAPPER(posix_fallocate, off_t)
POSIX_FALLOCATE_WRAPPER(posix_fallocate64, off64_t)

int rename(const char *from, const char *to) {
    REAL(rename);
    int error = 0;
    if (decide_path(OP_RENAME, AT_FDCWD, from, to, AT_FDCWD, &error) == ACT_ERRNO) FAIL_WITH(-1);
    return real_rename(from, to);
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
    REAL(renameat);
    int error = 0;
    if (decide_path(OP_RENAMEAT, fromfd, from, to, tofd, &error) == ACT_ERRNO) FAIL_WITH(-1);
    return real_renameat(fromfd, from, tofd, to);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned int flags) {
    REAL(renameat2);
    int error = 0;
    if (decide_path(OP_RENAMEAT2, fromfd, from, to, tofd, &error) == ACT_ERRNO) FAIL_WITH(-1);
    return real_renameat2(fromfd, from, tofd, to, flags);
}

int link(const char *from, const char *to) {
    REAL(link);
    int error = 0;
    if (decide_path(OP_LINK, AT_FDCWD, from, to, AT_FDCWD, &error) == ACT_ERRNO) FAIL_WITH(-1);
    return real_link(from, to);
}

int linkat(int fromfd, const char *from, int tofd, const char *to, int flags) {
    REAL(linkat);
    int error = 0;
    if (decide_path(OP_LINKAT, fromfd, from, to, tofd, &error) == ACT_ERRNO) FAIL_WITH(-1);
    return real_linkat(fromfd, from, tofd, to, flags);
}

int unlink(const char *path) {
    REAL(unlink);
    int error = 0;
    if (decide_path(OP_UNLINK, AT_FDCWD, path, NULL, 0, &error) == ACT_ERRNO) FAIL_WITH(-1);
    return real_unlink(path);
}

int unlinkat(int dirfd, const char *path, int flags) {
    REAL(unlinkat);
    int error = 0;
    if (decide_path(OP_UNLINKAT, dirfd, path, NULL, 0, &error) == ACT_ERRNO) FAIL_WITH(-1);
    return real_unlinkat(dirfd, path, flags);
}

/* The wall clock, shifted by SLATE_FAULTS_CLOCK_OFFSET. */
static void shift(struct timespec *time) {
    long long ns = (long long)time->tv_sec * 1000000000LL + time->tv_nsec + clock_offset_ns;
    time->tv_sec = (time_t)(ns / 1000000000LL);
    time->tv_nsec = (long)(ns % 1000000000LL);
    if (time->tv_nsec < 0) {
        time->tv_sec -= 1;
        time->tv_nsec += 1000000000L;
    }
    if (trace_fd >= 0) {
        char reading[64];
        snprintf(reading, sizeof reading, "%lld.%09ld", (long long)time->tv_sec, time->tv_nsec);
        trace_line("clock", 0, reading, "");
    }
}

int clock_gettime(clockid_t clock, struct timespec *time) {
    REAL(clock_gettime);
    pthread_once(&once, set_up);
    int status = real_clock_gettime(clock, time);
    if (status == 0 && clock_shifted && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) shift(time);
    return status;
}

int gettimeofday(struct timeval *restrict value, void *restrict zone) {
    REAL(gettimeofday);
    pthread_once(&once, set_up);
    int status = real_gettimeofday(value, zone);
    if (status == 0 && clock_shifted) {
        struct timespec time = {value->tv_sec, value->tv_usec * 1000L};
        shift(&time);
        value->tv_sec = time.tv_sec;
        value->tv_usec = time.tv_nsec / 1000;
    }
    return status;
}

time_t time(time_t *result) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (result) *result = now.tv_sec;
    return now.tv_sec;
}

/* Device requests (EVIOCGRAB, EVIOCGKEY, ...): the third argument is one pointer
   or integer wide. */
int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    REAL(ioctl);
    int error = 0;
    if (decide_fd(OP_IOCTL, fd, &error) == ACT_ERRNO) FAIL_WITH(-1);
    return real_ioctl(fd, request, argument);
}

/* The event loop's wait: a failure here ends `slate run`'s loop. */
DIR *opendir(const char *path) {
    REAL(opendir);
    int error = 0;
    if (decide_path(OP_OPENDIR, AT_FDCWD, path, NULL, 0, &error) == ACT_ERRNO) FAIL_WITH(NULL);
    return real_opendir(path);
}

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    REAL(epoll_wait);
    int error = 0;
    if (decide_fd(OP_EPOLL_WAIT, epfd, &error) == ACT_ERRNO) FAIL_WITH(-1);
    return real_epoll_wait(epfd, events, maxevents, timeout);
}
