# In-harness A/B of the thread rows: writes a copy of the promises suite with
# only Thread::Queue and Heddle::Promise rows, plus "Heddle park" (Spinner.passes = 0)
# and "Heddle spin16" (passes = 16), then runs it in `heddle bench` (one process, as
# the suite runs: Timeout's thread included).
#   bundle exec ruby bench/scripts/promises/harness_ab.rb TRIALS OUTDIR
require "fileutils"
trials, out = ARGV.fetch(0, "6"), ARGV.fetch(1, "tmp/promises-harness-ab")
root = File.expand_path("../../..", __dir__)
src = File.read(File.join(root, "lib/heddle-bench/heddle/bench/suites/promises.rb"))
src = src.sub('"Heddle::Promise" => ["heddle", [], "Heddle::Promise.new; value; fulfill(v)", -> { Heddle::Promise.new }, true]',
              '"Heddle::Promise" => ["heddle", [], "Heddle::Promise.new; value; fulfill(v)", -> { Heddle::Promise.new }, true], ' \
              '"Heddle park" => ["heddle", [], "Spinner.passes = 0", -> { Heddle::Promise.new }, true], ' \
              '"Heddle spin16" => ["heddle", [], "Spinner.passes = 16", -> { Heddle::Promise.new }, false]')
src = src.sub("  thread_rows.each do |name, (library, requires, how, make, reusable)|",
              "  thread_rows = thread_rows.slice(\"Thread::Queue\", \"Heddle::Promise\", \"Heddle park\", \"Heddle spin16\")\n\\0")
set = "        Heddle::Promises::Spinner.passes = { \"Heddle park\" => 0, \"Heddle spin16\" => 16 }.fetch(name, :auto)\n"
src = src.gsub(/^(\s+)suite::ThreadRig\.new/) { "#{set}#{$1}suite::ThreadRig.new" }
src = src[0...src.index("  fiber_loop = <<~RUBY")] + "end\n"
dir = File.join(root, "tmp/promises-harness-suite")
FileUtils.mkdir_p(dir)
File.write(File.join(dir, "promises.rb"), src)
exec("bundle", "exec", "exe/heddle", "bench", "promises", "--suites-dir", dir, "--trials", trials, "--out", out, chdir: root)
