# frozen_string_literal: true

module Loom
  module Check
    # The loom-check gem's version. The three gems of this repository are
    # released together under one number; loom-check needs the loom of that
    # same release (loom-check.gemspec).
    VERSION = "0.1.0"
  end
end
