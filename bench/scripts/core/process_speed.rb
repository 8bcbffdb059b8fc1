# frozen_string_literal: true

# Whether fresh processes run at one speed: N processes in turn (default 12) each time, GC off, a
# Fiber resume+yield, a plain method call and a heddle `Proc#call` of a proc that does nothing
# (ns each, the last of 3 passes), then prints them in the order run. On the 2-core VM of
# docs/journal/bench.md ("Two speeds of process") a process ran everything at one of two speeds
# for its whole life.
#   bundle exec ruby bench/scripts/core/process_speed.rb [N]
require "rbconfig"

if ARGV.first == "--one"
  $LOAD_PATH.unshift File.expand_path("../../../lib/heddle", __dir__)
  require "heddle/procs"
  cpu = -> { Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) }
  plain = Object.new
  def plain.call_me(value) = value
  fiber = Fiber.new { loop { Fiber.yield } }
  proc = Heddle.concurrent_proc { nil }
  figures = nil
  3.times do
    GC.start
    GC.disable
    started = cpu.call
    200_000.times { fiber.resume }
    switched = cpu.call
    2_000_000.times { plain.call_me(1) }
    called = cpu.call
    200_000.times { proc.call }
    done = cpu.call
    GC.enable
    figures = [(switched - started) * 5e3, (called - switched) * 5e2, (done - called) * 5e3]
  end
  puts figures.map(&:round).join(" ")
  exit
end

count = Integer(ARGV[0] || 12)
puts "#{RUBY_DESCRIPTION}: ns per fiber resume+yield / method call / heddle Proc#call, one process per line"
count.times { |i| puts "#{i + 1}: #{IO.popen([RbConfig.ruby, __FILE__, '--one'], &:read)}" }
