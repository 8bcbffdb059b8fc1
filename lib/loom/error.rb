# frozen_string_literal: true

module Loom
  # The base class of every error loom raises on purpose. Rescue it to catch
  # anything loom reports; each part defines specific subclasses beside the
  # code that raises them.
  class Error < StandardError; end
end
