# frozen_string_literal: true

# How a reader's walk through heddle looks, in figures to compare before and after a change of the
# code's layout (not of its speed: nothing here is timed):
#
# 1. A TracePoint walk of three operations under Heddle.run: Ruby-level calls (:call) and C calls
#    (:c_call), the distinct files their events come from (all, and heddle's lib/ files), and file
#    switches (consecutive events whose path differs: how often a reader following the code opens
#    another file). Each operation runs once untraced (pools, fibers and constants warm), then is
#    traced RUNS times; each figure is the median of those runs (the map's vary by a few calls with
#    how often the loop polls its workers' pipes before their results are in). Only events of this
#    (the parent) process count, from any of its threads; a forked worker's are dropped. A
#    :c_call's path is the Ruby file that made the call.
# 2. Files and lines per gem folder: all lines, and code (neither blank nor only a comment). The
#    Redis part (the backend and `heddle worker`, REDIS_GLOBS) is counted inside lib/heddle, and
#    on rows of its own.
# 3. The share of lib files with a mirrored test. The convention, read off test/: the file's path
#    below its gem's lib root, `.rb` replaced by `_test.rb`, under test/ —
#    lib/heddle/heddle/loop/timer_heap.rb → test/heddle/loop/timer_heap_test.rb,
#    lib/heddle-check/heddle/check/shrinker.rb → test/heddle/check/shrinker_test.rb.
# 4. With --loads: how many lib files load alone (a fresh `ruby` with the three lib roots on the
#    load path requires just that file and exits 0): the files that need no load order kept for
#    them. One process per file, so it takes a minute.
#
# Run from the repository root: `bundle exec ruby bench/scripts/house/walk.rb [--json] [--loads]`;
# --json also lists the heddle files each operation touched (and with --loads, the files that do
# not load alone).
require "json"
require "rbconfig"

ROOT = File.expand_path("../../..", __dir__)
$LOAD_PATH.unshift(File.join(ROOT, "lib", "heddle"))
require "heddle"

# The walk, the layout and the report.
class HouseWalk
  # The Redis backend and `heddle worker` (Heddle::Workers::Redis::CLI): the files a heddle-redis
  # gem would take from lib/heddle.
  # After the redesign they are the heddle-redis gem (lib/heddle-redis), counted as a gem of its own.
  REDIS_GLOBS = %w[lib/heddle/heddle/workers/redis.rb lib/heddle/heddle/workers/redis/**/*.rb
                   lib/heddle-redis/**/*.rb].freeze
  GEMS = %w[heddle heddle-check heddle-bench heddle-redis].select { |gem| File.directory?(File.join(__dir__, "../../../lib", gem)) }.freeze
  RUNS = 5
  PARENT = Process.pid
  COUNTS = %i[calls c_calls files heddle_files switches].freeze

  # The three operations, each run inside Heddle.run.
  OPS = {
    "waiting call" => lambda {
      @waiting ||= Heddle.concurrent_proc { Heddle.wait(0) }
      @waiting.call
    },
    "map, worker: :process (4 items)" => lambda {
      Heddle.map([1, 2, 3, 4], worker: :process) { |x| x * 2 }
    },
    "pipe read that waits" => lambda {
      reader, writer = IO.pipe
      read = Heddle.concurrently { reader.read(1) }
      Heddle.concurrently { Heddle.wait(0) && writer.write("x") }
      read.await_result.tap { reader.close && writer.close }
    }
  }.freeze

  def report(loads: false)
    { ruby: RUBY_DESCRIPTION, walk: walk, layout: layout }.merge(loads ? { loads: loads_alone } : {})
  end

  def walk
    OPS.to_h do |name, op|
      Heddle.run do
        op.call
        [name, median(Array.new(RUNS) { summary(trace(&op)) })]
      end
    end
  end

  def layout
    redis = files(REDIS_GLOBS)
    rows = GEMS.to_h { |gem| [gem, count(gem, files("lib/#{gem}/**/*.rb"))] }
    rows.merge("heddle without redis" => count("heddle", files("lib/heddle/**/*.rb") - redis),
               "redis part" => count(redis.first.to_s[%r{\Alib/([^/]+)/}, 1] || "heddle", redis))
  end

  def print_table(report)
    puts report[:ruby], ""
    puts "operation                          calls  c_calls  files  heddle  switches"
    report[:walk].each do |name, w|
      puts format("%<name>-32s %<calls>7d %<c_calls>8d %<files>6d %<heddle_files>7d %<switches>9d", name: name, **w)
    end
    puts "", "gem folder               files   lines    code  tested  share"
    report[:layout].each do |name, l|
      row = l.merge(name: name, share: 100.0 * l[:tested] / l[:files])
      puts format("%<name>-22s %<files>7d %<lines>7d %<code>7d %<tested>7d %<share>5.0f%%", row)
    end
    print_loads(report[:loads]) if report[:loads]
  end

  def print_loads(loads)
    puts "", "gem folder               files   load alone"
    loads.each do |gem, l|
      puts format("%<gem>-22s %<files>7d %<alone>12d", gem: gem, files: l[:files], alone: l[:files] - l[:failing].size)
    end
  end

  # @return [Hash] per gem, the files that load alone and those that do not
  def loads_alone
    roots = GEMS.flat_map { |gem| ["-I", File.join(ROOT, "lib", gem)] }
    command = [RbConfig.ruby, "-W0", *roots, "-e", "require ARGV[0]"]
    GEMS.to_h do |gem|
      failing = files("lib/#{gem}/**/*.rb").reject do |path|
        system(*command, File.join(ROOT, path), out: File::NULL, err: File::NULL)
      end
      [gem, { files: files("lib/#{gem}/**/*.rb").size, failing: failing }]
    end
  end

  private

  # @return [Array<Array(Symbol, String)>] the event and path of each call in one run of the block
  def trace(&)
    events = []
    tracer = TracePoint.new(:call, :c_call) { |tp| events << [tp.event, tp.path] if Process.pid == PARENT }
    tracer.enable(&)
    events
  end

  # @return [Hash] the counts of one traced run, and the heddle files it touched
  def summary(events)
    paths = events.map(&:last)
    heddle = paths.uniq.select { |f| f.start_with?("#{ROOT}/lib/") }.map { |f| f.delete_prefix("#{ROOT}/") }
    calls = events.count { |event, _| event == :call }
    { calls: calls, c_calls: events.size - calls, files: paths.uniq.size, heddle_files: heddle.size,
      switches: paths.each_cons(2).count { |a, b| a != b }, paths: heddle.sort }
  end

  # Each count's median over the runs, and the files of the run with the median calls.
  def median(runs)
    middle = runs.sort_by { |r| r[:calls] }[runs.size / 2]
    COUNTS.to_h { |key| [key, runs.map { |r| r[key] }.sort[runs.size / 2]] }.merge(paths: middle[:paths])
  end

  def files(globs) = Dir.glob(globs, base: ROOT).select { |f| File.file?(File.join(ROOT, f)) }.sort

  def count(gem, paths)
    lines = paths.sum { |path| File.foreach(File.join(ROOT, path)).count }
    code = paths.sum do |path|
      File.foreach(File.join(ROOT, path)).count { |line| !(line.strip.empty? || line.lstrip.start_with?("#")) }
    end
    { files: paths.size, lines: lines, code: code, tested: paths.count { |path| mirrored?(gem, path) } }
  end

  def mirrored?(gem, path)
    File.file?(File.join(ROOT, "test", "#{path.delete_prefix("lib/#{gem}/").delete_suffix('.rb')}_test.rb"))
  end
end

house = HouseWalk.new
report = house.report(loads: ARGV.include?("--loads"))
ARGV.include?("--json") ? puts(JSON.pretty_generate(report)) : house.print_table(report)
