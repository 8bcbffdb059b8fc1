# bundle exec ruby bench/scripts/promises/ab.rb T "label=row[:ENV=v,...]" ...   interleaved random order, child processes
T = Integer(ARGV.shift)
specs = ARGV.map { |a| l, r = a.split("=", 2); row, envs = r.split(":", 2); [l, row, (envs || "").split(",").to_h { |e| e.split("=", 2) }] }
res = Hash.new { |h, k| h[k] = [] }
T.times do
  specs.shuffle.each do |l, row, env|
    out = IO.popen(env, ["ruby", *ENV.fetch("RFLAGS", "").split, File.join(__dir__, env.fetch("RIG", "rig.rb")), row], err: File::NULL, &:read)
    res[l] << out.split.map(&:to_f) if $?.success?
    warn "#{l} failed" unless $?.success?
  end
end
base = nil
specs.each do |l, *|
  w = res[l].map(&:first).sort; c = res[l].map(&:last).sort
  base ||= w[w.size / 2]
  printf("%-16s wall %.3f [%.3f-%.3f] cpu %.3f  %.2fx first  all=%s\n", l, w[w.size / 2], w.first, w.last, c[c.size / 2], w[w.size / 2] / base, res[l].map { |x| x.first.round(2) }.inspect)
end
