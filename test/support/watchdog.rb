# frozen_string_literal: true

require "rbconfig"
require_relative "watchdog_watcher"

# No test may hang: a test process that runs past its bound is
# dumped and killed. A Ruby thread cannot do this alone: when the VM itself
# is deadlocked (a ractor bug of Ruby 3.3.8 stopped every thread at a
# barrier; SIGTERM did nothing) no Ruby code runs. So the test process starts
# a watcher process ({Watchdog::Watcher}) and tells it over a pipe when each
# test starts and ends. Past a test's bound or the whole run's, the watcher
# asks this process's dumper thread for every thread's Ruby backtrace (which
# comes only while the VM runs), prints the C stacks with gdb where gdb is
# installed, and kills this process with SIGKILL, failing the run.
#
# Bounds, in seconds, from the environment (0 turns a bound off):
# HEDDLE_TEST_TIMEOUT per test (180), HEDDLE_RUN_TIMEOUT per test process
# (1800), HEDDLE_WATCHDOG_DUMP_WAIT for the Ruby backtraces (10).
module Watchdog
  # Seconds, when the environment names none.
  DEFAULTS = { "HEDDLE_TEST_TIMEOUT" => 180, "HEDDLE_RUN_TIMEOUT" => 1800, "HEDDLE_WATCHDOG_DUMP_WAIT" => 10 }.freeze

  class << self
    # Starts the watcher for this process (once).
    # @return [void]
    def start
      return if @pid == Process.pid

      @pid = Process.pid
      @lock = Mutex.new
      beats, @beat = IO.pipe
      @asks, asked = IO.pipe
      spawn_watcher(beats, asked)
      start_dumper
    end

    # @param name [String] the test starting
    # @return [void]
    def test_started(name) = tell("start #{name.tr("\n", ' ')}")

    # @return [void]
    def test_ended = tell("end")

    # @param name [String] an environment variable of {DEFAULTS}
    # @return [Float] its bound in seconds
    def bound(name)
      value = Float(ENV.fetch(name, DEFAULTS.fetch(name)))
      raise ArgumentError, "#{name}=#{ENV.fetch(name, nil).inspect}: seconds must be >= 0" if value.negative?

      value
    end

    private

    def spawn_watcher(beats, asked)
      bounds = DEFAULTS.keys.map { |name| bound(name).to_s }
      script = "Watchdog::Watcher.new(*ARGV).run"
      Process.spawn(RbConfig.ruby, "-r", File.expand_path("watchdog_watcher.rb", __dir__), "-e", script,
                    Process.pid.to_s, *bounds, in: beats, out: asked, pgroup: true)
      beats.close
      asked.close
    end

    # Waits for the watcher's ask, answers with every thread's backtrace on
    # stderr, and tells the watcher it is done.
    def start_dumper
      thread = Thread.new do
        while @asks.gets
          $stderr.write(Watchdog.ruby_backtraces)
          $stderr.flush
          tell("dumped")
        end
      end
      thread.name = "heddle-test-watchdog"
    end

    # Forked children keep the pipe but speak for no test of this process.
    def tell(line)
      return unless @pid == Process.pid

      @lock.synchronize { @beat.puts(line) }
    rescue IOError, SystemCallError
      nil # the watcher is gone: nothing to tell
    end
  end

  # @return [String] each thread's name, status and Ruby backtrace
  def self.ruby_backtraces
    threads = Thread.list
    text = threads.map do |thread|
      lines = (thread.backtrace || ["(no backtrace)"]).map { |line| "    #{line}\n" }.join
      "  #{thread.inspect}\n#{lines}"
    end
    "heddle watchdog: Ruby backtraces of #{threads.size} threads\n#{text.join}"
  end

  # Tells the watcher when each test starts and ends.
  module Hooks
    # @return [void]
    def before_setup
      Watchdog.test_started("#{self.class}##{name}")
      super
    end

    # @return [void]
    def after_teardown
      super
    ensure
      Watchdog.test_ended
    end
  end
end

unless ENV["HEDDLE_WATCHDOG"] == "0"
  Watchdog.start
  Minitest::Test.prepend(Watchdog::Hooks)
end
