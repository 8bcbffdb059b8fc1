# frozen_string_literal: true

require_relative "lib/heddle/heddle/version"
require_relative "heddle_gems"

# The runtime, lib/heddle/: loop, procs, scheduler, promises, workers, the
# opt-in Kernel and Concurrently layers, and the `heddle` executable, and the
# optional C hot path of the scheduler's io hooks (ext/heddle_native, built at
# install; heddle runs in pure Ruby where it does not build,
# lib/heddle/heddle/scheduler/native_io.rb). No runtime dependency; the guides
# but not the add-ons' (heddle-check, heddle-bench, heddle-redis), no results
# and no probes.
Gem::Specification.new do |spec|
  spec.name = "heddle"
  spec.version = Heddle::VERSION
  spec.summary = "Concurrency for Ruby: fibers with an event loop, a Fiber::Scheduler, promises and workers."
  spec.description = <<~TEXT
    heddle gives Ruby concurrent procs on fibers with an event loop and a Fiber::Scheduler,
    promises any thread or fiber can wait on, and one worker interface over inline, fiber,
    thread, process and ractor backends. The Redis backend is the heddle-redis gem, property
    checks the heddle-check gem, and the benchmark harness behind `heddle bench` the
    heddle-bench gem.
  TEXT
  guides = HeddleGems.files("docs/*.md") - %w[docs/check.md docs/redis.md] - HeddleGems.files("docs/bench*.md")
  spec.required_ruby_version = ">= 3.1"
  HeddleGems.common(spec, "exe/heddle", "ext/heddle_native/*.{c,rb}", *guides)
  spec.extensions = ["ext/heddle_native/extconf.rb"]
  spec.bindir = "exe"
  spec.executables = ["heddle"]
  spec.metadata["rubygems_mfa_required"] = "true"
end
