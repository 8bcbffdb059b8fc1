# frozen_string_literal: true

# A second handler file: workers started with it alone know none of
# redis_handlers.rb (pools of different handlers, workers without a handler).
require "heddle"

Heddle.handler(:"other.pid") { |n| [n, Process.pid] }
