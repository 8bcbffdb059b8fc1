# frozen_string_literal: true

# Ruby events (call, c_call, b_call) per `Fiber.schedule { sleep 0 }`, 1,000 of them under heddle's
# Heddle.run or async's Async { } (one library per process), after a warm-up; the top N by method.
#   bundle exec ruby bench/scripts/scheduler/schedule_events.rb heddle|async [N]
library = ARGV[0] or abort "usage: schedule_events.rb heddle|async [N]"
top = Integer(ARGV[1] || 25)
library == "async" ? require("async") : require("heddle")
COUNT = 1000

def under(library, &body)
  Thread.new { library == "async" ? Async(&body).wait : Heddle.run(&body) }.join
end

under(library) { COUNT.times { Fiber.schedule { sleep 0 } } }
counts = Hash.new(0)
tracer = TracePoint.new(:call, :c_call, :b_call) { |tp| counts["#{tp.event} #{tp.defined_class}##{tp.method_id}"] += 1 }
under(library) do
  tracer.enable
  COUNT.times { Fiber.schedule { sleep 0 } }
end
tracer.disable
puts format("%s on %s: %.1f events per Fiber.schedule { sleep 0 }", library, RUBY_DESCRIPTION, counts.values.sum.to_f / COUNT)
counts.sort_by { |_, count| -count }.first(top).each { |name, count| puts format("  %6.2f  %s", count.to_f / COUNT, name) }
