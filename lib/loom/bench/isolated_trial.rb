# frozen_string_literal: true

require "json"
require "rbconfig"
require "tmpdir"

module Loom
  module Bench
    # Runs one trial in another `ruby` process: for rows with `isolate:`
    # (many workers, global state, peers that patch Kernel) and for every row
    # when the run asks for other Ruby flags than this process has (--yjit,
    # --no-yjit, --both). Given a {WorkerPool}, the trial goes to the
    # long-lived child of its (suite, isolation group, variant), or with
    # fork: true (rows with `isolate: :trial`, every row under `--isolate`)
    # to a process forked for it alone from the suite's forking child.
    # Without a pool it gets a fresh `ruby`: `exe/loom bench --worker SPEC`,
    # which writes its record as JSON to a file named in SPEC; its stdout is
    # discarded (suites may print) and its stderr kept for the failure message.
    class IsolatedTrial
      LIB_DIR = File.expand_path("../..", __dir__)
      EXE = File.expand_path("../../../exe/loom", __dir__)
      # Seconds the parent waits beyond the child's own time limit (the child
      # reports its own timeout; this catches a child that cannot) before killing it.
      KILL_MARGIN = 30

      # @param row [Row] its suite must have been loaded from a file
      # @param trial [Integer]
      # @param seconds [Float]
      # @param warmup [Float]
      # @param quick [Boolean]
      # @param keep_gc [Boolean]
      # @param variant [String] "yjit" or "no-yjit"
      # @param pool [WorkerPool, nil] where shared children live (nil: a fresh process)
      # @param fork [Boolean] with a pool: fork a process for this trial alone
      #   from the suite's forking child (see TrialServer), not the row's shared child
      def initialize(row, trial:, seconds:, warmup:, quick:, keep_gc:, variant:, pool: nil, fork: false) # rubocop:disable Metrics/ParameterLists -- mirrors Trial
        @row = row
        @pool = pool
        @spec = { "suite_file" => row.suite.file, "suite" => row.suite.name, "row" => row.name, "trial" => trial,
                  "seconds" => seconds, "warmup" => warmup, "quick" => quick, "keep_gc" => keep_gc,
                  "variant" => variant, "fork" => fork }
      end

      # @return [Hash] the child's record, or a failed record saying why the child gave none
      def call
        return failed("isolated rows need their suite defined in a file (Loom::Bench.suite in a .rb file)") unless
          @row.suite.file
        return pooled if @pool

        Dir.mktmpdir("loom-bench") do |dir|
          out = File.join(dir, "record.json")
          err = File.join(dir, "stderr.txt")
          status = spawn_and_wait(@spec.merge("out" => out), err)
          read_record(out, err, status).merge("ruby_flags" => flags)
        end
      end

      # The child's side: measures the trial described by spec and writes the record.
      #
      # @param spec [Hash] as built by {#initialize} plus "out"
      # @return [void]
      def self.work(spec)
        Bench.load_core
        load spec.fetch("suite_file")
        row = row_of(spec)
        record = Trial.new(row, trial: spec["trial"], seconds: spec["seconds"], warmup: spec["warmup"],
                                quick: spec["quick"], keep_gc: spec["keep_gc"], variant: spec["variant"]).call
        File.write(spec.fetch("out"), JSON.generate(record.merge("isolated" => true)))
      end

      # The child's lookup, shared with {TrialServer}: the row a spec names,
      # with the row's requires loaded.
      #
      # @param spec [Hash] as built by {#initialize}; its suite file must be loaded already
      # @return [Row]
      # @raise [Error] when the suite has no such row or a require fails
      def self.row_of(spec)
        suite = Bench.registry.fetch(spec.fetch("suite"))
        row = suite.row_named(spec.fetch("row")) or raise Error, "worker: no row #{spec['row'].inspect}"
        note = row.load_requirements
        raise Error, note if note

        row
      end

      private

      def pooled
        key = @spec["fork"] ? [@row.suite.name, "fork", @spec["variant"]] : Plan.group_key(@row, @spec["variant"])
        limit = Trial.time_limit(@row, seconds: @spec["seconds"], warmup: @spec["warmup"], quick: @spec["quick"])
        result = @pool.call(key, @spec["variant"], @spec, limit)
        result.is_a?(Hash) ? result : failed(result).merge("ruby_flags" => flags)
      end

      def flags = Plan::VARIANT_FLAGS.fetch(@spec["variant"], [])

      def command(spec)
        [RbConfig.ruby, *flags, "-I", LIB_DIR, EXE, "bench", "--worker", JSON.generate(spec)]
      end

      def spawn_and_wait(spec, err)
        pid = Process.spawn(*command(spec), out: File::NULL, err: err, in: File::NULL)
        waiter = Process.detach(pid)
        return waiter.value if waiter.join(timeout)

        kill(pid, waiter)
        :timeout
      end

      def kill(pid, waiter)
        Process.kill(:TERM, pid)
        Process.kill(:KILL, pid) unless waiter.join(2)
        waiter.join
      rescue Errno::ESRCH
        nil
      end

      def timeout
        Trial.time_limit(@row, seconds: @spec["seconds"], warmup: @spec["warmup"], quick: @spec["quick"]) + KILL_MARGIN
      end

      def read_record(out, err, status)
        return JSON.parse(File.read(out)) if File.file?(out) && File.size?(out)

        how = status == :timeout ? "killed after #{timeout.round}s" : "exited with #{status.inspect}"
        failed("isolated trial #{how} without a result#{stderr_tail(err)}")
      end

      def stderr_tail(err)
        text = File.file?(err) ? File.read(err).strip : ""
        text.empty? ? "" : ": #{text.lines.last(3).join(' ').strip[0, 500]}"
      end

      def failed(message)
        { "suite" => @row.suite.name, "row" => @row.name, "library" => @row.library, "compare" => @row.compare,
          "params" => Results.plain(@row.params), "kind" => @row.kind.to_s, "variant" => @spec["variant"],
          "trial" => @spec["trial"], "status" => "failed", "error" => message, "isolated" => true, "metrics" => {} }
      end
    end
  end
end
