# frozen_string_literal: true

require "test_helper"
require "timeout"

# The README's tour must run as printed: every `# => value` comment in it is
# checked against what the line really returns. The tour is every ruby block
# of its section, run in order (the heddle-check part has a block of its own).
class ReadmeTest < Minitest::Test
  README = File.expand_path("../../README.md", __dir__)
  EXPECTATION = /\A(?<code>.*?)\s+# => (?<expected>.+?)(?: \(.*\))?\z/

  def tour
    section = File.read(README)[/^## A tour\n(.*?)^## /m, 1]
    section.scan(/^```ruby\n(.*?)^```/m).join
  end

  # With only `gem "heddle"` the tour's first block runs; the block that
  # needs heddle-check starts with its require, after a line that says so.
  def test_only_the_check_block_needs_heddle_check
    section = File.read(README)[/^## A tour\n(.*?)^## /m, 1]
    blocks = section.scan(/^```ruby\n(.*?)^```/m).flatten
    needing = blocks.map { |code| code.include?("heddle/check") }

    between = section[/^```\n(.*?)^```ruby\n/m, 1]
    assert_equal [false, true], needing
    assert_includes between, 'need the heddle-check gem (`gem "heddle-check"`'
    assert blocks[1].start_with?(%(require "heddle/check"\n)), "the block starts with what needs the gem"
  end

  def test_the_tour_runs_and_returns_what_it_says
    checks = 0
    program = tour.lines.map do |line|
      match = EXPECTATION.match(line.chomp)
      next line unless match

      checks += 1
      "__check.call(#{match[:expected]}, (#{match[:code]}), #{line.strip.dump})\n"
    end.join
    failures = []
    check = ->(expected, actual, source) { failures << "#{source}: got #{actual.inspect}" unless expected == actual }
    Timeout.timeout(60) { eval_tour(program, check) }
    assert_operator checks, :>=, 7, "the tour lost its # => examples"
    assert_empty failures
  end

  private

  def eval_tour(program, check)
    binding.tap { |b| b.local_variable_set(:__check, check) }.eval(program, README)
  end
end
