# frozen_string_literal: true

require_relative "peers"
require "timeout"

# process_wait(pid, flags), address_resolve(hostname) and
# timeout_after(duration, exception_class, message).
class ComplianceProcessAndTimeoutTest < Minitest::Test
  include CompliancePeers

  compliance "process_wait_suspends_only_its_fiber" do
    log = []
    status = under_peer do
      pid = Process.spawn(RbConfig.ruby, "-e", "sleep 0.05; exit 3")
      Fiber.schedule { log << :other }
      Process.wait2(pid)[1]
    end

    assert_equal 3, status.exitstatus
    assert_equal [:other], log
  end

  compliance "process_wait_with_wnohang_returns_nil_while_the_child_runs" do
    result = under_peer do
      pid = Process.spawn(RbConfig.ruby, "-e", "sleep 0.05")
      early = Process.waitpid(pid, Process::WNOHANG)
      Process.waitpid(pid)
      early
    end

    assert_nil result
  end

  compliance "address_resolve_answers_like_the_system_resolver" do
    result = under_peer { Addrinfo.getaddrinfo("localhost", 80, nil, :STREAM).map(&:ip_address).sort }

    assert_equal Addrinfo.getaddrinfo("localhost", 80, nil, :STREAM).map(&:ip_address).sort, result
  end

  compliance "address_resolve_of_an_unknown_name_raises_socket_error" do
    result = under_peer do
      Addrinfo.getaddrinfo("no-such-host.invalid", 80)
    rescue SocketError => e
      e.class.ancestors # (not the error itself: Heddle.run raises an exception its block returns)
    end

    assert_includes result, SocketError # Ruby 3.3: Socket::ResolutionError
  end

  compliance "timeout_raises_in_a_fiber_waiting_on_io" do
    log = []
    result = under_peer do
      reader, _writer = IO.pipe
      Fiber.schedule { 2.times { (log << :tick) && sleep(0.001) } }
      Timeout.timeout(0.02) { reader.read(1) }
    rescue Timeout::Error => e
      e.class
    end

    assert_equal Timeout::Error, result
    assert_equal %i[tick tick], log
  end

  compliance "timeout_with_a_class_raises_it" do
    result = under_peer do
      Timeout.timeout(0.01, ArgumentError) { sleep 1 }
    rescue ArgumentError => e
      e.class
    end

    assert_equal ArgumentError, result
  end

  compliance "timeout_that_does_not_expire_returns_the_value" do
    assert_equal(:value, under_peer { Timeout.timeout(1) { sleep(0.001) && :value } })
  end
end
