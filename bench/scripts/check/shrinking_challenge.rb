# frozen_string_literal: true

# The Shrinking Challenge (github.com/jlink/shrinking-challenge) on heddle and
# on pbt 0.7.0: for each row and each seed, one check at the library's
# defaults (100 runs), inline; the share of seeds that end on the
# challenge's minimum, and per shrink the steps and the property
# evaluations it took (medians [min-max] over the seeds that failed).
#
#   bundle exec ruby -Itest bench/scripts/check/shrinking_challenge.rb [--seeds 100] [--rows a,b] [--no-pbt]
#
# The heddle rows are test/support/shrinking_challenges.rb (the test's),
# natural forms included (bound5_jqwik, binheap_bind). The last table sets
# heddle's and pbt's shares beside what the challenge repository reports for
# Hypothesis, jqwik and fast-check (REPORTED below). An older heddle (before `lazy`) runs calculator and binheap
# unrolled to depth 6: `-I /tmp/heddle-old/lib` with that tree's checkout.
# pbt 0.7.0 has no bind, no one_of over arbitraries and no recursion, so
# calculator, lengthlist and binheap have no pbt port.
require "optparse"
require "heddle/check"
require_relative "../../../test/support/shrinking_challenges"

options = { seeds: 100, rows: nil, pbt: true }
OptionParser.new do |o|
  o.on("--seeds N", Integer) { |n| options[:seeds] = n }
  o.on("--rows LIST", Array) { |r| options[:rows] = r }
  o.on("--[no-]pbt") { |v| options[:pbt] = v }
end.parse!

# pbt 0.7.0 ports of the rows it can express, with the same minimum tests.
module PbtChallenges
  def self.load
    require "pbt"
    true
  rescue LoadError
    false
  end

  def self.difference(failing)
    lambda do |calls|
      Pbt.property(Pbt.integer(min: 1, max: ShrinkingChallenges::INT32_MAX),
                   Pbt.integer(min: 1, max: ShrinkingChallenges::INT32_MAX)) do |a, b|
        calls[0] += 1
        raise "fails" unless a < 10 || !failing.call((a - b).abs)
      end
    end
  end

  def self.check(calls, condition)
    calls[0] += 1
    raise "fails" unless condition
  end

  def self.ports # rubocop:disable Metrics/AbcSize,Metrics/MethodLength -- a table of ports
    sc = ShrinkingChallenges
    bounded = lambda do |max|
      Pbt.array(Pbt.integer(min: sc::INT16.min, max: sc::INT16.max), max: max).filter { |l| sc.sum16(l) < 256 }
    end
    bound5 = ->(max) { ->(c) { Pbt.property(Pbt.tuple(*[bounded.call(max)] * 5)) { |p| check(c, sc.sum16(p.flatten) < 5 * 256) } } }
    {
      "bound5" => bound5.call(1),
      "bound5_jqwik" => bound5.call(10),
      "large_union_list" => ->(c) { Pbt.property(Pbt.array(Pbt.array(Pbt.integer))) { |l| check(c, l.flatten.uniq.size < 5) } },
      "reverse" => ->(c) { Pbt.property(Pbt.array(Pbt.integer)) { |l| check(c, l.reverse == l) } },
      "difference_must_not_be_zero" => difference(:zero?.to_proc),
      "difference_must_not_be_small" => difference(->(d) { d.between?(1, 4) }),
      "difference_must_not_be_one" => difference(->(d) { d == 1 }),
      "coupling" => lambda { |c|
        Pbt.property(Pbt.array(Pbt.integer(min: 0, max: 10))) do |ls|
          c[0] += 1
          next unless ls.all? { |v| v < ls.size }
          raise "fails" unless ls.each_with_index.all? { |j, i| i == j || ls[j] != i }
        end
      },
      "deletion" => lambda { |c|
        Pbt.property(Pbt.array(Pbt.integer), Pbt.integer(min: 0, max: 10)) do |ls, i|
          c[0] += 1
          next unless i < ls.size

          copy = ls.dup
          copy.delete_at(copy.index(ls[i]))
          raise "fails" if copy.include?(ls[i])
        end
      },
      "distinct" => ->(c) { Pbt.property(Pbt.array(Pbt.integer)) { |l| check(c, l.uniq.size < 3) } },
      "nestedlists" => lambda { |c|
        Pbt.property(Pbt.array(Pbt.array(Pbt.integer(min: 0, max: 0)))) { |l| check(c, l.sum(&:size) <= 10) }
      }
    }
  end

  def self.run(build, row, seed)
    calls = [0]
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    details = Pbt.check(seed: seed, num_runs: 100, worker: :none) { build.call(calls) }
    seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
    cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu
    failed = details.failed
    ce = details.counterexample
    { found: failed ? true : false, minimal: failed && row.minimal.call(ce), shrinks: details.num_shrinks.to_i,
      evaluations: calls[0] - details.num_runs.to_i, seconds: seconds, cpu: cpu, counterexample: ce }
  end
end

def median(values) = values.empty? ? nil : values.sort[(values.size - 1) / 2]

def spread(values, format = "%d")
  return "-" if values.empty?

  "#{format % median(values)} [#{format % values.min}-#{format % values.max}]"
end

def summarize(name, outcomes)
  failed = outcomes.select { |o| o[:found] }
  share = 100.0 * outcomes.count { |o| o[:minimal] } / outcomes.size
  misses = outcomes.reject { |o| o[:minimal] }.first(2).map { |o| o[:counterexample].inspect[0, 60] }
  format("| %-28s | %3d/%3d | %5.1f%% | %-18s | %-22s | %-22s | %-6s | %s |", name, failed.size, outcomes.size, share,
         spread(failed.map { |o| o[:shrinks] }), spread(failed.map { |o| o[:evaluations] }),
         spread(failed.map { |o| o[:seconds] * 1000 }, "%.2f"), format("%.2f", median(failed.map { |o| o[:cpu] * 1000 }) || 0),
         misses.join(" ; "))
end

# What github.com/jlink/shrinking-challenge (commit 0c1d56c) reports for
# the three libraries, each on its own port, as the share of its runs that
# ended on the row's minimum (the rows' `minimal` tests applied to the
# reports' results; "normalises" in a report is 100%), and the report's
# file. nil: no port. Hypothesis's bound5 port uses lists of at most one
# element; jqwik's and fast-check's lists of up to 10 (bound5_jqwik).
# jqwik's calculator and binheap are the _jqwik and _bind rows.
REPORTED = {
  "bound5" => { "Hypothesis" => ["100%", "pbt-libraries/hypothesis/challenges/bound5.md"] },
  "bound5_jqwik" => { "jqwik" => ["11%", "pbt-libraries/jqwik/reports/bound5.md"],
                      "fast-check" => ["0%", "pbt-libraries/fast-check/reports/bound5.json"] },
  "large_union_list" => { "Hypothesis" => ["100%", "pbt-libraries/hypothesis/challenges/large_union_list.md"],
                          "jqwik" => ["48%", "pbt-libraries/jqwik/reports/large_union_list.md"],
                          "fast-check" => ["22%", "pbt-libraries/fast-check/reports/large_union_list.json"] },
  "reverse" => { "Hypothesis" => ["100%", "pbt-libraries/hypothesis/challenges/reverse.md"],
                 "jqwik" => ["100%", "pbt-libraries/jqwik/reports/reverse.md"],
                 "fast-check" => ["49% (50% [0, -1])", "pbt-libraries/fast-check/reports/reverse.md"] },
  "calculator" => { "Hypothesis" => ["100%", "pbt-libraries/hypothesis/challenges/calculator.md"],
                    "fast-check" => ["0% (17% (/ 0 (/ 0 -1)))", "pbt-libraries/fast-check/reports/calculator.md"] },
  "calculator_jqwik" => { "jqwik" => ["0% (98% (/ 0 (/ 0 1)))", "pbt-libraries/jqwik/reports/calculator.md"] },
  "lengthlist" => { "Hypothesis" => ["100%", "pbt-libraries/hypothesis/challenges/lengthlist.md"],
                    "jqwik" => ["100%", "pbt-libraries/jqwik/reports/lengthlist.md"],
                    "fast-check" => ["24%", "pbt-libraries/fast-check/reports/lengthlist.md"] },
  "difference_must_not_be_zero" => { "jqwik" => ["100%",
                                                 "pbt-libraries/jqwik/reports/difference_must_not_be_zero.md"] },
  "difference_must_not_be_small" => { "jqwik" => ["100% of 98 found",
                                                  "pbt-libraries/jqwik/reports/difference_must_not_be_small.md"] },
  "difference_must_not_be_one" => { "jqwik" => ["69% of 55 found",
                                                "pbt-libraries/jqwik/reports/difference_must_not_be_one.md"] },
  "binheap_bind" => { "jqwik" => ["8% (7% its mirror)", "pbt-libraries/jqwik/reports/binheap.md"] },
  "coupling" => { "jqwik" => ["100%", "pbt-libraries/jqwik/reports/coupling.md"],
                  "fast-check" => ["35%", "pbt-libraries/fast-check/reports/coupling.md"] },
  "deletion" => { "jqwik" => ["100%", "pbt-libraries/jqwik/reports/deletion.md"],
                  "fast-check" => ["67% of 54 found", "pbt-libraries/fast-check/reports/deletion.md"] },
  "distinct" => { "jqwik" => ["100%", "pbt-libraries/jqwik/reports/distinct.md"],
                  "fast-check" => ["77%", "pbt-libraries/fast-check/reports/distinct.json"] },
  "nestedlists" => { "jqwik" => ["100%", "pbt-libraries/jqwik/reports/nestedlists.md"],
                     "fast-check" => ["0%", "pbt-libraries/fast-check/reports/nestedlists.json"] }
}.freeze
LIBRARIES = %w[Hypothesis jqwik fast-check].freeze

def share(outcomes) = format("%d%%", 100 * outcomes.count { |o| o[:minimal] } / outcomes.size)

def reported(name, library)
  figure, = REPORTED.dig(name, library)
  figure || "no port"
end

header = "| row | found | minimal | shrink steps | evaluations per shrink | ms per check (wall) | CPU ms | misses (first 2) |"
puts "Ruby #{RUBY_VERSION}#{defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? ' --yjit' : ''}, " \
     "seeds 1..#{options[:seeds]}, heddle at #{`git rev-parse --short HEAD`.strip}"
rows = ShrinkingChallenges.rows
rows = rows.select { |r| options[:rows].include?(r.name) } if options[:rows]
shares = Hash.new { |h, k| h[k] = {} }
puts "\nheddle", header, "|---|---|---|---|---|---|---|---|"
rows.each do |row|
  outcomes = (1..options[:seeds]).map { |seed| ShrinkingChallenges.run(row, seed) }
  shares[row.name]["heddle"] = share(outcomes)
  puts summarize(row.name, outcomes)
  $stdout.flush
end
if options[:pbt] && PbtChallenges.load
  puts "\npbt #{Pbt::VERSION}", header, "|---|---|---|---|---|---|---|---|"
  ports = PbtChallenges.ports
  rows.each do |row|
    next puts("| #{row.name} | no port: pbt 0.7.0 has no bind, no one_of over arbitraries, no recursion |") unless ports[row.name]

    outcomes = (1..options[:seeds]).map { |seed| PbtChallenges.run(ports[row.name], row, seed) }
    shares[row.name]["pbt"] = share(outcomes)
    puts summarize(row.name, outcomes)
    $stdout.flush
  end
end

puts "\nShare of seeds ending on the minimum: heddle and pbt measured here (seeds 1..#{options[:seeds]}), " \
     "the others as github.com/jlink/shrinking-challenge reports them (100 runs each, on their own ports)"
puts "| row | heddle-check | pbt #{defined?(Pbt::VERSION) ? Pbt::VERSION : '(not run)'} | #{LIBRARIES.join(' | ')} |",
     "|---|---:|---:|---:|---:|---:|"
rows.each do |row|
  measured = [shares[row.name]["heddle"], shares[row.name]["pbt"] || "no port"]
  puts "| #{row.name} | #{[*measured, *LIBRARIES.map { |l| reported(row.name, l) }].join(' | ')} |"
end
puts "\nReports, per row (github.com/jlink/shrinking-challenge at 0c1d56c):"
rows.each do |row|
  (REPORTED[row.name] || {}).each { |library, (_, file)| puts "- #{row.name}, #{library}: #{file}" }
end
