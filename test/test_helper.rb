# frozen_string_literal: true

$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "loom"
require "minitest/autorun"

Dir[File.join(__dir__, "support", "**", "*.rb")].each { |f| require f }
