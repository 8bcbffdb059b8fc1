# frozen_string_literal: true

# CPU time per `call` of a concurrent proc that does not wait, with and
# without YJITWarmUp (docs/core.md, "Under YJIT"). Runs each variant in a
# fresh process, alternating, 5 times:
#
#   PATH=/opt/ruby-3.3/bin:$PATH BUNDLE_GEMFILE=gemfiles/ruby-3.3.gemfile \
#     bundle exec ruby bench/scripts/core/yjit_warm_up.rb
require "rbconfig"

CALLS = 2_000_000
lib = File.expand_path("../../../lib", __dir__)
child = <<~RUBY
  require "loom"
  test_proc = Loom.concurrent_proc { 1 }
  10_000.times { test_proc.call }
  started = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  #{CALLS}.times { test_proc.call }
  print (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - started) / #{CALLS} * 1e9
RUBY

samples = Hash.new { |h, k| h[k] = [] }
5.times do
  { "warm-up" => "1", "none" => "0" }.each do |name, switch|
    samples[name] << IO.popen({ "LOOM_YJIT_WARM_UP" => switch }, [RbConfig.ruby, "--yjit", "-I", lib, "-e", child],
                              &:read).to_f
  end
end
samples.each do |name, ns|
  sorted = ns.sort
  puts "#{name.ljust(8)} #{sorted[sorted.size / 2].round(1)} ns CPU per call, median " \
       "[#{sorted.first.round(1)}-#{sorted.last.round(1)}] of #{sorted.size}"
end
puts "ratio (none / warm-up): #{(samples['none'].sort[2] / samples['warm-up'].sort[2]).round(2)}x"
