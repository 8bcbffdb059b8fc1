# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"

# The distributed suite's Sidekiq client logs at warnings only: its INFO line
# ("connecting to Redis") leaked into the bench's own output. Checked in a
# child ruby, so this process does not load Sidekiq.
class SidekiqPeerTest < Minitest::Test
  def test_the_peers_client_logger_prints_no_info_line
    script = <<~RUBY
      begin
        require "sidekiq"
      rescue LoadError
        puts "no sidekiq"
        exit
      end
      require "heddle/bench"
      require File.join(Heddle::Bench::SUITES_DIR, "support", "sidekiq_peer")
      config = Heddle::Bench::SidekiqPeer.quiet(Sidekiq::Config.new)
      config.logger.info("an info line")
      config.logger.warn("a warning")
    RUBY
    output, status = Open3.capture2e(RbConfig.ruby, *LibRoots::FLAGS, "-e", script)

    assert_predicate status, :success?, output
    skip "sidekiq is not installed (Gemfile group :peers)" if output.include?("no sidekiq")
    refute_includes output, "an info line"
    assert_includes output, "a warning"
  end
end
