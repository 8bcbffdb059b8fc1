# frozen_string_literal: true

require_relative "results_factory"

# A small run that exercises every part of a report: a suite with declared
# groups (floors, pairs, a span over 100x, a failed row, the seed's figures,
# answers, backend columns), a rate suite left to its compare: groups, and
# lines over a param. Report tests and the browser test render it.
module BenchReportFixture
  JOBS = {
    "trivial: plain map" => ["ruby", "t", [0.0001, 0.00011, 0.00012]],
    "trivial: heddle inline" => ["heddle", "t", [0.0002, 0.00021, 0.00022]],
    "trivial: heddle thread" => ["heddle", "t", [0.0004, 0.00042, 0.00045]],
    "trivial: heddle process" => ["heddle", "t", [0.04, 0.042, 0.045]],
    "trivial: Parallel processes" => ["parallel", "t", [0.33, 0.331, 0.34]],
    "trivial: Parallel threads" => ["parallel", "t", [0.0016, 0.0017, 0.0018]],
    "heavy: plain map" => ["ruby", "h", [0.65, 0.66, 0.67]],
    "heavy: heddle inline" => ["heddle", "h", [0.69, 0.7, 0.71]],
    "heavy: heddle thread" => ["heddle", "h", [nil, nil]],
    "heavy: heddle process" => ["heddle", "h", [0.37, 0.38, 0.39]],
    "heavy: Parallel processes" => ["parallel", "h", [0.57, 0.58, 0.6]]
  }.freeze

  module_function

  # @return [Heddle::Bench::Results]
  def results
    BenchResultsFactory.build(
      "jobs" => { kind: "duration", seed: nil, rows: JOBS, present: jobs_presentation },
      "calls" => { kind: "rate", rows: {
        "Ruby proc.call" => ["ruby", "proc.call", [2e7, 2.1e7, 2.2e7]],
        "heddle call" => ["heddle", "call", [2.7e6, 2.8e6, 2.9e6]],
        "Concurrently call" => ["concurrently", "call", [8.4e5, 8.5e5, 8.6e5]]
      }, present: calls_presentation },
      "workers" => { kind: "duration", chart: { "x" => "workers" }, rows: {
        "heddle 1" => ["heddle", "w1", [1.0, 1.1], { "workers" => 1 }],
        "heddle 4" => ["heddle", "w4", [0.5, 0.6], { "workers" => 4 }],
        "parallel 1" => ["parallel", "w1", [0.9, 1.0], { "workers" => 1 }],
        "parallel 4" => ["parallel", "w4", [0.4, 0.45], { "workers" => 4 }]
      } }
    )
  end

  def jobs_presentation
    BenchResultsFactory.present(JOBS.transform_values(&:first)) do |s|
      %w[trivial heavy].each do |job|
        s.group job, rows: /\A#{job}: /, floors: "#{job}: plain map",
                     pairs: { "#{job}: heddle process" => "#{job}: Parallel processes" }, note: "Same 2 workers."
        s.backends job == "trivial" ? "trivial" : "CPU-heavy", source: "jobs, #{job}",
                                                               rows: %w[inline thread process].to_h { |w|
                                                                 [w, "#{job}: heddle #{w}"]
                                                               }
      end
      s.answer "Trivial items over 2 processes", group: "trivial", heddle: "trivial: heddle process", target: 5
      s.answer "Heavy items on 2 cores", group: "heavy", heddle: "heavy: heddle process",
                                         against: "heavy: heddle inline"
      s.reference "trivial: Parallel processes", 0.5, note: "the seed's machine"
    end
  end

  def calls_presentation
    BenchResultsFactory.present("Ruby proc.call" => "ruby", "heddle call" => "heddle",
                                "Concurrently call" => "concurrently") do |s|
      s.answer "Concurrent procs vs Concurrently", target: 2
      s.reference "Concurrently call", 734_000, note: "Ruby 2.4.1"
    end
  end
end
