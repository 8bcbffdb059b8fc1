# frozen_string_literal: true

module Heddle
  module Bench
    # The heddle-bench gem's version. The four gems of this repository are
    # released together under one number; heddle-bench needs the heddle and
    # heddle-check of that same release (heddle-bench.gemspec).
    VERSION = "0.1.0"
  end
end
