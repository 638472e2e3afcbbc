# Slate: the README's two commands are `make demo` and `make test`.
SWIFT ?= swift
SLATE := .build/debug/slate
DEMO := .build/demo
# The LD_PRELOAD fault library of the torture tests (tests/faults/README.md).
FAULTS := .build/faults/libslate-faults.so

# The rig VM lane (scripts/rig-vm): qemu and the initramfs tools on the host,
# and the tools the scenarios use inside the guest, which runs the host's root.
VM_DEPS := qemu-system-x86 busybox-static kmod udev cpio xz-utils \
	evemu-tools v4l-utils alsa-utils ffmpeg libinput-tools triggerhappy systemd \
	dbus bluez bluez-test-tools python3-dbus python3-gi
# The page's browser tests: Chromium, its WebDriver, and Selenium from PyPI.
WEB_DEPS := chromium chromium-driver pip:selenium
# Rigs on one broker: Mosquitto's clients, network namespaces, ffprobe.
RIGS_DEPS := mosquitto mosquitto-clients iproute2 ffmpeg
# The OBS bridge's test: OBS Studio (with obs-websocket 5) headless under Xvfb.
OBS_DEPS := obs-studio xvfb ffmpeg

.PHONY: all deps vm-deps build demo lint test test-vm torture bench soak fuzz clean

all: build

deps:
	@scripts/install-deps

vm-deps:
	@scripts/install-deps $(VM_DEPS)

build: deps
	$(SWIFT) build

demo: build
	@echo "== slate check: the shipped profiles"
	$(SLATE) check profiles/*.yaml
	@echo
	@echo "== slate run: a foot-pedal session played in real time through profiles/demo.yaml,"
	@echo "   recording takes from the test-pattern camera, with the test tone as their sound (a beep at each whole"
	@echo "   second), into $(DEMO)/takes, exported in mono to $(DEMO); the rig's page is at http://127.0.0.1:8600/"
	@echo "   while it runs"
	@rm -rf $(DEMO)
	$(SLATE) run --profile profiles/demo.yaml --replay recordings/demo-session.evemu --work $(DEMO)/takes --output $(DEMO) \
		--http 127.0.0.1:8600
	@echo
	@echo "== slate run: a knob session through profiles/knob-controls.yaml: a click shows the zoom overlay, turning"
	@echo "   zooms to the 2x detent and back to 1.5x, a double click opens the picker and the knob sets the filter to mono"
	$(SLATE) run --profile profiles/knob-controls.yaml --replay recordings/knob-session.yml --work $(DEMO)/knob/takes --output $(DEMO)/knob
	@echo
	@echo "== the exported videos"
	@ls -l $(DEMO)/*.mp4 $(DEMO)/knob/*.mp4

# The rules the code keeps (scripts/lint says which): make test runs it first.
lint:
	@scripts/lint

test: deps lint
	$(SWIFT) build --build-tests
	@unit=$$(mktemp -d); \
	{ $(SWIFT) test --skip-build 2>&1; echo $$? >"$$unit/status"; } | tee "$$unit/output"; \
	status=$$(cat "$$unit/status"); \
	if [ "$$status" != 0 ]; then \
		echo "== the unit tests failed; what failed:"; \
		grep -A2 -E '^✘ Test .* recorded an issue|: error: -\[' "$$unit/output" || true; \
	fi; \
	rm -rf "$$unit"; [ "$$status" = 0 ]
	@$(MAKE) --no-print-directory fuzz-short
	@$(MAKE) --no-print-directory $(FAULTS)
	@if scripts/install-deps ffmpeg; then \
		echo "== the torture tests, short form (make torture runs the full form)"; \
		python3 tests/faults/torture.py --short; \
	else \
		echo "== skipping the torture tests: ffprobe is missing; install ffmpeg with 'scripts/install-deps ffmpeg' as root"; \
	fi
	@if scripts/install-deps $(WEB_DEPS); then \
		echo "== the rig's page in a real browser (headless Chromium driven by Selenium)"; \
		python3 tests/web/rig_page.py && \
		echo "== the rig's page under hostile use while a 1080p30 take records" && \
		python3 tests/web/abuse_page.py && \
		echo "== the rig's page against clients that hold its connections, under ulimit -n 1024" && \
		python3 tests/web/connections_page.py; \
	else \
		echo "== skipping the rig's page in a browser: install its packages with 'scripts/install-deps $(WEB_DEPS)' as root"; \
		if [ "$${SLATE_REQUIRE_VM:-}" = 1 ]; then echo "SLATE_REQUIRE_VM=1: the browser tests must run"; exit 1; fi; \
	fi
	@if scripts/install-deps $(RIGS_DEPS); then \
		echo "== three rigs on one Mosquitto, each in its own network namespace, one pedal"; \
		python3 tests/rigs/three_rigs.py && \
		echo "== a rig recording while its broker's clients, a SIGHUP and its output's reader turn hostile" && \
		python3 tests/hostile/hostile_peers.py; \
	else \
		echo "== skipping the three rigs: install their packages with 'scripts/install-deps $(RIGS_DEPS)' as root"; \
		if [ "$${SLATE_REQUIRE_VM:-}" = 1 ]; then echo "SLATE_REQUIRE_VM=1: the rigs' test must run"; exit 1; fi; \
	fi
	@if scripts/install-deps $(OBS_DEPS); then \
		echo "== a pedal drives a real OBS Studio (headless under Xvfb) through obs-websocket"; \
		python3 tests/obs/obs_bridge.py; \
	else \
		echo "== skipping the OBS bridge: install its packages with 'scripts/install-deps $(OBS_DEPS)' as root"; \
		if [ "$${SLATE_REQUIRE_VM:-}" = 1 ]; then echo "SLATE_REQUIRE_VM=1: the OBS bridge's test must run"; exit 1; fi; \
	fi
	@total=$$(ls tests/vm/scenario-*.sh | wc -l); \
	if scripts/install-deps $(VM_DEPS); then \
		echo "== the rig VM lane (make test-vm)"; \
		lane=$$(mktemp -d); \
		{ scripts/rig-vm --timeout 1800 -- tests/vm/run-all 2>&1; echo $$? >"$$lane/status"; } | tee "$$lane/output"; \
		status=$$(cat "$$lane/status"); ran=$$(grep -c -- '^--- \(PASS\|FAIL\) ' "$$lane/output"); \
		rm -rf "$$lane"; \
		echo "rig VM lane: $$ran scenarios run, $$((total - ran)) skipped"; \
		[ "$$status" = 0 ] && [ "$$ran" = "$$total" ]; \
	else \
		echo "== skipping the rig VM lane: its packages are missing; install them with 'make vm-deps' as root"; \
		echo "rig VM lane: skipped ($$total scenarios): packages missing; 'make vm-deps' as root installs them"; \
		if [ "$${SLATE_REQUIRE_VM:-}" = 1 ]; then echo "SLATE_REQUIRE_VM=1: every rig VM scenario must run"; exit 1; fi; \
	fi

$(FAULTS): tests/faults/slate-faults.c
	@mkdir -p $(dir $@)
	cc -shared -fPIC -O2 -Wall -o $@ $< -ldl

# Every take and export step killed, failed or raced, each SIGKILL point 10 times.
torture: build $(FAULTS)
	@scripts/install-deps ffmpeg
	python3 tests/faults/torture.py

# Scenarios against real kernel devices (uinput, vivid, snd-aloop) in a VM.
test-vm: build vm-deps $(FAULTS)
	scripts/rig-vm --timeout 1800 -- tests/vm/run-all

bench: deps
	$(SWIFT) build -c release --product slate-bench
	$(SWIFT) build -c release --product slate
	.build/release/slate-bench
	@echo "== recording 1080p30 for 60 s, picture only and with stereo sound: peak memory, CPU and dropped frames of slate record"
	.build/release/slate-bench record 60
	@if scripts/install-deps ffmpeg; then \
		echo "== encode throughput at 1080p30, Slate against the ffmpeg command line" && \
		.build/release/slate-bench encode && \
		echo "== joining 10 takes by stream copy, Slate against ffmpeg -f concat -c copy" && \
		.build/release/slate-bench export; \
	else \
		echo "== skipping the encode and export benchmarks: ffmpeg is missing"; \
	fi
	@echo "== the rig's page: SSE latency, and wrk on /status.json while a 1080p30 take records"
	@scripts/install-deps wrk && python3 tests/web/bench_page.py
	@if scripts/install-deps $(RIGS_DEPS) && [ "$$(id -u)" = 0 ]; then \
		$(SWIFT) build && \
		echo "== three rigs on one broker: the spread of their takes' first frames with at and without, press to the last start" && \
		python3 tests/rigs/bench_rigs.py; \
	else \
		echo "== skipping the rigs' benchmark: it needs root (network namespaces) and 'scripts/install-deps $(RIGS_DEPS)'"; \
	fi
	@if scripts/install-deps $(VM_DEPS); then \
		$(SWIFT) build && \
		echo "== press-to-exec latency in the rig VM, Slate against triggerhappy" && \
		scripts/rig-vm --timeout 500 -- python3 tests/vm/bench_latency.py && \
		echo "== shutter lag of slate run in the rig VM: a pedal click to the take's first frame, vivid at 30 fps" && \
		scripts/rig-vm --timeout 500 -- python3 tests/vm/bench_shutter.py && \
		echo "== knob to driver in the rig VM: 100 detents a second for 10 s through slate run, against v4l2-ctl per detent" && \
		scripts/rig-vm --timeout 500 -- python3 tests/vm/bench_knob.py && \
		echo "== A/V offset in the rig VM: 10 s and 5 min takes from vivid and snd-aloop, exact and 200 ppm slow, against ffmpeg" && \
		scripts/rig-vm --timeout 4000 -- python3 tests/vm/bench_sound.py; \
	else \
		echo "== skipping the latency benchmarks: the rig VM's packages are missing ('make vm-deps' as root)"; \
	fi

# A rig's hour: 1080p30 takes a minute, an export every 10, page clients and
# broker traffic; memory, descriptors and threads each minute (SOAK_MINUTES=N
# for a shorter run, at least 6).
soak: deps
	$(SWIFT) build -c release --product slate
	@scripts/install-deps $(RIGS_DEPS)
	SLATE=.build/release/slate python3 tests/soak/soak.py --minutes $${SOAK_MINUTES:-60}

# Every fuzz target for 20 s from its seeds, failing on a crash: make test runs it.
.PHONY: fuzz-short
fuzz-short: deps
	@echo "== the fuzz targets, 20 s each (make fuzz runs each for a minute)"
	scripts/fuzz --short 20

fuzz: deps
	scripts/fuzz fuzz-profile 60
	scripts/fuzz fuzz-evemu 60
	scripts/fuzz fuzz-libinput 60
	scripts/fuzz fuzz-wave 60
	scripts/fuzz fuzz-command 60
	scripts/fuzz fuzz-action 60

clean:
	rm -rf .build Fuzz/.build fuzz-artifacts
