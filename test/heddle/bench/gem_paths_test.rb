# frozen_string_literal: true

require "test_helper"
require "heddle/bench"

# Installed separately, the three gems have a lib/ each; test/heddle/gems_test.rb
# runs them so. In this checkout they share one.
class BenchGemPathsTest < Minitest::Test
  ROOT = File.expand_path("../../..", __dir__)

  def test_a_checkout_has_one_lib_folder_and_the_executable_beside_it
    assert_equal [File.join(ROOT, "lib")], Heddle::Bench::GemPaths.lib_dirs
    assert_equal ["-I", File.join(ROOT, "lib")], Heddle::Bench::GemPaths.load_path_flags
    assert_equal File.join(ROOT, "exe", "heddle"), Heddle::Bench::GemPaths.heddle_executable
    assert File.executable?(Heddle::Bench::GemPaths.heddle_executable)
  end
end
