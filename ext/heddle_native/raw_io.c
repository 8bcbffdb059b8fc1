/*
 * heddle's optional C hot path for the scheduler's io_read and io_write hooks
 * (lib/heddle/heddle/scheduler/native_io.rb, docs/scheduler.md "What each
 * choice bought"): one read(2) or write(2) between a descriptor and an
 * IO::Buffer, called straight from the hook. In Ruby that system call has to
 * run in a blocking fiber (a non-blocking fiber's IO::Buffer#read calls the
 * hook again) and goes through Ruby's blocking region; here it is a plain
 * call. The caller only passes descriptors it knows to be non-blocking, so
 * the call never waits and the GVL is kept, as io-event (async) does.
 */
#include <ruby.h>
#include <ruby/io.h>
#include <ruby/io/buffer.h>
#include <errno.h>
#include <unistd.h>

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

static size_t
checked_offset(VALUE offset, size_t size)
{
    size_t at = NUM2SIZET(offset);
    if (at > size) {
        rb_raise(rb_eArgError, "offset %" PRIuSIZE " is past the buffer's %" PRIuSIZE " bytes", at, size);
    }
    return at;
}

static VALUE
result_of(ssize_t count)
{
    return count < 0 ? INT2NUM(-errno) : SSIZET2NUM(count);
}

/*
 * NativeIO.read(io, buffer, offset): one read(2) of io's descriptor into
 * buffer from offset to its end. Returns the bytes read (0: end of file) or
 * -errno (-EAGAIN when nothing is there yet).
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
    return result_of(read(descriptor, (char *)base + at, size - at));
}

/*
 * NativeIO.write(io, buffer, offset): one write(2) to io's descriptor of
 * buffer from offset to its end. Returns the bytes written or -errno.
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
    return result_of(write(descriptor, (const char *)base + at, size - at));
}

void Init_heddle_sync(void);

void
Init_raw_io_native(void)
{
    Init_heddle_sync();
    VALUE heddle = rb_define_module("Heddle");
    VALUE scheduler = rb_define_class_under(heddle, "Scheduler", rb_cObject);
    VALUE native = rb_define_module_under(scheduler, "NativeIO");
    rb_define_singleton_method(native, "read", native_read, 3);
    rb_define_singleton_method(native, "write", native_write, 3);
}
