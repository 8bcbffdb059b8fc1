# frozen_string_literal: true

require_relative "../../bench"

module Heddle
  module Bench
    # The machinery of the `promises` suite (seed promise-blocking-benchmark.ru.txt):
    # the promise flavours the article measured, written as it wrote them, and
    # rigs that run its job. Every waiter counts its completions; a waiter
    # that makes no progress for {STALL} seconds has lost a wake-up: it is
    # stopped and its missing completions are the trial's failures, so a
    # buggy flavour ends in bounded time and is reported as failing.
    module PromisesSuite
      WAITERS = 10
      # The article's job is 900,000 promises; thread waiters cost 15-40 µs
      # each on a 2-core VM, so the default run takes 100,000 to stay
      # within ~3 minutes. HEDDLE_BENCH_PROMISES=900000 runs the article's size.
      TOTAL = Integer(ENV.fetch("HEDDLE_BENCH_PROMISES", "100000"))
      QUICK_TOTAL = 5_000
      # Seconds without a single completion after which the waiters still
      # waiting have lost their wake-up (a healthy hand-off takes microseconds).
      STALL = 2.0
      # How often the monitor looks at the completion counts.
      POLL = 0.05

      # @param ctx [Context]
      # @return [Integer] promises for this trial
      def self.total(ctx) = ctx.quick? ? QUICK_TOTAL : TOTAL

      # @return [Float] the monotonic clock
      def self.now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

      # @return [Hash] the metrics of a job of total promises with done completions
      def self.metrics(total, done, lost)
        { promises: total, completions: done, failures: total - done, lost_waiters: lost, gc: "off" }
      end

      # Awaits the evaluations (from the root fiber, which runs heddle's loop
      # meanwhile) POLL seconds at a time; concludes them when no completion
      # came for STALL seconds.
      # @return [Integer] evaluations stopped for lack of progress
      def self.watch_heddle(evaluations, done)
        stalled = stall_detector(done)
        evaluations.each do |evaluation|
          until evaluation.concluded?
            evaluation.await_result(within: POLL, timeout_result: nil) { nil }
            next unless stalled.call

            stuck = evaluations.reject(&:concluded?)
            stuck.each { |e| e.conclude_to(:lost) }
            return stuck.size
          end
        end
        0
      end

      # Like {watch_heddle}, in an async task.
      # @return [Integer] tasks stopped for lack of progress
      def self.watch_async(task, tasks, done)
        stalled = stall_detector(done)
        tasks.each do |waiter|
          until waiter.finished?
            task.with_timeout(POLL) { waiter.wait } rescue Async::TimeoutError # rubocop:disable Style/RescueModifier
            next unless stalled.call

            stuck = tasks.reject(&:finished?)
            stuck.each(&:stop)
            return stuck.size
          end
        end
        0
      end

      # @return [Proc] true once done.sum has not changed for STALL seconds
      def self.stall_detector(done)
        seen = -1
        since = now
        lambda do
          count = done.sum
          if count != seen
            seen = count
            since = now
          end
          now - since > STALL
        end
      end

      # The article's Promises::Queue: a Thread::Queue per promise.
      class QueuePromise
        def initialize = @queue = Thread::Queue.new
        def value = @queue.pop
        def fulfill(value) = @queue.push(value)
        def reset = nil
      end

      # A correct Mutex + ConditionVariable promise: the flag is set and
      # checked under the mutex, and the waiter loops on it.
      class ConditionPromise
        def initialize
          @mutex = Thread::Mutex.new
          @condition = Thread::ConditionVariable.new
          @done = false
        end

        def value
          @mutex.synchronize do
            @condition.wait(@mutex) until @done
            @value
          end
        end

        def fulfill(value)
          @mutex.synchronize do
            @value = value
            @done = true
          end
          @condition.signal
        end

        def reset = @mutex.synchronize { @done = false }
      end

      # The article's Promises::ConditionVariable, bug included: entering
      # wait clears the value, so a fulfil that came first is lost.
      class ArticleConditionPromise
        def initialize
          @cv = Thread::ConditionVariable.new
          @mutex = Thread::Mutex.new
        end

        def value
          @mutex.synchronize do
            @value = nil
            @cv.wait(@mutex) while @value.nil?
            @value
          end
        end

        def fulfill(value)
          @mutex.synchronize { @value = value }
          @cv.signal
        end

        def reset = nil
      end

      # The article's Promises::Socket: an IO.pipe pair per promise, closed
      # after use when fresh.
      class PipePromise
        def initialize(reuse: false)
          @read_io, @write_io = IO.pipe
          @reuse = reuse
        end

        def value
          @read_io.gets rescue nil # rubocop:disable Style/RescueModifier -- as the article wrote it
          close unless @reuse
          @value
        end

        def fulfill(value)
          @value = value
          @write_io.puts(value) rescue nil # rubocop:disable Style/RescueModifier -- as the article wrote it
        end

        def reset = nil

        def close
          @write_io.close
          @read_io.close
        end
      end

      # The article's Promises::Thread: the thread gem's Thread.promise.
      class ThreadGemPromise
        def initialize = @promise = ::Thread.promise
        def value = @promise.value
        def fulfill(value) = @promise.deliver(value)
      end

      # The article's job with thread waiters: WAITERS threads each loop
      # (make or reset a promise, push it to the shared queue, wait); one
      # resolver thread pops and fulfils. Threads start in setup, untimed.
      class ThreadRig
        STOP = Object.new.freeze

        # @param total [Integer] promises in the job
        # @param reuse [Boolean] reset one promise per waiter instead of making one per job
        # @param make [#call] makes a promise
        def initialize(total, reuse:, &make)
          @jobs = Thread::Queue.new
          @gate = Thread::Queue.new
          @done = Array.new(WAITERS, 0)
          @total = (total / WAITERS) * WAITERS
          @resolver = Thread.new { resolve_all }
          @waiters = Array.new(WAITERS) { |i| Thread.new { work(i, @total / WAITERS, reuse, make) } }
          Thread.pass until @waiters.all? { |t| t.status == "sleep" }
        end

        # The timed job. @return [Hash] metrics
        def run
          GC.disable
          WAITERS.times { @gate << true }
          lost = watch
          PromisesSuite.metrics(@total, @done.sum, lost)
        end

        # @return [void]
        def stop
          @jobs << STOP
          @resolver.join(STALL) || @resolver.kill
          @waiters.each(&:kill)
          GC.enable
        end

        private

        def work(index, jobs, reuse, make)
          @gate.pop
          done = @done
          queue = @jobs
          promise = make.call if reuse
          jobs.times do
            reuse ? promise.reset : promise = make.call
            queue << promise
            break unless promise.value.equal?(true)

            done[index] += 1
          end
        end

        def resolve_all
          queue = @jobs
          until (promise = queue.pop).equal?(STOP)
            promise.fulfill(true)
          end
        end

        # Joins the waiters; kills them when no completion came for STALL seconds.
        # @return [Integer] waiters that lost a wake-up
        def watch
          stalled = PromisesSuite.stall_detector(@done)
          @waiters.each do |thread|
            return @waiters.count { |t| t.alive? && t.kill } if stalled_before_end?(thread, stalled)
          end
          0
        end

        def stalled_before_end?(thread, stalled)
          loop do
            return false if thread.join(POLL)
            return true if stalled.call
          end
        end
      end

      # The job with fiber waiters in one thread, on heddle's loop: the shared
      # queue is an Array and the resolver fiber yields when it is empty.
      class HeddleFiberRig
        # @param total [Integer] @param reuse [Boolean]
        def initialize(total, reuse:)
          @total = (total / WAITERS) * WAITERS
          @reuse = reuse
        end

        # @return [Hash] metrics
        def run
          GC.disable
          shared = []
          done = Array.new(WAITERS, 0)
          waiters = Array.new(WAITERS) { |i| Heddle.concurrently { work(i, shared, done) } }
          resolver = Heddle.concurrently { resolve_all(shared) }
          lost = PromisesSuite.watch_heddle(waiters + [resolver], done)
          PromisesSuite.metrics(@total, done.sum, lost)
        end

        # @return [void]
        def stop = GC.enable

        private

        def work(index, shared, done)
          promise = Heddle::Promise.new if @reuse
          (@total / WAITERS).times do
            @reuse ? promise.reset : promise = Heddle::Promise.new
            shared << promise
            break unless promise.value.equal?(true)

            done[index] += 1
          end
        end

        def resolve_all(shared)
          resolved = 0
          while resolved < @total
            if (promise = shared.shift)
              promise.fulfill(true)
              resolved += 1
            else
              Heddle.wait(0)
            end
          end
        end
      end

      # The job with fiber waiters in one thread on async 2's reactor:
      # Async::Variable per job (fresh) or one Async::Condition per waiter (reuse).
      class AsyncFiberRig
        # @param total [Integer] @param reuse [Boolean]
        def initialize(total, reuse:)
          @total = (total / WAITERS) * WAITERS
          @reuse = reuse
        end

        # @return [Hash] metrics
        def run
          GC.disable
          done = Array.new(WAITERS, 0)
          lost = Async { |task| job(task, done) }.wait
          PromisesSuite.metrics(@total, done.sum, lost)
        end

        # @return [void]
        def stop = GC.enable

        private

        def job(task, done)
          shared = []
          tasks = Array.new(WAITERS) { |i| task.async { @reuse ? work_reuse(i, shared, done) : work(i, shared, done) } }
          tasks << task.async { resolve_all(task, shared) }
          PromisesSuite.watch_async(task, tasks, done)
        end

        def work(index, shared, done)
          (@total / WAITERS).times do
            variable = Async::Variable.new
            shared << variable
            break unless variable.wait.equal?(true)

            done[index] += 1
          end
        end

        def work_reuse(index, shared, done)
          condition = Async::Condition.new
          (@total / WAITERS).times do
            shared << condition
            break unless condition.wait.equal?(true)

            done[index] += 1
          end
        end

        def resolve_all(task, shared)
          resolved = 0
          while resolved < @total
            if (promise = shared.shift)
              @reuse ? promise.signal(true) : promise.resolve(true)
              resolved += 1
            else
              task.yield
            end
          end
        end
      end

      # Mixed: WAITERS fibers in this thread wait on values a resolver thread
      # produces. heddle: Heddle::Promise in heddle's loop; async: a Thread::Queue per
      # job popped under async's Fiber scheduler (Ruby's way to wait for a thread).
      class MixedRig
        STOP = Object.new.freeze

        # @param total [Integer] @param library [Symbol] :heddle or :async
        def initialize(total, library:)
          @total = (total / WAITERS) * WAITERS
          @library = library
          @jobs = Thread::Queue.new
          @resolver = Thread.new do
            queue = @jobs
            until (promise = queue.pop).equal?(STOP)
              promise.is_a?(Thread::Queue) ? promise.push(true) : promise.fulfill(true)
            end
          end
        end

        # @return [Hash] metrics
        def run
          GC.disable
          done = Array.new(WAITERS, 0)
          lost = @library == :heddle ? run_heddle(done) : run_async(done)
          PromisesSuite.metrics(@total, done.sum, lost)
        end

        # @return [void]
        def stop
          @jobs << STOP
          @resolver.join(STALL) || @resolver.kill
          GC.enable
        end

        private

        def run_heddle(done)
          waiters = Array.new(WAITERS) do |i|
            Heddle.concurrently do
              (@total / WAITERS).times do
                promise = Heddle::Promise.new
                @jobs << promise
                break unless promise.value.equal?(true)

                done[i] += 1
              end
            end
          end
          PromisesSuite.watch_heddle(waiters, done)
        end

        def run_async(done)
          Async do |task|
            tasks = Array.new(WAITERS) do |i|
              task.async do
                (@total / WAITERS).times do
                  queue = Thread::Queue.new
                  @jobs << queue
                  break unless queue.pop.equal?(true)

                  done[i] += 1
                end
              end
            end
            PromisesSuite.watch_async(task, tasks, done)
          end.wait
        end
      end
    end
  end
end

Heddle::Bench.suite(:promises) do |s|
  suite = Heddle::Bench::PromisesSuite
  total = suite::TOTAL
  s.title "Blocking on a promise: 10 waiters, 1 resolver"
  s.seed "promise-blocking-benchmark.ru.txt"
  s.description <<~TEXT.tr("\n", " ").strip
    The article's job: #{suite::WAITERS} waiters each loop {make a promise, push it to a shared queue, wait};
    one resolver pops and fulfils, #{total} promises in all (the article: 900,000; HEDDLE_BENCH_PROMISES sets it;
    --quick: #{suite::QUICK_TOTAL}). GC is off during the job; threads start untimed. Every waiter counts its
    completions: a waiter stuck for #{suite::STALL} s lost a wake-up and fails its trial. Every trial runs in a
    process forked for it alone, with no harness thread beside the job (the parent enforces the time limit).
  TEXT
  s.kind :duration
  s.unit "seconds for #{total} promises (--quick: #{suite::QUICK_TOTAL})"
  s.trials 5
  s.budget 200

  thread_loop = <<~RUBY
    # #{suite::WAITERS} waiter threads, each (#{total / suite::WAITERS} jobs):
    promise = make_promise              # reuse: promise.reset
    jobs << promise                     # a shared Thread::Queue
    break unless promise.value.equal?(true)
    done[i] += 1
    # 1 resolver thread:
    until (promise = jobs.pop).equal?(STOP) do promise.fulfill(true) end
  RUBY
  per_job = (total / 1_000_000.0) * 30 # ~30 µs per thread hand-off here, for the budget

  thread_rows = {
    "Thread::Queue" => ["ruby", [], "Thread::Queue.new; value: queue.pop; fulfill: queue.push(v)",
                        -> { suite::QueuePromise.new }, true],
    "Mutex+ConditionVariable" => ["ruby", [], "done flag set and waited for under the mutex; signal after unlock",
                                  -> { suite::ConditionPromise.new }, true],
    "Mutex+ConditionVariable, the article's" => [
      "ruby", [], "value clears @value on entry, then waits while nil: a fulfil that came first is lost",
      -> { suite::ArticleConditionPromise.new }, false
    ],
    "IO.pipe" => ["ruby", [], "IO.pipe per promise; value: gets (then close both); fulfill: puts",
                  -> { suite::PipePromise.new }, true],
    "thread gem Thread.promise" => ["thread", ["thread/promise"], "Thread.promise; value; deliver(v)",
                                    -> { suite::ThreadGemPromise.new }, false],
    "Concurrent::Promises.resolvable_future" => [
      "concurrent-ruby", ["concurrent"], "Concurrent::Promises.resolvable_future; value; fulfill(v)",
      -> { Concurrent::Promises.resolvable_future }, false
    ],
    "Heddle::Promise" => ["heddle", [], "Heddle::Promise.new; value; fulfill(v)", -> { Heddle::Promise.new }, true]
  }

  thread_rows.each do |name, (library, requires, how, make, reusable)|
    s.row "#{name}, threads, fresh", library: library, compare: "thread waiters, fresh",
                                     requires: requires, estimate: per_job, isolate: :trial do |r|
      r.code "# #{how}\n#{thread_loop}"
      r.setup do |ctx|
        GC.start
        suite::ThreadRig.new(suite.total(ctx), reuse: false, &make)
      end
      r.run { |rig, _ctx| rig.run }
      r.teardown { |rig, _ctx| rig&.stop }
    end
    next unless reusable

    s.row "#{name}, threads, reuse", library: library, compare: "thread waiters, reuse",
                                     requires: requires, estimate: per_job, isolate: :trial do |r|
      r.code "# #{how}; one promise per waiter, reset per job\n#{thread_loop}"
      r.setup do |ctx|
        GC.start
        maker = name == "IO.pipe" ? -> { suite::PipePromise.new(reuse: true) } : make
        suite::ThreadRig.new(suite.total(ctx), reuse: true, &maker)
      end
      r.run { |rig, _ctx| rig.run }
      r.teardown { |rig, _ctx| rig&.stop }
    end
  end

  fiber_loop = <<~RUBY
    # #{suite::WAITERS} waiter fibers in one thread, each (#{total / suite::WAITERS} jobs):
    promise = make_promise              # reuse: promise.reset
    shared << promise                   # an Array
    break unless promise.value.equal?(true)
    done[i] += 1
    # 1 resolver fiber:
    while resolved < total
      if (promise = shared.shift) then promise.fulfill(true); resolved += 1
      else yield_to_other_fibers end
    end
  RUBY
  fiber_estimate = (total / 1_000_000.0) * 4

  { "fresh" => false, "reuse" => true }.each do |variant, reuse|
    s.row "Heddle::Promise, fibers, #{variant}", library: "heddle", compare: "fiber waiters, #{variant}",
                                                 estimate: fiber_estimate, isolate: :trial do |r|
      r.code "# Heddle.concurrently per waiter; Heddle::Promise (reuse: #reset); yield: Heddle.wait(0)\n#{fiber_loop}"
      r.setup do |ctx|
        GC.start
        suite::HeddleFiberRig.new(suite.total(ctx), reuse: reuse)
      end
      r.run { |rig, _ctx| rig.run }
      r.teardown { |rig, _ctx| rig&.stop }
    end

    primitive = reuse ? "Async::Condition per waiter: wait / signal(true)" : "Async::Variable.new: wait / resolve(true)"
    s.row "async #{reuse ? 'Async::Condition' : 'Async::Variable'}, fibers, #{variant}",
          library: "async", compare: "fiber waiters, #{variant}",
          requires: ["async", reuse ? "async/condition" : "async/variable"], estimate: fiber_estimate,
          isolate: :trial do |r|
      r.code "# task.async per waiter; #{primitive}; yield: task.yield\n#{fiber_loop}"
      r.setup do |ctx|
        GC.start
        suite::AsyncFiberRig.new(suite.total(ctx), reuse: reuse)
      end
      r.run { |rig, _ctx| rig.run }
      r.teardown { |rig, _ctx| rig&.stop }
    end
  end

  mixed_loop = <<~RUBY
    # #{suite::WAITERS} waiter fibers in this thread, each (#{total / suite::WAITERS} jobs):
    promise = make_promise
    jobs << promise                     # a Thread::Queue to the resolver thread
    break unless promise.value.equal?(true)
    done[i] += 1
    # 1 resolver thread:
    until (promise = jobs.pop).equal?(STOP) do promise.fulfill(true) end
  RUBY
  { "heddle" => [[], "Heddle.concurrently per waiter; Heddle::Promise.new; value; fulfill(true)"],
    "async" => [["async"], "task.async per waiter; Thread::Queue.new; pop (under async's scheduler); push(true)"] }
    .each do |library, (requires, how)|
    s.row "#{library == 'heddle' ? 'Heddle::Promise' : 'async + Thread::Queue'}, fibers waiting on a thread",
          library: library, compare: "fiber waiters, thread resolver", requires: requires,
          estimate: fiber_estimate * 3, isolate: :trial do |r|
      r.code "# #{how}\n#{mixed_loop}"
      r.setup do |ctx|
        GC.start
        suite::MixedRig.new(suite.total(ctx), library: library.to_sym)
      end
      r.run { |rig, _ctx| rig.run }
      r.teardown { |rig, _ctx| rig&.stop }
    end
  end

  # How the report compares the rows: a Thread::Queue is the floor of thread
  # waiters (every CRuby wake-up costs the same futex pair); the other
  # promises are peers. Fiber waiters meet async's.
  %w[fresh reuse].each do |variant|
    s.group "thread waiters, #{variant}", rows: /, threads, #{variant}\z/, floors: "Thread::Queue, threads, #{variant}"
  end
  s.group "fiber waiters", rows: /fibers/
  s.answer "10 threads waiting for a result, a new promise each time",
           group: "thread waiters, fresh", details: "the promise blocking benchmark (promise-blocking-benchmark.ru)"
  s.answer "10 threads waiting for a result, promises reused", group: "thread waiters, reuse"
  s.answer "10 fibers waiting for a result: heddle vs async", group: "fiber waiters"
end
