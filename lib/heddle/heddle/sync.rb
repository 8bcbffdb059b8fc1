# frozen_string_literal: true

require_relative "procs"
require_relative "promises"
require_relative "sync/group"
require_relative "sync/semaphore"
