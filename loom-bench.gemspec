# frozen_string_literal: true

require_relative "lib/loom/bench/version"
require_relative "loom_gems"

# The benchmark harness behind `loom bench`: the harness, its suites and
# reports (lib/loom/bench.rb, lib/loom/bench/). The peers it measures loom
# against are not dependencies: the repository's Gemfile pins them in its
# :peers group, and a row whose peer is missing is reported as skipped. The
# probe scripts in bench/scripts/ run from a checkout and are not shipped.
Gem::Specification.new do |spec|
  spec.name = "loom-bench"
  spec.version = Loom::Bench::VERSION
  spec.summary = "loom bench: loom measured against its peers, in reports anyone can rerun."
  spec.description = <<~TEXT
    The harness behind `loom bench`: suites of rows measured in a seeded random order
    over trials, loom beside Concurrently, async, concurrent-ruby, parallel, pbt and
    Thread::Queue, written as JSON and rendered as Markdown, HTML and terminal reports.
  TEXT
  LoomGems.common(spec)
  spec.required_ruby_version = ">= 3.1"
  spec.metadata["rubygems_mfa_required"] = "true"
  spec.files = LoomGems.add_on_lib("loom-bench") + LoomGems.files("docs/bench*.md") + LoomGems::COMMON_FILES
  # Released together: loom-bench X needs loom X and loom-check X (the checks suite).
  spec.add_dependency "loom", Loom::Bench::VERSION
  spec.add_dependency "loom-check", Loom::Bench::VERSION
end
