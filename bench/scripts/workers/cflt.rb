require "heddle"
require "heddle/check"
require "parallel"
module FS; def self.failure(v) = v > 100 ? raise("#{v} > 100") : nil; end
SEED = 17_243_810_592_888_013_452_170_775_373_100_387_856
def minflt = File.read("/proc/self/stat").split[9].to_i
Heddle::Workers::Processes::Child.prepend(Module.new do
  def run
    @log = ["start #{minflt} gc=#{GC.count}"]
    super
  ensure
    @log << "end #{minflt} gc=#{GC.count}"
    STDERR.write "#{Process.pid}: #{@log.join(' | ')}\n"
  end
  def serve(payload)
    f = minflt
    super
    STDERR.write "#{Process.pid}: chunk +#{minflt - f} gc=#{GC.count} (start: #{@log.first})\n"
  end
end)
2.times do
  prop = Heddle::Check.property(Heddle::Check.integer) { |x| FS.failure(x) }
  r = Heddle::Check.check(prop, worker: :process, seed: SEED)
end
p GC.stat.slice(:heap_live_slots, :heap_free_slots, :heap_allocated_pages)
