# Slate: the README's two commands are `make demo` and `make test`.
SWIFT ?= swift
# A target imports only the targets and products it names as dependencies.
BUILD := $(SWIFT) build --explicit-target-dependency-import-check error
SLATE := .build/debug/slate
DEMO := .build/demo
# The LD_PRELOAD fault library of the torture tests (tests/faults/README.md).
FAULTS := .build/faults/libslate-faults.so

# The lanes' packages (scripts/lanes deps LANE) and what each checks: scripts/lanes.
VM_DEPS = $$(scripts/lanes deps vm)
RIGS_DEPS = $$(scripts/lanes deps rigs)

# Where make install puts Slate (FHS): PREFIX, under DESTDIR for a staged
# tree; the build it installs from (CONFIG: debug or release), and the slate
# it installs (that build's unless told).
PREFIX ?= /usr/local
DESTDIR ?=
CONFIG ?= debug
SLATE_BINARY ?= .build/$(CONFIG)/slate
SHARE = $(DESTDIR)$(PREFIX)/share

.PHONY: all deps vm-deps build build-tests demo lint check test torture bench soak fuzz faults man install deb clean

all: build

deps:
	@scripts/install-deps

vm-deps:
	@scripts/install-deps $(VM_DEPS)

build: deps
	$(BUILD)

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

build-tests: deps
	$(BUILD) --build-tests

# The everyday tier: the build, the unit tests and golden transcripts, and lint.
check: lint build-tests
	@scripts/lanes run unit

# Everything that must pass (CI runs it): the build, then every lane, the rig
# VM's beside the host's (scripts/lanes).
test: lint build-tests faults man
	@scripts/lanes all

# One lane: make test-unit, test-fuzz, test-torture, test-web, test-rigs,
# test-obs, test-vm (scripts/lanes list).
test-%: build-tests
	@scripts/lanes run $*

faults: $(FAULTS)

$(FAULTS): tests/faults/slate-faults.c
	@mkdir -p $(dir $@)
	cc -shared -fPIC -O2 -Wall -o $@ $< -ldl

# Every take and export step killed, failed or raced, each SIGKILL point 10 times.
torture: build $(FAULTS)
	@scripts/install-deps ffmpeg
	python3 tests/faults/torture.py

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
		.build/release/slate-bench export && \
		echo "== exporting one 10-minute 720p take, slate takes export against ffmpeg -c copy -movflags +faststart" && \
		.build/release/slate-bench export-take 10; \
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

fuzz: deps
	scripts/fuzz fuzz-profile 60
	scripts/fuzz fuzz-evemu 60
	scripts/fuzz fuzz-libinput 60
	scripts/fuzz fuzz-command 60
	scripts/fuzz fuzz-action 60

# Man pages from the argument parser (slate.1 and one per command) and shell
# completions, into .build/man and .build/completions.
man: deps
	$(SWIFT) package --disable-sandbox plugin generate-manual --configuration $(CONFIG) --multi-page
	@rm -rf .build/man && mkdir -p .build/man .build/completions
	cp .build/plugins/GenerateManual/outputs/slate/*.1 .build/man/
	.build/$(CONFIG)/slate --generate-completion-script bash >.build/completions/slate.bash
	sed -i '1{/^#!/d}' .build/completions/slate.bash
	.build/$(CONFIG)/slate --generate-completion-script zsh >.build/completions/_slate
	.build/$(CONFIG)/slate --generate-completion-script fish >.build/completions/slate.fish
	@ls .build/man .build/completions

# The binary; the page's files and the sounds in PREFIX/share/slate (slate
# finds them from its own location), and the shipped profiles; the udev
# rules, the systemd user unit,
# the man pages and the completions for bash, zsh and fish.
install: man
	install -Dm755 $(SLATE_BINARY) $(DESTDIR)$(PREFIX)/bin/slate
	install -d $(SHARE)/slate/page $(SHARE)/slate/sounds $(SHARE)/slate/profiles $(SHARE)/man/man1
	install -m644 Sources/SlateWeb/Page/* $(SHARE)/slate/page/
	install -m644 sounds/*.wav $(SHARE)/slate/sounds/
	install -m644 profiles/*.yaml $(SHARE)/slate/profiles/
	install -m644 .build/man/*.1 $(SHARE)/man/man1/
	install -Dm644 .build/completions/slate.bash $(SHARE)/bash-completion/completions/slate
	install -Dm644 .build/completions/_slate $(SHARE)/zsh/vendor-completions/_slate
	install -Dm644 .build/completions/slate.fish $(SHARE)/fish/vendor_completions.d/slate.fish
	install -Dm644 udev/70-slate.rules $(DESTDIR)$(PREFIX)/lib/udev/rules.d/70-slate.rules
	install -Dm644 systemd/slate.service $(DESTDIR)$(PREFIX)/lib/systemd/user/slate.service
	install -Dm644 systemd/slate@.service $(DESTDIR)$(PREFIX)/lib/systemd/system/slate@.service
	@case "$(PREFIX)" in /usr) ;; *) echo "note: udev reads rules from /usr/lib/udev/rules.d and /etc/udev/rules.d," \
		"not $(PREFIX)/lib/udev/rules.d: copy 70-slate.rules to /etc/udev/rules.d (docs/setup.md)";; esac

# The Debian package, .build/deb/slate_VERSION_ARCH.deb (scripts/deb): a
# release build with Swift's standard library linked in, checked by lintian.
deb: deps
	scripts/deb

clean:
	rm -rf .build Fuzz/.build fuzz-artifacts
