# frozen_string_literal: true

require "optparse"
require "json"

module Heddle
  module Bench
    # The `heddle bench` command line. Returns an exit status instead of
    # exiting, so tests can drive it; bad input raises {UsageError}, printed
    # with the valid choices and exit status 2.
    #
    # @example
    #   Heddle::Bench::CLI.new(%w[baseline --quick]).run # => 0
    class CLI
      USAGE = <<~TEXT
        Usage: heddle bench [SUITE...] [options]   measure (all suites when none is named) into results/<time>
               heddle bench compare OLD.json NEW.json   what changed beyond the noise
               heddle bench render DIR             re-render DIR/results.json as report.md and report.html
      TEXT

      # The commands that rewrite heddle's own checked-in results: shown by
      # --help-maintainer only, since a gem user has no docs/bench.md to rewrite.
      MAINTAINER_USAGE = <<~TEXT
        Maintainer commands (in a checkout of heddle):
               heddle bench render DIR [--page [FILE]] [--screenshot]
                                                   also rewrite the results block of docs/bench.md and the first
                                                   screen's PNG
               heddle bench publish RUN_DIR [--to DIR]  copy a run into docs/results/latest, render it, rewrite
                                                   docs/bench.md's block and take the screenshot
      TEXT

      # What each option's value must be, for the message when it is not.
      EXPECTED = { "--trials" => "a whole number of trials, at least 1", "--seconds" => "seconds > 0, e.g. 0.5",
                   "--seed" => "a whole number, e.g. 1234", "--deadline" => "seconds >= 0, e.g. 600",
                   "--rows" => "a regular expression", "--out" => "a folder", "--suites-dir" => "a folder" }.freeze

      # Seconds a default run plans to end within (RoundFit drops the rounds
      # past each row's third that would end later): 14 minutes, leaving one
      # for the reports.
      DEFAULT_DEADLINE = 14 * 60.0

      # @param argv [Array<String>] the arguments after `bench`
      # @param out [IO] where reports (and --json) go
      # @param err [IO] where progress, notes and errors go
      def initialize(argv, out: $stdout, err: $stderr)
        @argv = argv.dup
        @out = out
        @err = err
        @options = { seed: nil, variants: nil, trials: nil, seconds: nil, quick: false, keep_gc: false, json: false,
                     out: nil, list: false, suites_dir: SUITES_DIR }
      end

      # @return [Integer] the exit status: 0, or 2 for a usage error
      def run
        case @argv.first
        when "compare" then compare(@argv.drop(1))
        when "render", "publish" then RenderCommand.new(@argv.first, @argv.drop(1), out: @out, err: @err).run
        else measure
        end
      rescue UsageError => e
        @err.puts "heddle bench: #{e.message}"
        2
      rescue Error => e
        @err.puts "heddle bench: #{e.message}"
        1
      end

      private

      def measure
        names = parse_arguments
        return 0 if @options[:help]
        return serve if @options[:serve]

        Bench.load_suites(@options[:suites_dir])
        suites = keep_rows(select_suites(names))
        return list(suites) if @options[:list]

        results = Runner.new(suites, **run_options).call
        report(results)
        0
      end

      def run_options
        { seed: @options[:seed] || (Random.new_seed % 100_000), variants: variants, trials: @options[:trials],
          seconds: @options[:seconds], quick: @options[:quick], keep_gc: @options[:keep_gc], io: @err,
          load_errors: Bench.load_errors, deadline: deadline, isolate_all: @options[:isolate_all] || false }
      end

      # A default run must end within 15 minutes (the issue's promise), even
      # when the suites' estimates are off; a run sized by hand is not cut.
      def deadline
        return @options[:deadline] if @options.key?(:deadline)

        sized_by_hand = @options[:quick] || @options[:trials] || @options[:seconds]
        sized_by_hand ? nil : DEFAULT_DEADLINE
      end

      def variants
        current = Environment.yjit? ? "yjit" : "no-yjit"
        case @options[:variants]
        when :both then %w[no-yjit yjit]
        when true then ["yjit"]
        when false then ["no-yjit"]
        else [current]
        end
      end

      def select_suites(names)
        registry = Bench.registry
        unknown = names - registry.keys
        unless unknown.empty?
          raise UsageError, "unknown suite #{unknown.map(&:inspect).join(', ')}; valid suites: " \
                            "#{registry.keys.sort.join(', ')}#{load_note}"
        end
        names.empty? ? registry.values.sort_by(&:name) : names.uniq.map { |n| registry.fetch(n) }
      end

      # --rows: the suites' rows whose name matches, and the suites left with any.
      def keep_rows(suites)
        pattern = @options[:rows] or return suites
        kept = suites.map { |suite| suite.keep_rows(pattern) }.reject { |suite| suite.rows.empty? }
        raise UsageError, "no row of #{suites.map(&:name).join(', ')} matches --rows #{pattern.source.inspect}" if
          kept.empty?

        kept
      end

      def load_note
        return "" if Bench.load_errors.empty?

        " (not loaded: #{Bench.load_errors.map { |f, m| "#{File.basename(f)}: #{m}" }.join('; ')})"
      end

      def list(suites)
        suites.each do |suite|
          @out.puts "#{suite.name} (#{suite.kind}, #{suite.unit}): #{suite.title}"
          suite.rows.each { |row| @out.puts "  #{row.name}  [#{row.library}#{', isolated' if row.isolate?}]" }
        end
        Bench.load_errors.each { |file, message| @out.puts "#{File.basename(file)}: not loaded: #{message}" }
        0
      end

      def report(results)
        dir = @options[:out] || File.join("results", Time.now.utc.strftime("%Y%m%d-%H%M%S"))
        files = Reports.write(results, dir)
        text = TerminalReport.new(results).render
        if @options[:json]
          @err.puts text
          @out.puts results.to_json
        else
          @out.puts text
        end
        @err.puts "wrote #{files.join(', ')}"
      end

      def compare(args)
        unless args.size == 2
          raise UsageError,
                "compare needs two results files: heddle bench compare OLD.json NEW.json"
        end

        @out.puts Comparison.new(Results.read(args[0]), Results.read(args[1])).render
        0
      end

      # A long-lived child of a {TrialPool}: specs on stdin, records on fd 3.
      def serve
        TrialServer.new($stdin, IO.new(3, "w")).call
        0
      end

      def parser
        OptionParser.new do |o|
          o.banner = USAGE
          o.separator "\nOptions:"
          define_run_options(o)
          define_output_options(o)
          o.on("--serve", "(internal) measure the isolated trials sent on stdin") { @options[:serve] = true }
          o.on("-h", "--help", "show this help") do
            @out.puts o
            @options[:help] = true
          end
          o.on("--help-maintainer", "also show the commands that rewrite heddle's checked-in results") do
            @out.puts o, "", MAINTAINER_USAGE
            @options[:help] = true
          end
        end
      end

      def define_run_options(opts)
        opts.on("--trials N", Integer, "trials per row (default: each suite's, fitted to its budget)") do |v|
          @options[:trials] = positive(v, "--trials", "a whole number of trials, at least 1")
        end
        opts.on("--seconds S", Float, "rate window in seconds (default 1, fitted to the budget)") do |v|
          @options[:seconds] = positive(v, "--seconds", "seconds > 0, e.g. 0.5")
        end
        opts.on("--quick", "a smoke run: every suite end to end in under a minute") { @options[:quick] = true }
        opts.on("--gc", "keep GC on in rate windows (default: off during the window)") { @options[:keep_gc] = true }
        opts.on("--seed N", Integer, "seed of the random order (printed by every run)") { |v| @options[:seed] = v }
        opts.on("--deadline S", Float, "end within S seconds: drop the rounds past each row's 3rd trial that " \
                                       "would end later (default 840 unless sized; 0: none)") do |v|
          raise UsageError, "bad value for --deadline: #{v}; expected seconds >= 0, e.g. 600" if v.negative?

          @options[:deadline] = v.zero? ? nil : v
        end
        define_process_options(opts)
      end

      def define_process_options(opts)
        opts.on("--[no-]yjit", "run every row with (or without) YJIT, in fresh processes") do |v|
          @options[:variants] = v
        end
        opts.on("--both", "run every row with and without YJIT") { @options[:variants] = :both }
        opts.on("--isolate", "run every trial in a fresh process (with --both: both variants alike)") do
          @options[:isolate_all] = true
        end
      end

      def define_output_options(opts)
        opts.on("--out DIR", "results folder (default results/<timestamp>)") { |v| @options[:out] = v }
        opts.on("--json", "print the results JSON to stdout (tables go to stderr)") { @options[:json] = true }
        opts.on("--list", "list suites and rows, measure nothing") { @options[:list] = true }
        opts.on("--suites-dir DIR", "load suites from DIR instead of heddle's") { |v| @options[:suites_dir] = v }
        opts.on("--rows REGEX", "measure only the rows whose name matches REGEX") do |v|
          @options[:rows] = Regexp.new(v)
        rescue RegexpError => e
          raise UsageError, "bad value for --rows: #{v.inspect}; expected a regular expression (#{e.message})"
        end
      end

      def positive(value, option, expected)
        raise UsageError, "bad value for #{option}: #{value.inspect}; expected #{expected}" unless value.positive?

        value
      end

      # OptionParser's own errors become UsageErrors: a bad or missing value
      # says what the option expects, an unknown option names the valid ones.
      def parse_arguments
        parser.parse(@argv)
      rescue OptionParser::InvalidArgument, OptionParser::MissingArgument => e
        option, value = e.args
        raise UsageError, "#{e.message}; valid options: #{valid_options}" unless EXPECTED.key?(option)

        problem = value ? "bad value for #{option}: #{value.inspect}" : "#{option} needs a value"
        raise UsageError, "#{problem}; expected #{EXPECTED.fetch(option)}"
      rescue OptionParser::ParseError => e
        raise UsageError, "#{e.message}; valid options: #{valid_options}"
      end

      def valid_options
        (parser.top.list.filter_map { |sw| sw.long.first if sw.respond_to?(:long) } - ["--serve"]).join(", ")
      end
    end
  end
end
