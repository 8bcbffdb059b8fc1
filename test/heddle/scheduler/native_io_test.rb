# frozen_string_literal: true

require "test_helper"
require "open3"
require "tmpdir"

# The optional C hot path of io_read / io_write (ext/heddle_native, loaded by
# Heddle::Scheduler::NativeIOLoader): one system call each, -errno instead of
# raising, and the pure-Ruby path it stands in for still passing the same
# hook tests without it (HEDDLE_NATIVE=0).
class SchedulerNativeIOTest < Minitest::Test
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

  # The fallback: every io hook test and the blocking-mode cases (whose fresh
  # Rubies inherit the switch) in a Ruby where the C path is off.
  def test_the_hooks_pass_their_tests_in_pure_ruby
    files = %w[test/heddle/scheduler/raw_io_test.rb test/heddle/scheduler/compliance/blocking_mode_test.rb]
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
