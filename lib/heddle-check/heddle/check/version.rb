# frozen_string_literal: true

module Heddle
  module Check
    # The heddle-check gem's version. The four gems of this repository are
    # released together under one number; heddle-check needs the heddle of that
    # same release (heddle-check.gemspec).
    VERSION = "0.1.0"
  end
end
