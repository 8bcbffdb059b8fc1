# frozen_string_literal: true

require_relative "lib/loom/version"

Gem::Specification.new do |spec|
  spec.name = "loom"
  spec.version = Loom::VERSION
  spec.summary = "Fast, honest concurrency for Ruby: fibers, promises, workers, property checks and benchmarks."
  spec.description = <<~TEXT
    loom gives Ruby concurrent procs on fibers with an event loop and a Fiber::Scheduler,
    promises any thread or fiber can wait on, one worker interface over inline, fiber,
    thread, process and ractor backends, property-based checks spread over those workers,
    and a benchmark harness that measures all of it against its peers.
  TEXT
  spec.authors = ["loom developers"]
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir["lib/**/*.rb", "exe/*", "README.md", "docs/**/*.md"]
  spec.bindir = "exe"
  spec.executables = ["loom"]
  spec.require_paths = ["lib"]
  spec.metadata["rubygems_mfa_required"] = "true"
end
