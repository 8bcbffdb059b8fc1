# frozen_string_literal: true

require_relative "timed_code"
require_relative "concurrently_peer"

module Heddle
  module Bench
    module Suites
      # Adds rows whose code is text ({TimedCode}) to a suite, and pairs of rows
      # doing the seed's job with heddle and with Concurrently 1.2.0.
      #
      # Both rows of a {#pair} run each trial in a fresh process: Concurrently
      # must (see {ConcurrentlyPeer}), and heddle gets the same conditions. With
      # GC off in the window every allocation grows the heap, and a new page
      # costs a fault (~11 us here); how many free slots an older process
      # has left from earlier rows' garbage decided heddle's `call` row
      # between 1.26M and 2.27M/s in one run (bench/scripts/core/
      # faults_per_op.rb). A fresh process costs ~0.4 s here. Other rows
      # run in the harness's process unless they ask for isolation; under a
      # Ruby variant other than the harness's own (`--yjit` from a plain
      # ruby) the harness isolates every row anyway.
      #
      # @example
      #   Heddle::Bench.suite(:demo) do |s|
      #     rows = Heddle::Bench::Suites::RowBuilder.new(s)
      #     rows.pair "conproc.call", setup: "test_proc = concurrent_proc{}\nbatch = Array.new(100)",
      #                               timed: "batch.each{ test_proc.call }"
      #   end
      class RowBuilder
        # Row-name prefix per library: the reports print the name only.
        PREFIX = { "heddle" => "heddle", "concurrently" => "Concurrently", "async" => "async", "ruby" => "Ruby" }.freeze

        # @param suite [Suite]
        def initialize(suite)
          @suite = suite
        end

        # Adds a heddle row and a Concurrently row for one of the seed's rows; both
        # have compare: name, so the report shows heddle's ratio to Concurrently.
        #
        # @param name [String] the seed's row name, e.g. "conproc.call"
        # @param setup [String] the seed's set-up in Concurrently's spelling
        # @param timed [String] the seed's timed code in Concurrently's spelling
        # @param teardown [String, nil] untimed clean-up
        # @return [Array(Row, Row)]
        def pair(name, setup:, timed:, teardown: nil, **options)
          options = { isolate: :trial }.merge(options)
          heddle = TimedCode.new(setup: ConcurrentlyPeer.heddle_spelling(setup),
                                 timed: ConcurrentlyPeer.heddle_spelling(timed), teardown: teardown)
          peer = TimedCode.new(setup: setup, timed: timed, teardown: teardown)
          [row(name, library: "heddle", code: heddle, compare: name, **options),
           row(name, library: "concurrently", code: peer, compare: name, **options)]
        end

        # Adds one row running code.
        #
        # @param name [String] the job's name; the row is named "<library> <name>"
        # @param library [String] "heddle", "concurrently", "async" or "ruby"
        # @param code [TimedCode]
        # @param options [Hash] other {Row} options (compare:, params:, estimate:, ...)
        # @return [Row]
        def row(name, library:, code:, **options)
          label = "#{PREFIX.fetch(library, library)} #{name}"
          options = { isolate: library == "concurrently" }.merge(options)
          # Named, not loaded, by the harness (the row is isolated): without the
          # gem the row is skipped with a note, as async's rows are, instead of
          # failing every trial in its set-up.
          options[:requires] = ["concurrently", *options[:requires]] if library == "concurrently"
          @suite.row(label, library: library, **options) do |r|
            r.code(printed(code, library))
            r.setup { |ctx| prepare(library, code, "#{@suite.name}/#{label}", ctx) }
            wire(r)
          end
        end

        private

        def printed(code, library)
          text = code.printed(@suite.kind)
          library == "concurrently" ? "# Ruby 3 shim:\n#{ConcurrentlyPeer::SHIM}\n#{text}" : text
        end

        def prepare(library, code, label, ctx)
          ConcurrentlyPeer.load! if library == "concurrently"
          code.compile(label).call(ctx)
        end

        def wire(row)
          if @suite.kind == :rate
            row.batch { |(body, _cleanup), _ctx| body.call }
          else
            row.run { |(body, _cleanup), _ctx| body.call }
          end
          row.teardown { |(_body, cleanup), _ctx| cleanup&.call }
        end
      end
    end
  end
end
