# frozen_string_literal: true

require "test_helper"
require "heddle/bench"

# Each gem is one lib root, in this checkout as installed (test/heddle/gems_test.rb
# installs them so).
class BenchGemPathsTest < Minitest::Test
  ROOT = File.expand_path("../../..", __dir__)

  def test_a_checkout_has_a_lib_root_per_gem_and_the_executable_in_exe
    assert_equal LibRoots::DIRS, Heddle::Bench::GemPaths.lib_dirs
    assert_equal LibRoots::FLAGS, Heddle::Bench::GemPaths.load_path_flags
    assert_equal File.join(ROOT, "exe", "heddle"), Heddle::Bench::GemPaths.heddle_executable
    assert File.executable?(Heddle::Bench::GemPaths.heddle_executable)
  end
end
