# In-harness A/B of the thread rows: writes a copy of the promises suite with
# only Thread::Queue and Loom::Promise rows, plus "Loom park" (Spinner.passes = 0)
# and "Loom spin16" (passes = 16), then runs it in `loom bench` (one process, as
# the suite runs: Timeout's thread included).
#   bundle exec ruby bench/scripts/promises/harness_ab.rb TRIALS OUTDIR
require "fileutils"
trials, out = ARGV.fetch(0, "6"), ARGV.fetch(1, "tmp/promises-harness-ab")
root = File.expand_path("../../..", __dir__)
src = File.read(File.join(root, "lib/loom/bench/suites/promises.rb"))
src = src.sub('"Loom::Promise" => ["loom", [], "Loom::Promise.new; value; fulfill(v)", -> { Loom::Promise.new }, true]',
              '"Loom::Promise" => ["loom", [], "Loom::Promise.new; value; fulfill(v)", -> { Loom::Promise.new }, true], ' \
              '"Loom park" => ["loom", [], "Spinner.passes = 0", -> { Loom::Promise.new }, true], ' \
              '"Loom spin16" => ["loom", [], "Spinner.passes = 16", -> { Loom::Promise.new }, false]')
src = src.sub("  thread_rows.each do |name, (library, requires, how, make, reusable)|",
              "  thread_rows = thread_rows.slice(\"Thread::Queue\", \"Loom::Promise\", \"Loom park\", \"Loom spin16\")\n\\0")
set = "        Loom::Promises::Spinner.passes = { \"Loom park\" => 0, \"Loom spin16\" => 16 }.fetch(name, :auto)\n"
src = src.gsub(/^(\s+)suite::ThreadRig\.new/) { "#{set}#{$1}suite::ThreadRig.new" }
src = src[0...src.index("  fiber_loop = <<~RUBY")] + "end\n"
dir = File.join(root, "tmp/promises-harness-suite")
FileUtils.mkdir_p(dir)
File.write(File.join(dir, "promises.rb"), src)
exec("bundle", "exec", "exe/loom", "bench", "promises", "--suites-dir", dir, "--trials", trials, "--out", out, chdir: root)
