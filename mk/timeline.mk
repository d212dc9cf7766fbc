# The timeline picture of docs/timelines.md, docs/timeline-bl-before-literal.png: the
# --trace of the bl-before-literal mutant's scenario drawn by
# tools/timeline.py and photographed by headless Chromium (Debian's
# chromium; only this target needs it, make check draws the HTML alone).
CHROMIUM ?= chromium
CHROMIUM_FLAGS := --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --hide-scrollbars

.PHONY: timeline-example
timeline-example: $(FTV)
	$(FTV) scenario --trace $(BUILD)/timeline-example.json \
		corpus/scenarios/mutant-bl-before-literal.scn > /dev/null; test $$? = 1
	$(PYTHON) tools/timeline.py $(BUILD)/timeline-example.json \
		-o $(BUILD)/timeline-example.html --from 270 --to 310 --width 1800
	$(CHROMIUM) $(CHROMIUM_FLAGS) --window-size=1800,840 \
		--screenshot=$(abspath docs/timeline-bl-before-literal.png) \
		file://$(abspath $(BUILD))/timeline-example.html 2>/dev/null
