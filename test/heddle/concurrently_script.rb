# frozen_string_literal: true

# Concurrently 1.2.0-style code, run by concurrently_test.rb in a subprocess (the
# real concurrently gem is installed too; never load both in one process).
# Prints one "name: value" line per check.
require "heddle/concurrently"
require "stringio"

Concurrently::Proc.error_log_output = false
def check(name)
  puts "#{name}: #{yield.inspect}"
rescue Exception => e # rubocop:disable Lint/RescueException
  puts "#{name}: raised #{e.class}: #{e.message.lines.first.chomp}"
end

check("call") do
  concurrent_proc do |*args|
    wait 0.0001
    args
  end.call(:a, :b)
end
check("brackets") { Concurrently::Proc.new { |x| x }[1] }
check("call_nonblock waits") do
  concurrent_proc do
    wait 0
  end.call_nonblock.class.ancestors.include?(Concurrently::Proc::Evaluation)
end
check("custom evaluation") do
  klass = Class.new(Concurrently::Proc::Evaluation)
  concurrent_proc(klass) { wait 0.001 }.call_nonblock.is_a?(klass)
end
check("concurrently") { concurrently(1, 2) { |a, b| a + b }.await_result }
check("await_result block") { concurrently { raise "error" }.await_result { |r| "transformed #{r.message}" } }
check("error result") { concurrently { raise "error" }.await_result }
check("timeout") { concurrently { wait 0.01 }.await_result(within: 0.0001) }
check("timeout positional") { concurrently { wait 0.01 }.await_result({ within: 0.0001, timeout_result: :late }) }
check("resume!") do
  evaluation = concurrently { await_resume! }
  wait 0
  evaluation.resume! :resumed
  evaluation.await_result
end
check("resume! not waiting") { Concurrently::Evaluation.current.resume! }
check("conclude_to while waiting") do
  evaluation = concurrently do
    wait 0.0001
    :completed
  end
  concurrent_proc do
    evaluation.conclude_to :intercepted
    wait 0.0002
  end.call
  evaluation.await_result
end
check("conclude twice") do
  evaluation = concurrently { :done }
  evaluation.await_result
  evaluation.conclude_to :again
end
check("order in one iteration") do
  counter = 0
  e1 = concurrent_proc do
    wait 0.01
    counter += 1
  end.call_nonblock
  e2 = concurrent_proc do
    wait 0
    counter += 1
  end.call_nonblock
  e3 = concurrent_proc { counter += 1 }.call_detached
  sleep 0.02
  wait 0
  [e3.await_result, e2.await_result, e1.await_result, counter + 1]
end
check("deferred order") do
  order = []
  [0.03, 0.01, 0.02].map do |s|
    concurrently do
      wait s
      order << s
    end
  end.each(&:await_result)
  order
end
check("await_fastest") do
  fast = concurrently { :fast }
  await_fastest(concurrently { wait 1 }, fast) == fast
end
check("await_readable") do
  reader, writer = IO.pipe
  concurrently do
    wait 0.0001
    writer.write "x"
  end
  reader.await_readable(within: 1)
end
check("await_readable timeout") { IO.pipe[0].await_readable(within: 0.0001) }
check("two readers of one IO") do
  reader, writer = IO.pipe
  waiters = Array.new(2) { concurrently { reader.await_readable } }
  wait 0
  writer.write "x"
  waiters.map(&:await_result)
end
check("concurrently_read") do
  reader, writer = IO.pipe
  evaluation = reader.concurrently_read(5)
  writer.concurrently_write("hello").await_result
  evaluation.await_result
end
check("data") do
  evaluation = concurrently { :x }
  evaluation[:key] = :value
  [evaluation[:key], evaluation.key?(:key), evaluation.keys]
end
check("error log") do
  log = StringIO.new
  Concurrently::Proc.error_log_output = log
  concurrently { raise ArgumentError, "logged" }.await_result { nil }
  Concurrently::Proc.error_log_output = false
  log.string.lines.first(3).map(&:chomp)
end
check("on error") do
  seen = []
  hook = Concurrently::Proc.on(:error) { |error| seen << error.message }
  concurrently { raise "hooked" }.await_result { nil }
  hook.cancel
  [seen, hook.cancelled?] # callbacks_attachable's Callback, which Concurrently's on returns, answers cancelled?
end
check("reinitialize!") do
  result = nil
  concurrent_proc do
    wait 0
    result = :waited
  end.call_nonblock
  Concurrently::EventLoop.current.reinitialize!
  wait 0
  result
end
check("lifetime") { Concurrently::EventLoop.current.lifetime.is_a?(Float) }
check("debug") do
  require "logger"
  out = StringIO.new
  Concurrently::Debug.enable Logger.new(out)
  concurrently do
    wait 0
    1
  end.await_result
  out.string.scan(/BEGIN|SUSPEND|RESUME|END/)
end
check("debug call_and_forget") do
  out = StringIO.new
  Concurrently::Debug.enable Logger.new(out)
  concurrent_proc { wait 0 }.call_and_forget
  wait 0
  wait 0
  out.string.scan(/BEGIN|SUSPEND|RESUME|END/)
end
check("interrupt keeps loop") do
  later = concurrently { :later }
  concurrently { raise Interrupt }
  begin
    wait 0
  rescue Interrupt
    nil
  end
  later.await_result
end
check("error_log_output refused") do
  Concurrently::Proc.error_log_output = 5
rescue Concurrently::Error => e
  [e.class, e.message]
end
check("nothing to wait for") { await_resume! }
