# frozen_string_literal: true

# CPU ns per call of Mutex#synchronize, Thread.handle_interrupt and two nested ones, with
# empty blocks, 3 rounds of 1,000,000: what a masked region costs on this Ruby.
M = Mutex.new
NEVER = { Object => :never }.freeze
IMM = { Object => :immediate }.freeze
n = 1_000_000
def t; c = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID); yield; ((Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c) * 1e9 / 1_000_000).round(1); end
3.times do
  a = t { n.times { M.synchronize { 1 } } }
  b = t { n.times { Thread.handle_interrupt(NEVER) { 1 } } }
  c = t { n.times { Thread.handle_interrupt(NEVER) { Thread.handle_interrupt(IMM) { 1 } } } }
  puts "sync #{a} ns, h_i #{b} ns, nested h_i #{c} ns"
end
