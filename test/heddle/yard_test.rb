# frozen_string_literal: true

require "test_helper"
require "open3"

# lib/ documents without a YARD warning. `rake yard` checks the whole
# rendering (links too, ~30 s); this test checks what parsing sees (unknown
# tags, @param names that are not parameters, undocumentable attributes), in
# about 2 s.
class YardTest < Minitest::Test
  ROOT = File.expand_path("../..", __dir__)

  def test_yard_parses_lib_without_warnings
    output, status = Open3.capture2e("bundle", "exec", "yard", "stats", "--no-save", "--no-cache", chdir: ROOT)

    assert_predicate status, :success?, output
    assert_empty output.lines.grep(/\[(warn|error)\]/), output
    assert_includes File.read(File.join(ROOT, ".yardopts")), "lib/**/*.rb"
  end
end
