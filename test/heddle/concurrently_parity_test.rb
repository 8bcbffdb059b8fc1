# frozen_string_literal: true

require "test_helper"
require "rbconfig"

# Runs the same Concurrently 1.2.0 code (concurrently_parity_script.rb) on the
# concurrently gem and on heddle/concurrently, each in processes of its own,
# and compares every answer: they must be the same, except where heddle
# differs on purpose (docs/core.md, "Drop-in Concurrently").
class ConcurrentlyParityTest < Minitest::Test
  SCRIPT = File.expand_path("concurrently_parity_script.rb", __dir__)

  # heddle's answer where it differs from Concurrently's on purpose, each
  # listed with its reason in docs/core.md.
  DELIBERATE = {
    "class names" => '["Heddle::Evaluation::TimeoutError", "Heddle::Proc::Evaluation"]',
    "children of a concluded parent" =>
      /\Araised Concurrently::Evaluation::Error: cancelled: its parent evaluation \w+ was concluded\z/,
    "two readers of one IO" => "[true, true]",
    "error_log_output StringIO" => '"Concurrent proc exited with error!\n"',
    "fiber locals" => "nil",
    "interrupt keeps pending work" => ":later",
    "error hook class" => '"Heddle::Proc::ErrorHook"'
  }.freeze

  # What the gem answers where its own loop is left broken by an earlier
  # error on this Ruby (Ruby 3.1: its loop fiber cannot be resumed after it
  # raised): no answer to compare with there.
  BROKEN_GEM = /\Araised FiberError: attempt to resume/

  def test_concurrently_code_answers_as_on_the_gem
    gem = answers("gem", err: File::NULL) # the gem warns a lot under -w
    skip "the concurrently gem is not installed: #{gem}" if gem.is_a?(String)
    heddle = answers("heddle", err: %i[child out])
    assert_equal gem.keys, heddle.keys, "every check answers on both (heddle's output: #{heddle})"
    heddle.each { |name, answer| compare(name, gem.fetch(name), answer) }
  end

  private

  def compare(name, gem_answer, answer)
    if (expected = DELIBERATE[name])
      expected.is_a?(Regexp) ? assert_match(expected, answer, name) : assert_equal(expected, answer, name)
      refute_equal gem_answer, answer, "#{name} now answers as Concurrently: drop it from DELIBERATE and docs/core.md"
    elsif !BROKEN_GEM.match?(gem_answer)
      assert_equal gem_answer, answer, name
    end
  end

  # @return [Hash{String => String}, String] the answers by check, or the
  #   output when the library did not load
  def answers(library, err:)
    output = IO.popen([RbConfig.ruby, "-w", *LibRoots::FLAGS, SCRIPT, library], err: err, &:read)
    lines = output.lines.map(&:chomp)
    return output unless lines.first&.start_with?("constants defined: ")

    lines.to_h { |line| line.split(": ", 2) }
  end
end
