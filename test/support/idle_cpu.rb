# frozen_string_literal: true

# For the idle-CPU family (test/heddle/**/idle_cpu_test.rb): a wait held
# still must spend at most CpuMeter::IDLE_SHARE of a core. Asserts it, runs
# IdleWaits cases in a fresh `ruby` where a setting is read once per process
# (the IO path, HEDDLE_NATIVE=0) or where ractors must run, and, when
# HEDDLE_IDLE_CPU_LOG names a file, appends each share measured to it (test,
# share) for the journal's table.
module IdleCpu
  include FreshRuby

  # HEDDLE_SELECTOR's name of each IOWatch back end.
  SELECTOR_NAMES = { "SelectWatch" => "select", "NIOWatch" => "nio4r", "EpollWatch" => "epoll" }.freeze
  # What a fresh ruby loads before an IdleWaits case.
  PRELUDE = <<~RUBY.freeze
    require "heddle"
    require #{File.join(__dir__, 'cpu_meter.rb').inspect}
    require #{File.join(__dir__, 'idle_waits.rb').inspect}
    Warning[:experimental] = false
    # Registered first, so it runs last: the result is written by then. Ruby
    # waits about a second at exit for the ractors a pool keeps in reserve.
    at_exit { $stdout.flush && exit!(0) }
  RUBY
  # Seconds a fresh ruby's case may take: start-up on a loaded machine, and the windows.
  FRESH_LIMIT = 60

  # The environment of a child ruby whose waits are measured soon after it
  # starts. Under YJIT a method is compiled at its 30th call, and a loop
  # that wakes a few times a second reaches it many seconds in, inside the
  # windows; compiling at the first call gets the child at once to the
  # steady state a long-running one reaches.
  # @return [Hash{String => String}]
  def self.steady_env
    return {} unless defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled?

    { "RUBYOPT" => "#{ENV.fetch('RUBYOPT', '')} --yjit --yjit-call-threshold=1" }
  end

  # Asserts that a wait spent at most IDLE_SHARE of a core.
  # @param share [Float] from CpuMeter
  # @param what [String] the wait, for the message
  def assert_idle(share, what)
    log_share(share)
    assert_operator share, :<=, CpuMeter::IDLE_SHARE,
                    "#{what} spent #{format('%.1f', share * 100)}% of a core while it waited (at most " \
                    "#{(CpuMeter::IDLE_SHARE * 100).round}%): it polls instead of sleeping"
  end

  # Runs IdleWaits code in a fresh ruby on this test's selector.
  # @param code [String] e.g. "IdleWaits.read_in_run"
  # @param env [Hash{String => String}] more of the child's environment
  # @return [Array(Object, Hash)] the code's value, and what the child ran on
  #   (:native, :selector)
  def in_fresh(code, env = {})
    env = IdleCpu.steady_env.merge("HEDDLE_SELECTOR" => SELECTOR_NAMES.fetch(backend.name.split("::").last), **env)
    ran_on = "{ native: !Heddle::Scheduler::NATIVE_IO.nil?, selector: Heddle::EventLoop::IOWatch.backend.name }"
    value, setting = in_fresh_ruby("[#{code}, #{ran_on}]", prelude: PRELUDE, limit: FRESH_LIMIT, env: env)
    assert_equal backend.name, setting[:selector], "the fresh ruby ran on the selector asked for"
    [value, setting]
  end

  private

  def log_share(share)
    path = ENV.fetch("HEDDLE_IDLE_CPU_LOG", nil) or return
    File.open(path, "a") { |file| file.puts("#{RUBY_VERSION}\t#{self.class.name}##{name}\t#{format('%.4f', share)}") }
  end
end
