# frozen_string_literal: true

$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "heddle"
require "minitest/autorun"

Dir[File.join(__dir__, "support", "**", "*.rb")].each { |f| require f }

# heddle warns once per process that worker: :ractor runs on Ruby's experimental
# Ractor (category :experimental, as Ruby's own warning). The tests use ractors
# on purpose, and the test run prints no warnings.
Warning[:experimental] = false
