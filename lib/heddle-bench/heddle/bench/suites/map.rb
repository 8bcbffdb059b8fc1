# frozen_string_literal: true

require_relative "../../bench"

module Heddle
  module Bench
    # The work of the `map` suite: item handlers as module methods, so that
    # every backend (ractors included: a module is shareable) and the
    # parallel gem (whose ractor mode takes [Class, :method]) call the same code.
    module MapSuite
      TRIVIAL_ITEMS = 1_000
      HEAVY_ITEMS = 100
      QUICK_HEAVY_ITEMS = 10
      WORKERS = 2

      # A trivial item: what a per-item overhead costs shows.
      # @param item [Integer] @return [Integer]
      def self.trivial(item) = item * 2

      # A CPU-heavy item: tarai(10, 5, 0) (the pbt seed's function, one size
      # up), ~8 ms of CPU here.
      # @param item [Integer] @return [Integer]
      def self.heavy(item) = tarai(10, 5, 0) + item

      # @return [Integer]
      def self.tarai(x, y, z) # rubocop:disable Naming/MethodParameterName -- the seed's names
        x <= y ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y))
      end

      # The items of a job. Called in every row's setup, so it also works
      # out the results the map must give (see {.expected}) there, untimed.
      # @return [Array<Integer>]
      def self.items(job, ctx)
        count = ctx.quick? ? QUICK_HEAVY_ITEMS : HEAVY_ITEMS
        count = TRIVIAL_ITEMS if job == :trivial
        Array.new(count) { |i| i }.tap { |items| expected(job, items) }
      end

      # The results a job's map must give, worked out once per process. The
      # check used to map the items itself inside the timed run: 100 heavy
      # items added ~0.65 s of serial work to every heavy row, which held
      # even two plain forks at ~1.3x a plain map (Amdahl), not ~1.9x.
      # @return [Array<Integer>]
      def self.expected(job, items)
        (@expected ||= {})[[job, items.size]] ||= items.map { |i| job == :trivial ? trivial(i) : heavy(i) }
      end

      # The machine's ceiling for the heavy map: two plain forks, each mapping
      # a static half and sending its results back over a pipe (no pool, no
      # chunks). What two cores give in this minute, for the ratios.
      # @param items [Array<Integer>] @return [Array<Integer>]
      def self.two_forks(items)
        forks = items.each_slice((items.size + 1) / 2).map { |half| fork_half(half) }
        forks.flat_map { |pid, reader| collect_half(pid, reader) }
      end

      # @return [(Integer, IO)] the child's pid and the pipe its results come on
      def self.fork_half(half)
        reader, writer = IO.pipe
        pid = fork do
          reader.close
          writer.write(Marshal.dump(half.map { |i| heavy(i) }))
          exit!(0)
        end
        writer.close
        [pid, reader]
      end

      # @return [Array] a fork's results, once it has been reaped
      def self.collect_half(pid, reader)
        Marshal.load(reader.read) # rubocop:disable Security/MarshalLoad -- our own child wrote it
      ensure
        reader.close
        Process.wait(pid)
      end

      # @return [Hash] metrics; a wrong result counts as a failure
      def self.check(job, items, results)
        { items: items.size, failures: results == expected(job, items) ? 0 : 1 }
      end
    end
  end
end

# Heddle's backends against the parallel gem and a plain map (docs/workers.md).
Heddle::Bench.suite(:map) do |s|
  s.title "Map: 1,000 trivial items and 100 CPU-heavy items over 2 workers"
  s.description "Seconds per map (lower is better). 'warm' pools are started in the row's setup (timed apart), " \
                "run one untimed map there and are reused, as a program keeps a Heddle::Pool; 'cold' rows " \
                "start and stop their workers inside " \
                "the timed map, as Parallel.map does on every call. Heavy items are tarai(10, 5, 0), ~8 ms of " \
                "CPU each. Ractor rows run each trial in a fresh process. Targets: 1,000 trivial items, heddle " \
                "process pool (warm) >= 5x Parallel.map(in_processes: 2), heddle threads >= parallel threads; " \
                "100 heavy items, heddle process and ractor >= 1.7x heddle inline. The machine is shared: compare " \
                "ratios within the run and the CPU times; '2 plain forks' is what two cores gave in the same run."
  s.kind :duration
  s.unit "seconds per map"
  s.trials 3
  s.budget 120

  suite = Heddle::Bench::MapSuite
  jobs = { trivial: "1,000 trivial items", heavy: "100 CPU-heavy items" }

  jobs.each do |job, label|
    meth = job == :trivial ? :trivial : :heavy
    estimate = job == :trivial ? 0.05 : 0.8
    run = ->(items, ctx_results) { suite.check(job, items, ctx_results) }

    s.row "#{label}: plain map", library: "ruby", compare: label, params: { job: job, worker: :map },
                                 estimate: estimate do |r|
      r.code "items.map { |i| Heddle::Bench::MapSuite.#{meth}(i) }"
      r.setup { |ctx| suite.items(job, ctx) }
      r.run { |items, _ctx| run.call(items, items.map { |i| suite.public_send(meth, i) }) }
    end

    %i[inline fiber thread process ractor].each do |worker|
      s.row "#{label}: heddle #{worker} pool, warm", library: "heddle", compare: label,
                                                     params: { job: job, worker: worker, pool: :warm },
                                                     isolate: worker == :ractor, estimate: estimate do |r|
        r.code "pool = Heddle::Pool.new(worker: #{worker.inspect}, size: 2, " \
               "&Heddle::Bench::MapSuite.method(:#{meth}))  " \
               "# setup\npool.map(items)  # setup: warm means the workers have run a map before\npool.map(items)"
        # Warm: a first map right after the fork pays the workers' first
        # touches of their copy-on-write heap (~50 us a page here), ~60 ms
        # of 1,000 trivial items on processes; a pool that is kept pays it once.
        r.setup do |ctx|
          items = suite.items(job, ctx)
          pool = Heddle::Pool.new(worker: worker, size: suite::WORKERS, &suite.method(meth))
          pool.map(items)
          [items, pool]
        end
        r.run { |(items, pool), _ctx| run.call(items, pool.map(items)) }
        r.teardown { |(_items, pool), _ctx| pool.shutdown }
      end
    end

    if job == :heavy
      s.row "#{label}: 2 plain forks, static halves (the ceiling)", library: "ruby", compare: label,
                                                                    params: { job: job, worker: :forks },
                                                                    estimate: estimate do |r|
        r.code "Heddle::Bench::MapSuite.two_forks(items)  # fork { half.map { heavy } } twice, results over pipes"
        r.setup { |ctx| suite.items(job, ctx) }
        r.run { |items, _ctx| run.call(items, suite.two_forks(items)) }
      end
    end

    %i[process thread].each do |worker|
      s.row "#{label}: Heddle.map #{worker}, cold", library: "heddle", compare: label,
                                                    params: { job: job, worker: worker, pool: :cold },
                                                    estimate: estimate do |r|
        r.code "Heddle.map(items, worker: #{worker.inspect}, size: 2, &Heddle::Bench::MapSuite.method(:#{meth}))"
        r.setup { |ctx| suite.items(job, ctx) }
        r.run do |items, _ctx|
          run.call(items, Heddle.map(items, worker: worker, size: suite::WORKERS, &suite.method(meth)))
        end
        # Heddle.map kills its workers and reaps them in the background: wait (untimed) so their CPU counts.
        r.teardown { |_items, _ctx| Heddle::Workers::Processes::Backend.drain_reaper }
      end
    end

    %i[in_processes in_threads].each do |mode|
      s.row "#{label}: Parallel.map #{mode}: 2", library: "parallel", compare: label,
                                                 params: { job: job, worker: mode }, requires: ["parallel"],
                                                 estimate: estimate do |r|
        r.code "Parallel.map(items, #{mode}: 2) { |i| Heddle::Bench::MapSuite.#{meth}(i) }"
        r.setup { |ctx| suite.items(job, ctx) }
        r.run { |items, _ctx| run.call(items, Parallel.map(items, mode => 2) { |i| suite.public_send(meth, i) }) }
      end
    end

    s.row "#{label}: Parallel.map in_ractors: 2", library: "parallel", compare: label,
                                                  params: { job: job, worker: :in_ractors }, requires: ["parallel"],
                                                  isolate: true, timeout: 30, estimate: estimate do |r|
      r.code "Parallel.map(items, in_ractors: 2, ractor: [Heddle::Bench::MapSuite, :#{meth}])"
      r.setup do |ctx|
        Warning[:experimental] = false
        suite.items(job, ctx)
      end
      r.run { |items, _ctx| run.call(items, Parallel.map(items, in_ractors: 2, ractor: [suite, meth])) }
    end
  end

  # How the report compares the rows (docs/bench.md, "Comparison groups"):
  # each heddle backend against the Parallel mode with the same resources; the
  # plain map is the floor, and for heavy items two plain forks the ceiling.
  peers = { "heddle process pool, warm" => "Parallel.map in_processes: 2",
            "Heddle.map process, cold" => "Parallel.map in_processes: 2",
            "heddle thread pool, warm" => "Parallel.map in_threads: 2",
            "Heddle.map thread, cold" => "Parallel.map in_threads: 2",
            "heddle ractor pool, warm" => "Parallel.map in_ractors: 2" }
  jobs.each do |job, label|
    floors = ["#{label}: plain map"]
    floors << "#{label}: 2 plain forks, static halves (the ceiling)" if job == :heavy
    s.group label, rows: /\A#{Regexp.escape(label)}: /, floors: floors,
                   pairs: peers.to_h { |heddle, peer| ["#{label}: #{heddle}", "#{label}: #{peer}"] },
                   note: "Each heddle backend against Parallel with the same 2 workers; inline and fiber pools " \
                         "have no Parallel counterpart. Baseline: the plain map in this process."
    s.backends job == :trivial ? "trivial" : "CPU-heavy",
               title: label.sub("trivial", "tiny"), source: "a map on a warm pool", scale: "#{label}: plain map",
               rows: Heddle::Bench::Presentation::BACKENDS.to_h { |w| [w, "#{label}: heddle #{w} pool, warm"] }
  end
  s.answer "1,000 trivial items over 2 processes", group: "1,000 trivial items",
                                                   heddle: "1,000 trivial items: heddle process pool, warm", target: 5
  s.answer "1,000 trivial items over 2 threads", group: "1,000 trivial items",
                                                 heddle: "1,000 trivial items: heddle thread pool, warm", target: 1
  s.answer "100 CPU-heavy items over 2 processes", group: "100 CPU-heavy items",
                                                   heddle: "100 CPU-heavy items: heddle process pool, warm"
end
