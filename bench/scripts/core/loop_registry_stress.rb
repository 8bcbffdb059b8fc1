# frozen_string_literal: true

# Rounds of 4 threads, each running Heddle.run with 3 proc fibers whose first IO wait opens the
# loop's selector and wake-up pipe, while a churn thread starts and ends threads with loops and
# runs GC (reaper threads); counts the Heddle.run threads that did not finish within 10 s.
#   bundle exec ruby bench/scripts/core/loop_registry_stress.rb [rounds]
require "heddle"

rounds = Integer(ARGV[0] || 200)
stop = false
churn = Thread.new do
  until stop
    Array.new(4) { Thread.new { Heddle.wait(0.0005) } }.each(&:join)
    GC.start if rand < 0.3
  end
end

def round_of_readers
  Heddle.run do
    readers, writers = Array.new(3) { IO.pipe }.transpose
    readers.each { |reader| Fiber.schedule { reader.read(1) } }
    writers.each { |writer| writer.write("x") }
    sleep 0.0005
  ensure
    [*readers, *writers].each(&:close)
  end
end

hung = 0
rounds.times do |round|
  Array.new(4) { Thread.new { round_of_readers } }.each do |thread|
    next if thread.join(10)

    hung += 1
    puts "round #{round}: hung at #{thread.backtrace&.first(3)}"
    thread.kill
  end
end
stop = true
churn.join
puts "hung #{hung} of #{rounds * 4} Heddle.run threads (#{RUBY_DESCRIPTION})"
