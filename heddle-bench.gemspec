# frozen_string_literal: true

require_relative "lib/heddle-bench/heddle/bench/version"
require_relative "heddle_gems"

# lib/heddle-bench/: the harness behind `heddle bench` (its suites and
# reports) and `heddle soak` (mixed load with every result checked, whose
# loads use heddle-check). The peers it measures heddle against are not
# dependencies: the repository's Gemfile pins them in its
# :peers group, and a row whose peer is missing is reported as skipped. The
# probe scripts in bench/scripts/ run from a checkout and are not shipped.
Gem::Specification.new do |spec|
  spec.name = "heddle-bench"
  spec.version = Heddle::Bench::VERSION
  spec.summary = "heddle bench: heddle measured against its peers, in reports anyone can rerun."
  spec.description = <<~TEXT
    The harness behind `heddle bench`: suites of rows measured in a seeded random order
    over trials, heddle beside Concurrently, async, concurrent-ruby, parallel, pbt and
    Thread::Queue, written as JSON and rendered as Markdown, HTML and terminal reports.
  TEXT
  spec.required_ruby_version = ">= 3.1"
  HeddleGems.common(spec, "docs/bench*.md")
  # Released together: heddle-bench X needs heddle X and heddle-check X (the checks suite).
  spec.add_dependency "heddle", Heddle::Bench::VERSION
  spec.add_dependency "heddle-check", Heddle::Bench::VERSION
  spec.metadata["rubygems_mfa_required"] = "true"
end
