# frozen_string_literal: true

require "test_helper"
require "open3"
require "tmpdir"

# A failing test's name is the last thing on screen (test/support/failure_recap.rb):
# a test process ends with the failed tests' names, and `rake test` prints them
# after the test process has ended, in place of rake's own trace.
class FailureRecapTest < Minitest::Test
  ROOT = File.expand_path("..", __dir__)

  PROBE = <<~RUBY
    require "test_helper"
    class RecapProbeTest < Minitest::Test
      def test_a_fails = assert_equal(1, 2)
      def test_b_errors = raise("boom")
      def test_c_passes = assert(true)
      def test_d_skips = skip("later")
    end
  RUBY

  NAMES = ["RecapProbeTest#test_a_fails (failure)", "RecapProbeTest#test_b_errors (error)"].freeze

  def test_a_test_process_ends_with_the_failed_tests_names
    output, status = with_probe { |probe| run_command(RbConfig.ruby, "-Itest", *LibRoots::FLAGS, probe) }

    refute_predicate status, :success?
    assert_equal ["2 failed:", *NAMES.map { |name| "  #{name}" }], output.lines(chomp: true).last(3)
  end

  def test_rake_test_prints_them_last_instead_of_its_trace
    output, status = with_probe { |probe| run_command("bundle", "exec", "rake", "test", "TEST=#{probe}") }

    refute_predicate status, :success?
    assert_equal ["rake test: Command failed with status (1)", "2 failed:", *NAMES.map { |name| "  #{name}" }],
                 output.lines(chomp: true).last(4)
    refute_includes output, "rake aborted!"
  end

  private

  def with_probe
    Dir.mktmpdir("recap") do |dir|
      probe = File.join(dir, "recap_probe_test.rb")
      File.write(probe, PROBE)
      yield probe
    end
  end

  def run_command(*command)
    Open3.capture2e({ "HEDDLE_TEST_RECAP" => nil, "TESTOPTS" => nil }, *command, chdir: ROOT)
  end
end
