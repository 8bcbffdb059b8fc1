# frozen_string_literal: true

# Runs a block under Loom.run on a fresh thread (the main thread's loop may
# hold other tests' leftovers), bounded in time; returns the block's value.
module InLoomRun
  def in_loom_run(&block)
    runner = Thread.new { Loom.run(&block) }
    runner.join(10) or flunk "Loom.run did not finish within 10 s"
    runner.value
  ensure
    runner&.kill
  end
end
