# frozen_string_literal: true

# Connection set-up, heddle against async and against the two probes of connect_costs.rb (--variant
# forget, pool64, both), interleaved: each round runs every row once, in a fresh order, each run a fresh
# process doing K jobs of 1,000 connections (each job in a fresh thread and loop, as scheduler_io's
# trials do) after a 100-connection warm-up. Prints per row the medians [min-max] over the rounds of
# wall and CPU microseconds per connection, GC time per connection (GC.stat(:time)), major
# GCs per 1,000 connections, and the ratio to async's median (below 1: heddle is faster).
#
#   bundle exec ruby bench/scripts/scheduler/connect_ab.rb [rounds] [jobs] [rows]   (defaults: 5, 8, all)
#   (rows: comma-separated, of heddle,forget,pool64,both,async; all by default)
#
# With RUBYOPT=--yjit and the 3.4 gemfile for Ruby 3.4 (the child processes inherit the environment).
require "open3"
require "rbconfig"

rounds = Integer(ARGV[0] || 5)
jobs = Integer(ARGV[1] || 8)
rows = (ARGV[2] || "heddle,forget,pool64,both,async").split(",")
script = File.expand_path("connect_costs.rb", __dir__)
PATTERN = /GC runs (\d+) \((\d+) major\), GC time ([\d.]+) µs per connection of ([\d.]+) µs CPU, ([\d.]+) µs wall/

def run(script, row, jobs)
  library = row == "async" ? "async" : "heddle"
  variant = %w[async heddle].include?(row) ? "none" : row
  out, status = Open3.capture2e(RbConfig.ruby, script, library, "100", "1100", "--repeat", jobs.to_s,
                                "--variant", variant)
  status.success? && (m = out.match(PATTERN)) or abort "#{row} failed:\n#{out}"
  { majors: Integer(m[2]) * 1000.0 / (jobs * 1000), gc: Float(m[3]), cpu: Float(m[4]), wall: Float(m[5]) }
end

def median(values) = values.sort[values.size / 2]

results = Hash.new { |h, k| h[k] = [] }
rounds.times do |round|
  rows.shuffle.each { |row| results[row] << run(script, row, jobs) }
  warn "round #{round + 1}/#{rounds} done"
end

puts "#{RUBY_DESCRIPTION}; #{rounds} rounds of #{jobs} x 1,000 connections per row; load #{File.read('/proc/loadavg').split[0, 3].join(' ')}"
reference = results["async"]
puts "| row | wall µs/conn | CPU µs/conn | GC µs/conn | major GCs per 1,000 | wall ÷ async | CPU ÷ async |"
puts "|---|---:|---:|---:|---:|---:|---:|"
rows.each do |row|
  cells = %i[wall cpu].map do |key|
    values = results[row].map { |r| r[key] }
    format("%.1f [%.1f-%.1f]", median(values), values.min, values.max)
  end
  ratios = %i[wall cpu].map do |key|
    reference.empty? ? "-" : format("%.2f", median(results[row].map { |r| r[key] }) / median(reference.map { |r| r[key] }))
  end
  puts "| #{row} | #{cells.join(' | ')} | #{format('%.1f', median(results[row].map { |r| r[:gc] }))} | " \
       "#{format('%.2f', median(results[row].map { |r| r[:majors] }))} | #{ratios.join(' | ')} |"
end
