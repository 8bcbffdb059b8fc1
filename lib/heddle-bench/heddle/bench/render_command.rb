# frozen_string_literal: true

require "optparse"
require "fileutils"

module Heddle
  module Bench
    # `heddle bench render DIR` (re-render a results folder, optionally its
    # block in docs/bench.md and screenshot) and `heddle bench publish RUN_DIR`
    # (the one command that moves the checked-in results: copies a run's
    # results.json into docs/results/latest, renders it, rewrites its block in
    # docs/bench.md and takes the screenshot). Returns an exit status, as {CLI} does.
    class RenderCommand
      # Where `publish` puts a run unless told otherwise.
      PUBLISHED = "docs/results/latest"
      # The page whose results blocks `--page` and `publish` rewrite unless told otherwise.
      PAGE = "docs/bench.md"

      # @param verb [String] "render" or "publish"
      # @param argv [Array<String>] the arguments after the verb
      # @param out [IO] @param err [IO]
      def initialize(verb, argv, out:, err:)
        @verb = verb
        @argv = argv.dup
        @out = out
        @err = err
        @options = { suites_dir: SUITES_DIR, screenshot: false, page: nil, to: PUBLISHED }
        @options.merge!(page: PAGE, screenshot: true) if verb == "publish"
      end

      # @return [Integer] the exit status
      # @raise [UsageError] for bad arguments
      def run
        source = parse
        dir = @verb == "publish" ? publish(source) : source
        results = Results.read(dir)
        Bench.load_suites(@options[:suites_dir])
        results = results.with_presentation(Bench.registry)
        report(Reports.render(results, dir) + extras(results, dir))
        0
      end

      private

      def usage
        if @verb == "publish"
          "Usage: heddle bench publish RUN_DIR [--to DIR] [--page FILE] [--no-screenshot]"
        else
          "Usage: heddle bench render DIR [--page [FILE]] [--screenshot]"
        end
      end

      def parse
        args = parser.parse(@argv)
        raise UsageError, "#{@verb} needs one results folder. #{usage}" unless args.size == 1

        args.first
      rescue OptionParser::ParseError => e
        raise UsageError, "#{e.message}. #{usage}"
      end

      def parser
        OptionParser.new do |o|
          o.banner = usage
          o.on("--page [FILE]", "rewrite FILE's generated results block (default #{PAGE})") do |v|
            @options[:page] = v || PAGE
          end
          o.on("--[no-]screenshot", "save the first screen of report.html as #{ResultsBlock::SCREENSHOT} " \
                                    "(needs Chromium)") { |v| @options[:screenshot] = v }
          o.on("--to DIR", "publish: the folder to publish into (default #{PUBLISHED})") { |v| @options[:to] = v }
          o.on("--suites-dir DIR", "take the suites' groups and answers from DIR") { |v| @options[:suites_dir] = v }
        end
      end

      # Copies the run's results.json into the published folder.
      def publish(run_dir)
        source = File.directory?(run_dir) ? File.join(run_dir, Results::FILE) : run_dir
        Results.read(source) # refuse anything that is not heddle results before touching the folder
        target = File.join(@options[:to], Results::FILE)
        FileUtils.mkdir_p(@options[:to])
        FileUtils.cp(source, target) unless File.exist?(target) && File.identical?(source, target)
        @options[:to]
      end

      # The screenshot first: the page's block shows it when it exists.
      def extras(results, dir)
        written = []
        written << screenshot(dir) if @options[:screenshot]
        written << ResultsBlock.new(results, dir: dir, page: @options[:page]).write if @options[:page]
        written.compact
      end

      def screenshot(dir)
        path = File.join(dir, ResultsBlock::SCREENSHOT)
        check = BrowserCheck.run(File.join(dir, "report.html"), screenshot: path)
        check.problems.each { |problem| @err.puts "heddle bench: report.html in a browser: #{problem}" }
        path
      rescue Chromium::Unavailable => e
        @err.puts "heddle bench: screenshot not taken: #{e.message}"
        nil
      end

      def report(files) = @out.puts("wrote #{files.join(', ')}")
    end
  end
end
