# frozen_string_literal: true

# Opt-in: Concurrently-style methods on Kernel (private) and IO.
#
#   require "heddle/kernel"
#   concurrently { wait 0.1; :done }.await_result # => :done
#
# Without this file heddle patches nothing; the same API is on {Heddle}.
require_relative "../heddle"
require_relative "kernel/io_methods"
require_relative "kernel/kernel_methods"
require_relative "kernel/kernel_methods/options"

# rubocop:disable Style/OneClassPerFile -- this file is the opt-in patch: both reopenings belong together
module Kernel
  include Heddle::KernelMethods
end

class IO
  include Heddle::IOMethods
end
# rubocop:enable Style/OneClassPerFile
