# frozen_string_literal: true

require "tmpdir"

# Runs a block in a forked child and hands back how it ended, so that a case
# that crashes Ruby (a SEGV), or hangs beyond killing, fails its test with
# the case it was playing instead of taking the whole test run down.
class FuzzChild
  # How the child ended: :passed (value is the block's), :failed (a
  # Minitest::Assertion's message), :error (another exception's report), or
  # :crashed / :hung (value says what it was playing, and its stderr).
  Outcome = Struct.new(:status, :value)

  class << self
    # The file the child notes its current case in (nil in the parent).
    attr_reader :note_path

    # Notes what the child is playing now: reported if it crashes or hangs.
    # @param text [String]
    # @return [void]
    def note(text)
      File.write(@note_path, text) if @note_path
    end

    # @param limit [Numeric] seconds before the child counts as hung and is killed
    # @return [Outcome]
    def run(limit, &)
      Dir.mktmpdir("heddle-fuzz") { |dir| new(dir, limit).run(&) }
    end
  end

  # @param dir [String] for the note and the child's stderr
  # @param limit [Numeric] seconds
  def initialize(dir, limit)
    @note = File.join(dir, "case")
    @stderr = File.join(dir, "stderr")
    @limit = limit
  end

  # @return [Outcome]
  def run(&)
    reader, writer = IO.pipe
    pid = fork { child(reader, writer, &) }
    writer.close
    data = Thread.new { reader.read } # a report longer than the pipe holds must not stall the child
    status = reap(pid)
    data = data.value
    reader.close
    return Marshal.load(data) if status&.success? && !data.empty? # rubocop:disable Security/MarshalLoad -- our own child

    Outcome.new(status ? :crashed : :hung, "#{status ? "child ended: #{status.inspect}" : "killed after #{@limit} s"}" \
                                           "\nplaying: #{read(@note)}\nits stderr:\n#{read(@stderr, 25)}")
  end

  private

  def child(reader, writer)
    reader.close
    $stderr.reopen(@stderr, "w")
    FuzzChild.instance_variable_set(:@note_path, @note)
    outcome = begin
      Outcome.new(:passed, yield)
    rescue Minitest::Assertion => e
      Outcome.new(:failed, e.message)
    rescue Exception => e # rubocop:disable Lint/RescueException -- reported, whatever it is
      Outcome.new(:error, "#{e.class}: #{e.message}\n    #{(e.backtrace || []).first(15).join("\n    ")}")
    end
    writer.write(Marshal.dump(outcome))
    writer.close
    exit!(0) # not the parent's at_exit hooks (Minitest would run the tests again)
  end

  # Waits for the child within the limit; kills it past that.
  # @return [Process::Status, nil] nil when it had to be killed
  def reap(pid)
    deadline = InterruptFuzz.now + @limit
    loop do
      _, status = Process.wait2(pid, Process::WNOHANG)
      return status if status
      break if InterruptFuzz.now > deadline

      sleep 0.05
    end
    Process.kill(:KILL, pid)
    Process.wait(pid)
    nil
  end

  def read(path, lines = nil)
    text = File.exist?(path) ? File.read(path) : "(nothing)"
    lines ? text.lines.first(lines).join : text
  end
end
