# frozen_string_literal: true

# Builds heddle's optional C hot path for the scheduler's io_read/io_write
# (ext/heddle_native/raw_io.c; lib/heddle/heddle/scheduler/native_io.rb loads
# it, and heddle runs in pure Ruby without it). Each C API it uses is a
# feature test, not a Ruby version check.
require "mkmf"

# Ruby 3.3 renamed IO::Buffer's accessors (3.1: rb_io_buffer_get_mutable /
# _immutable); rb_io_descriptor is 3.1's +GetOpenFile+ and +fptr->fd+ made
# public, rb_io_path (3.3) its +fptr->pathv+. The read or write must never
# wait whatever the descriptor's mode: preadv2/pwritev2 with RWF_NOWAIT
# (Linux) for pipes and sockets, else recv/send with MSG_DONTWAIT for sockets.
# @return [Boolean] whether this machine can build the C path
def heddle_native_buildable?
  have_func("rb_io_descriptor", "ruby/io.h")
  have_func("rb_io_path", "ruby/io.h")
  %w[preadv2 pwritev2].each { |name| have_func(name, "sys/uio.h") }
  have_const("RWF_NOWAIT", "sys/uio.h")
  # The epoll registry (epoll_watch.c): Linux only; epoll_pwait2 (Linux 5.11,
  # glibc 2.35) sleeps to the nanosecond, else whole milliseconds.
  have_func("epoll_pwait2", "sys/epoll.h") if have_header("sys/epoll.h")
  have_func("rb_io_closed_p", "ruby/io.h")
  have_header("ruby/io/buffer.h") &&
    (have_func("rb_io_buffer_get_bytes_for_writing", "ruby/io/buffer.h") ||
     have_func("rb_io_buffer_get_mutable", "ruby/io/buffer.h")) &&
    have_const("MSG_DONTWAIT", "sys/socket.h")
rescue RuntimeError => e
  # No working C compiler: mkmf raises ("You have to install development tools first").
  warn "heddle: #{e.message.lines.first.chomp} The scheduler's C path is skipped: heddle runs in pure Ruby."
  false
end

if heddle_native_buildable?
  $CFLAGS << " -Wall -Wextra -Wno-unused-parameter" if RbConfig::CONFIG["GCC"] == "yes" # rubocop:disable Style/GlobalVars -- mkmf's interface
  create_makefile("heddle/raw_io_native")
else
  # Optional: a Makefile that builds nothing, so that installing the gem
  # never fails for it (heddle then runs in pure Ruby).
  File.write("Makefile", dummy_makefile($srcdir).join) # rubocop:disable Style/GlobalVars -- mkmf's interface
end
