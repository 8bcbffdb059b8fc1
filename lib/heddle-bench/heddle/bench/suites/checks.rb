# frozen_string_literal: true

require "tmpdir"
require_relative "../../bench"

module Heddle
  module Bench
    # The work of the `checks` suite (seed pbt-worker-benchmark.txt): the
    # seed's four property bodies, as module methods so that every backend
    # (ractors included: a module is shareable) calls the same code.
    module ChecksSuite
      # The seed scripts' seed: with it Pbt's failure_simple fails on an early
      # run and shrinks 13 times to 114.
      SEED = 17_243_810_592_888_013_452_170_775_373_100_387_856
      # The seed's io_bound file: lipsum, 150 paragraphs, 92,206 bytes.
      TEXT_PATH = File.join(Dir.tmpdir, "heddle-checks-lipsum-#{Process.uid}.txt").freeze
      TEXT_BYTES = 92_206
      WORDS = %w[lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et
                 dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea
                 commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla
                 pariatur].freeze

      # simple: x + 1.
      # @param value [Integer] @return [Integer]
      def self.simple(value) = value + 1

      # cpu_bound: the seed's tarai; tarai(9, 4, 0) makes 55,229 calls.
      # @return [Integer]
      def self.tarai(x, y, z) # rubocop:disable Naming/MethodParameterName -- the seed's names
        x <= y ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y))
      end

      # io_bound: read the ~92 KB file and append a string.
      # @param str [String] @return [String]
      def self.io_bound(str) = File.read(TEXT_PATH) + str

      # failure_simple: raises above 100.
      # @param value [Integer] @return [nil]
      def self.failure(value) = value > 100 ? raise("#{value} > 100") : nil

      # Writes the io_bound file (deterministic text of TEXT_BYTES bytes) unless it is there.
      # @return [String] its path
      def self.write_text
        return TEXT_PATH if File.file?(TEXT_PATH) && File.size(TEXT_PATH) == TEXT_BYTES

        rng = Random.new(1)
        text = +""
        text << "#{Array.new(60 + rng.rand(80)) { WORDS[rng.rand(WORDS.size)] }.join(' ').capitalize}.\n\n" while
          text.bytesize < TEXT_BYTES
        File.write(TEXT_PATH, text.byteslice(0, TEXT_BYTES))
        TEXT_PATH
      end

      # glibc's malloc_trim, when this Ruby's malloc has it (nil elsewhere).
      MALLOC_TRIM = begin
        require "fiddle"
        Fiddle::Function.new(Fiddle::Handle::DEFAULT["malloc_trim"], [Fiddle::TYPE_SIZE_T], Fiddle::TYPE_INT)
      rescue LoadError, Fiddle::DLError
        nil
      end

      # Untimed, before every check: frees the garbage of what ran before
      # (the warm-up check) and gives the memory malloc holds free back to
      # the kernel, so that a check's allocations land on fresh pages on
      # every trial and every row. Whether malloc kept or returned that
      # memory otherwise depended on what was allocated above it, i.e. on the
      # process's history, and decided io_bound (0 or 4,400 page faults).
      # @return [void]
      def self.release_free_memory
        GC.start
        MALLOC_TRIM&.call(0)
      end

      # @param counterexample [Object, nil] nil when the check did not fail (a failed trial)
      # @param shrinks [Integer]
      # @return [Hash] a failure_simple trial's metrics
      def self.failure_metrics(counterexample, shrinks)
        { counterexample: counterexample, shrinks: shrinks, failures: counterexample.nil? ? 1 : 0 }
      end
    end
  end
end

# Property checks on every heddle backend beside Pbt 0.7.0 (docs/check.md). One trial
# is one check (100 runs, plus shrinking for failure_simple), as one
# iteration of the seed's benchmark-ips scripts.
Heddle::Bench.suite(:checks) do |s|
  s.title "Property checks: 100 runs per check on each worker backend, beside Pbt 0.7.0"
  s.seed "pbt-worker-benchmark.txt"
  s.description "Seconds per check (lower is better; checks/s = 1 / seconds, the seed's i/s). A check builds " \
                "its property and runs it, as the seed's scripts do in each iteration; heddle's fiber, thread and " \
                "process backends start one pool per check (lazy forks) and shut it down, its ractor backend " \
                "starts a ractor per chunk of runs (two alive per worker). Every trial runs in a process " \
                "forked for it alone, and its setup gives the memory malloc holds free back to the kernel " \
                "(GC.start, malloc_trim), so every check's allocations land on fresh pages: before, io_bound's " \
                "18 MB of strings reused what earlier checks had left in malloc (0 page faults) or not (4,400, " \
                "~55 ms) depending on the rows run before, not on the row. failure_simple " \
                "uses the seed's seed: Pbt shrinks to 114, heddle to 101. 'fork per batch' is heddle's engine on " \
                "fresh processes for every batch (parallel gem), what Pbt 0.4's process worker did. " \
                "Targets: each case, heddle's best >= Pbt's best and heddle inline >= Pbt none; cpu_bound heddle " \
                "process or ractor >= 1.7x heddle inline; heddle process >= 20x fork per batch."
  s.kind :duration
  s.unit "seconds per check"
  s.trials 7
  s.budget 120

  suite = Heddle::Bench::ChecksSuite
  heddle_workers = %i[inline fiber thread process ractor]

  # Per case: how the heddle and Pbt rows build and run one check, and the printed code.
  cases = {
    "simple" => {
      warmups: 30,
      estimate: 0.05,
      heddle: lambda { |worker, _ctx|
        prop = Heddle::Check.property(Heddle::Check.integer) { |x| Heddle::Bench::ChecksSuite.simple(x) }
        Heddle::Check.assert(prop, worker: worker, seed: suite::SEED)
        nil
      },
      pbt: lambda { |worker, _ctx|
        Pbt.assert(worker: worker, seed: suite::SEED, num_runs: 100) do
          Pbt.property(Pbt.integer) { |x| Heddle::Bench::ChecksSuite.simple(x) }
        end
        nil
      },
      heddle_code: "prop = Heddle::Check.property(Heddle::Check.integer) { |x| " \
                   "Heddle::Bench::ChecksSuite.simple(x) }\n" \
                   "Heddle::Check.assert(prop, worker: WORKER, seed: SEED)  # simple(x) = x + 1",
      pbt_code: "Pbt.assert(worker: WORKER, seed: SEED, num_runs: 100) do\n  " \
                "Pbt.property(Pbt.integer) { |x| Heddle::Bench::ChecksSuite.simple(x) }\nend"
    },
    "cpu_bound" => {
      warmups: 3,
      estimate: 0.6,
      heddle: lambda { |worker, ctx|
        prop = Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) do |x, y, z|
          Heddle::Bench::ChecksSuite.tarai(x, y, z)
        end
        Heddle::Check.assert(prop, worker: worker, runs: ctx.quick? ? 10 : 100)
        nil
      },
      pbt: lambda { |worker, ctx|
        Pbt.assert(worker: worker, num_runs: ctx.quick? ? 10 : 100) do
          Pbt.property(Pbt.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) }
        end
        nil
      },
      heddle_code: "prop = Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) do |x, y, z|\n  " \
                   "Heddle::Bench::ChecksSuite.tarai(x, y, z)  # 55,229 calls\nend\n" \
                   "Heddle::Check.assert(prop, worker: WORKER, runs: ctx.quick? ? 10 : 100)",
      pbt_code: "Pbt.assert(worker: WORKER, num_runs: ctx.quick? ? 10 : 100) do\n  " \
                "Pbt.property(Pbt.constant([9, 4, 0])) { |x, y, z| Heddle::Bench::ChecksSuite.tarai(x, y, z) }\nend"
    },
    "io_bound" => {
      warmups: 10,
      estimate: 0.1,
      heddle: lambda { |worker, _ctx|
        prop = Heddle::Check.property(Heddle::Check.ascii_string) { |str| Heddle::Bench::ChecksSuite.io_bound(str) }
        Heddle::Check.assert(prop, worker: worker, seed: suite::SEED)
        nil
      },
      pbt: lambda { |worker, _ctx|
        Pbt.assert(worker: worker, seed: suite::SEED, num_runs: 100) do
          Pbt.property(Pbt.ascii_string) { |str| Heddle::Bench::ChecksSuite.io_bound(str) }
        end
        nil
      },
      heddle_code: "prop = Heddle::Check.property(Heddle::Check.ascii_string) { |str| " \
                   "Heddle::Bench::ChecksSuite.io_bound(str) }\n" \
                   "Heddle::Check.assert(prop, worker: WORKER, seed: SEED)  " \
                   "# io_bound(str) = File.read(92 KB file) + str",
      pbt_code: "Pbt.assert(worker: WORKER, seed: SEED, num_runs: 100) do\n  " \
                "Pbt.property(Pbt.ascii_string) { |str| Heddle::Bench::ChecksSuite.io_bound(str) }\nend"
    },
    "failure_simple" => {
      warmups: 30,
      estimate: 0.1,
      heddle: lambda do |worker, _ctx|
        prop = Heddle::Check.property(Heddle::Check.integer) { |x| Heddle::Bench::ChecksSuite.failure(x) }
        Heddle::Check.assert(prop, worker: worker, seed: suite::SEED)
        suite.failure_metrics(nil, 0)
      rescue Heddle::Check::Failure => e
        suite.failure_metrics(e.result.counterexample, e.result.shrinks)
      end,
      pbt: lambda do |worker, _ctx|
        Pbt.assert(worker: worker, seed: suite::SEED, num_runs: 100) do
          Pbt.property(Pbt.integer) { |x| Heddle::Bench::ChecksSuite.failure(x) }
        end
        suite.failure_metrics(nil, 0)
      rescue Pbt::PropertyFailure => e
        suite.failure_metrics(e.message[/counterexample: (\S+)/, 1] || "?", e.message[/Shrunk (\d+) time/, 1].to_i)
      end,
      heddle_code: "prop = Heddle::Check.property(Heddle::Check.integer) { |x| " \
                   "Heddle::Bench::ChecksSuite.failure(x) }\n" \
                   "Heddle::Check.assert(prop, worker: WORKER, seed: SEED)  # failure(x) = x > 100 ? raise : nil\n" \
                   "rescue Heddle::Check::Failure  # shrunk to 101",
      pbt_code: "Pbt.assert(worker: WORKER, seed: SEED, num_runs: 100) do\n  " \
                "Pbt.property(Pbt.integer) { |x| Heddle::Bench::ChecksSuite.failure(x) }\nend\n" \
                "rescue Pbt::PropertyFailure  # shrunk to 114"
    }
  }

  setup = lambda do |_ctx|
    suite.write_text
    suite.release_free_memory
  end
  # Every row is `isolate: :trial` and its setup releases malloc's free
  # memory: a check's cost depends on the heap it starts from. io_bound
  # allocates 100 x 184 KB of strings; whether malloc still held the memory
  # an earlier check freed (no page fault) or had given it back to the
  # kernel (4,400 faults, ~55 ms) depended on the rows run before, in a
  # shared process and (less often) in a forked one, so the same row took
  # 4 ms or 75 ms (docs/journal/check.md, "Every trial in a process of its own").
  # A check's killed workers are reaped in the background; wait for them
  # (untimed) so that their CPU counts in the trial's children CPU.
  reaped = ->(_state, _ctx) { Heddle::Workers::Processes::Backend.drain_reaper }
  # The seed measured each check after benchmark-ips's 2-second warm-up, so
  # every row (heddle's and Pbt's alike) runs untimed checks first: 30 of the
  # short ones, fewer of the long ones. Under YJIT a method is compiled after
  # 30 calls, and a check's per-check methods (setup, the shrinker's phases,
  # the report) are called once per check: after a single warm-up check
  # heddle's larger engine was still compiling in the timed one on 3.3 --yjit
  # (simple: 0.70 ms against Pbt's 0.33; after 50 checks 0.15 against 0.28).
  warmups = ->(spec) { spec.fetch(:warmups) }

  cases.each do |name, spec|
    heddle_workers.each do |worker|
      s.row "#{name}: heddle #{worker}", library: "heddle", compare: name, params: { case: name, worker: worker },
                                         requires: ["heddle/check"], isolate: :trial,
                                         estimate: spec[:estimate], warmups: warmups.call(spec) do |r|
        r.code spec[:heddle_code].sub("WORKER", worker.inspect)
        r.setup(&setup)
        r.run { |_state, ctx| spec[:heddle].call(worker, ctx) }
        r.teardown(&reaped) if worker == :process
      end
    end
    %i[none ractor].each do |worker|
      s.row "#{name}: pbt #{worker}", library: "pbt", compare: name, params: { case: name, worker: worker },
                                      requires: ["pbt"], isolate: :trial,
                                      estimate: spec[:estimate] * (worker == :ractor ? 4 : 1),
                                      warmups: warmups.call(spec) do |r|
        r.code spec[:pbt_code].sub("WORKER", worker.inspect)
        r.setup(&setup)
        r.run { |_state, ctx| spec[:pbt].call(worker, ctx) }
      end
    end
  end

  # heddle's process pool (one per check) against forking per batch, on failure_simple.
  # Under --quick both stop after one shrink step: forking per batch costs ~1 s a batch here.
  failure = lambda do |worker, ctx|
    prop = Heddle::Check.property(Heddle::Check.integer) { |x| Heddle::Bench::ChecksSuite.failure(x) }
    Heddle::Check.assert(prop, worker: worker, seed: suite::SEED, max_shrinks: ctx.quick? ? 1 : 1000)
    suite.failure_metrics(nil, 0)
  rescue Heddle::Check::Failure => e
    suite.failure_metrics(e.result.counterexample, e.result.shrinks)
  end
  { "heddle process, one pool per check" => [:process, "heddle"],
    "fork per batch (Pbt 0.4's process worker)" => [:fork_per_batch, "parallel"] }.each do |label, (worker, library)|
    s.row "failure_simple: #{label}", library: library, compare: "failure_simple, processes",
                                      params: { case: "failure_simple", worker: worker },
                                      requires: %w[heddle/check parallel], isolate: :trial,
                                      estimate: worker == :process ? 0.1 : 1 do |r|
      r.code "prop = Heddle::Check.property(Heddle::Check.integer) { |x| Heddle::Bench::ChecksSuite.failure(x) }\n" \
             "Heddle::Check.assert(prop, worker: #{worker.inspect}, seed: SEED, max_shrinks: ctx.quick? ? 1 : 1000)\n" \
             "rescue Heddle::Check::Failure  # 2 workers (one per core)"
      r.setup(&setup)
      r.run { |_state, ctx| failure.call(worker, ctx) }
      r.teardown(&reaped)
    end
  end

  # How the report compares the rows: heddle inline against Pbt's serial
  # worker, heddle's ractors against Pbt's, heddle's process pool against a fork
  # per batch. Pbt 0.7 has no fiber, thread or process worker to meet the others.
  cases.each_key do |name|
    pairs = { "#{name}: heddle inline" => "#{name}: pbt none", "#{name}: heddle ractor" => "#{name}: pbt ractor" }
    if name == "failure_simple"
      pairs["failure_simple: heddle process, one pool per check"] =
        "failure_simple: fork per batch (Pbt 0.4's process worker)"
    end
    s.group name, rows: /\A#{name}: /, pairs: pairs
  end
  { "trivial" => ["simple", "100 tiny property cases", "Heddle::Check, x + 1"],
    "CPU-heavy" => ["cpu_bound", "100 CPU-heavy property cases", "Heddle::Check, tarai(9, 4, 0)"],
    "IO-bound" => ["io_bound", "waiting on IO", "Heddle::Check, 100 cases each reading a 92 KB file"] }
    .each do |job, (name, title, source)|
    s.backends job, title: title, source: source, rows: heddle_workers.to_h { |w| [w, "#{name}: heddle #{w}"] }
  end
  checks = "Property checks in one process and on ractors: heddle vs Pbt"
  s.answer checks, heddle: cases.keys.map { |name| "#{name}: heddle inline" }, target: 1,
                   details: "Pbt's own worker benchmark (worker: :none and worker: :ractor)"
  s.answer checks, heddle: cases.keys.map { |name| "#{name}: heddle ractor" }, target: 1
  s.answer "A failing property check on 2 processes: heddle vs new processes for each batch",
           group: "failure_simple", heddle: "failure_simple: heddle process, one pool per check", target: 20,
           peer: "new processes for each batch", details: "how Pbt 0.4 ran checks on processes: a fresh fork per batch"

  # The seed's own figures (benchmark-ips i/s, here as seconds per check).
  { "simple" => [1534.0, 73.709], "cpu_bound" => [7.765, 39.273], "io_bound" => [151.102, 53.841],
    "failure_simple" => [2425.0, 12.466] }.each do |name, (none, ractor)|
    s.reference "#{name}: pbt none", 1 / none, note: "Pbt's report: Ruby 3.3.1, Apple M1 Pro"
    s.reference "#{name}: pbt ractor", 1 / ractor, note: "Pbt's report: Ruby 3.3.1, Apple M1 Pro"
  end
  s.reference "failure_simple: fork per batch (Pbt 0.4's process worker)", 1 / 0.059,
              note: "Pbt's report, worker: :process: Ruby 3.3.1, Apple M1 Pro"
end
