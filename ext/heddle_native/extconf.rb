# frozen_string_literal: true

# Builds heddle's optional C hot path for the scheduler's io_read/io_write
# (ext/heddle_native/raw_io.c; lib/heddle/heddle/scheduler/native_io.rb loads
# it, and heddle runs in pure Ruby without it). Each C API it uses is a
# feature test, not a Ruby version check.
require "mkmf"

# Ruby 3.3 renamed IO::Buffer's accessors (3.1: rb_io_buffer_get_mutable /
# _immutable); rb_io_descriptor is 3.1's +GetOpenFile+ and +fptr->fd+ made public.
have_func("rb_io_descriptor", "ruby/io.h")
buffer = have_header("ruby/io/buffer.h") &&
         (have_func("rb_io_buffer_get_bytes_for_writing", "ruby/io/buffer.h") ||
          have_func("rb_io_buffer_get_mutable", "ruby/io/buffer.h"))

if buffer && have_func("read", "unistd.h")
  $CFLAGS << " -Wall -Wextra -Wno-unused-parameter" if RbConfig::CONFIG["GCC"] == "yes" # rubocop:disable Style/GlobalVars -- mkmf's interface
  create_makefile("heddle/raw_io_native")
else
  # Optional: a Makefile that builds nothing, so that installing the gem
  # never fails for it (heddle then runs in pure Ruby).
  File.write("Makefile", dummy_makefile($srcdir).join) # rubocop:disable Style/GlobalVars -- mkmf's interface
end
