# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"
require "tmpdir"
require "json"

class BenchCliTest < Minitest::Test
  ROOT = File.expand_path("../../..", __dir__)
  FIXTURES = File.expand_path("fixtures", __dir__)
  LIMIT = 60 # seconds before a hung `loom` is killed

  def loom(*args)
    Open3.popen3(RbConfig.ruby, File.join(ROOT, "exe/loom"), *args, chdir: ROOT) do |stdin, out, err, waiter|
      stdin.close
      readers = [Thread.new { out.read }, Thread.new { err.read }]
      unless waiter.join(LIMIT)
        Process.kill(:KILL, waiter.pid)
        flunk "loom #{args.join(' ')} did not finish in #{LIMIT}s"
      end
      [readers[0].value, readers[1].value, waiter.value.exitstatus]
    end
  end

  def test_unknown_suite_exits_2_naming_it_and_the_valid_ones
    _out, err, status = loom("bench", "nope", "--suites-dir", FIXTURES)

    assert_equal 2, status
    assert_match(/unknown suite "nope"; valid suites: demo_duration, demo_rate/, err)
  end

  def test_unknown_option_and_bad_values_exit_2_with_the_valid_choices
    _out, err, status = loom("bench", "--frobnicate")

    assert_equal 2, status
    assert_match(/invalid option: --frobnicate; valid options: .*--trials.*--quick.*--both/, err)

    _out, err, status = loom("bench", "--trials", "0")

    assert_equal 2, status
    assert_match(/bad value for --trials: 0/, err)
  end

  def test_unknown_command_and_missing_arguments_exit_two
    _out, err, status = loom("frob")

    assert_equal 2, status
    assert_match(/unknown command "frob"; valid commands: bench/, err)
    assert_equal 2, loom("bench", "compare", "only-one.json").last
  end

  def test_rows_keeps_the_matching_rows_and_refuses_a_bad_pattern
    out, _err, status = loom("bench", "--list", "--rows", "^forked", "--suites-dir", FIXTURES)

    assert_equal 0, status
    assert_match(/^  forked sum  \[loom, isolated\]$/, out)
    refute_match(/^  pid  /, out)
    refute_match(/^demo_rate /, out) # no row of it matches: the suite goes

    _out, err, status = loom("bench", "--list", "--rows", "(", "--suites-dir", FIXTURES)
    assert_equal 2, status
    assert_match(/bad value for --rows: "\(";/, err)

    _out, err, status = loom("bench", "--list", "--rows", "nothing like it", "--suites-dir", FIXTURES)
    assert_equal 2, status
    assert_match(/no row of demo_duration, demo_rate matches --rows "nothing like it"/, err)
  end

  def test_list_names_suites_and_rows
    out, _err, status = loom("bench", "--list", "--suites-dir", FIXTURES)

    assert_equal 0, status
    assert_match(/^demo_rate \(rate, executions per second\): Demo rate suite$/, out)
    assert_match(/^  forked sum  \[loom, isolated\]$/, out)
  end

  def test_quick_run_writes_json_and_reports_then_render_and_compare_work
    Dir.mktmpdir do |dir|
      out, err, status = loom("bench", "demo_rate", "--quick", "--seed", "3", "--json", "--out", dir,
                              "--suites-dir", FIXTURES)

      assert_equal 0, status, err
      assert_equal 3, JSON.parse(out)["seed"]
      assert_match(/^array push 1: +\d+ executions in \d\.\d{4} seconds/, err)
      %w[results.json report.md report.html summary.md].each do |f|
        assert File.size?(File.join(dir, f)), "#{f} missing"
      end

      File.delete(File.join(dir, "report.html"))

      assert_equal 0, loom("bench", "render", dir).last
      assert File.size?(File.join(dir, "report.html"))

      out, _err, status = loom("bench", "compare", File.join(dir, "results.json"), dir)

      assert_equal 0, status
      assert_match(/0 of 4 rows changed beyond the noise/, out)
    end
  end
end
