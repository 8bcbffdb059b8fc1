# frozen_string_literal: true

# Instructions the interpreter ran per call of each call_methods_waiting row
# (RubyVM::YJIT.runtime_stats[:vm_insns_count]: counted in every YJIT build,
# and to be read WITHOUT --yjit-stats, which changes what gets compiled).
# About 0 means the row ran compiled; docs/journal/core.md, "Ruby 3.4 under YJIT".
#
#   ruby --yjit -Ilib/heddle bench/scripts/core/interpreted_per_call.rb [ROW...]

require "heddle/concurrently"

abort "run with --yjit" unless defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?

BATCH = Array.new(100)
FAST = concurrent_proc { nil }
WAITS = concurrent_proc { wait 0 }
ROWS = {
  "call" => -> { BATCH.each { FAST.call } },
  "call_nonblock" => -> { BATCH.each { FAST.call_nonblock } },
  "call_detached" => -> { BATCH.map { FAST.call_detached }.each(&:await_result) },
  "call_and_forget" => lambda {
    BATCH.each { FAST.call_and_forget }
    wait 0
  },
  "waiting call" => -> { BATCH.each { WAITS.call } },
  "waiting call_nonblock" => -> { BATCH.map { WAITS.call_nonblock }.each(&:await_result) },
  "waiting call_detached" => -> { BATCH.map { WAITS.call_detached }.each(&:await_result) },
  "waiting call_and_forget" => lambda {
    BATCH.each { WAITS.call_and_forget }
    wait 0
  }
}.freeze

def batches(row, count)
  i = 0
  while i < count
    row.call
    i += 1
  end
end

rows = ARGV.empty? ? ROWS.keys : ARGV
if rows.size > 1 # each row in a fresh process, as the benchmark runs it
  rows.each { |name| system(RbConfig.ruby, "--yjit", "-I#{$LOAD_PATH.grep(%r{lib/heddle\z}).first}", __FILE__, name) }
else
  row = ROWS.fetch(rows.first)
  batches(row, 300)
  before = RubyVM::YJIT.runtime_stats[:vm_insns_count]
  batches(row, 1000)
  per_call = (RubyVM::YJIT.runtime_stats[:vm_insns_count] - before) / 100_000.0
  puts "#{RUBY_VERSION} #{rows.first}: #{per_call.round(1)} interpreted instructions per call"
end
