# frozen_string_literal: true

module Heddle
  # The gem's version, following Semantic Versioning.
  VERSION = "0.1.0"
end
