# frozen_string_literal: true

require "test_helper"
require "loom/bench"

# Installed separately, the three gems have a lib/ each; test/loom/gems_test.rb
# runs them so. In this checkout they share one.
class BenchGemPathsTest < Minitest::Test
  ROOT = File.expand_path("../../..", __dir__)

  def test_a_checkout_has_one_lib_folder_and_the_executable_beside_it
    assert_equal [File.join(ROOT, "lib")], Loom::Bench::GemPaths.lib_dirs
    assert_equal ["-I", File.join(ROOT, "lib")], Loom::Bench::GemPaths.load_path_flags
    assert_equal File.join(ROOT, "exe", "loom"), Loom::Bench::GemPaths.loom_executable
    assert File.executable?(Loom::Bench::GemPaths.loom_executable)
  end
end
