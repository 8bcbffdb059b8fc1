# frozen_string_literal: true

require "test_helper"

# The main ractor's one reader of its inbox: it routes what worker
# ractors post to the receiver they name, keeps a receiver's mail until it
# opens, drops what heddle did not post, and runs only while a receiver is
# open. In a fresh `ruby`, killed if it hangs.
class RactorMailroomTest < Minitest::Test
  include FreshRuby

  PRELUDE = <<~RUBY
    require "heddle"
    Warning[:experimental] = false
    R = Heddle::Workers::Ractors
    def mail_thread? = Thread.list.any? { |t| t.name == "heddle-ractor-mail" && t.alive? }
    # A ractor posts as a worker does, given the doorbell's descriptor.
    def post_from_a_ractor(*posts)
      Ractor.new(R::Doorbell.fileno, posts) do |bell, all|
        R::Doorbell.attach(bell)
        all.each { |message, receiver| R::Doorbell.post(message, receiver) }
      end.take
    end
  RUBY

  def test_routes_each_post_to_its_receiver_and_holds_mail_until_its_receiver_opens
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE)
      checks = Thread::Queue.new
      R::Mailroom.open(:checks, checks)
      Ractor.main.send(:not_heddles) # dropped, and what follows still arrives
      post_from_a_ractor([[:c, 1], :checks], [[:p, 1], :pools], [[:c, 2], :checks])
      got = [checks.pop, checks.pop]
      pools = Thread::Queue.new
      R::Mailroom.open(:pools, pools) # the pools' mail was held for it
      held = pools.pop
      R::Mailroom.close(:checks, checks)
      running_with_one = mail_thread?
      R::Mailroom.close(:pools, pools)
      [got, held, running_with_one, mail_thread?, checks.empty?]
    RUBY
    assert_equal [[[:c, 1], [:c, 2]], [:p, 1], true, false, true], result
  end

  def test_a_receiver_opened_again_after_the_thread_ended_gets_its_mail
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE)
      Array.new(3) do |round|
        box = Thread::Queue.new
        R::Mailroom.open(:checks, box)
        post_from_a_ractor([[:round, round], :checks])
        taken = box.pop
        R::Mailroom.close(:checks, box)
        [taken, mail_thread?]
      end
    RUBY
    assert_equal [[[:round, 0], false], [[:round, 1], false], [[:round, 2], false]], result
  end

  # A reading thread that an error or Thread#kill ended is replaced at the
  # next open, and the mail sent meanwhile is delivered.
  def test_a_reading_thread_that_died_is_started_again
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE)
      checks = Thread::Queue.new
      R::Mailroom.open(:checks, checks)
      Thread.list.find { |t| t.name == "heddle-ractor-mail" }.kill.join
      post_from_a_ractor([[:c, 1], :checks])
      pools = Thread::Queue.new
      R::Mailroom.open(:pools, pools)
      taken = checks.pop
      R::Mailroom.close(:pools, pools)
      R::Mailroom.close(:checks, checks)
      [taken, mail_thread?]
    RUBY
    assert_equal [[:c, 1], false], result
  end

  def test_an_unknown_receiver_is_refused_before_anything_starts
    result = in_fresh_ruby(<<~RUBY, prelude: PRELUDE)
      begin
        R::Mailroom.open(:pool, Thread::Queue.new)
      rescue ArgumentError => e
        [e.message, mail_thread?]
      end
    RUBY
    assert_equal ["receiver: :pool is not one of [:pools, :checks]", false], result
  end
end
