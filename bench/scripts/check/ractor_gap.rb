# Where the gap between heddle's cpu_bound ractor check and bare ractors goes: the
# same 100 × tarai(9, 4, 0) as the heddle check on :inline, :ractor (heddle_ractor;
# heddle_ractor4 with 4 workers; heddle_chunks with RactorChunks, the runner before
# Ractors), 2 bare ractors of 50 (bare2), bare ractors of 2 runs with 4 alive
# (heddle's old chunking without heddle), the main ractor running 50 while one ractor
# runs 50, and the main ractor and one ractor pulling 2-run chunks from a dispatcher
# ractor. Variants interleaved in random order; wall and process CPU (all threads),
# median [min–max]. docs/check.md, "A ractor per worker", has the figures.
# usage: bundle exec ruby bench/scripts/check/ractor_gap.rb [trials] [variant,...]
require "heddle"
require "heddle/check"
require_relative "ractor_chunks"
Warning[:experimental] = false
module T; def self.tarai(x, y, z) = x <= y ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y)); end
# heddle_chunks: the runner before Ractors, a ractor per chunk of 2 ms of runs.
Heddle::Check::Runners.singleton_class.prepend(Module.new do
  def for(property, options)
    $chunks && options.worker == :ractor ? Heddle::Check::Runners::RactorChunks.new(property, size: options.size) : super
  end
end)
PROP = Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) { |x, y, z| T.tarai(x, y, z) }
def run_in(n) = n.times { T.tarai(9, 4, 0) }
def ractor(n) = Ractor.new(n) { |m| m.times { T.tarai(9, 4, 0) } && :ok }

def chunks(total, per, alive)
  running = []
  left = total
  until left.zero? && running.empty?
    while running.size < alive && left.positive?
      running << ractor([per, left].min)
      left -= [per, left].min
    end
    r, = Ractor.select(*running)
    running.delete(r)
  end
end

# A dispatcher ractor hands out chunks of `per` runs to whoever takes from it:
# the main ractor and one worker ractor both pull until it says :done.
def dispatched(total, per)
  d = Ractor.new(total, per) do |t, q|
    (0...t).step(q) { |i| Ractor.yield([i, [q, t - i].min]) }
    2.times { Ractor.yield(:done) } # one for the main ractor, one for the worker
  end
  w = Ractor.new(d) do |disp|
    n = 0
    while (c = disp.take) != :done
      c[1].times { T.tarai(9, 4, 0) }
      n += c[1]
    end
    n
  end
  while (c = d.take) != :done
    run_in(c[1])
  end
  w.take
end

VARIANTS = {
  inline: -> { Heddle::Check.assert(PROP, worker: :inline, runs: 100) },
  heddle_ractor: -> { Heddle::Check.assert(PROP, worker: :ractor, runs: 100) },
  heddle_ractor4: -> { Heddle::Check.assert(PROP, worker: :ractor, size: 4, runs: 100) },
  heddle_chunks: lambda do
    $chunks = true
    Heddle::Check.assert(PROP, worker: :ractor, runs: 100)
  ensure
    $chunks = false
  end,
  bare2: -> { Array.new(2) { ractor(50) }.each(&:take) },
  bare_chunks2x4: -> { chunks(100, 2, 4) },
  dispatch2: -> { dispatched(100, 2) },
  main_plus1: lambda {
    r = ractor(50)
    run_in(50)
    r.take
  }
}.freeze
picked = ARGV[1] ? ARGV[1].split(",").map(&:to_sym) : VARIANTS.keys
picked.each { |k| VARIANTS.fetch(k).call }
res = Hash.new { |h, k| h[k] = [] }
(ARGV[0] || 9).to_i.times do
  picked.shuffle.each do |k|
    GC.start
    t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    c = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    VARIANTS.fetch(k).call
    res[k] << [Process.clock_gettime(Process::CLOCK_MONOTONIC) - t, Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c]
  end
end
med = ->(a) { a.sort[a.size / 2] }
base = med.call(res[:inline].map(&:first)) if res.key?(:inline)
res.each do |k, v|
  w = v.map(&:first)
  printf("%-15s %6.1f ms [%.1f–%.1f]  cpu %6.1f ms%s\n", k, med.call(w) * 1e3, w.min * 1e3, w.max * 1e3,
         med.call(v.map(&:last)) * 1e3, base ? format("  x%.2f", base / med.call(w)) : "")
end
