# frozen_string_literal: true

# Ruby 3.3.8: a non-main ractor with a second thread can hang for good, two
# ractors at once, depending on what that thread does. Each shape runs 20
# times in fresh processes (10 s each); prints how many hung.
#
#   ruby bench/scripts/workers/ractor_thread_hangs.rb [SHAPE...]
#
# Shapes (each ractor: 10 messages to the main ractor through its second thread):
#   join      the second thread ends; the first waits in Thread#join
#   poll      the second thread ends; the first polls `sleep 0.001 while t.alive?`
#   exit      as poll, the second thread ending by Thread.exit
#   watcher   heddle's first runner: a third thread waits on a ConditionVariable with a timeout
#   receiver  heddle's Ractors::ChunkRunner: the second thread only waits in Ractor.receive and
#             never ends; the first pops a Thread::Queue and ends the ractor
#
# Measured here (2 shared cores, 20 runs each): 3.3.8: join 9-15 hung, poll 1-3,
# exit 2-4 of 10, watcher 14, receiver 0. Ruby 3.1.2: 0 in every shape.
require_relative "fresh_runs" # fresh_runs.rb: the runs, each in a fresh ruby

CHILD = <<~RUBY
  Warning[:experimental] = false
  ractors = Array.new(2) do |k|
    Ractor.new(k, ARGV[0]) do |id, shape|
      queue = Thread::Queue.new
      send_all = -> { 10.times { |i| Ractor.main.send([id, i]) } }
      case shape
      when "join" then Thread.new(&send_all).join
      when "poll" then (t = Thread.new(&send_all)) && (sleep 0.001 while t.alive?)
      when "exit" then (t = Thread.new { send_all.call; Thread.exit }) && (sleep 0.001 while t.alive?)
      when "watcher"
        Thread.new { lock = Mutex.new; wake = ConditionVariable.new; lock.synchronize { loop { wake.wait(lock, 0.05) } } }
        Thread.new { loop { queue << Ractor.receive } }
        send_all.call while queue.pop != :end
      else
        Thread.new { loop { queue << Ractor.receive } }
        send_all.call while queue.pop != :end
      end
    end
  end
  ractors.each { |r| r << :go << :end } if %w[watcher receiver].include?(ARGV[0])
  20.times { Ractor.receive }
  sleep 0.01 until Ractor.count == 1
RUBY

shapes = ARGV.empty? ? %w[join poll exit watcher receiver] : ARGV
shapes.each do |shape|
  hung = FreshRuns.hung(CHILD, shape, runs: 20, limit: 10)
  puts "Ruby #{RUBY_VERSION}, #{shape}: #{hung} of 20 runs hung"
end
