# frozen_string_literal: true

require "optparse"

module Heddle
  module Soak
    # The `heddle soak` command line. Returns an exit status instead of
    # exiting, so tests can drive it: 0 clean, 1 a wrong result, a failed
    # or stuck round, or growth beyond the limit, 2 a usage error.
    #
    # @example
    #   Heddle::Soak::CLI.new(%w[--seconds 30 --interval 5]).run # => 0
    class CLI
      USAGE = "Usage: heddle soak [--minutes N | --seconds N] [options]"

      # @param argv [Array<String>] the arguments after `soak`
      # @param out [IO]
      def initialize(argv, out: $stdout)
        @argv = argv.dup
        @out = out
        @options = { seconds: 600, interval: 10, warmup: nil, warmup_rounds: 0, limit: 0.10, only: nil, skip: [],
                     ractor: true, seed: Random.new_seed % 100_000, requires: [] }
      end

      # @return [Integer] the exit status
      def run
        parser.parse!(@argv)
        return 0 if @options[:help]
        raise UsageError, "unexpected arguments #{@argv.join(' ')}" unless @argv.empty?

        @options[:requires].each { |file| require file }
        soak
      rescue UsageError, OptionParser::ParseError => e
        @out.puts "heddle soak: #{e.message}\n#{USAGE} (heddle soak --help)"
        2
      end

      private

      def soak
        names = (@options[:only] || Loads.names) - @options[:skip]
        ractor = @options[:ractor] && names.include?(:ractors) && ractor_note
        loads = Loads.build(names, ractor: ractor)
        header(names, ractor)
        plan = Runner::Plan.new(seconds: @options[:seconds], interval: @options[:interval], warmup: warmup,
                                warmup_rounds: @options[:warmup_rounds], limit: @options[:limit],
                                seed: @options[:seed])
        Runner.new(loads, plan, out: @out).run ? 0 : 1
      end

      # A quarter of the run, at least one interval: the heap, the loops'
      # fiber pools and YJIT's code settle before the baseline.
      def warmup = @options[:warmup] || [@options[:interval], @options[:seconds] / 4.0].max

      def warmup_rounds_note = @options[:warmup_rounds].positive? ? " and #{@options[:warmup_rounds]} rounds" : ""

      def header(names, ractor)
        yjit = defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? "YJIT on" : "YJIT off"
        @out.puts "heddle soak: #{@options[:seconds].round} s, a sample every #{@options[:interval]} s, warm-up " \
                  "#{warmup.round} s#{warmup_rounds_note}, limit +#{(@options[:limit] * 100).round}%; " \
                  "Ruby #{RUBY_VERSION} (#{yjit}), seed #{@options[:seed]}, pid #{Process.pid}"
        names -= [:ractors] unless ractor
        @out.puts "loads: #{names.join(', ')}"
      end

      # Ractor pools join when this Ruby runs one: a short map, bounded, in
      # a child process (no ractor may live in the soak's own process, see
      # Loads::Ractors).
      def ractor_note
        probe = fork do
          Warning[:experimental] = false
          exit!(Heddle.map([1, 2, 3], worker: :ractor, size: 1, &Loads::Pools::SQUARE) == [1, 4, 9])
        end
        status = wait_bounded(probe, 15)
        return true if status&.success?

        @out.puts "ractors: off (a ractor map did not work on this Ruby: #{status&.inspect || 'no answer in 15 s'})"
        false
      end

      def wait_bounded(pid, seconds)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
        until (status = Process.wait2(pid, Process::WNOHANG)&.last)
          if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
            break Process.kill(:KILL,
                               pid) && Process.wait(pid) && nil
          end

          sleep 0.05
        end
        status
      end

      def parser
        OptionParser.new do |o|
          o.banner = USAGE
          time_options(o)
          load_options(o)
          o.on("--seed N", Integer, "seed of the loads' random choices") { |n| @options[:seed] = n }
          o.on("-h", "--help") { (@options[:help] = true) && @out.puts(o) }
        end
      end

      def time_options(parser)
        parser.on("--minutes N", Float, "how long to run (default 10)") { |n| @options[:seconds] = positive(n) * 60 }
        parser.on("--seconds N", Float, "how long to run, in seconds") { |n| @options[:seconds] = positive(n) }
        parser.on("--interval S", Float, "seconds between samples (default 10)") do |n|
          @options[:interval] = positive(n)
        end
        parser.on("--warmup S", Float, "seconds before the baseline (default a quarter of the run)") do |n|
          @options[:warmup] = n
        end
        parser.on("--warmup-rounds N", Integer, "rounds before the baseline too (default 0)") do |n|
          raise UsageError, "--warmup-rounds must be 0 or more, got #{n}" if n.negative?

          @options[:warmup_rounds] = n
        end
        parser.on("--limit PCT", Float, "largest growth allowed after the warm-up, % (default 10)") do |n|
          @options[:limit] = positive(n) / 100
        end
      end

      def load_options(parser)
        parser.on("--only A,B", Array, "run only these loads (#{Loads.names.join(', ')})") do |names|
          @options[:only] = names.map(&:to_sym)
        end
        parser.on("--skip A,B", Array, "leave these loads out") { |names| @options[:skip] = names.map(&:to_sym) }
        parser.on("--no-ractor", "leave the ractors load out") { @options[:ractor] = false }
        parser.on("--require FILE", "load FILE first (a file that registers more loads)") do |file|
          @options[:requires] << file
        end
      end

      def positive(number)
        raise UsageError, "expected a positive number, got #{number}" unless number.positive?

        number
      end
    end
  end
end
