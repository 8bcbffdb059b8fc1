# frozen_string_literal: true

require "json"
require "tmpdir"
require "fileutils"
require "io/wait"
require "io/nonblock"
require_relative "error"

module Heddle
  module Bench
    # Headless Chromium driven over its DevTools protocol on a pipe
    # (`--remote-debugging-pipe`: JSON messages ended by a NUL byte, commands
    # on the child's fd 3, replies and events on its fd 4). No port, no
    # websocket and no gem: only Process.spawn and JSON. Each instance starts
    # its own browser with a fresh profile folder, removed by {#close}.
    # {BrowserCheck} uses it to check report.html and take the README's
    # screenshot.
    #
    # @example
    #   Heddle::Bench::Chromium.open do |browser|
    #     page = browser.open_page("file:///tmp/report.html", width: 1280, height: 900)
    #     browser.evaluate(page, "document.title") # => "heddle bench report"
    #   end
    class Chromium
      # Flags for a quiet, offline, throw-away headless browser.
      FLAGS = %w[--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
                 --disable-component-update --disable-sync --disable-extensions --hide-scrollbars --mute-audio
                 --remote-debugging-pipe].freeze
      # Executables looked for on the PATH, in order (HEDDLE_CHROMIUM overrides).
      NAMES = %w[chromium chromium-browser google-chrome-stable google-chrome].freeze
      # Seconds to wait for any one reply: the machine may be shared and slow.
      TIMEOUT = 90
      # How to install it on Debian (what .ci/run does).
      INSTALL = "apt-get update && apt-get install -y chromium chromium-driver"

      # Raised when no Chromium can be found or started.
      class Unavailable < Error; end

      # @return [String, nil] the Chromium to run: $HEDDLE_CHROMIUM, else the first of {NAMES} on the PATH
      def self.executable
        return ENV.fetch("HEDDLE_CHROMIUM", nil) if ENV["HEDDLE_CHROMIUM"].to_s != ""

        dirs = ENV.fetch("PATH", "").split(File::PATH_SEPARATOR)
        NAMES.each do |name|
          dirs.each do |dir|
            path = File.join(dir, name)
            return path if File.file?(path) && File.executable?(path)
          end
        end
        nil
      end

      # Starts a browser, yields it and closes it.
      #
      # @yieldparam browser [Chromium]
      # @return [Object] the block's value
      # @raise [Unavailable] when there is no Chromium
      def self.open(**options)
        browser = new(**options)
        yield browser
      ensure
        browser&.close
      end

      # @param executable [String, nil] the browser to start
      # @param timeout [Numeric] seconds to wait for a reply
      # @raise [Unavailable] when executable is nil
      def initialize(executable: self.class.executable, timeout: TIMEOUT)
        unless executable
          raise Unavailable, "no Chromium found (looked for #{NAMES.join(', ')} on the PATH; HEDDLE_CHROMIUM=path " \
                             "overrides). On Debian: #{INSTALL}"
        end

        @timeout = timeout
        @profile = Dir.mktmpdir("heddle-chromium-")
        @events = []
        @buffer = String.new(encoding: Encoding::BINARY)
        @next_id = 0
        start(executable)
      end

      # @return [Array<Hash>] the events received so far ("method", "params", "sessionId")
      attr_reader :events

      # Sends a DevTools command and waits for its reply; events that arrive
      # meanwhile are kept in {#events}.
      #
      # @param method [String] e.g. "Page.navigate"
      # @param params [Hash]
      # @param session [String, nil] the page's session (nil: the browser)
      # @return [Hash] the command's result
      # @raise [Error] on an error reply, a closed pipe or no reply within the timeout
      def command(method, params = {}, session: nil)
        id = (@next_id += 1)
        message = { "id" => id, "method" => method, "params" => params }
        message["sessionId"] = session if session
        @to_browser.write("#{JSON.generate(message)}\0")
        reply = receive_until(method) { |m| m["id"] == id }
        raise Error, "Chromium #{method}: #{reply.dig('error', 'message')}" if reply["error"]

        reply["result"]
      end

      # Opens a tab of the given size on url and waits until it has loaded.
      #
      # @param url [String]
      # @param width [Integer] @param height [Integer] the viewport, in CSS pixels
      # @return [String] the tab's session, for the other methods
      def open_page(url, width:, height:)
        target = command("Target.createTarget", { "url" => "about:blank" })["targetId"]
        session = command("Target.attachToTarget", { "targetId" => target, "flatten" => true })["sessionId"]
        %w[Page.enable Runtime.enable Log.enable].each { |m| command(m, {}, session: session) }
        command("Emulation.setDeviceMetricsOverride",
                { "width" => width, "height" => height, "deviceScaleFactor" => 1, "mobile" => false }, session: session)
        command("Page.navigate", { "url" => url }, session: session)
        wait_for("Page.loadEventFired", session)
        session
      end

      # @param session [String] @param expression [String] JavaScript
      # @return [Object] its value, as JSON gives it
      # @raise [Error] when the expression throws
      def evaluate(session, expression)
        result = command("Runtime.evaluate", { "expression" => expression, "returnByValue" => true }, session: session)
        raise Error, "JavaScript failed: #{result.dig('exceptionDetails', 'text')}" if result["exceptionDetails"]

        result.dig("result", "value")
      end

      # Writes a PNG of the tab's viewport.
      #
      # @param session [String] @param path [String]
      # @return [String] path
      def screenshot(session, path)
        data = command("Page.captureScreenshot", { "format" => "png" }, session: session)["data"]
        File.binwrite(path, data.unpack1("m"))
        path
      end

      # @param session [String]
      # @return [Array<String>] the tab's uncaught exceptions, console.error calls and error log entries
      def console_errors(session)
        events.select { |e| e["sessionId"] == session }.filter_map { |e| error_text(e) }
      end

      # Closes the browser and removes its profile.
      # @return [void]
      def close
        return unless @pid

        begin
          command("Browser.close")
        rescue Error, SystemCallError, IOError
          nil # it may be gone already; the process is reaped below either way
        end
        reap
        FileUtils.rm_rf(@profile)
      end

      private

      def start(executable)
        commands, @to_browser = IO.pipe
        @from_browser, replies = IO.pipe
        # Ruby makes pipes non-blocking; Chromium takes an EAGAIN on its end for a closed connection.
        [commands, replies].each { |io| io.nonblock = false }
        @pid = Process.spawn(executable, *FLAGS, "--user-data-dir=#{@profile}", "about:blank",
                             3 => commands, 4 => replies, in: File::NULL, out: File::NULL, pgroup: true,
                             err: File.join(@profile, "stderr.log"))
        [commands, replies].each(&:close)
      rescue SystemCallError => e
        FileUtils.rm_rf(@profile)
        raise Unavailable, "cannot start #{executable}: #{e.message}"
      end

      def wait_for(event, session)
        receive_until(event) { |m| m["method"] == event && m["sessionId"] == session }
      end

      # Reads messages until one matches, keeping events; the match is returned.
      def receive_until(what)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + @timeout
        loop do
          message = read_message(deadline, what)
          @events << message if message["method"]
          return message if yield(message)
        end
      end

      def read_message(deadline, what)
        until (ending = @buffer.index("\0"))
          remaining = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
          raise Error, "Chromium sent nothing for #{what} within #{@timeout} s" unless remaining.positive?
          next unless @from_browser.wait_readable(remaining)

          chunk = @from_browser.read_nonblock(1 << 16, exception: false)
          raise Error, "Chromium closed its DevTools pipe during #{what}#{stderr_tail}" if chunk.nil?

          @buffer << chunk if chunk.is_a?(String)
        end
        JSON.parse(@buffer.slice!(0, ending + 1).chop.force_encoding(Encoding::UTF_8))
      end

      # An event's error message, nil for anything else.
      def error_text(event)
        params = event["params"]
        case event["method"]
        when "Runtime.exceptionThrown" then exception_text(params["exceptionDetails"])
        when "Runtime.consoleAPICalled" then console_error(params)
        when "Log.entryAdded" then params.dig("entry", "text") if params.dig("entry", "level") == "error"
        end
      end

      def exception_text(details) = details.dig("exception", "description") || details["text"]

      def console_error(params)
        return nil unless %w[error assert].include?(params["type"])

        params["args"].map { |a| a["value"] || a["description"] }.join(" ")
      end

      def stderr_tail
        lines = File.readlines(File.join(@profile, "stderr.log")).last(5)
        lines.empty? ? "" : "; its stderr ends:\n#{lines.join}"
      rescue SystemCallError
        ""
      end

      # Waits up to 10 s for the browser to exit, then kills its process group
      # (its own: the renderers and the zygote it started).
      def reap
        [@to_browser, @from_browser].each { |io| io.close unless io.closed? }
        20.times do
          return @pid = nil if Process.wait(@pid, Process::WNOHANG)

          sleep 0.5
        end
        Process.kill(:KILL, -@pid)
        Process.wait(@pid)
        @pid = nil
      rescue Errno::ECHILD, Errno::ESRCH
        @pid = nil
      end
    end
  end
end
