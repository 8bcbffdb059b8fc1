# same counters in the ab-style rig
module SpinCount
  C = Hash.new(0)
  def resolved?(promise, deadline)
    r = super
    C[r] += 1
    r
  end
end
Heddle::Promises::Spinner.singleton_class.prepend(SpinCount)
module PassCount
  N = [0]
  def pass
    N[0] += 1
    super
  end
end
Thread.singleton_class.prepend(PassCount)
at_exit { warn "SPIN #{SpinCount::C.inspect} PASSES #{PassCount::N[0]}" }
