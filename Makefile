# Slate: the README's two commands are `make demo` and `make test`.
SWIFT ?= swift
SLATE := .build/debug/slate

.PHONY: all deps build demo test bench fuzz clean

all: build

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

demo: build
	@echo "== slate check: the shipped profiles"
	$(SLATE) check profiles/*.yaml
	@echo
	@echo "== slate replay: a foot-pedal session through profiles/pcsensor-footswitch.yaml"
	$(SLATE) replay --profile profiles/pcsensor-footswitch.yaml recordings/footswitch-session.evemu
	@echo
	@echo "== the same, as JSON lines (first 6)"
	$(SLATE) replay --json --profile profiles/pcsensor-footswitch.yaml recordings/footswitch-session.evemu 2>/dev/null | head -n 6

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps
	$(SWIFT) build -c release --product slate-bench
	.build/release/slate-bench

fuzz: deps
	scripts/fuzz fuzz-profile 60
	scripts/fuzz fuzz-evemu 60
	scripts/fuzz fuzz-libinput 60
	scripts/fuzz fuzz-wave 60

clean:
	rm -rf .build Fuzz/.build fuzz-artifacts
