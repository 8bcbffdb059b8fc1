# frozen_string_literal: true

# Builds heddle's optional C hot path for the scheduler's io_read/io_write
# (ext/heddle_native/raw_io.c; lib/heddle/heddle/scheduler/native_io.rb loads
# it, and heddle runs in pure Ruby without it). Each C API it uses is a
# feature test, not a Ruby version check.
require "mkmf"

# Ruby 3.3 renamed IO::Buffer's accessors (3.1: rb_io_buffer_get_mutable /
# _immutable); rb_io_descriptor is 3.1's +GetOpenFile+ and +fptr->fd+ made public.
# @return [Boolean] whether this machine can build the C path
def heddle_native_buildable?
  have_func("rb_io_descriptor", "ruby/io.h")
  have_header("ruby/io/buffer.h") &&
    (have_func("rb_io_buffer_get_bytes_for_writing", "ruby/io/buffer.h") ||
     have_func("rb_io_buffer_get_mutable", "ruby/io/buffer.h")) &&
    have_func("read", "unistd.h")
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
