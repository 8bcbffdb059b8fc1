# frozen_string_literal: true

require "socket"
require_relative "../load"

module Heddle
  module Soak
    module Loads
      # What a waiting program spends: each round holds {HELD} of heddle's
      # waits at once ({WAITS}: IO inside Heddle.run, heddle's own waits,
      # promises, sync primitives, a with_timeout watchdog, Process.wait;
      # taken in a seeded shuffle, so every wait is held once in each run of
      # WAITS.size / HELD rounds), each on a thread of its own,
      # measures the process's CPU while they wait, then lets them go and
      # checks what each returned. The process spending more than
      # {IDLE_SHARE} of a core while they wait fails the round: a wait that
      # polls instead of sleeping (the nio4r selector once read "no timeout"
      # as "do not sleep"), or anything else of the soak's that spins while
      # nothing runs (the runner runs one load's round at a time). Same
      # bound as the tests' idle-CPU family (docs/core.md, "What a wait spends").
      class Idle < Load
        # The most the process may spend while the waits are held, as a share of one core.
        IDLE_SHARE = 0.02
        # Waits held at once per round.
        HELD = 3
        # Seconds before the window opens: every wait has gone to sleep.
        SETTLE = 0.1
        # Seconds of the first window; a window over the bound is measured
        # again over twice as long, {TRIES} windows at most, and the last one
        # counts (a one-off cost, a GC or YJIT compiling, lands in one window;
        # a spinning wait spends in all).
        WINDOW = 0.3
        TRIES = 3
        # Seconds a held wait may take to end once let go before it counts as hung.
        LIMIT = 30
        # The waits a round chooses from.
        WAITS = %i[read_in_run write_in_run accept_in_run await_readable wait_in_proc promise_in_thread
                   promise_in_proc queue_in_run mutex_in_run condition_in_run semaphore_in_run group_wait
                   sleep_in_run with_timeout process_wait_in_run].freeze

        # A wait held on its own thread: +release+ ends it; +expected+ is
        # what the thread must return; +ios+ are closed after the round, and
        # +after+ (if any) runs then.
        Hold = Struct.new(:name, :thread, :release, :expected, :ios, :after)

        def initialize
          super
          @next = []
        end

        def name = :idle

        # @param random [Random]
        def round(random)
          holds = take(random).map { |wait| hold(wait) }
          sleep SETTLE
          share = idle_share
          holds.each { |held| let_go(held) }
          check_idle share, holds.map(&:name)
        ensure
          holds&.each { |held| finish(held) }
        end

        private

        def take(random)
          @next = WAITS.shuffle(random: random) if @next.empty?
          @next.shift(HELD)
        end

        def let_go(held)
          held.release.call
          check held.expected, outcome(held.thread), "#{held.name}: what the wait returned"
        end

        def hold(wait)
          held = Hold.new(wait, nil, nil, nil, [])
          held.release, held.expected, body = send(wait, held)
          held.thread = Thread.new(&body)
          held.thread.report_on_exception = false
          held
        end

        def check_idle(share, waits)
          @checks += 1
          return if share <= IDLE_SHARE

          raise WrongResult, "#{name}: the process spent #{format('%.1f', share * 100)}% of a core while " \
                             "#{waits.join(', ')} waited (at most #{(IDLE_SHARE * 100).round}%): a wait polls " \
                             "instead of sleeping, or something else spins"
        end

        # @return [Float] the process's CPU seconds per second over the last window measured
        def idle_share
          share = nil
          TRIES.times do |try|
            share = share_over(try.zero? ? WINDOW : WINDOW * 2)
            break if share <= IDLE_SHARE
          end
          share
        end

        def share_over(seconds)
          cpu = own_cpu
          wall = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          sleep seconds
          (own_cpu - cpu) / (Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall)
        end

        # The process's CPU seconds, less YJIT's compiling (a method is
        # compiled once, at its 30th call: a one-off cost, not the wait's).
        def own_cpu
          cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
          return cpu unless defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?

          cpu - (RubyVM::YJIT.runtime_stats[:compile_time_ns].to_i / 1e9)
        end

        # @return [Object, :hung] the thread's value (or its error's class), or :hung
        def outcome(thread)
          return :hung unless thread.join(LIMIT)

          thread.value
        rescue StandardError => e
          e.class
        end

        def finish(held)
          held.thread&.kill
          held.ios.each { |io| io.close unless io.closed? }
          held.after&.call
        end

        # Each wait: [release, expected value, body of its thread].

        def read_in_run(held)
          reader, writer = held.ios.push(*IO.pipe)
          [-> { writer.write("x") }, "x", -> { Heddle.run { reader.read(1) } }]
        end

        def write_in_run(held)
          reader, writer = held.ios.push(*IO.pipe)
          nil until writer.write_nonblock("x" * 65_536, exception: false) == :wait_writable
          [-> { reader.read_nonblock(1 << 20) }, 1, -> { Heddle.run { writer.write("y") } }]
        end

        def accept_in_run(held)
          server = TCPServer.new("127.0.0.1", 0)
          held.ios << server
          connect = -> { held.ios << TCPSocket.new("127.0.0.1", server.addr[1]) }
          [connect, true, -> { Heddle.run { server.accept.close.nil? } }]
        end

        def await_readable(held)
          reader, writer = held.ios.push(*IO.pipe)
          [-> { writer.write("x") }, true, -> { Heddle.await_readable(reader) }]
        end

        # A concurrent proc's Heddle.wait, ended by concluding it from another thread.
        def wait_in_proc(_held)
          started = Thread::Queue.new
          release = -> { started.pop.conclude_to(:released) }
          [release, :released, -> { Heddle.concurrently { Heddle.wait(LIMIT) }.tap { |e| started << e }.await_result }]
        end

        def promise_in_thread(_held)
          promise = Heddle::Promise.new
          [-> { promise.fulfill(:kept) }, :kept, -> { promise.value!(LIMIT) }]
        end

        def promise_in_proc(_held)
          promise = Heddle::Promise.new
          [-> { promise.fulfill(:kept) }, :kept, -> { Heddle.concurrently { promise.value! }.await_result }]
        end

        def queue_in_run(_held)
          queue = Thread::Queue.new
          [-> { queue << :popped }, :popped, -> { Heddle.run { queue.pop } }]
        end

        # The mutex is held by a thread of the round until the release.
        def mutex_in_run(_held)
          mutex = Thread::Mutex.new
          locked = Thread::Queue.new
          unlock = Thread::Queue.new
          holder = Thread.new { mutex.synchronize { (locked << true) && unlock.pop } }
          locked.pop
          release = -> { (unlock << true) && holder.join(LIMIT) }
          [release, :locked, -> { Heddle.run { mutex.synchronize { :locked } } }]
        end

        def condition_in_run(_held)
          mutex = Thread::Mutex.new
          condition = Thread::ConditionVariable.new
          signalled = false
          signal = -> { mutex.synchronize { (signalled = true) && condition.signal } }
          body = -> { Heddle.run { mutex.synchronize { condition.wait(mutex) until signalled } || :signalled } }
          [signal, :signalled, body]
        end

        def semaphore_in_run(_held)
          semaphore = Heddle::Semaphore.new(1)
          semaphore.acquire
          [-> { semaphore.release }, :acquired, -> { Heddle.run { semaphore.acquire { :acquired } } }]
        end

        def group_wait(_held)
          promise = Heddle::Promise.new
          body = lambda do
            group = Heddle::Group.new
            group.spawn { promise.value! }
            group.wait
          end
          [-> { promise.fulfill(:done) }, [:done], body]
        end

        def sleep_in_run(_held)
          started = Thread::Queue.new
          body = -> { Heddle.run { Fiber.schedule { sleep LIMIT }.evaluation.tap { |e| started << e }.await_result } }
          [-> { started.pop.conclude_to(:woken) }, :woken, body]
        end

        # Outside Heddle.run: the with_timeout watchdog thread bounds a plain Queue#pop.
        def with_timeout(_held)
          queue = Thread::Queue.new
          [-> { queue << :popped }, :popped, -> { Heddle.with_timeout(LIMIT) { queue.pop } }]
        end

        # The child exits once the pipe has a byte (or is closed); a round
        # that failed before reaping it leaves it to Process.detach.
        def process_wait_in_run(held)
          reader, writer = held.ios.push(*IO.pipe)
          child = fork do
            writer.close
            exit!(reader.read(1) == "x" ? 0 : 1)
          end
          reaped = false
          held.after = -> { Process.detach(child) unless reaped }
          [-> { writer.write("x") }, true, -> { Heddle.run { (reaped = Process.wait2(child)).last.success? } }]
        end
      end
    end
  end
end
