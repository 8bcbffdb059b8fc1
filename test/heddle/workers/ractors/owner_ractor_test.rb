# frozen_string_literal: true

require "test_helper"

# Ruby runs a finalizer in whichever ractor collects the garbage. A user's
# finalizer that shuts a ractor pool down (or maps) from a worker ractor would
# stop its lanes and send to its ractors from outside the pool's ractor, which
# corrupted 3.1.2's heap and deadlocked 3.3.8's VM when heddle's own finalizer
# did it. The pool refuses such a call with an error saying why,
# and keeps working for its own ractor. In a fresh `ruby`, killed if it hangs.
class RactorOwnerTest < Minitest::Test
  include FreshRuby

  PRELUDE = <<~RUBY
    require "heddle"
    Warning[:experimental] = false
    IDENTITY = nil.instance_exec { Ractor.make_shareable(proc { |x| x }) }
    # A finalizer that shuts pool down and tells, through a pipe any ractor
    # can write, where it ran and what the pool said.
    def shutting_down(pool, fileno)
      proc do
        said = begin
          pool.shutdown
          "shut down"
        rescue Heddle::Workers::Error => e
          e.message
        end
        IO.for_fd(fileno, autoclose: false).write(Marshal.dump([Ractor.current == Ractor.main, said]))
      end
    end
  RUBY

  def test_a_finalizer_in_another_ractor_cannot_shut_a_ractor_pool_down
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE, limit: 90)
      pool = Heddle::Pool.new(worker: :ractor, size: 1, &IDENTITY)
      pool.map([1])
      reports, report = IO.pipe
      where = Array.new(20) do
        holder = Object.new
        ObjectSpace.define_finalizer(holder, shutting_down(pool, report.fileno))
        holder = nil
        # Only a ractor of the user's makes garbage and collects it.
        Ractor.new { 3.times { Array.new(10_000) { |i| "x\#{i}" }; GC.start } }.take
        reports.wait_readable(5) && Marshal.load(reports)
      end.compact
      in_main, foreign = where.partition(&:first)
      [foreign.size.positive?, foreign.map(&:last).grep_v(/belongs to .* called from .*finalizer/).size,
       in_main.empty? && pool.map([2, 3]), pool.shutdown, pool.shutdown?]
    RUBY
    assert_equal [true, 0, [2, 3], nil, true], result
  end
end
