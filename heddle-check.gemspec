# frozen_string_literal: true

require_relative "lib/heddle-check/heddle/check/version"
require_relative "heddle_gems"

# lib/heddle-check/: property-based checks whose runs spread over heddle's
# workers, with shrinking, and their Minitest and RSpec adapters.
Gem::Specification.new do |spec|
  spec.name = "heddle-check"
  spec.version = Heddle::Check::VERSION
  spec.summary = "Property-based checks for Ruby, run over heddle's workers, shrinking to minimal counterexamples."
  spec.description = <<~TEXT
    Heddle::Check: properties over generated values and model-based (stateful) properties,
    their runs spread over heddle's inline, fiber, thread, process or ractor workers, each
    failure shrunk to a minimal counterexample with the seed that replays it. Minitest
    and RSpec adapters included.
  TEXT
  spec.required_ruby_version = ">= 3.1"
  HeddleGems.common(spec, "docs/check.md")
  # Released together: heddle-check X needs heddle X.
  spec.add_dependency "heddle", Heddle::Check::VERSION
  spec.metadata["rubygems_mfa_required"] = "true"
end
