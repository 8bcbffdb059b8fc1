# frozen_string_literal: true

# How far down "fibers waiting on a thread" (the promises suite's MixedRig) could go: 10 waiters
# in one thread each hand a job to a resolver thread and wait for its answer, N jobs in all.
# Rows, each trial a fresh process, rows interleaved in a fresh random order per round:
#
#   floor        no fibers, no promise: one thread pushes 10 jobs to the resolver's Thread::Queue,
#                then pops 10 answers from a Thread::Queue of its own (the least two threads can
#                do to pass a batch of 10 and back: the queue operations and the GVL hand-overs)
#   floor1       the same, one job at a time (a thread waiter's hand-off: no batching)
#   threads      10 threads, each a fresh Thread::Queue per job (the suite's best thread row's kind)
#   heddle       the suite's row: 10 Heddle.concurrently waiters, a Heddle::Promise per job
#   async        the suite's peer: 10 async tasks, a Thread::Queue per job
#
# Prints per row the median [min-max] over the rounds of wall and CPU µs per job, and each row's
# ratio to the threads row (the suite's target: heddle 5x faster than the best thread row).
#   bundle exec ruby [--yjit] bench/scripts/promises/mixed_floor.rb [rounds] [jobs] [rows]
#   (defaults: 7 rounds, 100000 jobs, every row)
require "rbconfig"

trial = ARGV[0] == "--trial"
rounds = trial ? 1 : Integer(ARGV[0] || 7)
jobs = Integer(ARGV[trial ? 2 : 1] || 100_000)
rows = trial ? [ARGV[1]] : (ARGV[2] || "floor,floor1,threads,heddle,async").split(",")
WAITERS = 10
STOP = :stop

def clocks = [Process.clock_gettime(Process::CLOCK_MONOTONIC), Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)]

# Runs the block with the queue of a resolver thread, which answers each job (with answers: an answer
# there; a queue: push; a promise: fulfil), and stops the thread after it.
def with_resolver(answers = nil)
  queue = Thread::Queue.new
  thread = Thread.new do
    until (job = queue.pop).equal?(STOP)
      if answers then answers << true
      elsif job.is_a?(Thread::Queue) then job.push(true)
      else job.fulfill(true)
      end
    end
  end
  yield queue
ensure
  queue << STOP
  thread&.join
end

def floor(total, batch)
  answers = Thread::Queue.new
  with_resolver(answers) do |queue|
    yield
    (total / batch).times do
      batch.times { |i| queue << i }
      batch.times { answers.pop }
    end
  end
end

def threads(total)
  with_resolver do |queue|
    go = Thread::Queue.new
    waiters = Array.new(WAITERS) do
      Thread.new do
        go.pop
        (total / WAITERS).times { (queue << (answer = Thread::Queue.new)) && answer.pop }
      end
    end
    Thread.pass until waiters.all? { |w| w.status == "sleep" }
    yield
    WAITERS.times { go << true }
    waiters.each(&:join)
  end
end

def heddle(total)
  require "heddle"
  with_resolver do |queue|
    yield
    Array.new(WAITERS) do
      Heddle.concurrently { (total / WAITERS).times { (queue << (promise = Heddle::Promise.new)) && promise.value } }
    end.each(&:await_result)
  end
end

def async(total)
  require "async"
  with_resolver do |queue|
    yield
    Async do |task|
      Array.new(WAITERS) do
        task.async { (total / WAITERS).times { (queue << (answer = Thread::Queue.new)) && answer.pop } }
      end.each(&:wait)
    end.wait
  end
end

# One trial in this process: prints "wall cpu" in seconds.
if trial
  row = rows.first
  total = jobs
  GC.start
  GC.disable
  start = nil
  mark = -> { start = clocks }
  case row
  when "floor" then floor(total, WAITERS, &mark)
  when "floor1" then floor(total, 1, &mark)
  else send(row, total, &mark)
  end
  finish = clocks
  puts format("%.6f %.6f", finish[0] - start[0], finish[1] - start[1])
  exit
end

results = Hash.new { |h, k| h[k] = [] }
rounds.times do |round|
  rows.shuffle.each do |row|
    out = IO.popen([RbConfig.ruby, __FILE__, "--trial", row, jobs.to_s], &:read)
    $?.success? or abort "#{row} failed"
    results[row] << out.split.map { |s| Float(s) * 1e6 / jobs }
  end
  warn "round #{round + 1}/#{rounds} done"
end

def median(values) = values.sort[values.size / 2]
def stat(values) = format("%.2f [%.2f-%.2f]", median(values), values.min, values.max)

puts "#{RUBY_DESCRIPTION}; #{rounds} rounds of #{jobs} jobs; GC off in the job; " \
     "load #{File.read('/proc/loadavg').split[0, 3].join(' ')}"
puts format("%-8s %26s %26s %14s", "row", "wall µs per job", "CPU µs per job", "threads ÷ row")
base = median(results.fetch("threads", [[Float::NAN]]).map(&:first))
rows.each do |row|
  walls = results[row].map(&:first)
  cpus = results[row].map(&:last)
  puts format("%-8s %26s %26s %14.2f", row, stat(walls), stat(cpus), base / median(walls))
end
