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
class DocsExamplesTest < Minitest::Test
  ROOT = File.expand_path("../..", __dir__)
  FILES = ["README.md", *Dir["docs/*.md", base: ROOT].sort].freeze
  SKIP = / *<!-- example: not run \((?<why>[^)]+)\) -->\n/
  BLOCK = /^(?<skip>#{SKIP})?(?<indent> *)```ruby[^\n]*\n(?<code>.*?)^\k<indent>```/m
  LIMIT = 90

  Example = Struct.new(:file, :line, :code, :why)

  def self.examples
    FILES.flat_map do |file|
      text = File.read(File.join(ROOT, file))
      text.to_enum(:scan, BLOCK).map do
        match = Regexp.last_match
        line = text[0, match.begin(:code)].count("\n") + 1
        code = match[:code].gsub(/^#{match[:indent]}/, "")
        Example.new(file, line, code, match[:why])
      end
    end
  end

  def test_the_docs_have_examples_and_every_skip_gives_a_reason
    examples = self.class.examples
    assert_operator examples.size, :>=, 30, "the docs lost their examples"
    skipped = examples.select(&:why)
    assert_operator skipped.size, :<=, examples.size / 4, "most examples must run: #{skipped.map(&:line)}"
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
      File.write(path, example.code)
      Open3.popen2e(RbConfig.ruby, *LibRoots::FLAGS, path, chdir: dir) do |stdin, out, wait|
        stdin.close
        reader = Thread.new { out.read }
        finish(wait, reader)
      end
    end
  end

  def finish(wait, reader)
    return [reader.value, wait.value] if wait.join(LIMIT)

    Process.kill(:KILL, wait.pid)
    [reader.value + "\n(killed after #{LIMIT} s)", wait.value]
  end
end
