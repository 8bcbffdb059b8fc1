# frozen_string_literal: true

require "io/wait"
require "rbconfig"

module Watchdog
  # The watcher process of {Watchdog}: reads "start NAME" / "end" lines from
  # the test process on stdin, and past a bound dumps and kills it (SIGKILL:
  # a VM deadlocked at a barrier ignores SIGTERM). Writes its asks for Ruby
  # backtraces to stdout, everything else to stderr (the run's log).
  class Watcher
    # Seconds between looks at the clock and at the test process.
    TICK = 1.0
    # Seconds gdb may take for the C stacks.
    GDB_WAIT = 60

    # @param pid [String] the test process
    # @param test_bound [String] seconds per test (0: none)
    # @param run_bound [String] seconds for the whole process (0: none)
    # @param dump_wait [String] seconds to wait for the Ruby backtraces
    def initialize(pid, test_bound, run_bound, dump_wait)
      @pid = Integer(pid)
      @test_bound = Float(test_bound)
      @run_bound = Float(run_bound)
      @dump_wait = Float(dump_wait)
      @started = now
      @test = nil
    end

    # Watches until the test process ends, or kills it.
    # @return [void]
    def run
      loop do
        return unless alive?

        overrun = overrun()
        return fire(overrun) if overrun

        read_beats
      end
    end

    private

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

    # The parent ends normally: the watcher leaves with it (forked children
    # may keep the pipe open, so EOF alone does not tell).
    def alive?
      Process.kill(0, @pid) && Process.ppid == @pid
    rescue SystemCallError
      false
    end

    # @return [String, nil] what ran too long
    def overrun = test_overrun || run_overrun

    def test_overrun
      return unless @test && @test_bound.positive? && now - @test[1] > @test_bound

      "test #{@test[0]} ran past HEDDLE_TEST_TIMEOUT=#{@test_bound} s"
    end

    def run_overrun
      return unless @run_bound.positive? && now - @started > @run_bound

      "the test process ran past HEDDLE_RUN_TIMEOUT=#{@run_bound} s (in test #{@test&.first || '(between tests)'})"
    end

    def read_beats
      return unless $stdin.wait_readable(TICK)

      line = $stdin.gets
      return sleep(TICK) unless line # EOF while forked children live: keep looking

      beat(line.chomp)
    end

    def beat(line)
      case line
      when /\Astart (.*)/ then @test = [Regexp.last_match(1), now]
      when "end" then @test = nil
      end
    end

    def fire(why)
      say "heddle watchdog: #{why}; dumping process #{@pid}, then killing it with SIGKILL"
      ruby_backtraces
      c_stacks
      say "heddle watchdog: killing #{@pid} (#{why})"
      Process.kill(:KILL, @pid)
    rescue SystemCallError => e
      say "heddle watchdog: #{e.message}"
    end

    # Asks the test process's dumper thread, which runs only while the VM does.
    def ruby_backtraces
      $stdout.puts("dump")
      $stdout.flush
      deadline = now + @dump_wait
      while (left = deadline - now).positive?
        return if $stdin.wait_readable(left) && $stdin.gets&.chomp == "dumped"
      end
      say "heddle watchdog: no Ruby backtraces within #{@dump_wait} s (the VM does not run Ruby code)"
    rescue IOError, SystemCallError => e
      say "heddle watchdog: no Ruby backtraces (#{e.message})"
    end

    def c_stacks
      gdb = ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).map { |dir| File.join(dir, "gdb") }
               .find { |path| File.executable?(path) }
      return say("heddle watchdog: no gdb on PATH, so no C stacks") unless gdb

      say "heddle watchdog: C stacks of #{@pid} (gdb)"
      run_bounded([gdb, "-p", @pid.to_s, "-batch", "-ex", "thread apply all bt"], GDB_WAIT)
    end

    # Runs command with its output on stderr, killing it after limit seconds.
    def run_bounded(command, limit)
      child = Process.spawn(*command, in: File::NULL, out: $stderr, err: $stderr)
      deadline = now + limit
      sleep 0.1 until (done = Process.waitpid(child, Process::WNOHANG)) || now > deadline
      return if done

      say "heddle watchdog: #{command.first} took more than #{limit} s; killed"
      Process.kill(:KILL, child)
      Process.waitpid(child)
    rescue Errno::ESRCH, Errno::ECHILD
      nil
    end

    def say(text)
      $stderr.write("#{text}\n")
      $stderr.flush
    end
  end
end
