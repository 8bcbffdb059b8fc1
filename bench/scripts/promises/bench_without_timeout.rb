# frozen_string_literal: true

# `heddle bench` as exe/heddle runs it, except that Trial#call measures without
# Timeout.timeout: no thread sleeps beside the job for the trial's length
# (timeout 0.2.0, Ruby 3.1: one thread per call, in sleep(limit)), so it
# cannot hold Ruby 3.1's signal fd (docs/promises.md, "When the spin pays").
# What the harness would measure if it enforced the limit from outside the
# trial's process; a probe only: here a hung trial is not stopped (the
# promises suite's own stall detector ends lost waiters after 2 s).
#   bundle exec ruby bench/scripts/promises/bench_without_timeout.rb promises --trials 5 --out tmp/DIR
$LOAD_PATH.unshift File.expand_path("../../../lib/heddle", __dir__)
require "heddle/bench"

# Trial#call without the Timeout block; the rest of the trial unchanged.
module TrialWithoutTimeout
  def call
    record = base_record
    measure_all(record)
    record
  end
end
Heddle::Bench::Trial.prepend(TrialWithoutTimeout)
exit Heddle::Bench::CLI.new(ARGV).run
