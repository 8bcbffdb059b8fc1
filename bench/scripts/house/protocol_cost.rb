# frozen_string_literal: true

# The cost of the private protocol on the cheapest call rows: process CPU per call_and_forget
# (in batches of 1,000, then wait 0), per call and per waiting call; median of 5 with min-max.
# usage: ruby [--yjit] -Ilib/heddle bench/scripts/house/protocol_cost.rb
require "heddle"
pr = Heddle.concurrent_proc { 1 }
def batch(pr, n) = (i = 0; while i < n; pr.call_and_forget; i += 1; end; Heddle.wait(0))
def calls(pr, n) = (i = 0; while i < n; pr.call; i += 1; end)
wpr = Heddle.concurrent_proc { Heddle.wait(0) }
def wcalls(pr, n) = (i = 0; while i < n; pr.call; i += 1; end)
3.times { batch(pr, 1000); calls(pr, 1000); wcalls(wpr, 1000) }
res = { forget: [], call: [], waiting_call: [] }
5.times do
  [[:forget, -> { 200.times { batch(pr, 1000) } }, 200_000], [:call, -> { calls(pr, 200_000) }, 200_000],
   [:waiting_call, -> { wcalls(wpr, 50_000) }, 50_000]].each do |name, f, n|
    t = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID); f.call
    res[name] << ((Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - t) / n * 1e9)
  end
end
puts res.map { |k, v| "#{k} #{v.sort[2].round(0)} ns cpu [#{v.min.round(0)}-#{v.max.round(0)}]" }.join("  ")
