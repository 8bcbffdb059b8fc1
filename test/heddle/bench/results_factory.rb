# frozen_string_literal: true

require "heddle/bench"

# Builds Heddle::Bench::Results from plain numbers, so report tests need not measure.
module BenchResultsFactory
  module_function

  # @param suites [Hash{String => Hash}] suite name =>
  #   { kind:, chart:, seed:, rows: { name => [library, compare, values, params] },
  #     present: { "groups" => [...], "answers" => [...], ... } (as Presentation#to_h gives them) }
  def build(suites)
    records = []
    described = suites.to_h do |name, suite|
      rows = suite[:rows].map do |row_name, (library, compare, values, params)|
        values.each_with_index { |v, i| records << record(name, suite[:kind], row_name, library, compare, v, i + 1) }
        { "name" => row_name, "library" => library, "compare" => compare, "params" => params || {},
          "code" => "code of #{row_name}" }
      end
      [name, { "name" => name, "title" => "Title of #{name}", "seed" => suite.fetch(:seed, "seed.txt"),
               "kind" => suite[:kind], "unit" => "u", "chart" => suite[:chart], "rows" => rows }
        .merge(suite[:present] || {})]
    end
    Heddle::Bench::Results.new(
      "schema" => Heddle::Bench::Results::SCHEMA, "seed" => 9, "options" => {}, "environment" => { "gems" => {} },
      "suites" => described, "sizes" => {}, "skipped" => [], "load_errors" => {}, "records" => records
    )
  end

  # The presentation a suite with these rows declares, through the suites' own DSL.
  #
  # @param rows [Hash{String => String}] row name => library
  # @yieldparam suite [Heddle::Bench::Suite] to declare groups, answers, backends and references on
  # @return [Hash] as Presentation#to_h gives it
  def present(rows)
    suite = Heddle::Bench::Suite.new("factory") { |s| rows.each { |name, library| s.row(name, library: library) } }
    yield suite
    suite.presentation.to_h
  end

  def record(suite, kind, row, library, compare, value, trial) # rubocop:disable Metrics/ParameterLists -- a test helper
    status = value.nil? ? "failed" : "ok"
    { "suite" => suite, "row" => row, "library" => library, "compare" => compare, "kind" => kind,
      "variant" => "no-yjit", "trial" => trial, "status" => status, "error" => value.nil? ? "Boom: failed" : nil,
      "value" => value, "cpu_value" => value, "executions" => value&.round, "wall_seconds" => 1.0,
      "setup_seconds" => 0.001, "children_cpu_seconds" => 0.0 }
  end
end
