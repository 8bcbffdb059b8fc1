require "heddle"; require "heddle/check"; require "heddle/bench"
load File.expand_path("../../../lib/heddle-bench/heddle/bench/suites/checks.rb", __dir__)
Warning[:experimental] = false
S = Heddle::Bench::ChecksSuite
errs = Hash.new(0); n = Integer(ARGV[0] || 100)
n.times do
  pid = fork do
    GC.start; S.release_free_memory
    prop = Heddle::Check.property(Heddle::Check.integer) { |x| Heddle::Bench::ChecksSuite.failure(x) }
    begin
      Heddle::Check.assert(prop, worker: :ractor, seed: S::SEED)
      exit!(3)
    rescue Heddle::Check::Failure => e
      exit!(e.result.counterexample == 101 ? 0 : 4)
    rescue TypeError => e
      $stderr.puts e.message; exit!(5)
    end
  end
  Process.wait(pid); errs[$?.exitstatus] += 1
end
p errs
