# frozen_string_literal: true

require "test_helper"
require "heddle/check"
require "json"
require "tmpdir"
require "timeout"

# The failure store: a failure found in one run is replayed first in the
# next, dropped once it passes, written atomically, and a bad file is
# ignored with one warning.
class CheckFailureStoreTest < Minitest::Test
  include FreshRuby

  C = Heddle::Check

  def setup
    @dir = Dir.mktmpdir("heddle-check-store")
  end

  def teardown
    FileUtils.remove_entry(@dir)
  end

  def small_sums = C.property(C.array(C.integer)) { |a| a.sum <= 100 }

  def files = Dir.glob(File.join(@dir, "**", "*"))

  # The property lives in a file of its own, so that both processes see it at the same place.
  def property_file(limit_constant)
    path = File.join(@dir, "prop.rb")
    File.write(path, "require 'heddle/check'\nPROP = Heddle::Check.property(Heddle::Check.array(" \
                     "Heddle::Check.integer)) { |a| a.sum <= #{limit_constant} }\n")
    path
  end

  def run_in_fresh_process(file)
    in_fresh_ruby(<<~RUBY, limit: 60)
      load #{file.inspect}
      r = Heddle::Check.check(PROP, store: #{File.join(@dir, 'store').inspect})
      [r.failed?, r.replayed, r.runs, r.counterexample, r.stored]
    RUBY
  end

  def test_a_failure_of_one_process_is_replayed_first_by_the_next_and_dropped_once_it_passes
    file = property_file("ENV.fetch('LIMIT', '100').to_i")
    failed, replayed, _runs, counterexample, stored = run_in_fresh_process(file)
    assert failed
    refute replayed, "the first run found it afresh"
    assert_path_exists stored

    failed, replayed, runs, again, = run_in_fresh_process(file)
    assert failed
    assert replayed, "the second run replays the stored case before any fresh run"
    assert_equal 1, runs
    assert_equal counterexample, again

    ENV["LIMIT"] = "100000000000"
    failed, = run_in_fresh_process(file)
    refute failed
    refute_path_exists stored, "a stored case that passes is dropped"
  ensure
    ENV.delete("LIMIT")
  end

  def test_every_backend_replays_the_stored_failure_first
    available = Heddle::Workers::Backends::LIST.reject(&:remote?).map(&:name)
    prop = C.property(C.array(C.integer)) { |a| a.sum <= 100 }
    available.each do |worker|
      store = File.join(@dir, worker.to_s)
      first = Timeout.timeout(60) { C.check(prop, worker: worker, size: 2, store: store) }
      second = Timeout.timeout(60) { C.check(prop, worker: worker, size: 2, store: store) }
      assert [first.failed?, second.failed?].all?, worker
      assert second.replayed, "#{worker}: the stored case came first"
      assert_equal [1, first.counterexample], [second.runs, second.counterexample], worker
    end
  end

  def test_the_report_of_a_replayed_failure_names_the_store_not_a_seed
    C.check(small_sums, store: @dir)
    report = C.check(small_sums, store: @dir).report
    assert_match(/Replay: found by replaying #{Regexp.escape(@dir)}/, report)
    refute_includes report, "HEDDLE_CHECK_SEED"
  end

  def test_store_false_writes_nothing
    result = C.check(small_sums, store: false)
    assert result.failed?
    assert_nil result.stored
    assert_empty files
  end

  def test_the_environment_turns_it_off_for_ci
    code = "Heddle::Check.check(Heddle::Check.property(Heddle::Check.integer) { |x| x < 10 }).stored"
    stored = in_fresh_ruby(code, prelude: "require 'heddle/check'; Dir.chdir(#{@dir.inspect})",
                                 env: { "HEDDLE_CHECK_STORE" => "off" })
    assert_nil stored
    assert_empty files
  end

  def test_a_chosen_seed_neither_reads_nor_writes_the_store
    result = C.check(small_sums, store: @dir, seed: 31)
    assert result.failed?
    assert_nil result.stored
    assert_empty files
  end

  # Two loads and a check of a corrupt file; @return [String] what was warned
  def corrupt_and_check(path, bad, case_number)
    File.write(path, bad)
    Heddle::Check::FailureStore.instance_variable_get(:@warned).delete(path)
    capture_io do
      2.times { assert_empty Heddle::Check::FailureStore.new(@dir, small_sums).load }
      result = C.check(small_sums, store: @dir)
      refute result.replayed, "case #{case_number}: a bad file replays nothing"
      assert result.failed?, "case #{case_number}: the check ran afresh"
    end.last
  end

  def test_a_corrupt_file_is_ignored_with_one_warning_and_replaced_by_the_next_failure
    path = C.check(small_sums, store: @dir).stored
    ["{not json", JSON.generate("json_class" => "File", "version" => 1)].each_with_index do |bad, i|
      errors = corrupt_and_check(path, bad, i)
      assert_equal 1, errors.scan("ignored the failure store file").size, errors
      assert_kind_of Array, JSON.parse(File.read(path)).fetch("failures"), "the next failure wrote a good file"
    end
  end

  def test_a_file_of_numbers_only_is_read_and_anything_else_is_refused
    store = Heddle::Check::FailureStore.new(@dir, small_sums)
    store.save([[[1, 101, 0], 2], [[1.5, Float::INFINITY], 3]])
    assert_equal [[[1, 101, 0], 2], [[1.5, Float::INFINITY], 3]], store.load
    File.write(store.path, JSON.generate("version" => 1, "failures" => [{ "size" => 1, "choices" => ["x"] }]))
    assert_output(nil, /ignored the failure store file/) { assert_empty store.load }
  end

  def test_two_processes_writing_at_once_never_leave_a_partial_file
    store = Heddle::Check::FailureStore.new(@dir, small_sums)
    writers = Array.new(2) do |w|
      fork do
        200.times { |i| store.save([[Array.new(50) { (w * 1000) + i }, 1]]) }
        exit!(0)
      end
    end
    _, errors = capture_io do
      # a writer is reaped once: waiting on it again would raise ECHILD
      writers.reject! { |pid| Process.waitpid(pid, Process::WNOHANG) } while store.load && !writers.empty?
    end
    assert_empty errors, "every read found a whole file"
    assert_empty writers, "both writers ended"
    assert_equal 1, store.load.size
    assert_empty Dir.glob(File.join(@dir, "*.tmp")), "no temporary file is left"
  end

  def test_bad_option_values_are_refused_at_the_call_site
    error = assert_raises(ArgumentError) { C.check(small_sums, store: 3) }
    assert_includes error.message, "store: must be"
    assert_includes error.message, "got 3"
    assert_raises(ArgumentError) { C.check(small_sums, store: "") }
  end
end
