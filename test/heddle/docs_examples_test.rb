# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"
require "timeout"
require "tmpdir"

# Every ```ruby block of the README and the guides runs alone, as a reader would
# paste it into a file: in a fresh Ruby with only lib/ on the load path. A block
# that cannot (it needs a Redis server on another machine, or is loaded by the
# bench harness) says so in an HTML comment on the line before its fence:
#
#   <!-- example: not run (needs a Redis server and a heddle worker) -->
#
# and the reason is required, so that no block is skipped silently.
#
# A block that quotes what its lines return (an error message a guide shows)
# says so, and then each `code # => value` line of it must return that value:
#
#   <!-- example: checks its # => values -->
class DocsExamplesTest < Minitest::Test
  ROOT = File.expand_path("../..", __dir__)
  FILES = ["README.md", *Dir["docs/*.md", base: ROOT].sort].freeze
  SKIP = / *<!-- example: not run \((?<why>[^)]+)\) -->\n/
  CHECKED = / *<!-- example: checks its # => values -->\n/
  BLOCK = /^(?:(?<skip>#{SKIP})|(?<checked>#{CHECKED}))?(?<indent> *)```ruby[^\n]*\n(?<code>.*?)^\k<indent>```/m
  # A line of a checked block whose value is quoted after it.
  EXPECTATION = /\A(?<code>.*?)\s+# => (?<expected>.+)\z/
  # Defines the check the rewritten lines call, on one line so that the
  # block's own line numbers move by one only.
  CHECK = <<~'RUBY'.tr("\n", " ")
    __docs_check = lambda do |expected, actual, line|
      expected == actual or abort("#{line}\n  returned #{actual.inspect}")
    end
  RUBY
  LIMIT = 90

  Example = Struct.new(:file, :line, :code, :why, :checked)

  def self.examples
    FILES.flat_map do |file|
      text = File.read(File.join(ROOT, file))
      text.to_enum(:scan, BLOCK).map do
        match = Regexp.last_match
        line = text[0, match.begin(:code)].count("\n") + 1
        code = match[:code].gsub(/^#{match[:indent]}/, "")
        Example.new(file, line, code, match[:why], !match[:checked].nil?)
      end
    end
  end

  def test_the_docs_have_examples_and_every_skip_gives_a_reason
    examples = self.class.examples
    assert_operator examples.size, :>=, 30, "the docs lost their examples"
    skipped = examples.select(&:why)
    assert_operator skipped.size, :<=, examples.size / 4, "most examples must run: #{skipped.map(&:line)}"
  end

  def test_a_checked_block_fails_when_a_line_returns_something_else
    right = Example.new("t.md", 1, "x = 1 + 1 # => 2\n", nil, true)
    wrong = Example.new("t.md", 1, "x = 1 + 1 # => 3\n", nil, true)
    outcomes = [right, wrong].map { |example| run_alone(example) }

    assert_equal([true, false], outcomes.map { |_output, status| status.success? })
    assert_includes outcomes[1][0], "x = 1 + 1 # => 3\n  returned 2"
  end

  examples.each do |example|
    next if example.why

    define_method("test_#{example.file.tr('./-', '___')}_line_#{example.line}_runs_alone") do
      output, status = run_alone(example)
      assert status&.success?, "#{example.file}:#{example.line} failed when run alone:\n#{output.lines.last(15).join}"
    end
  end

  private

  def run_alone(example)
    Dir.mktmpdir("heddle-doc") do |dir|
      path = File.join(dir, "example.rb")
      File.write(path, example.checked ? checked(example.code) : example.code)
      Open3.popen2e(RbConfig.ruby, *LibRoots::FLAGS, path, chdir: dir) do |stdin, out, wait|
        stdin.close
        reader = Thread.new { out.read }
        finish(wait, reader)
      end
    end
  end

  # The block with each `code # => value` line turned into a check of it.
  def checked(code)
    lines = code.lines.map do |line|
      match = EXPECTATION.match(line.chomp) or next line

      "__docs_check.call(#{match[:expected]}, (#{match[:code]}), #{line.strip.dump})\n"
    end
    "#{CHECK}\n#{lines.join}"
  end

  def finish(wait, reader)
    return [reader.value, wait.value] if wait.join(LIMIT)

    Process.kill(:KILL, wait.pid)
    [reader.value + "\n(killed after #{LIMIT} s)", wait.value]
  end
end
