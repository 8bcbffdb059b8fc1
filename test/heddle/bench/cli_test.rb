# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"
require "tmpdir"
require "json"
require "heddle/bench"

class BenchCliTest < Minitest::Test
  ROOT = File.expand_path("../../..", __dir__)
  FIXTURES = File.expand_path("fixtures", __dir__)
  LIMIT = 60 # seconds before a hung `heddle` is killed
  PUBLISHED = "docs/results/latest"

  def marker(which) = Heddle::Bench::ResultsBlock.public_send(which, PUBLISHED)

  def heddle(*args, chdir: ROOT)
    Open3.popen3(RbConfig.ruby, File.join(ROOT, "exe/heddle"), *args, chdir: chdir) do |stdin, out, err, waiter|
      stdin.close
      readers = [Thread.new { out.read }, Thread.new { err.read }]
      unless waiter.join(LIMIT)
        Process.kill(:KILL, waiter.pid)
        flunk "heddle #{args.join(' ')} did not finish in #{LIMIT}s"
      end
      [readers[0].value, readers[1].value, waiter.value.exitstatus]
    end
  end

  def test_unknown_suite_exits_2_naming_it_and_the_valid_ones
    _out, err, status = heddle("bench", "nope", "--suites-dir", FIXTURES)

    assert_equal 2, status
    assert_match(/unknown suite "nope"; valid suites: demo_duration, demo_rate/, err)
  end

  def test_unknown_option_and_bad_values_exit_2_with_the_valid_choices
    _out, err, status = heddle("bench", "--frobnicate")

    assert_equal 2, status
    assert_match(/invalid option: --frobnicate; valid options: .*--trials.*--quick.*--both/, err)

    _out, err, status = heddle("bench", "--trials", "0")

    assert_equal 2, status
    assert_match(/bad value for --trials: 0/, err)
  end

  def test_values_of_the_wrong_kind_say_what_the_option_expects
    { %w[--trials x] => 'bad value for --trials: "x"; expected a whole number of trials, at least 1',
      %w[--seconds fast] => 'bad value for --seconds: "fast"; expected seconds > 0, e.g. 0.5',
      %w[--seed] => "--seed needs a value; expected a whole number, e.g. 1234" }.each do |args, message|
      _out, err, status = heddle("bench", *args)

      assert_equal 2, status, args.join(" ")
      assert_equal "heddle bench: #{message}\n", err
    end
  end

  def test_version_prints_heddle_s_version
    out, _err, status = heddle("--version")

    assert_equal 0, status
    assert_equal "heddle #{Heddle::VERSION}\n", out
    assert_equal 2, heddle.last # no command: the usage, and 2
  end

  # A gem user has no docs/bench.md to rewrite: the maintainer's commands are under --help-maintainer.
  def test_help_leaves_the_maintainer_commands_to_help_maintainer
    out, _err, status = heddle("bench", "--help")

    assert_equal 0, status
    assert_match(/heddle bench compare OLD.json NEW.json/, out)
    assert_includes out, "--help-maintainer"
    refute_match(%r{publish|docs/bench\.md}, out)

    out, _err, status = heddle("bench", "--help-maintainer")

    assert_equal 0, status
    assert_match(/heddle bench publish RUN_DIR/, out)
    assert_includes out, "docs/bench.md's block"
  end

  def test_unknown_command_and_missing_arguments_exit_two
    _out, err, status = heddle("frob")

    assert_equal 2, status
    assert_match(/unknown command "frob"; valid commands: bench/, err)
    assert_match(/render needs one results folder/, heddle("bench", "render")[1])
    assert_equal 2, heddle("bench", "compare", "only-one.json").last
  end

  def test_rows_keeps_the_matching_rows_and_refuses_a_bad_pattern
    out, _err, status = heddle("bench", "--list", "--rows", "^forked", "--suites-dir", FIXTURES)

    assert_equal 0, status
    assert_match(/^  forked sum  \[heddle, isolated\]$/, out)
    refute_match(/^  pid  /, out)
    refute_match(/^demo_rate /, out) # no row of it matches: the suite goes

    _out, err, status = heddle("bench", "--list", "--rows", "(", "--suites-dir", FIXTURES)
    assert_equal 2, status
    assert_match(/bad value for --rows: "\(";/, err)

    _out, err, status = heddle("bench", "--list", "--rows", "nothing like it", "--suites-dir", FIXTURES)
    assert_equal 2, status
    assert_match(/no row of demo_duration, demo_rate matches --rows "nothing like it"/, err)
  end

  def test_list_names_suites_and_rows
    out, _err, status = heddle("bench", "--list", "--suites-dir", FIXTURES)

    assert_equal 0, status
    assert_match(/^demo_rate \(rate, executions per second\): Demo rate suite$/, out)
    assert_match(/^  forked sum  \[heddle, isolated\]$/, out)
  end

  def test_a_run_without_out_writes_into_an_untracked_results_folder
    Dir.mktmpdir do |dir|
      _out, err, status = heddle("bench", "demo_rate", "--quick", "--rows", "push 1", "--suites-dir", FIXTURES,
                                 chdir: dir)

      assert_equal 0, status, err
      written = Dir[File.join(dir, "results", "*", "results.json")]

      assert_equal 1, written.size
      assert_match(%r{wrote results/\d{8}-\d{6}/results.json}, err)
      assert_includes File.read(File.join(ROOT, ".gitignore")).lines.map(&:strip), "/results/"
    end
  end

  def test_quick_run_writes_json_and_reports_then_render_and_compare_work
    Dir.mktmpdir do |dir|
      out, err, status = heddle("bench", "demo_rate", "--quick", "--seed", "3", "--json", "--out", dir,
                                "--suites-dir", FIXTURES)

      assert_equal 0, status, err
      assert_equal 3, JSON.parse(out)["seed"]
      assert_match(/^array push 1: +\d+ executions in \d\.\d{4} seconds/, err)
      %w[results.json report.md report.html summary.md].each do |f|
        assert File.size?(File.join(dir, f)), "#{f} missing"
      end
      render_and_compare(dir)
      publish_and_render_the_page(dir)
    end
  end

  def render_and_compare(dir)
    File.delete(File.join(dir, "report.html"))

    assert_equal 0, heddle("bench", "render", dir).last
    assert File.size?(File.join(dir, "report.html"))

    out, _err, status = heddle("bench", "compare", File.join(dir, "results.json"), dir)

    assert_equal 0, status
    assert_match(/0 of 4 rows changed beyond the noise/, out)
  end

  # publish copies a run into the published folder and rewrites docs/bench.md's block, with
  # links from the page's folder; render --page rewrites it again from the folder; anything but
  # results is refused untouched.
  def publish_and_render_the_page(run)
    Dir.mktmpdir do |home|
      page = File.join(home, "docs", "bench.md")
      FileUtils.mkdir_p(File.dirname(page))
      File.write(page, "# r\n#{marker(:begin_marker)}\nold\n#{marker(:end_marker)}\n")
      out, err, status = heddle("bench", "publish", run, "--no-screenshot", "--suites-dir", FIXTURES, chdir: home)

      assert_equal 0, status, err
      assert_match(%r{wrote docs/results/latest/report.md, .*docs/bench.md}, out)
      assert_equal File.read(File.join(run, "results.json")), File.read(File.join(home, PUBLISHED, "results.json"))
      refute_includes File.read(page), "\nold\n"
      assert_includes File.read(page), "[report.md](results/latest/report.md)"
      assert_equal 0, heddle("bench", "render", PUBLISHED, "--page", chdir: home).last
      refuse_to_publish_what_is_not_there(run, home)
    end
  end

  def refuse_to_publish_what_is_not_there(run, home)
    _out, err, status = heddle("bench", "publish", File.join(home, "docs", "bench.md"), chdir: home)

    assert_equal 1, status
    assert_match(/is not valid JSON/, err)
    _out, err, status = heddle("bench", "publish", run, "--to", home, "--page", "nowhere.md", "--no-screenshot",
                               chdir: home)

    assert_equal 1, status
    assert_match(/no page at nowhere.md/, err)
  end
end
