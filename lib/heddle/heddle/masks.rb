# frozen_string_literal: true

module Heddle
  # The Thread.handle_interrupt masks heddle's bookkeeping runs under, made
  # once. Identity-compared and frozen: Ruby 3.3 and later push such a hash
  # as it is, where any other costs a new Hash per call (with GC off, a
  # heap page now and then: the promises benchmark's fiber rows). Hot path.
  module Masks
    # Every asynchronous interrupt (Thread#raise, Thread#kill, a timeout's
    # raise) held back until the region ends.
    UNINTERRUPTED = { Object => :never }.compare_by_identity.freeze
    # Every asynchronous interrupt let in at once, whatever the masks around.
    INTERRUPTIBLE = { Object => :immediate }.compare_by_identity.freeze
  end
end
