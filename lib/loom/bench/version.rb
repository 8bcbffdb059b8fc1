# frozen_string_literal: true

module Loom
  module Bench
    # The loom-bench gem's version. The three gems of this repository are
    # released together under one number; loom-bench needs the loom and
    # loom-check of that same release (loom-bench.gemspec).
    VERSION = "0.1.0"
  end
end
