/*
 * heddle's IO readiness registry over Linux's epoll, in C
 * (Heddle::EventLoop::Selectors::EpollWatch,
 * lib/heddle/heddle/loop/selectors/epoll_watch.rb; docs/scheduler.md, "What
 * each choice bought"). It keeps NIOWatch's behaviour (registrations kept
 * across waits, readiness tokens left by sweeps, idle directions disarmed,
 * closed IOs found by a scan) and does the per-wait and per-event work here,
 * where nio4r's selector and heddle's Ruby registry made a dozen Ruby calls.
 *
 * Interrupts: Ruby checks them only as a Ruby method returns, so the
 * bookkeeping, which calls no Ruby, is never cut in the middle. The wake-ups
 * are Ruby calls: they run last, from a list, and a waiter a raise leaves
 * unwoken is still registered (its IO is reported again at the next poll)
 * or still queued (closed IOs' waiters).
 *
 * Stale events: the kernel keeps a closed descriptor's registration while
 * another descriptor (a forked child's copy) holds its file open, and
 * reports it under the old number. Each registration's event data carries a
 * generation; an event whose generation is not the registration's makes the
 * watch drop its epoll set and register every IO again on a new one.
 */
#include <ruby.h>
#include <ruby/io.h>
#include <ruby/thread.h>

#ifdef HAVE_SYS_EPOLL_H
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#define READ 1
#define WRITE 2
#define EVENTS 256
#define WAKE_DATA UINT64_MAX

/* Sleeps an idle registration lives (IOWatch::IDLE_SLEEPS) and the sweeps
 * that count as a sleep (IOWatch::SWEEPS_PER_SLEEP): read from Ruby at install. */
static long idle_sleeps = 4, sweeps_per_sleep = 1024;
/* As NIOWatch's: see lib/heddle/heddle/loop/selectors/nio_watch.rb. */
static long disarm_sweeps_min = 64, scan_always = 256;
static double scan_interval = 0.05;
static ID id_io_ready, id_call, id_on_open;

typedef struct {
    VALUE io;        /* the IO last awaited on this descriptor */
    VALUE readers;   /* Array of waiters, or nil */
    VALUE writers;
    long used;       /* the sleep count of its last use */
    long read_token, write_token;  /* the sweep that left a token, or -1 */
    long read_since, write_since;  /* the first sweep of a run of untaken tokens */
    uint32_t gen;
    int fd;
    unsigned char armed;     /* READ|WRITE: the directions the kernel watches */
    unsigned char in_kernel; /* added to the epoll set */
    unsigned char always;    /* epoll refuses it (a regular file): always ready */
} reg_t;

typedef struct {
    int epfd;        /* -1 until the first registration */
    int wake_fd;     /* the wake-up pipe's descriptor in the set, or -1 */
    reg_t **regs;    /* by descriptor */
    int capa;
    long count;      /* registrations */
    long waiting;    /* waiters, in registrations and in +dead+ */
    long always;     /* registrations epoll refused */
    long sweeps, sleeps, countdown;
    double next_scan;
    uint32_t gen;
    int renew;       /* a stale event was seen: a new epoll set is due */
    VALUE wake_io;
    VALUE dead;      /* [io, waiter, ...]: waiters of closed IOs, woken at the next poll */
    struct epoll_event events[EVENTS];
} watch_t;

static void
watch_mark(void *ptr)
{
    watch_t *w = ptr;
    for (int fd = 0; fd < w->capa; fd++) {
        reg_t *reg = w->regs[fd];
        if (!reg) continue;
        rb_gc_mark(reg->io);
        rb_gc_mark(reg->readers);
        rb_gc_mark(reg->writers);
    }
    rb_gc_mark(w->wake_io);
    rb_gc_mark(w->dead);
}

static void
forget_all(watch_t *w)
{
    for (int fd = 0; fd < w->capa; fd++) {
        xfree(w->regs[fd]);
        w->regs[fd] = NULL;
    }
    w->count = w->waiting = w->always = 0;
    /* No epoll_ctl: a forked child shares the set's registrations with its parent. */
    if (w->epfd >= 0) close(w->epfd);
    w->epfd = w->wake_fd = -1;
    w->wake_io = Qnil;
    w->renew = 0;
}

static void
watch_free(void *ptr)
{
    watch_t *w = ptr;
    forget_all(w);
    xfree(w->regs);
    xfree(w);
}

static size_t
watch_memsize(const void *ptr)
{
    const watch_t *w = ptr;
    return sizeof(watch_t) + sizeof(reg_t *) * (size_t)w->capa + sizeof(reg_t) * (size_t)w->count;
}

static const rb_data_type_t watch_type = {
    .wrap_struct_name = "Heddle::EventLoop::Selectors::EpollWatch",
    .function = {.dmark = watch_mark, .dfree = watch_free, .dsize = watch_memsize},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY
};

static VALUE
watch_alloc(VALUE klass)
{
    watch_t *w;
    VALUE self = TypedData_Make_Struct(klass, watch_t, &watch_type, w);
    w->epfd = w->wake_fd = -1;
    w->wake_io = Qnil;
    w->dead = Qnil;
    w->countdown = sweeps_per_sleep;
    return self;
}

static watch_t *
watch_of(VALUE self)
{
    return rb_check_typeddata(self, &watch_type);
}

/* The descriptor of +io+, or -1 when it is closed (3.1: or released, with no
 * rb_io_t left). */
static int
fd_of(VALUE io)
{
    if (!RB_TYPE_P(io, T_FILE)) return -2;
    rb_io_t *fptr = RFILE(io)->fptr;
    if (!fptr) return -1;
#ifdef HAVE_RB_IO_CLOSED_P
    if (RTEST(rb_io_closed_p(io))) return -1;
    return rb_io_descriptor(io);
#else
    return fptr->fd;
#endif
}

static uint64_t
data_of(const reg_t *reg)
{
    return ((uint64_t)reg->gen << 32) | (uint32_t)reg->fd;
}

/* Opens the epoll set on first use and tells the loop (on_open). */
static void
ensure_epoll(VALUE self, watch_t *w)
{
    if (w->epfd >= 0) return;
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) rb_sys_fail("epoll_create1");
    w->epfd = epfd;
    VALUE callback = rb_ivar_get(self, id_on_open);
    if (!NIL_P(callback)) rb_funcall(callback, id_call, 0);
}

static uint32_t
interests(unsigned char armed)
{
    return ((armed & READ) ? EPOLLIN : 0) | ((armed & WRITE) ? EPOLLOUT : 0);
}

/* Sets the kernel's interests of +reg+ to +armed+; false when epoll refuses
 * the descriptor. */
static int
kernel_arm(watch_t *w, reg_t *reg, unsigned char armed)
{
    struct epoll_event event = {.events = interests(armed), .data.u64 = data_of(reg)};
    int op = reg->in_kernel ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    int result = epoll_ctl(w->epfd, op, reg->fd, &event);
    if (result < 0 && errno == EEXIST) result = epoll_ctl(w->epfd, op = EPOLL_CTL_MOD, reg->fd, &event);
    else if (result < 0 && errno == ENOENT) result = epoll_ctl(w->epfd, op = EPOLL_CTL_ADD, reg->fd, &event);
    if (result < 0) return 0;
    reg->in_kernel = 1;
    reg->armed = armed;
    return 1;
}

static void
kernel_forget(watch_t *w, reg_t *reg)
{
    if (reg->in_kernel && w->epfd >= 0) epoll_ctl(w->epfd, EPOLL_CTL_DEL, reg->fd, NULL);
}

static long
waiters_in(VALUE list)
{
    return NIL_P(list) ? 0 : RARRAY_LEN(list);
}

/* Moves the waiters of +list+ to +dead+ (woken at the end of this poll or at
 * the next one) with no Ruby call. */
static void
bury(watch_t *w, VALUE io, VALUE list)
{
    if (NIL_P(list)) return;
    if (NIL_P(w->dead)) w->dead = rb_ary_new();
    for (long i = 0; i < RARRAY_LEN(list); i++) {
        rb_ary_push(w->dead, io);
        rb_ary_push(w->dead, RARRAY_AREF(list, i));
    }
}

/* Drops an idle registration of an open IO (and, through #drop, a closed one's). */
static void
release_idle(watch_t *w, reg_t *reg)
{
    kernel_forget(w, reg);
    if (reg->always) w->always--;
    w->regs[reg->fd] = NULL;
    w->count--;
    xfree(reg);
}

/* Drops +reg+, whose IO was closed: its waiters go to +dead+. */
static void
drop(watch_t *w, reg_t *reg)
{
    bury(w, reg->io, reg->readers);
    bury(w, reg->io, reg->writers);
    release_idle(w, reg);
}

static void
ensure_capa(watch_t *w, int fd)
{
    if (fd < w->capa) return;
    int capa = w->capa ? w->capa : 64;
    while (capa <= fd) capa *= 2;
    REALLOC_N(w->regs, reg_t *, capa);
    for (int i = w->capa; i < capa; i++) w->regs[i] = NULL;
    w->capa = capa;
}

/* Wakes every waiter of +list+: Ruby calls, so they come last. */
static void
wake(VALUE list)
{
    if (NIL_P(list)) return;
    for (long i = 0; i < RARRAY_LEN(list); i++) rb_funcall(RARRAY_AREF(list, i), id_io_ready, 0);
    RB_GC_GUARD(list);
}

/* The waiters of the always-ready registrations (epoll refused them).
 * @return [Array, nil] */
static VALUE
always_ready(watch_t *w)
{
    VALUE list = Qnil;
    for (int fd = 0; w->always > 0 && fd < w->capa; fd++) {
        reg_t *reg = w->regs[fd];
        if (!reg || !reg->always) continue;
        for (int dir = 0; dir < 2; dir++) {
            VALUE waiters = dir ? reg->writers : reg->readers;
            for (long i = 0; i < waiters_in(waiters); i++) {
                if (NIL_P(list)) list = rb_ary_new();
                rb_ary_push(list, RARRAY_AREF(waiters, i));
            }
        }
    }
    return list;
}

/* Wakes the closed IOs' waiters one by one, each out of +dead+ before its
 * call: a raise in one leaves the others queued for the next poll. */
static void
wake_dead(watch_t *w)
{
    while (!NIL_P(w->dead) && RARRAY_LEN(w->dead) >= 2) {
        rb_ary_shift(w->dead);
        VALUE waiter = rb_ary_shift(w->dead);
        w->waiting--;
        rb_funcall(waiter, id_io_ready, 0);
    }
}

static int
gone(VALUE io)
{
    return fd_of(io) == -1;
}

/* The waiters of closed IOs go to +dead+, idle registrations go.
 * @return whether a waiter is to be woken */
static int
scan(watch_t *w, int age)
{
    if (age) w->sleeps++;
    w->countdown = sweeps_per_sleep;
    long idle_before = w->sleeps - idle_sleeps;
    int woke = 0;
    for (int fd = 0; fd < w->capa; fd++) {
        reg_t *reg = w->regs[fd];
        if (!reg) continue;
        int waited = waiters_in(reg->readers) + waiters_in(reg->writers) > 0;
        if (gone(reg->io)) {
            woke |= waited;
            drop(w, reg);
        } else if (!waited && reg->used < idle_before) {
            release_idle(w, reg);
        }
    }
    return woke;
}

static reg_t *
reg_at(watch_t *w, int fd)
{
    return fd >= 0 && fd < w->capa ? w->regs[fd] : NULL;
}

/* The registration of +io+ whatever its state: by descriptor while open,
 * else by a look through all (a closed IO's last waiters leave). */
static reg_t *
reg_of(watch_t *w, VALUE io, int fd)
{
    if (fd >= 0) return reg_at(w, fd);
    for (int i = 0; i < w->capa; i++) {
        if (w->regs[i] && w->regs[i]->io == io) return w->regs[i];
    }
    return NULL;
}

static VALUE
io_arg(VALUE io)
{
    return RB_TYPE_P(io, T_FILE) ? io : rb_io_get_io(io);
}

/* A new registration of +io+ on +fd+; a closed IO's that held the number
 * goes first (its waiters to +dead+). */
static reg_t *
registration(watch_t *w, VALUE io, int fd)
{
    ensure_capa(w, fd);
    reg_t *reg = w->regs[fd];
    if (reg && reg->io != io) {
        if (!gone(reg->io)) {
            reg->io = io; /* another IO object for the same open descriptor */
            return reg;
        }
        drop(w, reg);
        reg = NULL;
    }
    if (reg) return reg;
    reg = ZALLOC(reg_t);
    reg->io = io;
    reg->readers = reg->writers = Qnil;
    reg->read_token = reg->write_token = -1;
    reg->used = w->sleeps;
    reg->fd = fd;
    reg->gen = ++w->gen;
    w->regs[fd] = reg;
    w->count++;
    return reg;
}

static VALUE
add(VALUE self, VALUE io, VALUE waiter, unsigned char bit)
{
    watch_t *w = watch_of(self);
    io = io_arg(io);
    int fd = fd_of(io);
    if (fd < 0) { /* closed: woken at the next poll, and its read or write raises then */
        if (NIL_P(w->dead)) w->dead = rb_ary_new();
        rb_ary_push(w->dead, io);
        rb_ary_push(w->dead, waiter);
        w->waiting++;
        return Qnil;
    }
    ensure_epoll(self, w);
    reg_t *reg = registration(w, io, fd);
    VALUE *list = bit == READ ? &reg->readers : &reg->writers;
    if (NIL_P(*list)) *list = rb_ary_new_capa(1);
    if (!(reg->armed & bit) && !reg->always && !kernel_arm(w, reg, reg->armed | bit)) {
        reg->always = 1; /* epoll refuses it (a regular file): ready at every poll */
        w->always++;
    }
    rb_ary_push(*list, waiter);
    w->waiting++;
    reg->used = w->sleeps;
    return Qnil;
}

/* Deletes +waiter+ (by identity) from +list+. */
static int
delete_waiter(VALUE list, VALUE waiter, long step, long at)
{
    if (NIL_P(list)) return 0;
    for (long i = at; i < RARRAY_LEN(list); i += step) {
        if (RARRAY_AREF(list, i) != waiter) continue;
        rb_ary_delete_at(list, i);
        if (step == 2) rb_ary_delete_at(list, i - 1);
        return 1;
    }
    return 0;
}

static VALUE
remove_waiter(VALUE self, VALUE io, VALUE waiter, unsigned char bit)
{
    watch_t *w = watch_of(self);
    io = io_arg(io);
    if (delete_waiter(w->dead, waiter, 2, 1)) {
        w->waiting--;
        return Qnil;
    }
    reg_t *reg = reg_of(w, io, fd_of(io));
    if (!reg) return Qnil;
    if (delete_waiter(bit == READ ? reg->readers : reg->writers, waiter, 1, 0)) w->waiting--;
    reg->used = w->sleeps;
    return Qnil;
}

static VALUE
watch_add_reader(VALUE self, VALUE io, VALUE waiter) { return add(self, io, waiter, READ); }
static VALUE
watch_add_writer(VALUE self, VALUE io, VALUE waiter) { return add(self, io, waiter, WRITE); }
static VALUE
watch_remove_reader(VALUE self, VALUE io, VALUE waiter) { return remove_waiter(self, io, waiter, READ); }
static VALUE
watch_remove_writer(VALUE self, VALUE io, VALUE waiter) { return remove_waiter(self, io, waiter, WRITE); }

static VALUE
take(VALUE self, VALUE io, unsigned char bit)
{
    watch_t *w = watch_of(self);
    reg_t *reg = reg_at(w, fd_of(io_arg(io)));
    if (!reg) return Qfalse;
    long *token = bit == READ ? &reg->read_token : &reg->write_token;
    if (*token != w->sweeps) return Qfalse;
    *token = -1;
    reg->used = w->sleeps;
    return Qtrue;
}

static VALUE
watch_take_readable(VALUE self, VALUE io) { return take(self, io, READ); }
static VALUE
watch_take_writable(VALUE self, VALUE io) { return take(self, io, WRITE); }

static void
disarm(watch_t *w, reg_t *reg, unsigned char bit)
{
    unsigned char armed = reg->armed & ~bit;
    if (!kernel_arm(w, reg, armed)) reg->armed = armed;
}

/* Ready in +bit+ with nobody waiting, found by a sweep: leave a token, or
 * disarm when the tokens of the last disarm_sweeps sweeps went untaken. */
static void
unwaited(watch_t *w, reg_t *reg, unsigned char bit)
{
    long *token = bit == READ ? &reg->read_token : &reg->write_token;
    long *since = bit == READ ? &reg->read_since : &reg->write_since;
    long limit = w->count * 2 > disarm_sweeps_min ? w->count * 2 : disarm_sweeps_min;
    if (*token != w->sweeps - 1) {
        *since = w->sweeps;
    } else if (w->sweeps - *since >= limit) {
        disarm(w, reg, bit);
        return;
    }
    *token = w->sweeps;
}

static VALUE
ready(watch_t *w, reg_t *reg, unsigned char bit, int sweeping, VALUE list)
{
    VALUE waiters = bit == READ ? reg->readers : reg->writers;
    long n = waiters_in(waiters);
    if (n == 0) {
        if (sweeping) unwaited(w, reg, bit);
        else disarm(w, reg, bit); /* a blocking wait must not find it again and spin */
        return list;
    }
    if (NIL_P(list)) list = rb_ary_new_capa(n);
    for (long i = 0; i < n; i++) rb_ary_push(list, RARRAY_AREF(waiters, i));
    return list;
}

/* Registers every IO again on a new epoll set: a stale event came. */
static void
renew(watch_t *w)
{
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) return; /* the old set goes on; the next stale event tries again */
    close(w->epfd);
    w->epfd = epfd;
    w->renew = 0;
    w->wake_fd = -1;
    w->wake_io = Qnil;
    for (int fd = 0; fd < w->capa; fd++) {
        reg_t *reg = w->regs[fd];
        if (!reg) continue;
        unsigned char armed = reg->armed;
        reg->in_kernel = 0;
        reg->armed = 0;
        reg->gen = ++w->gen;
        if (armed && !kernel_arm(w, reg, armed) && !reg->always) {
            reg->always = 1;
            w->always++;
        }
    }
}

/* Handles +n+ events: the waiters to wake go to a list woken after.
 * @return whether the wake-up pipe was among them */
static int
handle(watch_t *w, int n, int sweeping, VALUE *list)
{
    int woke = 0;
    for (int i = 0; i < n; i++) {
        uint64_t data = w->events[i].data.u64;
        if (data == WAKE_DATA) {
            woke = 1;
            continue;
        }
        reg_t *reg = reg_at(w, (int)(uint32_t)data);
        if (!reg || reg->gen != (uint32_t)(data >> 32)) {
            w->renew = 1;
            continue;
        }
        if (gone(reg->io)) {
            drop(w, reg);
            continue;
        }
        uint32_t events = w->events[i].events;
        int failed = (events & (EPOLLHUP | EPOLLERR)) != 0;
        if ((reg->armed & READ) && (failed || (events & (EPOLLIN | EPOLLPRI | EPOLLRDHUP))))
            *list = ready(w, reg, READ, sweeping, *list);
        if ((reg->armed & WRITE) && (failed || (events & EPOLLOUT)))
            *list = ready(w, reg, WRITE, sweeping, *list);
    }
    if (w->renew) renew(w);
    return woke;
}

/* Wakes the waiters found, then the always-ready ones', then the closed
 * IOs'. A raise in one wake leaves the others of +list+ unwoken, but still
 * registered on an IO the next poll reports again. */
static void
wake_all(watch_t *w, VALUE list)
{
    VALUE always = always_ready(w);
    wake(list);
    wake(always);
    wake_dead(w);
}

/* Asks the kernel which armed IOs are ready, without blocking: wakes their
 * waiters, leaves tokens for the others. */
static VALUE
watch_sweep(VALUE self)
{
    watch_t *w = watch_of(self);
    VALUE list = Qnil;
    w->sweeps++;
    if (--w->countdown <= 0) scan(w, 1);
    if (w->epfd >= 0) {
        int n = epoll_wait(w->epfd, w->events, EVENTS, 0);
        if (n > 0) handle(w, n, 1, &list);
    }
    wake_all(w, list);
    return Qnil;
}

struct sleep_args {
    int epfd, wake_fd, n, error;
    struct epoll_event *events;
    double timeout; /* seconds; < 0: until something is ready */
};

static struct timespec
timespec_of(double seconds)
{
    struct timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    return ts;
}

static void *
epoll_sleep(void *ptr)
{
    struct sleep_args *args = ptr;
#ifdef HAVE_EPOLL_PWAIT2
    struct timespec ts = timespec_of(args->timeout);
    args->n = epoll_pwait2(args->epfd, args->events, EVENTS, args->timeout < 0 ? NULL : &ts, NULL);
#else
    /* Whole milliseconds, rounded up: a sleep cut to 0 would spin until the timer is due. */
    int ms = args->timeout < 0 ? -1 : (int)(args->timeout * 1000.0 + 0.999);
    args->n = epoll_wait(args->epfd, args->events, EVENTS, ms);
#endif
    args->error = errno;
    return NULL;
}

static void *
pipe_sleep(void *ptr)
{
    struct sleep_args *args = ptr;
    struct pollfd pfd = {.fd = args->wake_fd, .events = POLLIN};
    struct timespec ts = timespec_of(args->timeout);
    args->n = ppoll(&pfd, 1, args->timeout < 0 ? NULL : &ts, NULL);
    args->error = errno;
    return NULL;
}

/* How long a blocking wait may sleep: cut to scan_interval while anyone
 * waits on an IO (the kernel says nothing when another thread closes it). */
static double
sleep_limit(watch_t *w, double timeout)
{
    if (w->waiting == 0 || (timeout >= 0 && timeout < scan_interval)) return timeout;
    return scan_interval;
}

static double
monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
scan_due(watch_t *w)
{
    if (w->count <= scan_always) return 1;
    double now = monotonic();
    if (now < w->next_scan) return 0;
    w->next_scan = now + scan_interval;
    return 1;
}

static void
watch_wake_io(watch_t *w, VALUE wake_io)
{
    if (wake_io == w->wake_io) return;
    int fd = fd_of(io_arg(wake_io));
    if (fd < 0) rb_raise(rb_eIOError, "closed stream");
    struct epoll_event event = {.events = EPOLLIN, .data.u64 = WAKE_DATA};
    if (w->wake_fd >= 0) epoll_ctl(w->epfd, EPOLL_CTL_DEL, w->wake_fd, NULL);
    if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &event) < 0 && errno != EEXIST) rb_sys_fail("epoll_ctl");
    w->wake_fd = fd;
    w->wake_io = wake_io;
}

static VALUE
sleep_without_gvl(void *(*func)(void *), struct sleep_args *args)
{
    rb_thread_call_without_gvl(func, args, RUBY_UBF_IO, NULL);
    if (args->n < 0 && args->error != EINTR) {
        errno = args->error;
        rb_sys_fail("epoll_wait");
    }
    return Qnil;
}

/* Blocks up to +timeout+ seconds (nil: until something is ready) until an
 * IO somebody waits on, or +wake_io+, is ready; wakes those IOs' waiters.
 * @return whether +wake_io+ was readable */
static VALUE
watch_wait(VALUE self, VALUE timeout, VALUE wake_io)
{
    watch_t *w = watch_of(self);
    struct sleep_args args = {.epfd = w->epfd, .events = w->events, .n = 0};
    args.timeout = -1.0; /* nil, or no end: until something is ready */
    if (!NIL_P(timeout)) {
        double seconds = NUM2DBL(timeout);
        if (!(isinf(seconds) && seconds > 0)) args.timeout = seconds > 0 ? seconds : 0; /* NaN, negative: no sleep */
    }
    w->sleeps++;
    VALUE list = always_ready(w);
    if (!NIL_P(list) || (!NIL_P(w->dead) && RARRAY_LEN(w->dead) > 0)) {
        wake_all(w, Qnil); /* there is work: no sleep */
        return Qfalse;
    }
    if (w->count == 0) { /* only the wake-up pipe: no epoll set for loops that only sleep */
        args.wake_fd = fd_of(io_arg(wake_io));
        if (args.wake_fd < 0) rb_raise(rb_eIOError, "closed stream");
        sleep_without_gvl(pipe_sleep, &args);
        return args.n > 0 ? Qtrue : Qfalse;
    }
    if (scan_due(w) && scan(w, 0)) {
        wake_all(w, list); /* a waiter of a closed IO woke: there is work */
        return Qfalse;
    }
    ensure_epoll(self, w);
    watch_wake_io(w, wake_io);
    args.epfd = w->epfd;
    args.timeout = sleep_limit(w, args.timeout);
    sleep_without_gvl(epoll_sleep, &args);
    int woke = args.n > 0 ? handle(w, args.n, 0, &list) : 0;
    wake_all(w, list);
    return woke ? Qtrue : Qfalse;
}

static VALUE
watch_waiting(VALUE self) { return LONG2NUM(watch_of(self)->waiting); }
static VALUE
watch_empty_p(VALUE self) { return watch_of(self)->waiting == 0 ? Qtrue : Qfalse; }
static VALUE
watch_waiting_p(VALUE self) { return watch_of(self)->waiting > 0 ? Qtrue : Qfalse; }
static VALUE
watch_watching_p(VALUE self) { return watch_of(self)->count > 0 ? Qtrue : Qfalse; }

static VALUE
watch_waiters(VALUE self)
{
    watch_t *w = watch_of(self);
    VALUE all = rb_ary_new();
    for (int fd = 0; fd < w->capa; fd++) {
        reg_t *reg = w->regs[fd];
        if (!reg) continue;
        if (!NIL_P(reg->readers)) rb_ary_concat(all, reg->readers);
        if (!NIL_P(reg->writers)) rb_ary_concat(all, reg->writers);
    }
    for (long i = 1; !NIL_P(w->dead) && i < RARRAY_LEN(w->dead); i += 2) rb_ary_push(all, RARRAY_AREF(w->dead, i));
    return all;
}

static VALUE
watch_clear(VALUE self)
{
    watch_t *w = watch_of(self);
    forget_all(w);
    w->dead = Qnil;
    return Qnil;
}

static VALUE
watch_scan(VALUE self, VALUE age)
{
    watch_t *w = watch_of(self);
    int woke = scan(w, RTEST(age));
    wake_all(w, Qnil);
    return woke ? Qtrue : Qfalse;
}

static VALUE
watch_descriptor(VALUE self)
{
    watch_t *w = watch_of(self);
    return w->epfd >= 0 ? INT2NUM(w->epfd) : Qnil;
}

static long
const_long(VALUE klass, const char *name)
{
    return NUM2LONG(rb_const_get(klass, rb_intern(name)));
}

/* Defines the registry's methods on +klass+ (EpollWatch, a Ruby subclass of
 * IOWatch) and reads its constants. */
static VALUE
native_install(VALUE module, VALUE klass)
{
    idle_sleeps = const_long(klass, "IDLE_SLEEPS");
    sweeps_per_sleep = const_long(klass, "SWEEPS_PER_SLEEP");
    disarm_sweeps_min = const_long(klass, "DISARM_SWEEPS");
    scan_always = const_long(klass, "SCAN_ALWAYS");
    scan_interval = NUM2DBL(rb_const_get(klass, rb_intern("SCAN_INTERVAL")));
    rb_define_alloc_func(klass, watch_alloc);
    rb_define_method(klass, "add_reader", watch_add_reader, 2);
    rb_define_method(klass, "add_writer", watch_add_writer, 2);
    rb_define_method(klass, "remove_reader", watch_remove_reader, 2);
    rb_define_method(klass, "remove_writer", watch_remove_writer, 2);
    rb_define_method(klass, "take_readable", watch_take_readable, 1);
    rb_define_method(klass, "take_writable", watch_take_writable, 1);
    rb_define_method(klass, "sweep", watch_sweep, 0);
    rb_define_method(klass, "wait", watch_wait, 2);
    rb_define_method(klass, "waiting", watch_waiting, 0);
    rb_define_method(klass, "empty?", watch_empty_p, 0);
    rb_define_method(klass, "waiting?", watch_waiting_p, 0);
    rb_define_method(klass, "watching?", watch_watching_p, 0);
    rb_define_method(klass, "waiters", watch_waiters, 0);
    rb_define_method(klass, "clear", watch_clear, 0);
    rb_define_method(klass, "descriptor", watch_descriptor, 0);
    rb_define_private_method(klass, "scan", watch_scan, 1);
    return klass;
}

void
Init_heddle_epoll_watch(void)
{
    id_io_ready = rb_intern("__io_ready__");
    id_call = rb_intern("call");
    id_on_open = rb_intern("@on_open");
    VALUE heddle = rb_define_module("Heddle");
    VALUE native = rb_define_module_under(heddle, "NativeEpoll");
    rb_define_singleton_method(native, "install", native_install, 1);
}
#else
void
Init_heddle_epoll_watch(void)
{
}
#endif
