# frozen_string_literal: true

# The messages suite's "heddle fiber pool, lockstep" job (a fiber pool inside Heddle.run on a thread
# of its own, 20,000 asks per trial) under two IOWatch back ends in ONE process, alternating, so that
# the process's own speed (a VM runs a fresh process at one of two speeds) weighs on both alike. The
# job calls the selector about 3 times a trial, so the medians should match.
#   bundle exec ruby [--yjit] bench/scripts/scheduler/selector_pool_ab.rb [rounds] [workers]
require "bundler/setup"
require "heddle"

rounds = Integer(ARGV[0] || 6)
workers = Integer(ARGV[1] || 5)
selectors = Heddle::EventLoop::Selectors
backends = [selectors::NIOWatch, selectors::EpollWatch].select(&:available?)

# 3 trials of the job on a fresh loop of +backend+; wall ms each.
def trials(backend, workers)
  Heddle::EventLoop::IOWatch.backend = backend
  go = Thread::Queue.new
  done = Thread::Queue.new
  thread = Thread.new do
    Heddle.run do
      pool = Heddle::Pool.new(worker: :fiber, size: workers) { |query| query == "STATUS" ? "OK" : "?" }
      while (total = go.pop)
        done << total.times.count { pool.ask("STATUS") == "OK" }
      end
      pool.shutdown
    end
  end
  Array.new(3) do
    GC.start
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    go << 20_000
    done.pop == 20_000 or raise "the pool lost an answer"
    ((Process.clock_gettime(Process::CLOCK_MONOTONIC) - started) * 1000).round(1)
  end
ensure
  go&.close
  thread&.join
end

backends.each { |backend| trials(backend, workers) } # warm-up
times = Hash.new { |hash, key| hash[key] = [] }
rounds.times do |round|
  (round.even? ? backends : backends.reverse).each { |backend| times[backend] += trials(backend, workers) }
end
times.each do |backend, list|
  sorted = list.sort
  puts format("%-11s median %.1f ms [%.1f–%.1f] over %d trials, %s", backend.name.split("::").last,
              sorted[sorted.size / 2], sorted.first, sorted.last, sorted.size, RUBY_DESCRIPTION)
end
