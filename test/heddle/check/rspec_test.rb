# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"
require "timeout"

# Runs spec/heddle/check with RSpec in a subprocess so the one test command covers the matcher.
class CheckRSpecTest < Minitest::Test
  ROOT = File.expand_path("../../..", __dir__)

  def test_the_rspec_matcher_and_helper_pass_their_specs
    command = [RbConfig.ruby, *LibRoots::FLAGS, "-S", "rspec", "--no-color", "spec/heddle/check"]
    output, status = Timeout.timeout(60) { Open3.capture2e(*command, chdir: ROOT) }
    assert_predicate status, :success?, output
    assert_match(/\d+ examples, 0 failures/, output)
  end
end
