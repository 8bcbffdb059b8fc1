# frozen_string_literal: true

# What a forged result batch holding one 1,000,000-digit number costs the
# caller to read: JSON.parse as heddle called it before limits: against
# Codec#load_batch, which refuses it before parsing (limits: digits 4,300);
# and genuine batches (100 small results; 5,000 numbers, whose digits pass
# the first gate) to show the check's cost on the usual paths. Process CPU,
# median of 5 with min-max.
#
#   bundle exec ruby bench/scripts/redis/cost_bomb.rb
root = File.expand_path("../../..", __dir__)
$LOAD_PATH.unshift(*%w[heddle heddle-redis].map { |gem| File.join(root, "lib", gem) })
require "heddle"
require "heddle/workers/redis"

codec = Heddle::Workers::Redis::Codec.new
bomb = "[[0,0,#{'9' * 1_000_000}]]"
usual = JSON.generate([[0, 0, { "a" => [1, 2, 3, "x" * 100] }]] * 100)
numbers = JSON.generate((0...5000).map { |i| [i, 0, i * 7] })
before = ->(blob) { JSON.parse(blob, allow_nan: false, max_nesting: 65) }
cpu = -> { Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) }
measure = lambda do |times, &block|
  Array.new(5) { (t = cpu.call) && times.times(&block) && (cpu.call - t) / times }.sort
end
refuse = lambda do
  codec.load_batch(bomb)
rescue Heddle::Workers::Redis::Codec::DecodeError
  nil
end
rows = {
  "1,000,000 digits, before" => measure.call(1) { before.call(bomb) },
  "1,000,000 digits, load_batch (refused)" => measure.call(20) { refuse.call },
  "100 small results, before" => measure.call(2000) { before.call(usual) },
  "100 small results, load_batch" => measure.call(2000) { codec.load_batch(usual) },
  "5,000 numbers, before" => measure.call(200) { before.call(numbers) },
  "5,000 numbers, load_batch" => measure.call(200) { codec.load_batch(numbers) }
}
puts "ruby #{RUBY_VERSION}#{' --yjit' if defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?}, GC on"
rows.each do |name, xs|
  puts format("%-40s %12.1f us cpu [%.1f-%.1f]", name, xs[2] * 1e6, xs.first * 1e6, xs.last * 1e6)
end
