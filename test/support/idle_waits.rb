# frozen_string_literal: true

require "socket"

# Waits held still while CpuMeter measures them, for the cases the idle-CPU
# family also runs in a fresh `ruby` (IdleCpu#in_fresh): the scheduler's IO
# hooks on the pure-Ruby path (HEDDLE_NATIVE=0 is read once, at load) and
# ractor pools (which run in a fresh ruby, as every ractor test does). Each
# returns CpuMeter's [share, value].
module IdleWaits
  # A pool's block: the identity, shareable so ractors may run it too.
  SAME = Ractor.make_shareable(proc { |item| item })
  # A pool's block that waits for a byte on the pipe whose descriptor is the
  # item: the release writes one per item (descriptors are shared by the
  # threads, fibers and ractors of a process, and inherited by forked workers).
  GATE = Ractor.make_shareable(proc { |fd| IO.for_fd(fd, autoclose: false).read(1) })

  module_function

  # IO#read inside Heddle.run, on an empty pipe.
  def read_in_run
    reader, writer = IO.pipe
    CpuMeter.share_while_waiting(-> { writer.write("x") }) { Heddle.run { reader.read(1) } }
  ensure
    [reader, writer].each { |io| io&.close }
  end

  # IO#write inside Heddle.run, on a full pipe: the release drains it.
  def write_in_run
    reader, writer = IO.pipe
    nil until writer.write_nonblock("x" * 65_536, exception: false) == :wait_writable
    CpuMeter.share_while_waiting(-> { reader.read_nonblock(1 << 20) }) { Heddle.run { writer.write("y") } }
  ensure
    [reader, writer].each { |io| io&.close }
  end

  # TCPServer#accept inside Heddle.run: the release connects.
  def accept_in_run
    server = TCPServer.new("127.0.0.1", 0)
    client = nil
    connect = -> { client = TCPSocket.new("127.0.0.1", server.addr[1]) }
    CpuMeter.share_while_waiting(connect) { Heddle.run { server.accept.tap(&:close).class.name } }
  ensure
    [server, client].each { |io| io&.close }
  end

  # A pool of two workers that has mapped once and now has nothing to do;
  # a process pool's workers count too.
  def idle_pool(worker)
    pool = Heddle::Pool.new(worker: worker, size: 2, &SAME)
    pool.map([1, 2])
    released = Thread::Queue.new
    CpuMeter.share_while_waiting(-> { released << true }, pids: workers_of(pool, worker)) { released.pop && pool.size }
  ensure
    pool&.shutdown
  end

  # A caller waiting in Pool#map while both workers wait on a pipe in their
  # item (the pool's own waits, not the items', are what is measured: a
  # process pool's workers count too, and their blocking read spends nothing).
  # A pipe per item: on Ruby 3.4.5 two ractors blocked reading one descriptor
  # spin a core in Ruby's M:N thread scheduler (docs/journal/core.md).
  def map_waiting(worker)
    pipes = Array.new(2) { IO.pipe } # before the pool: forked workers inherit them
    map_on_gates(worker, pipes)
  ensure
    pipes&.flatten&.each(&:close)
  end

  # @param pipes [Array<(IO, IO)>] an item's pipe each
  def map_on_gates(worker, pipes)
    pool = Heddle::Pool.new(worker: worker, size: 2, &GATE)
    release = -> { pipes.map(&:last).each { |writer| writer.write("x") } }
    CpuMeter.share_while_waiting(release, pids: workers_of(pool, worker)) { pool.map(pipes.map(&:first).map(&:fileno)) }
  ensure
    pool&.shutdown
  end

  # @return [Proc] the pids of a process pool's workers (none for the other backends)
  def workers_of(pool, worker) = -> { worker == :process ? pool.worker_pids : [] }

  # A ractor pool's cases, all in the one fresh ruby that starts ractors
  # (a fresh ruby per case cost seconds each).
  # @return [Hash{Symbol => Array(Float, Object)}]
  def ractor_cases = { idle: idle_pool(:ractor), map: map_waiting(:ractor), reserve: ractors_in_reserve }

  # The ractors a shut-down pool leaves in the process's reserve (so that no
  # ractor ends while the process runs) wait on their doorbells.
  def ractors_in_reserve
    pool = Heddle::Pool.new(worker: :ractor, size: 2, &SAME)
    pool.map([1, 2])
    pool.shutdown
    released = Thread::Queue.new
    CpuMeter.share_while_waiting(-> { released << true }) do
      released.pop && Heddle::Workers::Ractors::Reserve.size
    end
  end
end
