# frozen_string_literal: true

# SpinTuner's windows, logged: prepend TunerLog to SpinTuner's singleton class
# and the mode, mean wait and whether it was a try of each window go to stderr
# at exit (tuner.rb, vars.rb with TUNER=1).
module TunerLog
  LOG = [] # rubocop:disable Style/MutableConstant -- filled while the job runs

  private

  def close_window
    LOG << [@spinning, @sum / @count, @trying]
    super
  end
end

at_exit do
  log = TunerLog::LOG
  spin = log.count(&:first)
  mean = ->(rows) { rows.empty? ? 0 : rows.sum { |r| r[1] } / rows.size * 1e6 }
  trail = log.last(24).map { |s, m, t| "#{t ? '?' : ''}#{s ? 'S' : 'P'}#{(m * 1e6).round}" }.join(" ")
  warn format("windows %<n>d: spin %<spin>d (mean wait %<sm>.1f us), park %<park>d (%<pm>.1f us); trail %<trail>s",
              n: log.size, spin: spin, sm: mean.call(log.select(&:first)), park: log.size - spin,
              pm: mean.call(log.reject(&:first)), trail: trail)
end
