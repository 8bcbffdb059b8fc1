# Same script: inline, plain 2 forks (the ceiling), heddle process pool (warm), heddle ractor pool (warm); 100 tarai(10,5,0) items
require "heddle"
module H
  def self.tarai(x, y, z) = x <= y ? y : tarai(tarai(x - 1, y, z), tarai(y - 1, z, x), tarai(z - 1, x, y))
  def self.heavy(i) = tarai(10, 5, 0) + i
end
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
def cpu = Process.times.then { |t| t.utime + t.stime + t.cutime + t.cstime }
Warning[:experimental] = false
items = (0...100).to_a
pp_ = Heddle::Pool.new(worker: :process, size: 2, &H.method(:heavy))
rp = Heddle::Pool.new(worker: :ractor, size: 2, &H.method(:heavy)) if ARGV.include?("ractor")
rows = {
  inline: -> { items.map { |i| H.heavy(i) } },
  forks: -> { 2.times.map { |k| fork { items.each_slice(50).to_a[k].each { |i| H.heavy(i) }; exit!(0) } }.each { |pid| Process.wait(pid) } },
  process: -> { pp_.map(items) },
}
rows[:ractor] = -> { rp.map(items) } if rp
res = Hash.new { |h, k| h[k] = [] }
(ENV["ROUNDS"] || 3).to_i.times do
  rows.to_a.shuffle.each do |k, f|
    t = now; c = cpu; f.call; res[k] << [now - t, cpu - c]
  end
end
base = res[:inline].map(&:first).sort[1]
res.each do |k, v|
  w = v.map(&:first).sort
  printf "%-8s %.2f s [%.2f-%.2f] cpu %.2f s  vs inline %.2fx\n", k, w[1], w[0], w[2], v.map(&:last).sort[1], base / w[1]
end
puts File.read("/proc/loadavg")
pp_.shutdown; rp&.shutdown
