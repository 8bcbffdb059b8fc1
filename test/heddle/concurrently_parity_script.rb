# frozen_string_literal: true

# The same Concurrently 1.2.0 code, run on the concurrently gem itself
# (`ruby concurrently_parity_script.rb gem`) or on heddle's drop-in layer
# (`... heddle`); concurrently_parity_test.rb compares the two outputs. Each
# check runs in a forked child, so that one that breaks Concurrently's loop
# leaves the next ones a fresh process. Prints one "name: answer" line per
# check, in order.
require "logger" # before the gem: after it, its Thread#[] patch breaks require on Ruby 3
require "stringio"

if ARGV.first == "gem"
  require "concurrently"
  # Concurrently's Kernel#concurrently and #concurrent_proc call Proc.new
  # without a block, which raises on Ruby 3: they cannot run at all there
  # unless given the block explicitly.
  module Kernel
    private

    def concurrently(*args, &) = Concurrently::Proc.new(&).call_detached(*args)
    def concurrent_proc(...) = Concurrently::Proc.new(...)
  end
else
  require "heddle/concurrently"
end

Concurrently::Proc.error_log_output = false
# The loop's parts that load on first use (a selector library), loaded once
# here rather than in every child.
concurrently { wait 0.0001 }.await_result

# Concurrently's public error classes, most specific first: an error is
# reported by the first it is a kind of (its class's own name is heddle's
# under heddle, a deliberate difference checked apart).
ERROR_NAMES = %w[Concurrently::Evaluation::TimeoutError Concurrently::Evaluation::Error Concurrently::Error
                 Concurrently::Proc::Evaluation::Cancelled].freeze

def described(error)
  name = ERROR_NAMES.find { |candidate| Object.const_get(candidate) === error } || error.class.name # rubocop:disable Style/CaseEquality -- what `rescue` tests
  "raised #{name}: #{error.message.lines.first&.chomp}"
end

def check(name)
  reader, writer = IO.pipe
  pid = fork do
    reader.close
    answer = begin
      yield.inspect
    rescue Exception => e # rubocop:disable Lint/RescueException -- Concurrently's loop may raise anything
      described(e)
    end
    writer.puts "#{name}: #{answer}"
    exit!(0)
  end
  writer.close
  line = reader.read
  status = Process.wait2(pid).last
  puts line.empty? ? "#{name}: died (#{status})" : line
end

# --- constants: each exists and answers is_a?, === and rescue as Concurrently's ---

check("constants defined") do
  %w[Concurrently::VERSION Concurrently::Error Concurrently::Evaluation Concurrently::Evaluation::Error
     Concurrently::Evaluation::TimeoutError Concurrently::Proc Concurrently::Proc::Evaluation
     Concurrently::Proc::Evaluation::Cancelled Concurrently::Proc::Evaluation::RescueableError
     Concurrently::Proc::Fiber Concurrently::Proc::Fiber::EMPTY_EVALUATION_BUCKET Concurrently::EventLoop
     Concurrently::EventLoop::Fiber Concurrently::EventLoop::IOSelector Concurrently::EventLoop::ProcFiberPool
     Concurrently::EventLoop::RunQueue Concurrently::EventLoop::RunQueue::Track Concurrently::Debug
     IO::READ_PROC IO::WRITE_PROC].reject { |name| Object.const_defined?(name) }
end
check("version") { Concurrently::VERSION }
check("error hierarchy") do
  [Concurrently::Error.superclass, Concurrently::Evaluation::Error.superclass.equal?(Concurrently::Error),
   Concurrently::Evaluation::TimeoutError.superclass.equal?(Concurrently::Evaluation::Error),
   Concurrently::Proc::Evaluation::Cancelled.superclass, Concurrently::Proc::Evaluation.superclass.equal?(
     Concurrently::Evaluation
   ), Concurrently::Proc.superclass]
end
check("proc fiber is_a?") { concurrent_proc { Fiber.current.is_a?(Concurrently::Proc::Fiber) }.call }
check("proc fiber ===") do
  concurrently do
    wait 0
    case Fiber.current
    when Concurrently::Proc::Fiber then :proc_fiber
    else :other
    end
  end.await_result
end
check("proc fiber class") do
  [Concurrently::Proc::Fiber.ancestors.include?(Fiber), Concurrently::Proc::Fiber === Fiber.current, # rubocop:disable Style/CaseEquality
   Concurrently::Proc::Fiber::EMPTY_EVALUATION_BUCKET, Concurrently::Proc::Fiber::EMPTY_EVALUATION_BUCKET.frozen?]
end
check("loop fiber") do
  [Concurrently::EventLoop::Fiber.ancestors.include?(Fiber), Concurrently::EventLoop::Fiber === Fiber.current, # rubocop:disable Style/CaseEquality
   concurrent_proc { Concurrently::EventLoop::Fiber === Fiber.current }.call] # rubocop:disable Style/CaseEquality
end
check("rescueable error") do
  rescued = [ArgumentError, LoadError, SystemStackError, SecurityError, Interrupt].map do |klass|
    raise klass
  rescue Concurrently::Proc::Evaluation::RescueableError
    klass
  rescue Exception # rubocop:disable Lint/RescueException
    nil
  end
  [rescued, Concurrently::Proc::Evaluation::RescueableError === RuntimeError.new, # rubocop:disable Style/CaseEquality
   Concurrently::Proc::Evaluation::Cancelled.new.is_a?(Concurrently::Proc::Evaluation::RescueableError)]
end
check("run queue constants") do
  queue = Concurrently::EventLoop::RunQueue
  [queue::EVALUATION, queue::TIME, queue::RESULT, queue::Track.superclass]
end
check("io procs") { [IO::READ_PROC.is_a?(Concurrently::Proc), IO::WRITE_PROC.is_a?(Concurrently::Proc)] }
check("cancelled is no standard error") do
  evaluation = concurrently do
    wait 1
  rescue StandardError
    :rescued_cancel
  end
  wait 0
  evaluation.conclude_to :stopped
  evaluation.await_result
end

# --- conclude_to and ensure ---

check("ensure sees the cancelled evaluation") do
  seen = nil
  evaluation = concurrently do
    Concurrently::Evaluation.current[:conn] = :open
    wait 1
  ensure
    current = Concurrently::Evaluation.current
    seen = [current.equal?(evaluation), current[:conn], current.concluded?]
  end
  wait 0
  evaluation.conclude_to :stopped
  [seen, evaluation.await_result]
end
check("conclude_to from ensure") do
  raised = nil
  evaluation = concurrently do
    wait 1
  ensure
    begin
      Concurrently::Evaluation.current.conclude_to :from_ensure
    rescue Concurrently::Evaluation::Error => e
      raised = e.message.lines.first.chomp
    end
  end
  wait 0
  evaluation.conclude_to :outer
  [raised, evaluation.await_result]
end
check("ensure waits after cancel") do
  log = []
  evaluation = concurrently do
    wait 1
  ensure
    log << wait(0.001)
  end
  wait 0
  evaluation.conclude_to :stopped
  wait 0.01
  [log, evaluation.await_result]
end
check("conclude_to own evaluation") do
  evaluation = concurrently do
    Concurrently::Evaluation.current.conclude_to :early
    :late
  end
  [evaluation.await_result, evaluation.concluded?]
end
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
check("conclude_to returns") { concurrently { wait 1 }.tap { wait 0 }.conclude_to(:x) }

# --- error log output ---

check("error_log_output bad") { Concurrently::Proc.error_log_output = 5 }
check("error_log_output bad keeps") do
  log = StringIO.new
  Concurrently::Proc.error_log_output = Logger.new(log)
  begin
    Concurrently::Proc.error_log_output = :bad
  rescue Concurrently::Error
    nil
  end
  concurrently { raise "kept" }.await_result { nil }
  log.string.include?("Error: (RuntimeError) kept")
end
check("error_log_output io") do
  reader, writer = IO.pipe
  Concurrently::Proc.error_log_output = writer
  failing = concurrent_proc { raise ArgumentError, "logged" }
  failing.call_detached.await_result { nil }
  writer.close
  reader.read.lines.first(3).map(&:chomp) == Concurrently::Proc.default_error_log_message(
    failing, ArgumentError.new("logged").tap { |e| e.set_backtrace([]) }
  ).lines.first(3).map(&:chomp)
end
check("error_log_output false") { Concurrently::Proc.error_log_output = false }
check("on error hook") do
  seen = []
  failing = concurrent_proc { raise "hooked" }
  hook = Concurrently::Proc.on(:error) { |error| seen << [equal?(failing), error.message] }
  failing.call_detached.await_result { nil }
  hook.cancel
  failing.call_detached.await_result { nil }
  [seen, hook.cancelled?]
end
check("once_on error hook") do
  seen = []
  failing = concurrent_proc { raise "once" }
  before = Concurrently::Proc.on?(:error)
  hook = Concurrently::Proc.once_on(:error) { |error| seen << error.message }
  cancelled = []
  hook.on_cancel { cancelled << :cancelled }
  during = Concurrently::Proc.on?(:error)
  2.times { failing.call_detached.await_result { nil } }
  [before, during, Concurrently::Proc.on?(:error), seen, cancelled, hook.cancelled?]
end
check("instance once_on and on?") do
  seen = []
  failing = concurrent_proc { raise "mine" }
  before = failing.on?(:error)
  failing.once_on(:error) { |error| seen << error.message }
  during = failing.on?(:error)
  2.times { failing.call_detached.await_result { nil } }
  [before, during, failing.on?(:error), seen]
end

# --- the event loop ---

check("reinitialize! after readable") do
  reader, writer = IO.pipe
  read = nil
  concurrent_proc do
    reader.await_readable
    read = reader.read_nonblock(1)
  end.call_nonblock
  writer.write "x"
  wait 1e-9
  Concurrently::EventLoop.current.reinitialize!
  [read, concurrently { wait(0.001) && :later }.await_result]
end
check("reinitialize! drops pending") do
  result = nil
  concurrent_proc do
    wait 0
    result = :waited
  end.call_nonblock
  loop = Concurrently::EventLoop.current
  [loop.reinitialize!.equal?(loop), wait(0), result]
end
check("lifetime") do
  loop = Concurrently::EventLoop.current.reinitialize!
  [loop.lifetime.is_a?(Float), loop.lifetime < 1]
end
check("nothing to wait for") { await_resume! }
check("deadlock is a Concurrently::Error") do
  await_resume!
rescue Concurrently::Error => e
  e.message
end

# --- evaluations ---

check("current") do
  [Concurrently::Evaluation.current.equal?(Concurrently::Evaluation.current),
   Concurrently::Evaluation.current.instance_of?(Concurrently::Evaluation),
   concurrent_proc { Concurrently::Evaluation.current.class }.call.equal?(Concurrently::Proc::Evaluation)]
end
check("call") do
  concurrent_proc do |*args|
    wait 0.0001
    args
  end.call(:a, :b)
end
check("brackets") { Concurrently::Proc.new { |x| x }[1] }
check("call_nonblock") do
  [concurrent_proc { :now }.call_nonblock,
   concurrent_proc { wait 0 }.call_nonblock.instance_of?(Concurrently::Proc::Evaluation)]
end
check("call_detached") do
  evaluation = concurrent_proc { |x| x * 2 }.call_detached(21)
  [evaluation.concluded?, evaluation.await_result]
end
check("call_and_forget") do
  ran = []
  [concurrent_proc { |x| ran << x }.call_and_forget(1), ran.dup, wait(0), ran]
end
check("custom evaluation") do
  klass = Class.new(Concurrently::Proc::Evaluation)
  concurrent_proc(klass) { wait 0.001 }.call_nonblock.instance_of?(klass)
end
check("await_result block") { concurrently { raise "error" }.await_result { |r| "transformed #{r.message}" } }
check("error result") { concurrently { raise ArgumentError, "error" }.await_result }
check("error from call") { concurrent_proc { raise ArgumentError, "now" }.call }
check("timeout") { concurrently { wait 0.01 }.await_result(within: 0.0001) }
check("timeout result") { concurrently { wait 0.01 }.await_result(within: 0.0001, timeout_result: :late) }
check("resume!") do
  evaluation = concurrently { await_resume! }
  wait 0
  [evaluation.waiting?, evaluation.resume!(:resumed), evaluation.await_result]
end
check("resume! not waiting") { Concurrently::Evaluation.current.resume! }
check("resume! twice") do
  evaluation = concurrently { await_resume! }
  wait 0
  evaluation.resume!
  evaluation.resume!
end
check("await_resume! timeout") { await_resume!(within: 0.0001, timeout_result: :none) }
check("await_resume! timeout raises") { await_resume!(within: 0.0001) }
check("wait returns") { [wait(0), wait(0.0001)] }
check("concurrently with arguments") { concurrently(1, 2) { |a, b| a + b }.await_result }
check("timeout positional") { concurrently { wait 0.01 }.await_result({ within: 0.0001, timeout_result: :late }) }
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
  await_fastest(concurrently { wait 1 }, fast).equal?(fast)
end
check("await_fastest timeout") do
  await_fastest(concurrently { wait 1 }, concurrently { wait 1 }, within: 0.0001, timeout_result: :none)
end
check("data") do
  evaluation = concurrently { :x }
  evaluation[:key] = :value
  [evaluation[:key], evaluation.key?(:key), evaluation.key?(:other), evaluation.keys, evaluation[:other]]
end
check("children outlive a returning parent") do
  child = nil
  concurrently { child = concurrently { wait(0.001) && :child } }.await_result
  child.await_result
end

# --- IO ---

check("await_readable") do
  reader, writer = IO.pipe
  concurrently do
    wait 0.0001
    writer.write "x"
  end
  reader.await_readable(within: 1)
end
check("await_readable timeout") do
  reader, _writer = IO.pipe # kept: a collected writer would make the reader readable
  reader.await_readable(within: 0.0001)
end
check("await_writable") { IO.pipe[1].await_writable }
check("await_read") do
  reader, writer = IO.pipe
  concurrently { writer.write "hello" }
  reader.await_read(10)
end
check("await_written") { IO.pipe[1].await_written("hi") }
check("concurrently_read and write") do
  reader, writer = IO.pipe
  evaluation = reader.concurrently_read(5)
  [writer.concurrently_write("hello").await_result, evaluation.await_result]
end

# --- debug ---

check("debug") do
  out = StringIO.new
  enabled = Concurrently::Debug.enable Logger.new(out)
  concurrently do
    wait 0
    1
  end.await_result
  [enabled, out.string.scan(/BEGIN|SUSPEND|RESUME|END/)]
end
check("debug call_and_forget") do
  out = StringIO.new
  Concurrently::Debug.enable Logger.new(out)
  concurrent_proc { wait 0 }.call_and_forget
  wait 0
  wait 0
  out.string.scan(/BEGIN|SUSPEND|RESUME|END/)
end

# --- what heddle does differently on purpose (docs/core.md, "Drop-in Concurrently") ---

check("class names") { [Concurrently::Evaluation::TimeoutError.name, Concurrently::Proc::Evaluation.name] }
check("children of a concluded parent") do
  child = nil
  parent = concurrently do
    child = concurrently { wait(0.2) && :child } # long enough not to end before its parent is concluded
    wait 1
  end
  wait 0
  wait 0
  parent.conclude_to :stopped
  child.await_result
end
check("two readers of one IO") do
  reader, writer = IO.pipe
  waiters = Array.new(2) { concurrently { reader.await_readable } }
  wait 0
  writer.write "x"
  waiters.map(&:await_result)
end
check("error_log_output StringIO") do
  log = StringIO.new
  Concurrently::Proc.error_log_output = log
  concurrently { raise ArgumentError, "logged" }.await_result { nil }
  log.string.lines.first
end
check("fiber locals") do
  Thread.current[:request] = :main
  concurrent_proc { Thread.current[:request] }.call
end
check("interrupt keeps pending work") do
  later = concurrently do
    wait 0.001
    :later
  end
  concurrently { raise Interrupt }
  begin
    wait 0
  rescue Interrupt
    nil
  end
  later.await_result(within: 0.1, timeout_result: :dropped)
end
check("error hook class") { Concurrently::Proc.on(:error) { nil }.class.name }
