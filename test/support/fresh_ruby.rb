# frozen_string_literal: true

require "rbconfig"
require "tempfile"

# Runs Ruby code in a fresh `ruby` (this Ruby, heddle's lib on the load path).
# Ractor cases run there: Ruby 3.1's ractors can crash the VM, and a process
# forked from one that has run ractors cannot start them reliably (other
# tests start ractors), so a crash or a hang fails the case, not the run.
module FreshRuby
  # @param code [String] run after prelude; its last expression is the result
  # @param prelude [String]
  # @param limit [Numeric] seconds before the run counts as hung
  # @param env [Hash{String => String}] environment variables of the child
  # @return [Object] the value of code's last expression (it must survive Marshal)
  def in_fresh_ruby(code, prelude: "", limit: 60, env: {})
    script = "#{prelude}\nresult = begin\n#{code}\nend\n$stdout.write(Marshal.dump(result))\n"
    status, output, errors = run_fresh_ruby(script, limit: limit, env: env)
    flunk "the ractor run did not finish within #{limit} s; stderr: #{errors}" unless status
    flunk "the ractor run crashed: #{status.inspect}; stderr: #{errors}" if output.empty?
    Marshal.load(output) # rubocop:disable Security/MarshalLoad -- our own child wrote it
  end

  # Runs script, yielding its pid and a reader of its stdout while it runs.
  # @return [(Process::Status, String, String), (nil, String, String)] status (nil when it
  #   did not end within limit: it is then killed), the rest of its stdout, its stderr
  def run_fresh_ruby(script, limit: 60, env: {})
    reader, writer = IO.pipe
    errors = Tempfile.new("fresh_ruby")
    pid = Process.spawn(env, RbConfig.ruby, *LibRoots::FLAGS, "-e", script, out: writer, err: errors.path)
    writer.close
    yield pid, reader if block_given?
    output = read_until_closed(reader, limit)
    status = output && Process.waitpid2(pid)[1]
    [status, output.to_s, errors.read]
  ensure
    reader&.close
    stop_fresh_ruby(pid) if pid && !status
    errors&.close!
  end

  private

  # @return [String, nil] nil when the writer did not close within limit
  def read_until_closed(reader, limit)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
    output = String.new # binary, as read_nonblock gives
    loop do
      left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
      return nil unless left.positive? && reader.wait_readable(left)

      chunk = reader.read_nonblock(65_536, exception: false)
      return output if chunk.nil?

      output << chunk unless chunk == :wait_readable
    end
  end

  def stop_fresh_ruby(pid)
    Process.kill(:KILL, pid)
    Process.waitpid(pid)
  rescue Errno::ESRCH, Errno::ECHILD
    nil
  end
end
