/*
 * heddle's optional C hot path for the scheduler's io_read and io_write
 * (lib/heddle/heddle/scheduler/native_io.rb, docs/scheduler.md "What each
 * choice bought"): one read or write between a pipe or socket and an
 * IO::Buffer, called straight from the hook. In Ruby that system call has to
 * run in a blocking fiber (a non-blocking fiber's IO::Buffer#read calls the
 * hook again) and goes through Ruby's blocking region; here it is a plain
 * call, the GVL kept, as io-event (async) does.
 *
 * Keeping the GVL is only safe for a call that cannot wait, and a
 * descriptor's mode can change behind heddle's back (a library's
 * `io.nonblock = false`): a read(2) that then waits would stop every thread
 * of the process. So the call itself never waits, whatever the mode:
 * preadv2/pwritev2 with RWF_NOWAIT (Linux), which pipes and sockets answer
 * with EAGAIN as a non-blocking descriptor would, or recv/send with
 * MSG_DONTWAIT where there is no RWF_NOWAIT (sockets only). Where neither
 * applies the functions return nil and the caller takes Ruby's path.
 */
#include <ruby.h>
#include <ruby/io.h>
#include <ruby/io/buffer.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#if defined(HAVE_PREADV2) && defined(HAVE_PWRITEV2) && defined(HAVE_CONST_RWF_NOWAIT)
#define HEDDLE_RWF_NOWAIT 1
#endif

static int
descriptor_of(VALUE io)
{
#ifdef HAVE_RB_IO_DESCRIPTOR
    return rb_io_descriptor(io);
#else
    rb_io_t *fptr;
    GetOpenFile(io, fptr);
    rb_io_check_closed(fptr);
    return fptr->fd;
#endif
}

/* The IO's path: nil for IO.pipe's pipes and for sockets; a path once the IO
 * is reopened onto a file (IO#reopen keeps the descriptor's number). */
static VALUE
path_of(VALUE io)
{
#ifdef HAVE_RB_IO_PATH
    return rb_io_path(io);
#else
    rb_io_t *fptr;
    GetOpenFile(io, fptr);
    return fptr->pathv;
#endif
}

/* Whether a read or write of this descriptor can be made never to wait here. */
static int
takes_nowait(int descriptor)
{
    struct stat status;
    if (fstat(descriptor, &status) != 0) return 0;
#ifdef HEDDLE_RWF_NOWAIT
    return S_ISFIFO(status.st_mode) || S_ISSOCK(status.st_mode);
#else
    return S_ISSOCK(status.st_mode);
#endif
}

static size_t
checked_offset(VALUE offset, size_t size)
{
    size_t at = NUM2SIZET(offset);
    if (at > size) {
        rb_raise(rb_eArgError, "offset %" PRIuSIZE " is past the buffer's %" PRIuSIZE " bytes", at, size);
    }
    return at;
}

/* The call's result for the hook, or nil when this descriptor (or this
 * kernel) does not take a call that cannot wait: Ruby's path does it. */
static VALUE
result_of(ssize_t count)
{
    if (count >= 0) return SSIZET2NUM(count);
    switch (errno) {
      case EOPNOTSUPP:
#if defined(ENOTSUP) && ENOTSUP != EOPNOTSUPP
      case ENOTSUP:
#endif
      case ENOSYS:
      case EINVAL:
      case ESPIPE:
      case ENOTSOCK:
        return Qnil;
      default:
        return INT2NUM(-errno);
    }
}

/* A pipe or socket {stream?} found may have been reopened onto a file since
 * (its path tells, without a system call for IO.pipe's pipes and sockets):
 * RWF_NOWAIT on a file means "not in the page cache", not "no data yet". */
static int
still_a_stream(VALUE io, int descriptor)
{
    return NIL_P(path_of(io)) || takes_nowait(descriptor);
}

/*
 * NativeIO.stream?(io): whether io's descriptor is one the C path reads and
 * writes (a pipe or a socket). One fstat(2); the caller asks once per IO.
 */
static VALUE
native_stream_p(VALUE self, VALUE io)
{
    return takes_nowait(descriptor_of(io)) ? Qtrue : Qfalse;
}

/*
 * NativeIO.read(io, buffer, offset): one read of io's descriptor into buffer
 * from offset to its end, which never waits. Returns the bytes read (0: end
 * of file), -errno (-EAGAIN when nothing is there yet), or nil when the
 * descriptor takes no such read (the caller reads in Ruby).
 */
static VALUE
native_read(VALUE self, VALUE io, VALUE buffer, VALUE offset)
{
    int descriptor = descriptor_of(io);
    void *base;
    size_t size;
#ifdef HAVE_RB_IO_BUFFER_GET_BYTES_FOR_WRITING
    rb_io_buffer_get_bytes_for_writing(buffer, &base, &size);
#else
    rb_io_buffer_get_mutable(buffer, &base, &size);
#endif
    size_t at = checked_offset(offset, size);
    if (!still_a_stream(io, descriptor)) return Qnil;
#ifdef HEDDLE_RWF_NOWAIT
    struct iovec part = { (char *)base + at, size - at };
    return result_of(preadv2(descriptor, &part, 1, -1, RWF_NOWAIT));
#else
    return result_of(recv(descriptor, (char *)base + at, size - at, MSG_DONTWAIT));
#endif
}

/*
 * NativeIO.write(io, buffer, offset): one write to io's descriptor of buffer
 * from offset to its end, which never waits. Returns the bytes written,
 * -errno, or nil when the descriptor takes no such write.
 */
static VALUE
native_write(VALUE self, VALUE io, VALUE buffer, VALUE offset)
{
    int descriptor = descriptor_of(io);
    const void *base;
    size_t size;
#ifdef HAVE_RB_IO_BUFFER_GET_BYTES_FOR_WRITING
    rb_io_buffer_get_bytes_for_reading(buffer, &base, &size);
#else
    rb_io_buffer_get_immutable(buffer, &base, &size);
#endif
    size_t at = checked_offset(offset, size);
    if (!still_a_stream(io, descriptor)) return Qnil;
#ifdef HEDDLE_RWF_NOWAIT
    struct iovec part = { (void *)((const char *)base + at), size - at };
    return result_of(pwritev2(descriptor, &part, 1, -1, RWF_NOWAIT));
#else
    return result_of(send(descriptor, (const char *)base + at, size - at, MSG_DONTWAIT));
#endif
}

void Init_heddle_sync(void);
void Init_heddle_epoll_watch(void);

void
Init_raw_io_native(void)
{
    Init_heddle_sync();
    Init_heddle_epoll_watch();
    VALUE heddle = rb_define_module("Heddle");
    VALUE scheduler = rb_define_class_under(heddle, "Scheduler", rb_cObject);
    VALUE native = rb_define_module_under(scheduler, "NativeIO");
    rb_define_singleton_method(native, "stream?", native_stream_p, 1);
    rb_define_singleton_method(native, "read", native_read, 3);
    rb_define_singleton_method(native, "write", native_write, 3);
}
