# frozen_string_literal: true

require "test_helper"

# Heddle.dump: what is alive on a thread's loop, children under
# their parent, and where each waits. Each case runs in a fresh ruby: once a
# process has started a Ractor (other tests do), ObjectSpace, which the dump
# walks, sees only shareable objects.
class DiagnosticsDumpTest < Minitest::Test
  include FreshRuby

  def test_live_procs_children_under_their_parent_and_where_each_waits
    dump = in_fresh_ruby(<<~RUBY, prelude: 'require "heddle"')
      parent = Heddle.concurrently do
        Heddle.concurrently { Heddle.wait 5 }
        Heddle.concurrently { Heddle.await_resume! }
        Heddle.wait 5
      end
      3.times { Heddle.wait 0 }
      Heddle.dump.tap { parent.conclude_to(:done) }
    RUBY
    lines = dump.lines.map(&:chomp)

    assert_match(/heddle loop, 3 proc\(s\) alive/, lines[0])
    assert_equal([2, 4, 4], lines.grep(/proc at /).map { |line| line[/\A */].size })
    assert(lines.any? { |line| line.include?("waits in") && line.include?("await_resume!") }, dump)
    assert(lines.any? { |line| line.start_with?("      at -e:") && line.match?(/in [`']block \(2 levels\)/) }, dump)
  end

  def test_another_threads_loop_shows_where_the_thread_and_each_proc_wait
    dump = in_fresh_ruby(<<~RUBY, prelude: 'require "heddle"')
      reader, writer = IO.pipe
      ready = Queue.new
      thread = Thread.new { Heddle.run { Heddle.concurrently { ready << :go && reader.read(1) }.await_result } }
      ready.pop
      sleep 0.01 until thread.status == "sleep"
      Heddle.dump(thread).tap { writer.write("x") && thread.join }
    RUBY

    assert_match(/the thread is at:/, dump)
    assert_match(/waits in .*(io_wait|io_read).*\n\s+at -e:\d+:in [`'](IO#)?read'/, dump)
  end

  def test_finished_procs_are_not_listed
    dump = in_fresh_ruby(<<~RUBY, prelude: 'require "heddle"')
      Array.new(3) { Heddle.concurrently { Heddle.wait(0.001) && :done } }.each(&:await_result)
      Heddle.dump
    RUBY

    assert_match(/ 0 proc\(s\) alive, 3 idle fiber\(s\), 0 queued/, dump)
  end

  # After a Ractor the walk cannot see the procs: the dump says so instead
  # of reporting none.
  def test_after_a_ractor_the_dump_says_it_cannot_list_the_procs
    dump = in_fresh_ruby(<<~RUBY, prelude: "require 'heddle'\nWarning[:experimental] = false")
      Ractor.new { 1 }.take
      Heddle.concurrently { Heddle.wait 5 }
      Heddle.wait 0
      Heddle.dump
    RUBY

    assert_match(/heddle loop, \? proc\(s\) alive.*\n  \(live procs not listed: this process has started a Ractor/,
                 dump)
  end

  def test_a_thread_without_a_loop_and_bad_arguments
    plain = Thread.new { sleep }
    sleep 0.01 until plain.status == "sleep"

    assert_match(/no heddle loop/, Heddle.dump(plain))
    assert_match(/thread must be a Thread/, assert_raises(TypeError) { Heddle.dump(:main) }.message)
    assert_match(/frames must be/, assert_raises(TypeError) { Heddle.dump(frames: -1) }.message)
  ensure
    plain&.kill
  end
end
