# frozen_string_literal: true

# Which threads share the process with a thread row's job inside `heddle bench`:
# runs a copy of the promises suite whose thread rows write Thread.list (status
# and where each thread stands) to OUTDIR/threads.txt just before the timed job.
#   bundle exec ruby bench/scripts/promises/harness_threads.rb TRIALS OUTDIR
require "fileutils"
trials = ARGV.fetch(0, "1")
out = ARGV.fetch(1, "tmp/promises-harness-threads")
root = File.expand_path("../../..", __dir__)
src = File.read(File.join(root, "lib/heddle-bench/heddle/bench/suites/promises.rb"))
FileUtils.mkdir_p(File.join(root, out))
log = File.join(root, out, "threads.txt")
dump = <<~RUBY
  File.open(#{log.inspect}, "a") do |f|
    f.puts "== \#{Thread.current.inspect[0, 40]} (row \#{name})"
    Thread.list.each { |t| f.puts "  \#{t.status.inspect} \#{t.backtrace&.find { |l| !l.include?("<internal:") }}" }
  end
RUBY
one_line = dump.lines.map(&:strip).join("; ")
src = src.sub("      r.run { |rig, _ctx| rig.run }", "      r.run { |rig, _ctx| #{one_line}; rig.run }")
dir = File.join(root, "tmp/promises-threads-suite")
FileUtils.mkdir_p(dir)
File.write(File.join(dir, "promises.rb"), src)
exec({ "HEDDLE_BENCH_PROMISES" => ENV.fetch("HEDDLE_BENCH_PROMISES", "20000") },
     "bundle", "exec", "exe/heddle", "bench", "promises", "--suites-dir", dir, "--trials", trials, "--out", out,
     chdir: root)
