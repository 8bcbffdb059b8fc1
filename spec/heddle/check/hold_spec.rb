# frozen_string_literal: true

require "heddle/check/rspec"

RSpec.describe Heddle::Check::RSpec do
  let(:check) { Heddle::Check }
  let(:small_sums) { check.property(check.array(check.integer)) { |a| a.sum <= 100 } }

  it "passes a property that holds" do
    expect(check.property(check.integer) { |x| x - x == 0 }).to hold(runs: 20)
  end

  it "negates to expect a counterexample" do
    expect(small_sums).not_to hold(seed: 1)
  end

  it "fails with the report, seed and replay line" do
    expect { expect(small_sums).to hold(seed: 5) }
      .to raise_error(RSpec::Expectations::ExpectationNotMetError, /Counterexample: \[101\].*seed: 5/m)
  end

  it "checks a property built from arbitraries, with RSpec expectations inside" do
    result = check_property(check.nat, runs: 15) { |n| expect(n).to be >= 0 }
    expect(result.runs).to eq(15)
  end

  it "fails check_property at the caller's line, with the property's frames in the report" do
    line = __LINE__ + 1
    expect { check_property(check.nat, seed: 2) { |n| expect(n).to be < 7 } }
      .to raise_error(RSpec::Expectations::ExpectationNotMetError) { |error|
        expect(error.backtrace.first).to start_with("#{__FILE__}:#{line}:")
        frames = error.message.lines.grep(/^\s+\S+:\d+:in /)
        expect(frames.first).to include("#{__FILE__}:#{line}:")
        heddle_dirs = Heddle::Check::Backtrace::LIBRARIES
        expect(frames).to all(satisfy { |f| !f.include?("/rspec-") && heddle_dirs.none? { |dir| f.include?(dir) } })
      }
  end

  it "names the RSpec helpers in the replay line" do
    expect { expect(small_sums).to hold(seed: 5) }
      .to raise_error(RSpec::Expectations::ExpectationNotMetError,
                      %r{Replay: pass seed: 5 to check_property\(\.\.\., seed:\) / hold\(seed:\)})
  end

  it "reports an RSpec expectation failing inside the property, shrunk" do
    expect { check_property(check.nat, seed: 2) { |n| expect(n).to be < 7 } }
      .to raise_error(RSpec::Expectations::ExpectationNotMetError, /Counterexample: 7/)
  end
end
