# frozen_string_literal: true

require "json"
require "rbconfig"
require "tempfile"

module Heddle
  module Bench
    # The `heddle bench` side of one long-lived child `ruby` (a
    # {TrialServer}) that runs the isolated trials of one (suite, isolation
    # group, Ruby variant) in sequence: specs go down its stdin, records come
    # back one JSON line each on a pipe of their own. A trial that fails,
    # outlives its limit, or whose child dies ends the child; the next trial
    # of the group starts a new one.
    class TrialProcess
      # Seconds granted beyond the trial's own limit (the child reports its own
      # timeout; this catches a child that cannot), plus the first trial's start-up.
      KILL_MARGIN = 30

      attr_reader :pid

      # @param variant [String] "yjit" or "no-yjit"
      def initialize(variant)
        @variant = variant
        @stderr = Tempfile.new("heddle-bench-trial")
        start
      end

      # @return [Array<String>] the ruby flags the child got
      def flags = Plan::VARIANT_FLAGS.fetch(@variant, [])

      # @return [Boolean] whether the child can take another trial
      def alive? = !@pid.nil?

      # Measures one trial in the child.
      #
      # @param spec [Hash] the trial, as {TrialServer} reads it
      # @param limit [Float] seconds to wait for the record
      # @return [Hash, String] the record, or why there is none
      def call(spec, limit)
        return "the trial process is gone" unless alive?

        @input.write("#{JSON.generate(spec)}\n")
        @input.flush
        ready = @output.wait_readable(limit + KILL_MARGIN)
        line = ready && @output.gets
        return finished(JSON.parse(line)) if line

        lost(ready ? nil : limit + KILL_MARGIN)
      rescue Errno::EPIPE, IOError
        lost(nil)
      end

      # Ends the child: end of input, then TERM and KILL if it lingers.
      #
      # @return [void]
      def close
        return unless @pid

        @input.close unless @input.closed?
        stop(2)
      ensure
        @output.close unless @output.closed?
        @stderr.close!
      end

      private

      def start
        spec_reader, @input = IO.pipe
        @output, record_writer = IO.pipe
        command = [RbConfig.ruby, *flags, *GemPaths.load_path_flags, GemPaths.heddle_executable, "bench", "--serve"]
        @pid = Process.spawn(*command, in: spec_reader, out: File::NULL, err: @stderr.path, 3 => record_writer)
        @waiter = Process.detach(@pid)
        spec_reader.close
        record_writer.close
      end

      # A failed trial (timed out, raised) may have left threads, forked
      # workers or a half torn-down rig behind: its child serves no more trials.
      def finished(record)
        unless record["status"] == "ok"
          @input.close
          stop(5)
        end
        record.merge("ruby_flags" => flags)
      end

      # The child gave no record: past its time (waited, in seconds), or its
      # results pipe ended (it died; reaping it may take a moment).
      def lost(waited)
        @waiter.join(2) unless waited
        how = if waited then "killed after #{waited.round}s"
              elsif @waiter.alive? then "closed its results pipe"
              else
                "exited with #{@waiter.value.inspect}"
              end
        stop(0)
        "trial process #{how} without a result#{stderr_tail}"
      end

      def stop(grace)
        pid = @pid
        @pid = nil
        return if @waiter.join(grace)

        Process.kill(:TERM, pid)
        Process.kill(:KILL, pid) unless @waiter.join(2)
        @waiter.join
      rescue Errno::ESRCH
        nil
      end

      def stderr_tail
        text = File.read(@stderr.path).strip
        text.empty? ? "" : ": #{text.lines.last(3).join(' ').strip[0, 500]}"
      end
    end
  end
end
