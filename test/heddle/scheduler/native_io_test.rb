# frozen_string_literal: true

require "test_helper"
require "open3"
require "socket"
require "tmpdir"

# The optional C hot path of io_read / io_write (ext/heddle_native, loaded by
# Heddle::Scheduler::NativeIOLoader): one system call each, -errno instead of
# raising, and the pure-Ruby path it stands in for still passing the same
# hook tests without it (HEDDLE_NATIVE=0).
class SchedulerNativeIOTest < Minitest::Test
  include FreshRuby

  ROOT = File.expand_path("../../..", __dir__)
  EAGAIN = -Errno::EAGAIN::Errno
  NATIVE = Heddle::Scheduler::NATIVE_IO

  def setup
    @experimental = Warning[:experimental]
    Warning[:experimental] = false # IO::Buffer warns on first use
    @ios = IO.pipe
  end

  def teardown
    @ios.each(&:close)
    Warning[:experimental] = @experimental
  end

  def test_read_returns_eagain_then_the_bytes_at_the_offset_then_end_of_file
    native!
    reader, writer = @ios
    buffer = IO::Buffer.new(4)
    empty = NATIVE.read(reader, buffer, 0)
    writer.write("ab")
    count = NATIVE.read(reader, buffer, 1)
    writer.close

    assert_equal [EAGAIN, 2, "ab", 0], [empty, count, buffer.get_string(1, 2), NATIVE.read(reader, buffer, 0)]
  end

  def test_write_sends_the_buffer_from_the_offset
    native!
    reader, writer = @ios

    assert_equal 3, NATIVE.write(writer, IO::Buffer.for("xyzab"), 2)
    assert_equal "zab", reader.read_nonblock(8)
  end

  def test_an_offset_past_the_buffer_raises_before_any_system_call
    native!
    reader, writer = @ios
    writer.write("a")
    error = assert_raises(ArgumentError) { NATIVE.read(reader, IO::Buffer.new(4), 5) }

    assert_match(/offset 5 is past the buffer's 4 bytes/, error.message)
    assert_equal "a", reader.read_nonblock(1), "nothing was read"
  end

  def test_a_closed_io_raises_ioerror
    native!
    reader, = @ios
    reader.close

    assert_raises(IOError) { NATIVE.read(reader, IO::Buffer.new(4), 0) }
  end

  def test_pipes_and_sockets_are_streams_files_are_not
    native!
    left, right = UNIXSocket.pair
    File.open(__FILE__) do |file|
      assert_equal [true, true, false], [NATIVE.stream?(@ios.first), NATIVE.stream?(left), NATIVE.stream?(file)]
    end
  ensure
    [left, right].each { |socket| socket&.close }
  end

  # A library's `io.nonblock = false` after heddle remembered the IO: the
  # read(2) this path made then waited with the GVL held, and every thread
  # of the process with it. Its calls never wait, whatever the mode, and
  # leave the mode as it was. In a fresh Ruby: a regression stops the VM.
  def test_a_pipe_in_blocking_mode_answers_eagain_both_ways_and_keeps_its_mode
    native!
    result = in_fresh_ruby(<<~RUBY, prelude: "require 'heddle'\nrequire 'io/nonblock'", limit: 20)
      Warning[:experimental] = false
      native = Heddle::Scheduler::NATIVE_IO
      reader, writer = IO.pipe
      [reader, writer].each { |io| io.nonblock = false }
      writer.write("x" * 65_536) # the pipe is full
      empty_reader, = IO.pipe
      empty_reader.nonblock = false
      [native.read(empty_reader, IO::Buffer.new(4), 0), native.write(writer, IO::Buffer.for("y"), 0),
       empty_reader.nonblock?, writer.nonblock?]
    RUBY

    assert_equal [EAGAIN, EAGAIN, false, false], result
  end

  # IO#reopen keeps the descriptor's number: a pipe heddle took for a stream
  # may be a file now, which a call that cannot wait reads as "not cached
  # yet". The C path hands it back (nil) to Ruby's path.
  def test_a_stream_reopened_onto_a_file_is_handed_back
    native!
    reader, = @ios
    assert NATIVE.stream?(reader)
    File.open(__FILE__) { |file| reader.reopen(file) }

    File.open(File::NULL, "w") { |null| @ios.last.reopen(null) }

    assert_nil NATIVE.read(reader, IO::Buffer.new(4), 0)
    assert_nil NATIVE.write(@ios.last, IO::Buffer.for("y"), 0)
  end

  # The fallback: every io hook test and the blocking-mode cases (whose fresh
  # Rubies inherit the switch) in a Ruby where the C path is off.
  def test_the_hooks_pass_their_tests_in_pure_ruby
    files = %w[test/heddle/scheduler/scheduler_test.rb test/heddle/scheduler/compliance/blocking_mode_test.rb]
    script = "files = #{files.inspect}; files.each { |file| require File.expand_path(file) }; " \
             "at_exit { $stdout.puts 'native: ' + Heddle::Scheduler::NATIVE_IO.inspect }"
    flags = ["-I", File.join(ROOT, "test"), *LibRoots::FLAGS]
    output, status = Open3.capture2e({ "HEDDLE_NATIVE" => "0" }, RbConfig.ruby, *flags, "-e", script, chdir: ROOT)

    assert status.success?, output
    assert_match(/ 0 failures, 0 errors/, output)
    assert_includes output, "native: nil"
  end

  # `gem install` on a machine without a C compiler: mkmf raises when it
  # cannot compile, which failed the install; extconf.rb now writes a
  # Makefile that builds nothing, and says so. (The compiler is made to fail
  # by naming `false` as it: mkmf reads RbConfig, not $CC from the shell.)
  def test_without_a_c_compiler_the_extension_builds_nothing_and_install_goes_on
    Dir.mktmpdir do |dir|
      no_compiler = 'RbConfig::MAKEFILE_CONFIG["CC"] = RbConfig::CONFIG["CC"] = "false"; load ARGV.first'
      extconf = File.join(ROOT, "ext/heddle_native/extconf.rb")
      output, status = Open3.capture2e(RbConfig.ruby, "-rrbconfig", "-e", no_compiler, extconf, chdir: dir)

      assert status.success?, output
      assert_match(/C path is skipped: heddle runs in pure Ruby/, output)
      make, made = Open3.capture2e("make", chdir: dir)
      assert made.success?, make
      assert_empty Dir.glob(File.join(dir, "*.#{RbConfig::CONFIG['DLEXT']}"))
    end
  end

  private

  def native!
    skip "ext/heddle_native is not built for this Ruby (rake compile)" unless NATIVE
  end
end
