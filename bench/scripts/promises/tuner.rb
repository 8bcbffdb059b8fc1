# The suite's ThreadRig job once, with SpinTuner's windows logged: which mode
# each window ran in and its mean wait. Prints "wall cpu" like rig.rb, and the
# log to stderr.   ruby bench/scripts/promises/tuner.rb heddle|heddle-reuse
module TunerLog
  LOG = []
  private def close_window
    LOG << [@spinning, @sum / @count, @trying]
    super
  end
end
$LOAD_PATH.unshift File.expand_path(ENV.fetch("LIB", "../../../lib/heddle"), __dir__)
require "heddle"
Heddle::Promises::SpinTuner.singleton_class.prepend(TunerLog)
at_exit do
  log = TunerLog::LOG
  spin = log.count(&:first)
  mean = ->(rows) { rows.empty? ? 0 : rows.sum { |r| r[1] } / rows.size * 1e6 }
  warn format("windows %d: spin %d (mean wait %.1f us), park %d (%.1f us); trail %s", log.size, spin,
              mean.call(log.select(&:first)), log.size - spin, mean.call(log.reject(&:first)),
              log.last(24).map { |s, m, t| "#{t ? '?' : ''}#{s ? 'S' : 'P'}#{(m * 1e6).round}" }.join(" "))
end
load File.join(__dir__, "rig.rb")
