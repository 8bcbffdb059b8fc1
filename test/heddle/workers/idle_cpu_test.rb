# frozen_string_literal: true

require "test_helper"

# The idle-CPU family, the workers' part: a pool of each backend, held idle,
# and a caller waiting in Pool#map while the items wait, spend at most
# CpuMeter::IDLE_SHARE of a core, on each selector; a process pool's worker
# processes count with the caller. Ractor pools run in a fresh ruby, as every
# ractor test does. (The Redis backend's part is
# test/heddle/workers/redis/idle_cpu_test.rb.)
module WorkersIdleCpu
  include OnIOWatchBackend
  include IdleCpu

  # The ractor cases' [share, value]s, by selector.
  RACTOR_CASES = {} # rubocop:disable Style/MutableConstant -- filled by the first ractor test of each selector

  %i[inline fiber thread process].each do |worker|
    define_method(:"test_an_idle_#{worker}_pool") do
      share, value = on_backend { IdleWaits.idle_pool(worker) }
      assert_equal 2, value
      assert_idle share, "an idle #{worker} pool"
    end

    define_method(:"test_a_map_waiting_on_#{worker}_workers") do
      share, value = on_backend { IdleWaits.map_waiting(worker) }
      assert_equal %w[x x], value
      assert_idle share, "Pool#map waiting on #{worker} workers"
    end
  end

  def test_an_idle_ractor_pool
    share, value = ractor_case(:idle)
    assert_equal 2, value
    assert_idle share, "an idle ractor pool"
  end

  def test_a_map_waiting_on_ractor_workers
    share, value = ractor_case(:map)
    assert_equal %w[x x], value
    assert_idle share, "Pool#map waiting on ractor workers"
  end

  def test_ractors_in_reserve_after_a_shutdown
    share, value = ractor_case(:reserve)
    assert_operator value, :>=, 2
    assert_idle share, "ractors in reserve after a pool's shutdown"
  end

  private

  # One fresh ruby per selector runs the three ractor cases (IdleWaits.ractor_cases).
  def ractor_case(name)
    RACTOR_CASES[backend] ||= in_fresh("IdleWaits.ractor_cases").first
    RACTOR_CASES[backend].fetch(name)
  end
end

class WorkersIdleCpuSelectTest < Minitest::Test
  include WorkersIdleCpu

  def backend = Heddle::EventLoop::Selectors::SelectWatch
end

class WorkersIdleCpuNIOTest < Minitest::Test
  include WorkersIdleCpu

  def backend = Heddle::EventLoop::Selectors::NIOWatch

  def setup
    skip "nio4r does not load: #{backend.load_error}" unless backend.available?
  end
end

class WorkersIdleCpuEpollTest < Minitest::Test
  include WorkersIdleCpu

  def backend = Heddle::EventLoop::Selectors::EpollWatch

  def setup
    skip "epoll in C is not available: #{backend.load_error}" unless backend.available?
  end
end
