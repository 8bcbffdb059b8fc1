# frozen_string_literal: true

# Runs a block under Heddle.run on a fresh thread (the main thread's loop may
# hold other tests' leftovers), bounded in time; returns the block's value.
module InHeddleRun
  def in_heddle_run(&block)
    runner = Thread.new { Heddle.run(&block) }
    runner.join(10) or flunk "Heddle.run did not finish within 10 s"
    runner.value
  ensure
    runner&.kill
  end
end
