# frozen_string_literal: true

require_relative "lib/heddle/heddle/version"
require_relative "heddle_gems"

# lib/heddle-redis/: the Redis backend of heddle's workers (`worker: :redis`)
# and the daemon behind `heddle worker`, with its guide, docs/redis.md. The
# constants and the feature stay heddle's (`Heddle::Workers::Redis`,
# `require "heddle/workers/redis"`): the runtime loads this gem when a pool
# asks for worker: :redis, and the `heddle` executable for `heddle worker`.
Gem::Specification.new do |spec|
  spec.name = "heddle-redis"
  spec.version = Heddle::VERSION
  spec.summary = "A Redis backend for heddle's workers: maps and pools over `heddle worker` processes on many machines."
  spec.description = <<~TEXT
    worker: :redis for Heddle.map and Heddle::Pool: items go through one Redis 7 server to
    `heddle worker` processes on any number of machines and come back in input order, with
    the local backends' timeouts and errors, reclaiming after a worker dies, TLS and ACL users.
  TEXT
  spec.required_ruby_version = ">= 3.1"
  HeddleGems.common(spec, "docs/redis.md")
  # Released together: heddle-redis X needs heddle X.
  spec.add_dependency "heddle", Heddle::VERSION
  # The client Sidekiq 7 uses; the tests run on 0.31.0 (Gemfile.lock).
  spec.add_dependency "redis-client", "~> 0.31"
  spec.metadata["rubygems_mfa_required"] = "true"
end
