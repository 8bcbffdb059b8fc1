# cpu_bound check (tarai(9, 4, 0), 100 runs): heddle worker: :ractor against
# :inline, alternated 7 times in one process. LIB=path/to/lib picks the lib.
# usage: ruby bench/scripts/check/ractor_vs_inline.rb
$LOAD_PATH.unshift(ENV["LIB"].to_s.empty? ? File.expand_path("../../../lib/heddle", __dir__) : ENV.fetch("LIB", nil))
require "heddle"
require "heddle/check"
Warning[:experimental] = false
module T; def self.tarai(x, y, z) = x <= y ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y)); end
prop = Heddle::Check.property(Heddle::Check.constant([9, 4, 0])) { |x, y, z| T.tarai(x, y, z) }
Heddle::Check.assert(prop, worker: :ractor, runs: 10)
res = { inline: [], ractor: [] }
7.times do
  %i[inline ractor].shuffle.each do |w|
    t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    Heddle::Check.assert(prop, worker: w, runs: 100)
    res[w] << (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
  end
end
med = ->(a) { a.sort[a.size / 2] }
printf("inline %.1f ms ractor %.1f ms ratio %.2f\n", med.call(res[:inline]) * 1e3, med.call(res[:ractor]) * 1e3,
       med.call(res[:inline]) / med.call(res[:ractor]))
