# frozen_string_literal: true

# Whether this Ruby's Thread::Mutex leaves a waiter asleep on a free lock: A
# holds the lock, B and then C wait for it, A raises B and unlocks. Unlock
# hands the lock to B, whose interrupt is pending; B drops it and raises, and
# C is never woken. Then the same with Heddle::MaskedLock, and a random-
# interrupt run of each (4 threads, 200 raises per round) for SECONDS.
#   ruby bench/scripts/sync/mutex_lost_wakeup.rb [SECONDS]
$LOAD_PATH.unshift File.expand_path("../../../lib/heddle", __dir__)
require "heddle"
Thread.report_on_exception = false
class Poke < StandardError; end

def waiter(lock, &block)
  thread = Thread.new do
    lock.synchronize(&block)
  rescue Poke
    :poked
  end
  Thread.pass until thread.status == "sleep" || !thread.alive?
  thread
end

def handed_over?(lock)
  lock.lock
  first = waiter(lock) { nil }
  second = waiter(lock) { :got }
  first.raise(Poke)
  lock.unlock
  first.join
  got = second.join(1)
  second.wakeup && second.join unless got
  !got.nil?
end

def poke(thread)
  thread.raise(Poke)
  Thread.pass
rescue ThreadError
  nil # it ended
end

def finished?(thread)
  thread.join(2)
rescue Poke
  thread # it ended with the interrupt
end

# One round: whether a thread was left stuck after 200 raises at random.
def stuck_round?(lock)
  stop = false
  threads = Array.new(4) do
    Thread.new do
      lock.synchronize { Thread.pass } until stop
    rescue Poke
      retry
    end
  end
  200.times { poke(threads.sample) }
  stop = true
  left = threads.reject { |t| finished?(t) }
  left.each(&:kill).each { |t| finished?(t) }
  !left.empty?
end

def stuck_rounds(lock, seconds)
  rounds = stuck = 0
  ends = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
  while Process.clock_gettime(Process::CLOCK_MONOTONIC) < ends
    rounds += 1
    stuck += 1 if stuck_round?(lock)
  end
  [rounds, stuck]
end

seconds = Float(ARGV.fetch(0, "10"))
puts "Ruby #{RUBY_VERSION} #{RUBY_DESCRIPTION[/\+YJIT/]}"
[Thread::Mutex, Heddle::MaskedLock].each do |kind|
  rounds, stuck = stuck_rounds(kind.new, seconds)
  puts "#{kind.name.ljust(18)} next waiter woken in the fixed sequence: #{handed_over?(kind.new).to_s.ljust(5)} " \
       "random raises: #{stuck} of #{rounds} rounds left a thread stuck"
end
