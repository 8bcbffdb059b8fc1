# frozen_string_literal: true

# A Heddle::Semaphore of 3 under 12 threads looping with_timeout + acquire { sleep },
# with 4,000 Thread#raise / Thread#kill aimed at random ones (ARGV[0]: mix, raise or kill).
# Every thread, killed ones included, is joined before the count is read; a clean run
# prints count=0 waiting=0 escaped={}. Run with: bundle exec ruby -Ilib/heddle <this> [mode]
require "heddle"
class Boom < StandardError; end
$sem = Heddle::Semaphore.new(3)
$escaped = Hash.new(0)
$seen = {}
$stop = false
$all = []
def worker
  ($all << Thread.new do
    Thread.current.report_on_exception = false; Thread.current.abort_on_exception = false
    begin
      until $stop
        begin
          Heddle.with_timeout(rand * 0.002) { $sem.acquire { sleep(rand * 0.001) } }
        rescue Heddle::Evaluation::TimeoutError, Boom
        rescue Exception => e
          $escaped[e.class] += 1
          $seen[e.class] ||= (warn(e.full_message(highlight: false).lines.first(14).join); 1)
        end
      end
    rescue Boom
      retry
    end
  end).last
end
mode = ARGV[0] || "mix"
threads = 12.times.map { worker }
killed = 0
4000.times do |i|
  idx = rand(threads.size); t = threads[idx]
  case (mode == "mix" ? i % 2 : (mode == "raise" ? 0 : 1))
  when 0 then t.raise(Boom) rescue nil
  when 1 then t.kill; killed += 1; threads[idx] = worker
  end
  sleep(rand * 0.0005)
end
$stop = true
$all.each { |t| begin; t.join(5) || puts("hung #{t.backtrace&.first(5)}"); rescue Boom; end }
puts "count=#{$sem.count} waiting=#{$sem.waiting} escaped=#{$escaped} killed=#{killed}"
