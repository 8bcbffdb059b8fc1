# frozen_string_literal: true

require "rbconfig"

# A program that maps items [0, 1, 2] on a 2-worker pool, run as a ruby
# process of its own so that a fault may end it (exit!, a signal to the
# caller). Item 1 says "started", then does the fault or sleeps; what
# happens is read back from its output, one fact per line:
#
#   pids <worker pids>   (process pools)
#   started              item 1 is running
#   caller raised <class>, caller ensure
#   ensure               item 1's ensure block ran
class SpawnedCaller
  # Seconds the program may take to start, to react, and to end.
  LIMIT = 30

  SCRIPT = <<~'RUBY'
    backend, fault = ARGV.map(&:to_sym)
    notes = Thread::Queue.new
    # Registered before heddle's own at_exit (which stops the pools), so it runs after it.
    at_exit { (notes.pop && $stdout.puts("ensure")) until notes.empty? }
    require "heddle"
    $stdout.sync = true
    started = Thread::Queue.new
    Thread.new { started.pop && $stdout.puts("started") } # no IO on the pool's fibers
    in_child = backend == :process
    pool = Heddle::Pool.new(worker: backend, size: 2) do |x|
      next x unless x == 1

      begin
        exit!(4) if fault == :exit!
        in_child ? $stdout.puts("started") : started.push(true)
        sleep 30
      ensure
        in_child ? $stdout.puts("ensure") : notes.push(true)
      end
    end
    puts "pids #{pool.worker_pids.join(' ')}"
    begin
      pool.map([0, 1, 2])
    rescue Exception => e
      puts "caller raised #{e.class}"
      raise
    ensure
      puts "caller ensure"
    end
  RUBY

  # @return [Process::Status, nil] once finished
  attr_reader :status
  # @return [Array<String>] the lines read so far
  attr_reader :lines

  def initialize(backend, fault)
    @reader, writer = IO.pipe
    @pid = Process.spawn(RbConfig.ruby, *LibRoots::FLAGS, "-e", SCRIPT, backend.to_s, fault.to_s, out: writer,
                                                                                                  err: writer)
    writer.close
    @lines = []
    @deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + LIMIT
  end

  # Reads until the program says line.
  def await(line)
    read_line until @lines.include?(line) || @reader.nil?
    return if @lines.include?(line)

    raise Minitest::Assertion,
          "the program ended without saying #{line.inspect}; it said:\n#{output}"
  end

  def signal(name) = Process.kill(name, @pid)

  # Reads to the end of its output and reaps it (killed if it overruns LIMIT).
  def finish
    read_line while @reader
    @status = Process.wait2(@pid)[1]
  end

  def output = @lines.join("\n")

  # Every worker process the program had is gone (none outlived it as an orphan).
  def assert_no_worker_left(test)
    pids = (@lines.grep(/\Apids /).first || "pids").split.drop(1).map(&:to_i)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
    left = -> { pids.any? { |pid| File.exist?("/proc/#{pid}") } }
    sleep 0.02 while left.call && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    pids.each { |pid| test.refute File.exist?("/proc/#{pid}"), "worker #{pid} outlived the program" }
  end

  private

  def read_line
    left = @deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
    overrun if left <= 0 || !@reader.wait_readable(left)
    line = @reader.gets
    return @lines << line.chomp if line

    @reader.close
    @reader = nil
  end

  def overrun
    Process.kill(:KILL, @pid)
    raise Minitest::Assertion, "the program did not finish within #{LIMIT} s; it said:\n#{output}"
  end
end
