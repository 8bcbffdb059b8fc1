# frozen_string_literal: true

require_relative "lib/loom/version"
require_relative "loom_gems"

# The runtime: loop, procs, scheduler, promises, workers (the Redis backend's
# redis-client is loaded on first use, so it is not a dependency), the opt-in
# Kernel and Concurrently layers, and the `loom` executable. No runtime
# dependency; no checks, benchmarks, results or probes (loom-check, loom-bench).
Gem::Specification.new do |spec|
  spec.name = "loom"
  spec.version = Loom::VERSION
  spec.summary = "Concurrency for Ruby: fibers with an event loop, a Fiber::Scheduler, promises and workers."
  spec.description = <<~TEXT
    loom gives Ruby concurrent procs on fibers with an event loop and a Fiber::Scheduler,
    promises any thread or fiber can wait on, and one worker interface over inline, fiber,
    thread, process, ractor and Redis backends. Property checks are the loom-check gem;
    the benchmark harness behind `loom bench` is the loom-bench gem.
  TEXT
  LoomGems.common(spec)
  spec.required_ruby_version = ">= 3.1"
  spec.metadata["rubygems_mfa_required"] = "true"
  add_ons = LoomGems::ADD_ONS.keys.flat_map { |name| LoomGems.add_on_lib(name) }
  guides = LoomGems.files("docs/*.md") - %w[docs/check.md] - LoomGems.files("docs/bench*.md")
  spec.files = LoomGems.files("lib/**/*.rb", "exe/loom") - add_ons + guides + LoomGems::COMMON_FILES
  spec.bindir = "exe"
  spec.executables = ["loom"]
end
