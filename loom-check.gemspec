# frozen_string_literal: true

require_relative "lib/loom/check/version"
require_relative "loom_gems"

# Property-based checks whose runs spread over loom's workers, with shrinking,
# and their Minitest and RSpec adapters: lib/loom/check.rb and lib/loom/check/.
Gem::Specification.new do |spec|
  spec.name = "loom-check"
  spec.version = Loom::Check::VERSION
  spec.summary = "Property-based checks for Ruby, run over loom's workers, shrinking to minimal counterexamples."
  spec.description = <<~TEXT
    Loom::Check: properties over generated values and model-based (stateful) properties,
    their runs spread over loom's inline, fiber, thread, process or ractor workers, each
    failure shrunk to a minimal counterexample with the seed that replays it. Minitest
    and RSpec adapters included.
  TEXT
  LoomGems.common(spec)
  spec.required_ruby_version = ">= 3.1"
  spec.metadata["rubygems_mfa_required"] = "true"
  spec.files = LoomGems.add_on_lib("loom-check") + %w[docs/check.md] + LoomGems::COMMON_FILES
  # Released together: loom-check X needs loom X.
  spec.add_dependency "loom", Loom::Check::VERSION
end
