# frozen_string_literal: true

require "test_helper"
require "tmpdir"
require "fileutils"
require "rbconfig"
require "heddle/bench"

# The sampler tells the run's own CPU (its process tree, reaped children
# included) from the machine's: first on synthetic /proc files, then on real
# busy processes inside and outside this test's tree.
class BenchCpuSamplerTest < Minitest::Test
  # A busy loop that then says so on stdout and waits for stdin to close (alive, not reaped, when sampled).
  BUSY = 'x = 0; 3_000_000.times { x += 1 }; $stdout.puts "done"; $stdout.flush; $stdin.read'

  def test_synthetic_readings_split_the_machine_into_the_tree_and_other_work
    Dir.mktmpdir do |proc_dir|
      # root 10 with child 11 (grandchild 12); 20 is another program, child of 1.
      machine(proc_dir, busy: 100, idle: 900)
      processes(proc_dir, 10 => [1, 40], 11 => [10, 20], 12 => [11, 5], 20 => [1, 30])
      sampler = Heddle::Bench::CpuSampler.new(root: 10, proc_dir: proc_dir)
      before = sampler.read

      assert_equal [10, 11, 12], before.pids.sort
      assert_equal 65, before.own

      # 200 busy ticks of 1000: the tree 120, the other program 80. 11 and 12 ended and were reaped:
      # 10 worked 90 more ticks and its cutime holds 11's final 30 (11's own 25 and 12's 5).
      machine(proc_dir, busy: 300, idle: 1700)
      %w[11 12].each { |pid| FileUtils.rm_rf(File.join(proc_dir, pid)) }
      processes(proc_dir, 10 => [1, 40 + 90 + 55], 20 => [1, 110])
      after = sampler.read

      assert_equal({ "own" => 0.12, "other" => 0.08 }, Heddle::Bench::CpuSampler.share(before, after))
    end
  end

  def test_no_procfs_or_no_tick_between_readings_gives_no_share
    sampler = Heddle::Bench::CpuSampler.new(proc_dir: File.join(Dir.tmpdir, "no-such-proc-#{Process.pid}"))

    assert_nil sampler.read
    assert_nil Heddle::Bench::CpuSampler.share(nil, nil)
    reading = Heddle::Bench::CpuSampler::Reading.new(total: 5, busy: 1, own: 1, pids: [1])

    assert_nil Heddle::Bench::CpuSampler.share(reading, reading)
    # a trial of a millisecond: one tick of other work must not read as half the machine
    short = Heddle::Bench::CpuSampler::Reading.new(total: 7, busy: 2, own: 1, pids: [1])
    assert_nil Heddle::Bench::CpuSampler.share(reading, short)
    assert_raises(ArgumentError) { Heddle::Bench::CpuSampler.new(root: "1") }
  end

  def test_a_busy_child_inside_the_tree_counts_as_the_run_s_own
    skip "no procfs here" unless File.readable?("/proc/stat")
    sampler = Heddle::Bench::CpuSampler.new
    before = sampler.read
    IO.popen([RbConfig.ruby, "-e", BUSY], "r+") do |child|
      assert_equal "done\n", child.gets
      after = sampler.read
      ticks = process_ticks(child.pid)

      assert_includes after.pids, child.pid
      assert_operator after.own - before.own, :>=, ticks
      child.close_write
    end
  end

  def test_a_busy_program_outside_the_tree_counts_as_other_work
    skip "no procfs here" unless File.readable?("/proc/stat")
    sampler = Heddle::Bench::CpuSampler.new
    before = sampler.read
    # sh starts ruby in the background (its stdin kept) and exits: the orphan leaves this process's tree.
    IO.popen(["sh", "-c", "#{RbConfig.ruby} -e '#{BUSY}' <&0 & echo $!"], "r+") do |shell|
      pid = Integer(shell.gets)
      begin
        assert_equal "done\n", shell.gets
        after = sampler.read

        refute_includes after.pids, pid
        assert_operator other_ticks(before, after), :>=, (process_ticks(pid) * 0.8).floor - 2
      ensure
        shell.close_write
      end
    end
  end

  private

  def machine(dir, busy:, idle:)
    File.write(File.join(dir, "stat"), "cpu  #{busy} 0 0 #{idle} 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n")
  end

  # pid => [ppid, ticks], written as utime = ticks, stime = cutime = cstime = 0 under a name with a space.
  def processes(dir, table)
    table.each do |pid, (ppid, ticks)|
      FileUtils.mkdir_p(File.join(dir, pid.to_s))
      fields = ["S", ppid, *Array.new(9, 0), ticks, 0, 0, 0, 20, 0]
      File.write(File.join(dir, pid.to_s, "stat"), "#{pid} (ruby (x) y) #{fields.join(' ')}\n")
    end
  end

  # The machine's busy ticks that the tree did not spend.
  def other_ticks(before, after) = (after.busy - before.busy) - (after.own - before.own)

  def process_ticks(pid)
    line = File.read("/proc/#{pid}/stat")
    line[(line.rindex(")") + 2)..].split[11..14].sum(&:to_i)
  end
end
