# frozen_string_literal: true

module Heddle
  module Soak
    # Runs the loads round after round until the time is up, samples the
    # process every `interval` seconds, then judges: clean when no result
    # was wrong, no round failed or hung, and no metric grew beyond `limit`
    # after the warm-up.
    class Runner
      # Seconds a round may take before the soak calls it stuck, unless the plan says.
      STUCK = 120
      # Failures printed in full (all are counted).
      SHOWN = 10

      # @return [Array<Sample>]
      attr_reader :samples
      # @return [Array<String>] what failed, in order
      attr_reader :failures

      # How long to run and how to judge.
      # - seconds: how long to run; interval: seconds between samples
      # - warmup: seconds before the baseline; warmup_rounds: rounds before it (default 0)
      # - limit: the largest growth allowed (0.10: 10%)
      # - seed: of the loads' random choices; stuck: seconds a round may take (default STUCK)
      Plan = Struct.new(:seconds, :interval, :warmup, :warmup_rounds, :limit, :seed, :stuck, keyword_init: true)

      # @param loads [Array<Load>]
      # @param plan [Plan]
      # @param out [IO]
      def initialize(loads, plan, out: $stdout)
        @loads = loads
        @seconds = plan.seconds
        @interval = plan.interval
        @warmup = plan.warmup
        @warmup_rounds = plan.warmup_rounds || 0
        @limit = plan.limit
        @random = Random.new(plan.seed)
        @stuck = plan.stuck || STUCK
        @out = out
        @samples = []
        @failures = []
        @rounds = 0
        @threads = {}
        @running = loads # those still in the rounds (see #retire)
      end

      # @return [Boolean] whether the soak ran clean
      def run
        fill_spare_selectors
        @start = now
        @out.puts "#{'t'.rjust(6)} #{'rounds'.rjust(7)} #{'checks'.rjust(9)} failures #{'held MB'.rjust(8)} " \
                  "#{'fds'.rjust(5)} threads children"
        watchdog = Watchdog.new(@stuck, @out)
        begin
          rounds(watchdog)
        rescue Stuck
          sample # how things stand; the failure is counted
        end
        judge
      ensure
        watchdog&.stop
        @threads.each_value(&:close)
        @loads.each(&:close)
      end

      private

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

      # heddle's spare selectors are a bounded cache that fills as more
      # loops than ever before close at once: a step of 3 descriptors that
      # can come after the warm-up and read as growth. Filled first, the
      # count starts at the cache's full size.
      def fill_spare_selectors
        return unless EventLoop::IOWatch.backend == EventLoop::Selectors::NIOWatch

        spares = EventLoop::Selectors::SelectorReserve.current.fill
        @out.puts "spare selectors: #{spares}, filled before the first round (a bounded cache)"
      end

      def elapsed = now - @start

      def rounds(watchdog)
        next_sample = @interval
        while elapsed < @seconds
          @running.each { |load| round(load, watchdog) }
          @rounds += 1
          next unless elapsed >= next_sample

          sample
          next_sample += @interval while next_sample <= elapsed
        end
        sample if @samples.empty? || @samples.last.rounds < @rounds
      end

      # On the load's own thread (LoadThread); one that failed is retired.
      def round(load, watchdog)
        thread = (@threads[load] ||= LoadThread.new(load))
        thread.round(Random.new(@random.rand(1 << 62)))
      rescue SignalException, SystemExit # Ctrl-C and the like end the soak
        raise
      rescue Exception => e # rubocop:disable Lint/RescueException -- any error of a round is a finding
        @threads.delete(load)&.close
        fail_with(load, e)
        raise if e.is_a?(Stuck)

        retire(load) if e.is_a?(LoadEnded)
      ensure
        watchdog.beat
      end

      # A load that cannot go on leaves the rounds (it is still closed at the end).
      def retire(load)
        @running -= [load] # a new array: the rounds' each goes on over the old one
      end

      def fail_with(load, error)
        @failures << "#{load.name}: #{error.class}: #{error.message[0, 300]}"
        return unless @failures.size <= SHOWN

        @out.puts("FAILED #{@failures.last}", (error.backtrace || []).first(8).map { |line| "    #{line}" })
      end

      def sample
        checks = @loads.sum(&:checks)
        quiet = [Sample.quiet, @interval / 2.0].min # a run sampled more often settles for less
        taken = Sample.settled(elapsed.round, @rounds, checks, @failures.size, quiet: quiet)
        @samples << taken
        @out.puts format("%<t>5ds %<r>7d %<c>9d %<f>8d %<rss>8.1f %<fds>5d %<th>7d %<ch>8d",
                         t: taken.seconds, r: taken.rounds, c: taken.checks, f: taken.failures,
                         rss: taken.held_kb / 1024.0, fds: taken.fds, th: taken.threads, ch: taken.children)
      end

      def judge
        trend = Trend.new(@samples, warmup: @warmup, limit: @limit, warmup_rounds: @warmup_rounds)
        @out.puts trend
        verdict(trend)
        @failures.empty? && trend.ok?
      end

      def failures_by_load
        return if @failures.empty?

        counts = @failures.map { |failure| failure[/\A[^:]+/] }.tally
        @out.puts "failures by load: #{counts.map { |load, count| "#{load} #{count}" }.join(', ')}"
      end

      def verdict(trend)
        checks = @loads.sum(&:checks)
        if @failures.empty? && trend.ok?
          @out.puts "OK: #{@rounds} rounds, #{checks} results checked, none wrong; nothing grew beyond " \
                    "#{(@limit * 100).round}% after the warm-up"
        else
          grown = "; grown beyond #{(@limit * 100).round}%: #{trend.grown.join(', ')}" unless trend.grown.empty?
          @out.puts "FAILED: #{@failures.size} failures in #{@rounds} rounds (#{checks} results checked)#{grown}"
          failures_by_load
        end
      end
    end
  end
end
