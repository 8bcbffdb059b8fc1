# The ceiling for the cpu_bound check on ractors: 100 tarai(9, 4, 0) plain,
# in 2 ractors of 50 and in 4 of 25, alternated 7 times.
# usage: ruby bench/scripts/check/ractor_ceiling.rb
Warning[:experimental] = false
module T; def self.tarai(x, y, z) = x <= y ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y)); end
def plain(n) = n.times { T.tarai(9, 4, 0) }

def ractors(n, k)
  rs = Array.new(k) do
    Ractor.new(n / k) do |m|
      m.times { T.tarai(9, 4, 0) }
      :ok
    end
  end
  rs.each(&:take)
end
ractors(10, 2)
res = { plain: [], r2: [], r4: [] }
7.times do
  [[:plain, -> { plain(100) }], [:r2, -> { ractors(100, 2) }], [:r4, -> { ractors(100, 4) }]].shuffle.each do |k, f|
    t = Process.clock_gettime(Process::CLOCK_MONOTONIC)

    f.call
    res[k] << (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
  end
end
med = ->(a) { a.sort[a.size / 2] }
res.each { |k, v| printf("%-6s %.1f ms  ratio %.2f\n", k, med.call(v) * 1e3, med.call(res[:plain]) / med.call(v)) }
