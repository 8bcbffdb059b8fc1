# frozen_string_literal: true

$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "loom"
require "minitest/autorun"

# Ractors (and IO::Buffer) are experimental: Ruby and loom warn once per
# process, from whichever test starts one first. The warnings themselves are
# tested in fresh rubies (RactorTest), so the test run prints none.
Warning[:experimental] = false

Dir[File.join(__dir__, "support", "**", "*.rb")].each { |f| require f }

# loom warns once per process that worker: :ractor runs on Ruby's experimental
# Ractor (category :experimental, as Ruby's own warning). The tests use ractors
# on purpose, and the test run prints no warnings.
Warning[:experimental] = false
