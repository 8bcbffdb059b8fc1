# frozen_string_literal: true

require "heddle/masked_lock"
require "digest"
require "fileutils"
require "json"

module Heddle
  module Check
    # Failing cases remembered between runs, as Hypothesis's example
    # database: each property's are kept in a file of their own under a
    # folder of the project (`.heddle-check/` by default; ignore it or
    # commit it), replayed first on the next run, and dropped once they
    # pass.
    #
    # What is kept is a case's choices ({Choices}: integers and floats) and
    # the size it was drawn at, as JSON: reading it back makes numbers and
    # nothing else. A file that is not such JSON is ignored with one warning
    # (and replaced by the next failure). Writes go to a temporary file
    # renamed over the old one, so that two processes checking the same
    # property never leave half a file (the last to write wins).
    #
    # A property is known by where it was written (its block's file,
    # relative to the working directory, and line) and its arbitrary's
    # description: editing either starts a new file, and a stale file's
    # cases, replayed against a changed property, pass and are dropped.
    class FailureStore
      # The default folder, relative to the working directory.
      DIRECTORY = ".heddle-check"
      # Environment variable: a folder, or one of OFF to store nothing (CI, read-only checkouts).
      ENV_NAME = "HEDDLE_CHECK_STORE"
      # Values of ENV_NAME that turn the store off.
      OFF = %w[0 false off no].freeze
      # Cases kept per property (distinct failures found by successive runs).
      LIMIT = 8
      # The file format's version; a file of another version is ignored.
      VERSION = 1

      @warned = {}
      @digests = {}
      @lock = Heddle::MaskedLock.new

      # A property's file name digest, computed once per process and name (checks are often ~100 µs).
      # @param name [String] @return [String]
      def self.digest(name)
        @lock.synchronize { @digests[name] ||= Digest::SHA256.hexdigest(name)[0, 16] }
      end

      # Warns once per process and file.
      # @param path [String] @param message [String]
      # @return [void]
      def self.warn_once(path, message)
        first = @lock.synchronize { @warned[path] ? false : (@warned[path] = true) }
        warn("heddle-check: #{message}") if first
      end

      # @param property [Property]
      # @param options [Options]
      # @return [FailureStore, nil] nil when the store is off, or the seed was chosen ({Options#seeded?})
      def self.for(property, options)
        return nil if options.seeded?

        folder = folder(options.store)
        folder && new(folder, property)
      end

      # @param setting [Boolean, String, nil] the `store:` option
      # @return [String, nil] the folder, nil when off
      def self.folder(setting)
        return nil if setting == false
        return setting if setting.is_a?(String)

        env = ENV.fetch(ENV_NAME, "")
        return DIRECTORY if env.empty?

        OFF.include?(env.downcase) ? nil : env
      end

      # @return [String] the file of this property's cases
      attr_reader :path

      # @param folder [String]
      # @param property [Property]
      def initialize(folder, property)
        file, line = property.origin
        file = relative(file)
        @name = "#{file}:#{line} #{property.arbitrary.inspect}"
        @path = File.join(folder,
                          "#{File.basename(file, '.rb')}-#{line}-#{FailureStore.digest(@name)}.json")
      end

      # The cases kept for this property, oldest failure last. One file read;
      # none kept when there is no file.
      # @return [Array<(Array<Numeric>, Integer)>] [choices, size] pairs
      def load
        return [] unless File.exist?(@path) # a stat: cheaper than the exception of a missing file

        cases(JSON.parse(File.read(@path), allow_nan: true))
      rescue Errno::ENOENT
        []
      rescue JSON::ParserError, TypeError, ArgumentError, SystemCallError => e
        FailureStore.warn_once(@path, "ignored the failure store file #{@path}: #{e.message}")
        []
      end

      # Replaces the kept cases (none: the file is deleted).
      # @param kept [Array<(Array<Numeric>, Integer)>] [choices, size] pairs, newest first
      # @return [void]
      def save(kept)
        kept = kept.first(LIMIT)
        return remove if kept.empty?

        FileUtils.mkdir_p(File.dirname(@path))
        temporary = "#{@path}.#{Process.pid}.#{Thread.current.object_id}.tmp"
        File.write(temporary, JSON.generate(document(kept), allow_nan: true))
        File.rename(temporary, @path)
      rescue SystemCallError => e
        FailureStore.warn_once(@path, "cannot write the failure store file #{@path}: #{e.message}")
      ensure
        File.delete(temporary) if temporary && File.exist?(temporary)
      end

      private

      def document(kept)
        { "version" => VERSION, "property" => @name,
          "failures" => kept.map { |values, size| { "size" => size, "choices" => values } } }
      end

      # @raise [TypeError] unless the document is this format's
      def cases(document)
        unless document.is_a?(::Hash) && document["version"] == VERSION && document["failures"].is_a?(::Array)
          raise TypeError, "not a version #{VERSION} failure store document"
        end

        document["failures"].map { |entry| entry_of(entry) }
      end

      def entry_of(entry)
        size, values = entry.values_at("size", "choices") if entry.is_a?(::Hash)
        return [values, size] if size.is_a?(::Integer) && !size.negative? && numbers?(values)

        raise TypeError, "a failure is not {\"size\": Integer, \"choices\": [numbers]}: #{entry.inspect[0, 80]}"
      end

      def numbers?(values) = values.is_a?(::Array) && values.all? { |v| v.is_a?(::Integer) || v.is_a?(::Float) }

      def remove
        File.delete(@path)
      rescue Errno::ENOENT
        nil
      end

      def relative(file)
        here = "#{Dir.pwd}/"
        file.start_with?(here) ? file.delete_prefix(here) : file
      end
    end
  end
end
