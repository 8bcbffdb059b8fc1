# frozen_string_literal: true

require "test_helper"
require "tmpdir"

# The test run's watchdog (test/support/watchdog.rb), on a child ruby that
# runs a test file with small bounds: a hanging test is dumped and killed,
# and a run that passes ends with its watcher.
class WatchdogTest < Minitest::Test
  include FreshRuby

  HANGING = <<~RUBY
    require "test_helper"
    class HangingTest < Minitest::Test
      def test_a_passes = assert(true)
      def test_b_hangs = HANG.call
    end
  RUBY

  def test_a_hanging_test_is_dumped_and_killed
    status, errors = run_tests("HANG = -> { sleep }", "HEDDLE_TEST_TIMEOUT" => "1")
    assert_killed(status, errors)
    assert_includes errors, "test HangingTest#test_b_hangs ran past HEDDLE_TEST_TIMEOUT=1.0 s"
    refute_includes errors, "test_a_passes ran past"
    assert_includes errors, "heddle watchdog: Ruby backtraces of"
    # The hanging test's own line (HANG is defined on line 1 of the prelude).
    assert_match(/hang_prelude\.rb:1:in/, errors)
    assert_c_stacks(errors)
  end

  # The VM runs no Ruby code (as when Ruby 3.3.8 deadlocked at a barrier):
  # no Ruby backtraces come, and the process is still killed.
  def test_a_stuck_process_is_still_dumped_and_killed
    status, errors = run_tests("HANG = -> { Process.kill(:STOP, Process.pid) }", "HEDDLE_TEST_TIMEOUT" => "1")
    assert_killed(status, errors)
    assert_includes errors, "no Ruby backtraces within 2.0 s"
    refute_includes errors, "heddle watchdog: Ruby backtraces of"
    assert_c_stacks(errors)
  end

  def test_a_whole_run_past_its_bound_is_killed
    status, errors = run_tests("HANG = -> { sleep }", "HEDDLE_TEST_TIMEOUT" => "0", "HEDDLE_RUN_TIMEOUT" => "2")
    assert_killed(status, errors)
    assert_includes errors, "the test process ran past HEDDLE_RUN_TIMEOUT=2.0 s (in test HangingTest#test_b_hangs)"
  end

  def test_a_run_that_passes_ends_with_its_watcher
    status, errors, pid = run_tests("HANG = -> {}", "HEDDLE_TEST_TIMEOUT" => "1")
    assert status.success?, errors
    refute_includes errors, "heddle watchdog"
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
    sleep 0.1 while watchers_of(pid).any? && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    assert_empty watchers_of(pid), "the watcher of #{pid} outlived it"
  end

  def test_a_negative_bound_is_refused
    given = ENV.fetch("HEDDLE_TEST_TIMEOUT", nil)
    ENV["HEDDLE_TEST_TIMEOUT"] = "-1"
    error = assert_raises(ArgumentError) { Watchdog.bound("HEDDLE_TEST_TIMEOUT") }
    assert_includes error.message, 'HEDDLE_TEST_TIMEOUT="-1"'
  ensure
    ENV["HEDDLE_TEST_TIMEOUT"] = given
  end

  private

  # Runs HANGING after prelude (which defines HANG) in a child ruby.
  # @return [(Process::Status, String, Integer)] its status, stderr and pid
  def run_tests(prelude, env)
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, "hang_prelude.rb"), "#{prelude}\n")
      File.write(file = File.join(dir, "hanging_test.rb"), HANGING)
      env = { "HEDDLE_WATCHDOG_DUMP_WAIT" => "2", "HEDDLE_RUN_TIMEOUT" => "600" }.merge(env)
      test_dir = File.expand_path(__dir__)
      command = [RbConfig.ruby, "-w", "-I", test_dir, *LibRoots::FLAGS, "-r", File.join(dir, "hang_prelude.rb"), file]
      run_child(env, command)
    end
  end

  def run_child(env, command)
    reader, writer = IO.pipe
    pid = Process.spawn(env, *command, out: File::NULL, err: writer)
    writer.close
    # Until the child, its watcher and gdb have closed stderr.
    errors = read_until_closed(reader, 120)
    flunk "the child ruby ran on for 120 s: its watchdog did not kill it" unless errors
    [Process.waitpid2(pid)[1], errors, pid]
  ensure
    reader&.close
    stop_fresh_ruby(pid) if pid && !errors
  end

  def assert_killed(status, errors)
    assert status.signaled?, "the hanging run ended by itself: #{status.inspect}\n#{errors}"
    assert_equal Signal.list.fetch("KILL"), status.termsig, errors
    assert_match(/heddle watchdog: killing \d+/, errors)
  end

  def assert_c_stacks(errors)
    return assert_includes(errors, "no gdb on PATH") unless gdb?

    assert_includes errors, "heddle watchdog: C stacks of"
    assert_match(/^Thread \d+ /, errors, "gdb printed no thread's stack")
  end

  def gdb? = ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).any? { |dir| File.executable?(File.join(dir, "gdb")) }

  # @return [Array<Integer>] pids of live watchdog watchers of the test process pid
  def watchers_of(pid)
    Dir.glob("/proc/[0-9]*/cmdline").filter_map do |path|
      args = File.read(path).split("\0")
      watcher = args.any? { |arg| arg.include?("watchdog_watcher") } && args.include?(pid.to_s)
      Integer(path[%r{/proc/(\d+)}, 1]) if watcher
    rescue SystemCallError
      nil
    end
  end
end
