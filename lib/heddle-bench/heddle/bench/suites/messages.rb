# frozen_string_literal: true

require_relative "../../bench"

module Heddle
  module Bench
    # The machinery of the `messages` suite (seed more-fiber-benchmarking.txt):
    # a master sends "STATUS" to N workers over pipes and each worker answers
    # "OK", 100,000 round trips in all, with workers that are processes,
    # threads or fibers, written as the seed wrote them, and heddle's pools.
    #
    # Every variant runs in two modes, because the seed's masters did not
    # (docs/workers.md, "messages"): *lockstep* waits for each reply before
    # the next query; *pipelined* sends up to WINDOW queries to every worker
    # before reading their replies. Set-up (pipes, forks, threads, fibers,
    # pools) is in the row's setup, which the harness times apart.
    module MessagesSuite
      QUERY = "STATUS"
      REPLY = "OK"
      # The seed's job is 100,000 round trips (HEDDLE_BENCH_MESSAGES=100000).
      # The default is 20,000 so that 70 rows fit the suite's share of a
      # 15-minute `heddle bench`: at 100,000 the lockstep rows over processes
      # alone took over ten minutes here. Seconds scale linearly with it.
      TOTAL = Integer(ENV.fetch("HEDDLE_BENCH_MESSAGES", "20000"))
      QUICK_TOTAL = 2_000
      # Queries in flight per worker in pipelined mode: 6 KB, well inside a
      # 64 KB pipe buffer, so no master ever blocks on a full pipe.
      WINDOW = 1_000
      # Under --quick at most this many workers (a smoke run must not fork 1,000).
      QUICK_WORKERS = 50

      module_function

      # Seconds of one full trial (set-up, job, teardown) for a variant's
      # cost: { lockstep:, pipelined: } seconds of the job at 20,000 round
      # trips, scaled to TOTAL, plus per_worker seconds of set-up and
      # teardown for each worker (docs/bench.md, "messages": measured here
      # under load; forking a worker process is the largest).
      # @param cost [Hash{Symbol => Float}]
      # @param mode [Symbol] :lockstep or :pipelined
      # @param count [Integer] workers
      # @return [Float]
      def estimate(cost, mode, count) = (cost.fetch(mode) * TOTAL / 20_000.0) + (cost.fetch(:per_worker) * count)

      # @return [Integer] round trips for this trial
      def total(ctx) = ctx.quick? ? QUICK_TOTAL : TOTAL

      # @return [Integer] workers for this trial
      def workers(ctx) = ctx.quick? ? [ctx.params[:workers], QUICK_WORKERS].min : ctx.params[:workers]

      # @return [Array<Integer>] round trips per worker (round-robin shares)
      def shares(total, workers) = Array.new(workers) { |i| (total / workers) + (i < total % workers ? 1 : 0) }

      # @return [Hash] metrics of a trial that saw replies of total
      def metrics(total, replies, mode) = { round_trips: total, failures: total - replies, mode: mode }

      # N pairs of pipes: [query reader, query writer, reply reader, reply writer].
      def pipes(count) = Array.new(count) { IO.pipe + IO.pipe }

      # The seed's worker: blocking reads of one query, one reply each.
      def serve(queries, replies)
        replies.write(REPLY) while queries.read(QUERY.bytesize)
      end

      # --- processes and threads, one master thread ------------------------

      # Forks one worker process per pipe pair, each right after its pipes,
      # so worker k inherits only the master's ends of the k - 1 workers
      # before it. Workers close nothing they inherit: closing every other
      # worker's pipe ends (to see EOF at the end) cost each of 1,000
      # workers ~4,000 close(2) calls, 5-10 us each here, and took 37-69 s
      # to start the 1,000 workers of docs/results/latest (see #stop).
      # Set-up ends when every worker has answered one query, so the timed
      # job never meets a worker still starting.
      # @return [Hash] the master's state
      def start_processes(count)
        writers = []
        readers = []
        pids = Array.new(count) do
          queries, writer = IO.pipe
          reader, replies = IO.pipe
          pid = fork_worker(queries, replies)
          queries.close
          replies.close
          writers << writer
          readers << reader
          pid
        end
        ready(writers, readers)
        { writers: writers, readers: readers, pids: pids }
      end

      # @return [Integer] the pid of a worker serving queries with replies
      def fork_worker(queries, replies)
        fork do
          serve(queries, replies)
          exit!(0)
        end
      end

      # One round trip to every worker before the clock starts.
      # @raise [Heddle::Error] when a worker does not answer
      def ready(writers, readers)
        writers.each { |io| io.write(QUERY) }
        answered = readers.count { |io| io.read(REPLY.bytesize) == REPLY }
        return if answered == writers.size

        raise Heddle::Error, "#{writers.size - answered} of #{writers.size} worker processes did not answer"
      end

      # Starts one worker thread per pipe pair.
      # @return [Hash] the master's state
      def start_threads(count)
        ends = pipes(count)
        threads = ends.map { |(queries, _, _, replies)| Thread.new { serve(queries, replies) } }
        { writers: ends.map { |set| set[1] }, readers: ends.map { |set| set[2] }, threads: threads, ends: ends }
      end

      # Ends every worker and reaps it: threads see EOF once the queries
      # close; worker processes are killed, since a later sibling holds
      # their query pipe open too (they close nothing, see #start_processes).
      def stop(state)
        pids = state.fetch(:pids, [])
        pids.each { |pid| Process.kill(:KILL, pid) }
        state[:writers].each(&:close)
        pids.each { |pid| Process.waitpid(pid) }
        state.fetch(:threads, []).each(&:join)
        state.fetch(:ends, [state[:readers]]).flatten.each { |io| io.close unless io.closed? }
      end

      # The seed's single master thread, in either mode.
      # @return [Integer] replies received
      def select_master(state, total, mode)
        return lockstep(state[:writers], state[:readers], total) if mode == :lockstep

        pipelined_select(state[:writers], state[:readers], total)
      end

      # One query, then its reply, worker after worker.
      # @return [Integer] replies received
      def lockstep(writers, readers, total)
        count = writers.size
        replies = 0
        total.times do |m|
          writers[m % count].write(QUERY)
          replies += 1 if readers[m % count].read(REPLY.bytesize) == REPLY
        end
        replies
      end

      # Rounds of up to WINDOW queries to every worker, then an IO.select
      # loop over the replies (the seed's select master).
      # @return [Integer] replies received
      def pipelined_select(writers, readers, total)
        left = shares(total, writers.size)
        replies = 0
        until left.sum.zero?
          round = left.map { |n| [n, WINDOW].min }
          writers.each_with_index { |io, i| round[i].times { io.write(QUERY) } }
          replies += collect(readers, round)
          left = left.zip(round).map { |n, sent| n - sent }
        end
        replies
      end

      # @return [Integer] replies read: expected[i] from readers[i]
      def collect(readers, expected)
        waiting = readers.each_with_index.to_h { |io, i| [io, expected[i] * REPLY.bytesize] }.reject { |_, b| b.zero? }
        bytes = 0
        until waiting.empty?
          IO.select(waiting.keys)[0].each do |io|
            chunk = io.read_nonblock(waiting[io], exception: false)
            next if chunk == :wait_readable

            bytes += chunk.count("K")
            (waiting[io] -= chunk.bytesize).zero? && waiting.delete(io)
          end
        end
        bytes
      end

      # --- a thread per worker in the master too ----------------------------

      # Worker threads plus one master thread per worker, parked until run.
      def start_thread_per_worker(count, mode)
        state = start_threads(count)
        state[:done] = Thread::Queue.new
        state[:go] = Array.new(count) { Thread::Queue.new }
        state[:masters] = state[:go].each_with_index.map do |go, i|
          Thread.new { master_thread(go, state[:done], state[:writers][i], state[:readers][i], mode) }
        end
        state
      end

      def master_thread(start, done, writer, reader, mode)
        while (n = start.pop)
          done << (mode == :lockstep ? lockstep([writer], [reader], n) : pipelined_one(writer, reader, n))
        end
      end

      # @return [Integer] replies from one worker, WINDOW queries at a time
      def pipelined_one(writer, reader, total)
        replies = 0
        until total.zero?
          round = [total, WINDOW].min
          round.times { writer.write(QUERY) }
          replies += reader.read(round * REPLY.bytesize).count("K")
          total -= round
        end
        replies
      end

      def run_thread_per_worker(state, total)
        shares(total, state[:go].size).each_with_index { |n, i| state[:go][i] << n }
        state[:go].size.times.sum { state[:done].pop }
      end

      def stop_thread_per_worker(state)
        state[:go].each(&:close)
        state[:masters].each(&:join)
        stop(state)
      end

      # --- fibers without a scheduler (the seed's two fiber masters) --------

      # Worker fibers that do n blocking reads each time they are resumed with n.
      def start_fibers(count, nonblock:)
        ends = pipes(count)
        fibers = ends.map do |(queries, _, _, replies)|
          nonblock ? nonblock_fiber(queries, replies) : Fiber.new { |n| blocking_fiber(queries, replies, n) }
        end
        { writers: ends.map { |set| set[1] }, readers: ends.map { |set| set[2] }, fibers: fibers, ends: ends }
      end

      def blocking_fiber(queries, replies, count)
        loop do
          count.times { replies.write(REPLY) if queries.read(QUERY.bytesize) }
          count = Fiber.yield
        end
      end

      # Samuel Williams's variant: read_nonblock until the pipe is empty, then yield.
      def nonblock_fiber(queries, replies)
        Fiber.new do
          loop do
            query = queries.read_nonblock(QUERY.bytesize, exception: false)
            query == :wait_readable ? Fiber.yield : replies.write(REPLY)
          end
        end
      end

      # Writes n queries to each worker, resumes it, reads its replies.
      # @return [Integer] replies received
      def run_fibers(state, total, mode)
        window = mode == :lockstep ? 1 : WINDOW
        left = shares(total, state[:fibers].size)
        replies = 0
        until left.sum.zero?
          state[:fibers].each_with_index do |fiber, i|
            n = [left[i], window].min
            next if n.zero?

            n.times { state[:writers][i].write(QUERY) }
            fiber.resume(n)
            replies += state[:readers][i].read(n * REPLY.bytesize).count("K")
            left[i] -= n
          end
        end
        replies
      end

      # --- heddle: fibers on heddle's loop, over the same pipes -----------------

      # A thread running Heddle.run: worker fibers doing plain blocking reads
      # (heddle's Fiber::Scheduler suspends them) and a master fiber that runs
      # each job it is handed.
      def start_heddle_fibers(count, mode)
        state = start_pipes_only(count)
        state[:go] = Thread::Queue.new
        state[:done] = Thread::Queue.new
        state[:thread] = Thread.new do
          Heddle.run do
            state[:ends].each { |(queries, _, _, replies)| Fiber.schedule { serve(queries, replies) } }
            while (n = state[:go].pop)
              state[:done] << heddle_master(state, n, mode)
            end
          end
        end
        state
      end

      def start_pipes_only(count)
        ends = pipes(count)
        { writers: ends.map { |set| set[1] }, readers: ends.map { |set| set[2] }, ends: ends }
      end

      def heddle_master(state, total, mode)
        return lockstep(state[:writers], state[:readers], total) if mode == :lockstep

        shares(total, state[:writers].size).each_with_index.sum do |n, i|
          pipelined_one(state[:writers][i], state[:readers][i], n)
        end
      end

      # --- heddle's pools: messages through the pool's own channel ------------

      # A pool whose workers answer "OK" to "STATUS" (its channel: pipes for
      # processes, a queue for threads and fibers).
      def start_pool(worker, count)
        { pool: Heddle::Pool.new(worker: worker, size: count) { |query| query == QUERY ? REPLY : "?" } }
      end

      # A fiber pool made inside Heddle.run, as a heddle program would: its
      # fibers and the master share one loop, so an ask wakes no thread.
      # The run lives on a thread of its own that takes one job per trial.
      def start_fiber_pool(count, mode)
        state = { go: Thread::Queue.new, done: Thread::Queue.new }
        state[:thread] = Thread.new do
          Heddle.run do
            pool = start_pool(:fiber, count)
            while (total = state[:go].pop)
              state[:done] << run_pool(pool, total, mode)
            end
            pool[:pool].shutdown
          end
        end
        state
      end

      def stop_fiber_pool(state)
        state[:go].close
        state[:thread].join
      end

      # Lockstep: ask and wait for each answer; pipelined: one map of all queries.
      # @return [Integer] replies received
      def run_pool(state, total, mode)
        pool = state[:pool]
        return total.times.count { pool.ask(QUERY) == REPLY } if mode == :lockstep

        pool.map(Array.new(total, QUERY)).count(REPLY)
      end

      def stop_heddle_fibers(state)
        state[:go].close
        state[:writers].each(&:close)
        state[:thread].join
        state[:ends].flatten.each { |io| io.close unless io.closed? }
      end
    end
  end
end

# The seed's message benchmark, every variant in both modes.
Heddle::Bench.suite(:messages) do |s|
  total_label = Heddle::Bench::MessagesSuite::TOTAL.to_s.reverse.scan(/\d{1,3}/).join(",").reverse
  s.title "Messages: #{total_label} STATUS/OK round trips between a master and N workers"
  s.seed "more-fiber-benchmarking.txt"
  s.description "Seconds for #{total_label} round trips (lower is better; the seed's job is 100,000: " \
                "HEDDLE_BENCH_MESSAGES=100000 runs it). A query is \"STATUS\" (6 bytes), a reply " \
                "\"OK\" (2 bytes). lockstep: the master waits for each reply before the next query (the seed's " \
                "fiber and thread-per-worker masters); pipelined: it sends up to 1,000 queries to every worker " \
                "before reading their replies (the seed's process and select masters streamed). Set-up (pipes, " \
                "forks, threads, fibers, pools) is timed apart; worker processes have each answered one query " \
                "before the clock starts. What moves: the seed's variants and 'heddle fibers " \
                "over pipes' write and read bytes through pipes (4 syscalls per round trip); heddle's process pool " \
                "sends Marshal frames through pipes; heddle's thread pool hands Ruby objects over a Thread::Queue " \
                "(2 thread wake-ups per lockstep message) and heddle's fiber pool hands them between fibers of one " \
                "loop (an ask is a resume!/await_resume! hand-over, no syscall). The pools' rows therefore do less " \
                "work per message than the seed's: compare them with 'heddle fibers over pipes' for the like-" \
                "for-like fiber figure. Under --quick: 2,000 round trips, the 10 and 100 worker rows " \
                "(at most 50 workers). The seed ran 30 " \
                "trials; --trials 30 reproduces that."
  s.kind :duration
  s.unit "seconds for #{total_label} round trips"
  s.trials 2
  # 69 rows at the minimum 3 trials take ~5 min here at load ~10 (the
  # rows' estimates, docs/bench.md "messages"); a smaller budget could not
  # shrink it, only misstate it.
  s.budget 320
  s.chart x: :workers

  suite = Heddle::Bench::MessagesSuite
  counts = [5, 10, 100, 1000]
  # Under --quick one count run in this process and one in the isolated child (100 workers run as 50).
  quick_counts = [10, 100]
  modes = %i[lockstep pipelined]

  master_code = {
    lockstep: "total.times { |m| writers[m % n].write(\"STATUS\"); readers[m % n].read(2) }",
    pipelined: "rounds: up to 1,000 writers[i].write(\"STATUS\") to every worker, then IO.select over the " \
               "readers until every \"OK\" of the round is read",
    one_by_one: "per worker: 1,000 writer.write(\"STATUS\") then reader.read(2_000), repeated"
  }
  variants = {
    "processes" => {
      library: "ruby", cost: { lockstep: 1.0, pipelined: 0.35, per_worker: 0.03 }, heavy: true,
      code: ->(mode) { "workers: fork { replies.write(\"OK\") while queries.read(6) }\nmaster: #{master_code[mode]}" },
      setup: ->(n, _mode) { suite.start_processes(n) },
      run: ->(st, total, mode) { suite.select_master(st, total, mode) },
      teardown: ->(st) { suite.stop(st) }
    },
    "threads, select master" => {
      library: "ruby", cost: { lockstep: 0.6, pipelined: 0.3, per_worker: 0.0004 }, heavy: true,
      code: lambda { |mode|
        "workers: Thread.new { replies.write(\"OK\") while queries.read(6) }\nmaster: #{master_code[mode]}"
      },
      setup: ->(n, _mode) { suite.start_threads(n) },
      run: ->(st, total, mode) { suite.select_master(st, total, mode) },
      teardown: ->(st) { suite.stop(st) }
    },
    "thread per worker" => {
      library: "ruby", cost: { lockstep: 0.8, pipelined: 0.2, per_worker: 0.0008 }, heavy: true,
      code: lambda { |mode|
        "workers: Thread.new { replies.write(\"OK\") while queries.read(6) }\n" \
        "masters: one Thread per worker: " +
          (if mode == :lockstep
             "share.times { writer.write(\"STATUS\"); reader.read(2) }"
           else
             "1,000 writer.write(\"STATUS\") then reader.read(2_000), repeated"
           end)
      },
      setup: ->(n, mode) { suite.start_thread_per_worker(n, mode) },
      run: ->(st, total, _mode) { suite.run_thread_per_worker(st, total) },
      teardown: ->(st) { suite.stop_thread_per_worker(st) }
    },
    "fibers, blocking read" => {
      library: "ruby", cost: { lockstep: 0.25, pipelined: 0.15, per_worker: 0.00015 }, heavy: false,
      code: lambda { |mode|
        "workers: Fiber.new { |n| loop { n.times { replies.write(\"OK\") if queries.read(6) }; n = Fiber.yield } }\n" \
          "master: #{mode == :lockstep ? 1 : '1,000'} writer.write(\"STATUS\") per worker, fiber.resume(n), " \
          "reader.read(2 * n), worker after worker"
      },
      setup: ->(n, _mode) { suite.start_fibers(n, nonblock: false) },
      run: ->(st, total, mode) { suite.run_fibers(st, total, mode) },
      teardown: ->(st) { suite.stop(st) }
    },
    "fibers, read_nonblock" => {
      library: "ruby", cost: { lockstep: 0.35, pipelined: 0.2, per_worker: 0.0001 }, heavy: false,
      code: lambda { |mode|
        "workers: Fiber.new { loop { q = queries.read_nonblock(6, exception: false)\n  " \
          "q == :wait_readable ? Fiber.yield : replies.write(\"OK\") } }\n" \
          "master: #{mode == :lockstep ? 1 : '1,000'} writer.write(\"STATUS\") per worker, fiber.resume, " \
          "reader.read(2 * n), worker after worker"
      },
      setup: ->(n, _mode) { suite.start_fibers(n, nonblock: true) },
      run: ->(st, total, mode) { suite.run_fibers(st, total, mode) },
      teardown: ->(st) { suite.stop(st) }
    },
    "heddle fibers over pipes" => {
      library: "heddle", cost: { lockstep: 0.85, pipelined: 0.27, per_worker: 0.00035 }, heavy: false,
      code: lambda { |mode|
        master = mode == :lockstep ? master_code[:lockstep] : master_code[:one_by_one]
        "Heddle.run do\n  workers: Fiber.schedule { replies.write(\"OK\") while queries.read(6) }\n  " \
          "master: #{master}\nend  # blocking reads suspend only their fiber"
      },
      setup: ->(n, mode) { suite.start_heddle_fibers(n, mode) },
      run: lambda { |st, total, _mode|
        st[:go] << total
        st[:done].pop
      },
      teardown: ->(st) { suite.stop_heddle_fibers(st) }
    }
  }
  # What each pool's channel moves (docs/workers.md, "messages").
  channel = {
    fiber: "in memory: an ask hands the message to an idle pool fiber of the same loop (resume!/await_resume!)",
    thread: "in memory: a Thread::Queue to the worker threads, the answer on the asking fiber's own queue",
    process: "pipes: Marshal frames to and from each worker process, through a lane thread"
  }
  pool_job = lambda { |worker, mode|
    job = mode == :lockstep ? "total.times { pool.ask(\"STATUS\") }" : "pool.map(Array.new(total, \"STATUS\"))"
    "pool = Heddle::Pool.new(worker: #{worker.inspect}, size: n) { |q| q == \"STATUS\" ? \"OK\" : \"?\" }  " \
      "# setup\n#{job}  # #{channel[worker]}"
  }
  variants["heddle fiber pool"] = {
    library: "heddle", cost: { lockstep: 0.1, pipelined: 0.04, per_worker: 0.00005 }, heavy: false,
    code: lambda { |mode|
      "Heddle.run do  # the master and the pool's fibers share one loop\n#{pool_job.call(:fiber, mode)}\nend"
    },
    setup: ->(n, mode) { suite.start_fiber_pool(n, mode) },
    run: lambda { |st, total, _mode|
      st[:go] << total
      st[:done].pop
    },
    teardown: ->(st) { suite.stop_fiber_pool(st) }
  }
  pool_cost = { thread: { lockstep: 0.7, pipelined: 0.04, per_worker: 0.0003 },
                process: { lockstep: 5.0, pipelined: 0.9, per_worker: 0.03 } }
  %i[thread process].each do |worker|
    variants["heddle #{worker} pool"] = {
      library: "heddle", cost: pool_cost[worker], heavy: true,
      code: ->(mode) { pool_job.call(worker, mode) },
      setup: ->(n, _mode) { suite.start_pool(worker, n) },
      run: ->(st, total, mode) { suite.run_pool(st, total, mode) },
      teardown: ->(st) { st[:pool].shutdown }
    }
  end

  variants.each do |name, variant|
    modes.each do |mode|
      # 1,000 processes forked by heddle's pool (a lane thread each, from the
      # harness's heap) take over a minute to start here; the seed's own
      # process rows cover N = 1,000.
      # Lockstep over heddle's process pool crosses two threads and a process
      # per message (14-53 s a trial at 100 workers here): 5 and 10 show it.
      skip = if name == "heddle process pool"
               mode == :lockstep ? [100, 1000] : [1000]
             else
               []
             end
      (counts - skip).each do |n|
        s.row "#{name}, #{mode}, #{n} workers", library: variant[:library], compare: "#{mode}, #{n} workers",
                                                params: { workers: n, mode: mode }, series: "#{name}, #{mode}",
                                                isolate: variant[:heavy] && n >= 100,
                                                quick: quick_counts.include?(n),
                                                estimate: suite.estimate(variant[:cost], mode, n) do |r|
          r.code variant[:code].call(mode)
          r.setup { |ctx| [variant[:setup].call(suite.workers(ctx), mode), suite.total(ctx)] }
          r.run { |(st, total), _ctx| suite.metrics(total, variant[:run].call(st, total, mode), mode) }
          r.teardown { |(st, _total), _ctx| variant[:teardown].call(st) }
        end
      end
    end
  end

  # How the report compares the rows: per mode, heddle's fibers against the
  # seed's fibers, its thread pool against the seed's two thread masters,
  # its process pool against the seed's processes, at the same worker count.
  seed_rows = { "heddle fibers over pipes" => ["fibers, blocking read", "fibers, read_nonblock"],
                "heddle fiber pool" => ["fibers, blocking read", "fibers, read_nonblock"],
                "heddle thread pool" => ["threads, select master", "thread per worker"],
                "heddle process pool" => ["processes"] }
  { lockstep: "the master waits for each reply", pipelined: "up to 1,000 queries in flight per worker" }
    .each do |mode, what|
    pairs = counts.product(seed_rows.to_a).filter_map do |n, (heddle, seed)|
      name = "#{heddle}, #{mode}, #{n} workers"
      [name, seed.map { |variant| "#{variant}, #{mode}, #{n} workers" }] if s.row_named(name)
    end
    s.group "#{mode}: #{what}", rows: /, #{mode}, \d+ workers\z/, pairs: pairs.to_h,
                                note: "Lines over the worker count; heddle's solid, the seed's dashed."
  end
  s.backends "trivial", title: "tiny messages to 10 workers", source: "a pool, one reply awaited at a time",
                        rows: %w[fiber thread process].to_h { |w| [w, "heddle #{w} pool, lockstep, 10 workers"] }
  s.answer "Request and reply with workers over pipes, from fibers: heddle vs plain fibers",
           details: "the fibers vs threads vs processes benchmark (more-fiber-benchmarking.txt), its lockstep rows",
           group: "lockstep: the master waits for each reply", heddle: /\Aheddle fibers over pipes, lockstep/,
           peer: "plain fibers with blocking reads"
  s.answer "Request and reply with a pool of fiber workers: heddle vs plain fibers over pipes",
           group: "lockstep: the master waits for each reply", heddle: /\Aheddle fiber pool, lockstep/,
           peer: "plain fibers with blocking reads"
end
