# frozen_string_literal: true

# Opt-in: Concurrently-style methods on Kernel (private) and IO.
#
#   require "loom/kernel"
#   concurrently { wait 0.1; :done }.await_result # => :done
#
# Without this file loom patches nothing; the same API is on {Loom}.
require_relative "../loom"
require_relative "kernel/options"
require_relative "kernel/kernel_methods"
require_relative "kernel/io_methods"

# rubocop:disable Style/OneClassPerFile -- this file is the opt-in patch: both reopenings belong together
module Kernel
  include Loom::KernelMethods
end

class IO
  include Loom::IOMethods
end
# rubocop:enable Style/OneClassPerFile
