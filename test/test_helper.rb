# frozen_string_literal: true

# The four gems' lib roots (heddle, heddle-check, heddle-bench, heddle-redis;
# README "Four gems"), for this process and for the child rubies the tests start.
module LibRoots
  DIRS = %w[heddle heddle-check heddle-bench heddle-redis]
         .map { |gem| File.expand_path("../lib/#{gem}", __dir__) }.freeze
  # `-I DIR` for each root, for a child ruby's command line.
  FLAGS = DIRS.flat_map { |dir| ["-I", dir] }.freeze
end
$LOAD_PATH.unshift(*LibRoots::DIRS)
require "heddle"
require "minitest/autorun"

Dir[File.join(__dir__, "support", "**", "*.rb")].each { |f| require f }

# heddle warns once per process that worker: :ractor runs on Ruby's experimental
# Ractor (category :experimental, as Ruby's own warning). The tests use ractors
# on purpose, and the test run prints no warnings.
Warning[:experimental] = false

# heddle-check's failure store (docs/check.md): a folder of this test run's own, unless one is
# chosen, so that the checks the tests fail on purpose are neither written into the checkout nor
# replayed by a later run; forked children leave it to the process that made it.
unless ENV.key?("HEDDLE_CHECK_STORE")
  require "fileutils"
  require "tmpdir"
  ENV["HEDDLE_CHECK_STORE"] = store = Dir.mktmpdir("heddle-check-store")
  owner = Process.pid
  at_exit { FileUtils.rm_rf(store) if Process.pid == owner }
end
