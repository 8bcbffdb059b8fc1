# frozen_string_literal: true

require "test_helper"
require "English"
require "json"
require "rbconfig"
require "heddle/bench"

# Smoke test of the five suites that reproduce the Concurrently reports: every
# row runs a couple of batches (or its --quick job) and counts what it did.
# Concurrently's rows run in one child process: Concurrently aliases Thread#[]
# globally, which would break heddle in this process.
class ConcurrentlySuitesTest < Minitest::Test
  SUITES = %w[call_methods wait_methods call_methods_waiting scheduling spawn].freeze
  ROOT = File.expand_path("../../../..", __dir__)
  CHILD_LIMIT = 90 # seconds; the child needs ~5 on this machine

  def suites
    SUITES.map do |name|
      load File.join(Heddle::Bench::SUITES_DIR, "#{name}.rb")
      Heddle::Bench.registry.fetch(name)
    end
  end

  def rows(library = nil)
    all = suites.flat_map(&:rows)
    library ? all.select { |row| row.library == library } : all.reject { |row| row.library == "concurrently" }
  end

  def trial(row)
    assert_nil row.load_requirements
    Heddle::Bench::Trial.new(row, trial: 1, seconds: 0.005, warmup: 0, quick: true, keep_gc: true).call
  end

  def assert_sane(record)
    assert_equal "ok", record["status"], "#{record['suite']}/#{record['row']}: #{record['error']}"
    if record["kind"] == "rate"
      assert_operator record["executions"], :>=, 100, record["row"]
      assert_equal 0, record["executions"] % 100, record["row"]
    else
      metrics = record["metrics"]
      assert_predicate metrics["completed"], :positive?, record["row"]
      assert_equal 0, metrics["failures"], record["row"]
    end
  end

  def test_every_heddle_ruby_and_async_row_runs_and_counts_its_work
    rows.each { |row| assert_sane(trial(row)) }
  end

  def test_every_concurrently_row_runs_in_a_child_process_and_counts_its_work
    records = concurrently_records

    assert_equal rows("concurrently").map(&:name).sort, records.map { |r| r["row"] }.sort
    records.each { |record| assert_sane(record) }
  end

  def test_each_seed_row_has_a_heddle_and_a_concurrently_row_with_the_same_compare_key
    %w[call_methods wait_methods call_methods_waiting scheduling].each do |name|
      grouped = suites.find { |s| s.name == name }.rows.group_by(&:compare)
      grouped.each do |compare, group|
        next if compare == "proc.call"

        assert_equal %w[concurrently heddle], group.map(&:library).sort, "#{name}/#{compare}"
      end
    end
    assert_equal 8, grouped_count("call_methods_waiting")
  end

  def test_heddle_rows_use_only_the_namespaced_api_and_concurrently_rows_the_shim
    rows("heddle").each do |row|
      refute_match(/(?<![.\w])(wait 0|concurrent_proc|concurrently)\b|(?<!Heddle)\.await_(readable|writable)/,
                   row.code, row.name)
    end
    rows("concurrently").each do |row|
      assert_includes row.code, "Concurrently::Proc.new(&b).call_detached(*a)", row.name
    end
  end

  # Without the gem (heddle installed as a gem, the peers not) the rows are
  # skipped with a note, as async's are, instead of failing in their set-up.
  def test_concurrently_rows_name_the_gem_and_the_harness_only_looks_it_up
    rows("concurrently").each do |row|
      assert_includes row.requires, "concurrently", row.name
      assert_predicate row, :isolate?, row.name
      assert_nil row.load_requirements(resolve_only: true), row.name
    end
    refute($LOADED_FEATURES.any? { |file| file.include?("concurrently-1.2.0") }, "looking it up loaded it")
  end

  def test_the_spawn_suite_compares_heddle_with_async_and_runs_a_million_pending_evaluations
    spawn = suites.last

    assert_equal %w[async async heddle], spawn.rows.select { |r| r.compare == "spawn 100k" }.map(&:library).sort
    assert_includes spawn.row_named("heddle 1,000,000 pending evaluations").code, "1_000_000"
  end

  private

  def grouped_count(name) = suites.find { |s| s.name == name }.rows.map(&:compare).uniq.size

  def concurrently_records
    script = <<~RUBY
      require "json"
      require "heddle/bench"
      #{SUITES.inspect}.each { |name| load File.join(Heddle::Bench::SUITES_DIR, name + ".rb") }
      records = #{SUITES.inspect}.flat_map { |name| Heddle::Bench.registry.fetch(name).rows }
        .select { |row| row.library == "concurrently" }
        .map { |row| Heddle::Bench::Trial.new(row, trial: 1, seconds: 0.005, warmup: 0, quick: true, keep_gc: true).call }
      puts JSON.generate(records)
    RUBY
    JSON.parse(run_child(script).lines.last)
  end

  def run_child(script)
    output = +""
    io = IO.popen([RbConfig.ruby, *LibRoots::FLAGS, "-e", script], err: File::NULL)
    reader = Thread.new { output << io.read }
    unless reader.join(CHILD_LIMIT)
      Process.kill(:KILL, io.pid)
      flunk "the Concurrently child did not finish within #{CHILD_LIMIT}s"
    end
    io.close

    assert_predicate $CHILD_STATUS, :success?, "child failed: #{output[-500..]}"
    output
  end
end
