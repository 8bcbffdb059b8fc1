# frozen_string_literal: true

require "timeout"

module Heddle
  module Bench
    # Measures one trial of one row in this process and returns its record
    # (a Hash, the JSON schema of docs/bench.md). A row that raises, or whose
    # run reports failures, gives a record with status "failed" and the
    # message; nothing escapes to stop the run.
    class Trial
      # @param row [Row]
      # @param trial [Integer] 1-based
      # @param seconds [Float] the rate window
      # @param warmup [Float] untimed seconds run before a rate window; for a
      #   duration row any positive value asks for one untimed warm-up pass
      #   (the job as under --quick, with its own setup and teardown)
      # @param quick [Boolean]
      # @param keep_gc [Boolean] keep GC on during rate windows
      # @param variant [String] the Ruby configuration label ("default", "yjit", "no-yjit")
      # @param limit [Boolean] enforce the time limit here, with Timeout; false
      #   when the caller enforces it from outside: a process forked for this
      #   trial alone, whose parent kills it (Timeout's thread would be the one
      #   idle thread beside the job, and on Ruby 3.1 an idle thread changes
      #   how sleeping threads wake: docs/promises.md)
      def initialize(row, trial:, seconds:, warmup:, quick: false, keep_gc: false, variant: "default", limit: true) # rubocop:disable Metrics/ParameterLists -- one per CLI option
        @row = row
        @trial = trial
        @seconds = seconds
        @warmup = warmup
        @quick = quick
        @keep_gc = row.keep_gc.nil? ? keep_gc : row.keep_gc
        @variant = variant
        @limit = limit
        @ctx = Context.new(row: row.name, params: row.params, seconds: seconds, quick: quick, trial: trial)
      end

      # Extra seconds a trial may take beyond ten times its expected length
      # (ruby start-up, loading peers, a slow machine) before it counts as hung.
      GRACE = 60

      # At most this many warm passes of a duration row (see #warm_pass).
      WARM_PASSES = 8
      # Seconds of warm passes after which no other starts (see #warm_pass).
      WARM_SHORT = 0.05

      # The time limit of one trial: the row's `timeout:`, else ten times
      # its expected length plus {GRACE}.
      #
      # @param row [Row]
      # @param seconds [Float] the rate window
      # @param warmup [Float]
      # @param quick [Boolean]
      # @return [Float]
      def self.time_limit(row, seconds:, warmup:, quick:)
        return row.timeout.to_f if row.timeout

        expected = row.kind == :rate ? seconds + warmup : row.estimate(quick: quick) * 2
        (expected * 10) + GRACE
      end

      # @return [Hash] the trial's record
      def call
        record = base_record
        unless @limit
          measure_all(record)
          return record
        end
        limit = self.class.time_limit(@row, seconds: @seconds, warmup: @warmup, quick: @quick)
        Timeout.timeout(limit, TrialTimeout, "trial ran past its limit of #{limit.round}s (set timeout: on the row)") do
          measure_all(record)
        end
        record
      rescue TrialTimeout => e
        fail_record(record, e)
        record
      end

      private

      def measure_all(record)
        warm_pass(record) if @row.kind == :duration && @warmup.positive? && !@quick
        children_before = children_cpu
        measure(record) if record["status"] == "ok"
        record["children_cpu_seconds"] = children_cpu - children_before
      end

      def measure(record)
        state = timed_setup(record)
        begin
          @row.kind == :rate ? measure_rate(state, record) : measure_duration(state, record)
        ensure
          teardown(state, record)
        end
      rescue StandardError, ScriptError, SystemStackError, NoMemoryError => e
        fail_record(record, e)
      end

      # YJIT compiles on first use and caches fill: run the job scaled down
      # before the timed run (BENCHMARKING.md: warm up every row). YJIT
      # compiles a method at its 30th call, so after a single pass of a short
      # job the compiling happens in the timed run: on Ruby 3.3 --yjit a
      # 100-run check spent 9 ms in its second pass and 0.3 ms from its sixth
      # on (docs/core.md, "Under YJIT"). A short job is therefore warmed
      # again, up to WARM_PASSES passes while they took under WARM_SHORT
      # seconds in all: a job longer than that gets one pass, as before.
      def warm_pass(record)
        t0 = clock
        passes = 0
        # at least the row's own warmups (the checks rows ask for 30), then as above
        until passes >= @row.warmups && (passes >= WARM_PASSES || clock - t0 >= WARM_SHORT)
          one_warm_pass
          passes += 1
        end
        record["warmup_seconds"] = clock - t0
      rescue StandardError, ScriptError, SystemStackError, NoMemoryError => e
        fail_record(record, e)
        record["error"] = "in the warm-up pass: #{record['error']}"
      end

      def one_warm_pass
        ctx = Context.new(row: @row.name, params: @row.params, seconds: @seconds, quick: true, trial: @trial)
        state = @row.setup&.call(ctx)
        begin
          @row.run&.call(state, ctx)
        ensure
          @row.teardown&.call(state, ctx)
        end
      end

      def timed_setup(record)
        t0 = clock
        state = @row.setup&.call(@ctx)
        record["setup_seconds"] = clock - t0
        state
      end

      def teardown(state, record)
        @row.teardown&.call(state, @ctx)
      rescue StandardError => e
        fail_record(record, e) if record["status"] == "ok"
      end

      def measure_rate(state, record)
        batch = @row.batch or raise Error, "rate row #{@row.name.inspect} of #{@row.suite.name} has no r.batch block"
        window(batch, state, @warmup) if @warmup.positive?
        GC.start
        GC.disable unless @keep_gc
        executions, wall, cpu = window(batch, state, @seconds)
        record.merge!("executions" => executions, "wall_seconds" => wall, "cpu_seconds" => cpu,
                      "value" => executions / wall, "cpu_value" => cpu.positive? ? executions / cpu : nil)
      ensure
        GC.enable
      end

      # Hot path of every rate row: the clock is read once per batch of
      # ctx.batch_size executions so its cost (≈ 50 ns) stays out of the rate.
      def window(batch, state, seconds)
        ctx = @ctx
        per_batch = ctx.batch_size
        executions = 0
        cpu0 = cpu
        t0 = clock
        deadline = t0 + seconds
        loop do
          batch.call(state, ctx)
          executions += per_batch
          break if clock >= deadline
        end
        [executions, clock - t0, cpu - cpu0]
      end

      def measure_duration(state, record)
        job = @row.run or raise Error, "duration row #{@row.name.inspect} of #{@row.suite.name} has no r.run block"
        GC.start # untimed: start the job from a clean heap, not the previous trial's garbage
        cpu0 = cpu
        t0 = clock
        metrics = job.call(state, @ctx)
        wall = clock - t0
        record.merge!("wall_seconds" => wall, "cpu_seconds" => cpu - cpu0, "value" => wall, "cpu_value" => cpu - cpu0)
        check_metrics(metrics, record)
      end

      def check_metrics(metrics, record)
        return unless metrics.is_a?(Hash)

        record["metrics"] = Results.plain(metrics)
        failures = metrics[:failures] || metrics["failures"]
        return unless failures.is_a?(Numeric) && failures.positive?

        record["status"] = "failed"
        record["error"] = "#{failures} failures reported by the run (metrics: #{record['metrics']})"
      end

      def fail_record(record, error)
        where = error.backtrace&.find do |line|
          !line.include?("/lib/heddle-bench/heddle/bench/")
        end || error.backtrace&.first
        record["status"] = "failed"
        record["error"] = "#{error.class}: #{error.message}#{" (at #{where})" if where}"
      end

      def base_record
        { "suite" => @row.suite.name, "row" => @row.name, "library" => @row.library, "compare" => @row.compare,
          "params" => Results.plain(@row.params), "kind" => @row.kind.to_s, "variant" => @variant,
          "trial" => @trial, "status" => "ok", "error" => nil, "gc" => gc_label,
          "seconds" => @row.kind == :rate ? @seconds : nil, "warmup_seconds" => @row.kind == :rate ? @warmup : 0.0,
          "yjit" => Environment.yjit?, "ruby_flags" => [], "pid" => Process.pid, "quick" => @quick, "metrics" => {} }
      end

      def gc_label = @keep_gc || @row.kind == :duration ? "on" : "off"

      def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)

      def cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)

      def children_cpu
        times = Process.times
        times.cutime + times.cstime
      end
    end
  end
end
