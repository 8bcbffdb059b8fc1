# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"
require "tmpdir"

# Without the redis-client gem (heddle-redis on the load path, its
# dependency not installed), the Redis backend and `heddle worker` say in
# one line how to install it, both ways.
class RedisClientTest < Minitest::Test
  # A child ruby that sees the lib roots and no installed gem: bundler off,
  # and GEM_HOME/GEM_PATH an empty directory (Ruby's default gems stay).
  def without_gems(*args)
    Dir.mktmpdir("heddle-no-gems") do |gems|
      env = { "GEM_HOME" => gems, "GEM_PATH" => gems, "RUBYOPT" => nil, "RUBYLIB" => nil, "BUNDLE_GEMFILE" => nil,
              "BUNDLE_BIN_PATH" => nil, "BUNDLER_SETUP" => nil, "BUNDLER_VERSION" => nil }
      Open3.capture3(env, RbConfig.ruby, "-w", *LibRoots::FLAGS, *args)
    end
  end

  HINT = "need the redis-client gem: run `gem install redis-client`, or add `gem \"redis-client\"` to your " \
         "Gemfile and run `bundle install` (cannot load such file -- redis-client)"

  def test_a_pool_without_redis_client_names_both_ways_to_install_it
    out, err, status = without_gems("-e", <<~RUBY)
      require "heddle"
      begin
        Heddle::Pool.new(worker: :redis, handler: :x, url: "redis://127.0.0.1:1/0")
      rescue LoadError => e
        puts e.message
      end
    RUBY
    assert status.success?, err
    assert_empty err
    assert_equal "worker: :redis and `heddle worker` #{HINT}\n", out
  end

  def test_heddle_worker_without_redis_client_says_so_in_one_line
    out, err, status = without_gems(File.expand_path("../../../../exe/heddle", __dir__), "worker",
                                    "--redis", "redis://127.0.0.1:1/0", "--require", RedisFixture::HANDLERS)
    assert_equal 1, status.exitstatus
    assert_empty out
    assert_equal "heddle worker: worker: :redis and `heddle worker` #{HINT}\n", err
  end
end
