# frozen_string_literal: true

module Heddle
  module Bench
    # Opens a report.html in headless {Chromium} at a laptop's first screen
    # and reads what a person would see: console errors, for every chart how
    # many of its rows show a visible mark (bar, point or "failed" note),
    # links and anchors that lead nowhere, whether the answers, the backend
    # table and the colour legend fit on the first screen, whether a
    # green answer says "missed" (the colour rule broken), and whether a
    # smoke run says so on that screen and colours no answer. It can also save that screen
    # as a PNG (the README's picture).
    #
    # @example
    #   check = Heddle::Bench::BrowserCheck.run("docs/results/latest/report.html", screenshot: "/tmp/first.png")
    #   check.problems # => []
    class BrowserCheck
      # The first screen: a laptop's browser window.
      WIDTH = 1280
      HEIGHT = 900

      # Reads the page's facts in the browser (the report itself has no script).
      INSPECT = <<~JS
        (() => {
          const visible = (el) => {
            const box = el.getBoundingClientRect(), style = getComputedStyle(el);
            return box.width >= 2 && box.height >= 2 && style.visibility !== "hidden" && style.display !== "none" &&
                   Number(style.opacity) > 0;
          };
          const charts = [...document.querySelectorAll("svg.chart")].map((svg) => {
            const marks = [...svg.querySelectorAll(".mark")];
            return { id: (svg.closest("[id]") || {}).id || "", rows: Number(svg.dataset.rows),
                     marks: marks.length, visible: marks.filter(visible).length,
                     names: [...new Set(marks.map((m) => m.dataset.row))].length };
          });
          const hrefs = [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href"));
          const bottom = (id) => { const el = document.getElementById(id); return el ? el.getBoundingClientRect().bottom : null; };
          const green = "rgb(26, 127, 55)";
          const greenMisses = [...document.querySelectorAll("#answers li")]
            .filter((li) => getComputedStyle(li).borderLeftColor === green && /\\bmissed\\b/.test(li.textContent))
            .map((li) => li.textContent.slice(0, 80));
          const legend = document.getElementById("legend");
          const red = "rgb(180, 35, 24)";
          const judged = [...document.querySelectorAll("#answers li")]
            .filter((li) => [green, red].includes(getComputedStyle(li).borderLeftColor)).length;
          return { charts, hrefs, judged, smoke: !!legend && /^Smoke run/.test(legend.textContent),
                   missingAnchors: hrefs.filter((h) => h.startsWith("#") && !document.getElementById(decodeURIComponent(h.slice(1)))),
                   answers: document.querySelectorAll("#answers li").length,
                   answersBottom: bottom("answers"), backendsBottom: bottom("backends"), viewport: innerHeight,
                   legendBottom: legend && visible(legend) ? bottom("legend") : null, greenMisses,
                   verdicts: [...document.querySelectorAll("#backends tr.verdict td")].map((td) => td.textContent) };
        })()
      JS

      # One chart's count of rows and of visible marks.
      Chart = Struct.new(:id, :rows, :marks, :visible, :names, keyword_init: true) do
        # @return [Boolean] one visible mark per row, each for a different row
        def ok? = rows.positive? && marks == rows && visible == rows && names == rows
      end

      attr_reader :console_errors, :charts, :broken_links, :answers, :first_screen_bottom, :viewport, :legend_bottom,
                  :green_misses, :verdicts, :judged

      # @return [Boolean] whether the first screen says it is a smoke run (in its legend's place)
      def smoke? = @smoke

      # @param html [String] the report's path
      # @param screenshot [String, nil] where to save a PNG of the first screen
      # @return [BrowserCheck]
      # @raise [Chromium::Unavailable] when no Chromium can be started
      def self.run(html, screenshot: nil, **chromium)
        new(html).tap { |check| check.run(screenshot: screenshot, **chromium) }
      end

      # @param html [String] the report's path
      # @raise [ArgumentError] when it is not a file
      def initialize(html)
        raise ArgumentError, "no report at #{html.inspect}" unless File.file?(html)

        @html = File.expand_path(html)
      end

      # @param screenshot [String, nil] where to save a PNG of the first screen
      # @return [self]
      def run(screenshot: nil, **chromium)
        Chromium.open(**chromium) do |browser|
          page = browser.open_page("file://#{@html}", width: WIDTH, height: HEIGHT)
          read(browser.evaluate(page, INSPECT))
          @console_errors = browser.console_errors(page)
          browser.screenshot(page, screenshot) if screenshot
        end
        self
      end

      # @return [Boolean] whether the answers and the backend table end within the first screen
      def first_screen_holds_answers?
        answers.positive? && first_screen_bottom && first_screen_bottom <= viewport
      end

      # @return [Boolean] whether the colour legend is visible within the first screen
      def legend_on_first_screen? = !legend_bottom.nil? && legend_bottom <= viewport

      # @return [Array<String>] what a person would trip on; empty when the page is fine
      def problems
        charts_off = charts.reject(&:ok?).map do |c|
          "chart #{c.id}: #{c.visible} visible marks of #{c.marks} for #{c.rows} rows"
        end
        console_errors.map { |e| "console error: #{e}" } + charts_off +
          broken_links.map { |l| "link leads nowhere: #{l}" } + screen_problems
      end

      private

      def screen_problems
        [("the first #{viewport} px lack the answers or the backend table" unless first_screen_holds_answers?),
         ("the first #{viewport} px lack the colour legend" unless legend_on_first_screen?),
         *green_misses.map { |text| "a green answer says missed: #{text}" },
         ("a smoke run colours #{judged} answers green or red: it cannot judge them" if smoke? && judged.positive?)]
          .compact
      end

      def read(facts)
        @charts = facts.fetch("charts").map { |c| Chart.new(**c.transform_keys(&:to_sym)) }
        @broken_links = facts.fetch("missingAnchors") + facts.fetch("hrefs").reject do |h|
          h.start_with?("#") || file?(h)
        end
        @answers = facts.fetch("answers")
        @first_screen_bottom = [facts["answersBottom"], facts["backendsBottom"]].compact.max
        @viewport = facts.fetch("viewport")
        @legend_bottom = facts["legendBottom"]
        @green_misses = facts.fetch("greenMisses")
        @verdicts = facts.fetch("verdicts")
        @judged = facts.fetch("judged")
        @smoke = facts.fetch("smoke")
      end

      # A relative link must name a file beside the report; the report links nothing on the network.
      def file?(href)
        return false if href.match?(/\A[a-z][a-z0-9+.-]*:/i)

        File.exist?(File.expand_path(href.split("#").first.to_s, File.dirname(@html)))
      end
    end
  end
end
