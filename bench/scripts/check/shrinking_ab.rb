# frozen_string_literal: true

# Shrinking Challenge rows on two heddle trees, interleaved: each trial runs
# the rows (seeds 1..100, inline, 100 runs) in a fresh process per tree, the
# trees in random order, and records the median wall and CPU time per check
# and the median evaluations per shrink. Prints median [min-max] over the
# trials and the ratio old/new.
#
#   bundle exec ruby bench/scripts/check/shrinking_ab.rb OLD_LIB [NEW_LIB] [--trials 7] [--rows reverse,distinct]
#
# (make OLD_LIB with `git worktree add /tmp/heddle-old <commit>`; NEW_LIB
# defaults to this tree's lib. A lib with one folder per gem, lib/heddle and
# lib/heddle-check, puts both on the load path.) The rows are this tree's
# test/support/shrinking_challenges.rb, run on either lib.
require "json"
require "open3"
require "optparse"
require "rbconfig"

root = File.expand_path("../../..", __dir__)
options = { trials: 7, rows: %w[reverse distinct] }
OptionParser.new do |o|
  o.on("--trials N", Integer) { |n| options[:trials] = n }
  o.on("--rows LIST", Array) { |r| options[:rows] = r }
end.parse!
old_lib = File.expand_path(ARGV.fetch(0))
new_lib = File.expand_path(ARGV.fetch(1, File.join(root, "lib")))

# The -I options for a lib: its gems' folders, or itself in the one-gem layout.
def load_path(lib)
  gems = %w[heddle heddle-check].map { |name| File.join(lib, name) }
  (gems.all? { |dir| File.directory?(dir) } ? gems : [lib]).flat_map { |dir| ["-I", dir] }
end

child = <<~RUBY
  require "json"
  require "heddle/check"
  require #{File.join(root, 'test/support/shrinking_challenges').inspect}
  out = ShrinkingChallenges.rows.select { |r| #{options[:rows].inspect}.include?(r.name) }.to_h do |row|
    runs = (1..100).map { |seed| ShrinkingChallenges.run(row, seed) }.select { |o| o[:found] }
    median = ->(key) { runs.map { |o| o[key] }.sort[(runs.size - 1) / 2] }
    [row.name, { wall: median.(:seconds), cpu: median.(:cpu), evaluations: median.(:evaluations),
                 minimal: runs.count { |o| o[:minimal] } }]
  end
  puts JSON.generate(out)
RUBY

def median(values) = values.sort[(values.size - 1) / 2]

results = { old_lib => [], new_lib => [] }
load_before = File.read("/proc/loadavg").split.first
options[:trials].times do |trial|
  [old_lib, new_lib].shuffle.each do |lib|
    # Without Bundler: it would put this tree's lib on the path of both.
    clean = { "RUBYOPT" => nil, "BUNDLE_GEMFILE" => nil, "BUNDLER_SETUP" => nil, "RUBYLIB" => nil }
    output, status = Open3.capture2(clean, RbConfig.ruby, *load_path(lib), "-e", child)
    raise "trial #{trial} on #{lib} failed" unless status.success?

    results[lib] << JSON.parse(output)
  end
end
puts "Ruby #{RUBY_VERSION}, #{options[:trials]} trials, load #{load_before} -> #{File.read('/proc/loadavg').split.first}"
puts "| row | tree | ms per check, wall: median [min-max] | CPU ms | evaluations per shrink | minimal |"
puts "|---|---|---|---|---|---|"
options[:rows].each do |row|
  per_tree = results.transform_values { |trials| trials.map { |t| t.fetch(row) } }
  per_tree.each do |lib, trials|
    walls = trials.map { |t| t["wall"] * 1000 }
    puts format("| %s | %s | %.3f [%.3f-%.3f] | %.3f | %d | %d/100 |", row, lib == old_lib ? "old" : "new",
                median(walls), walls.min, walls.max, median(trials.map { |t| t["cpu"] * 1000 }),
                trials.first["evaluations"], trials.first["minimal"])
  end
  old_wall = median(per_tree[old_lib].map { |t| t["wall"] })
  new_wall = median(per_tree[new_lib].map { |t| t["wall"] })
  puts format("| %s | old/new | %.2fx |  |  |  |", row, old_wall / new_wall)
end
