# osFoundry desktop. The two commands a newcomer needs:
#   make run   — install what the app needs, build it and open the window
#   make test  — install what the tests need and run every test
SHELL := /bin/bash
GO_TAGS_LINUX := $(if $(filter Linux,$(shell uname -s)),webkit2_41,)
APP_TAGS := production,$(GO_TAGS_LINUX)
DEV_TAGS := dev,$(GO_TAGS_LINUX)
# The window app and the headless command line (CGO-free, no Wails): the
# user types `osfoundry`; with no arguments it opens the window beside it.
GUI := build/bin/osfoundry-desktop
CLI := build/bin/osfoundry
# Benchmarks and the test drivers they use: never shipped (make vet checks).
BENCH := build/bin/osfoundry-bench
# Computed once per make run (VERSION=… on the command line pins it).
ifeq ($(origin VERSION),undefined)
VERSION := $(shell build/scripts/version.sh)
endif
LDFLAGS := -X github.com/osfoundry/desktop/backend/cli.Version=$(VERSION)
export PATH := /usr/local/go/bin:$(PATH)
export VERSION

.PHONY: run app cli dev-app frontend bindings deps deps-package deps-test test vet unit frontend-test e2e window cross agents node-mcp fixtures bench bench-cli \
	icons package package-linux package-windows package-macos sums package-test soak

run: deps app cli
	@build/scripts/run.sh $(GUI)

deps:
	@build/scripts/deps.sh app

deps-package:
	@build/scripts/deps.sh package

deps-test:
	@build/scripts/deps.sh test

frontend:
	cd frontend && npm run build

# The TypeScript of every bound Go method and type (committed; make vet
# fails when it is stale).
bindings:
	build/scripts/bindings.sh

app: frontend
	go build -tags $(APP_TAGS) -ldflags "$(LDFLAGS)" -o $(GUI) .

cli:
	CGO_ENABLED=0 go build -trimpath -ldflags "$(LDFLAGS) -s -w" -o $(CLI) ./cmd/osfoundry

dev-app: frontend cli
	go build -tags $(DEV_TAGS) -ldflags "$(LDFLAGS)" -o build/bin/osfoundry-dev .

# Every test, in order: vet, Go unit and live tests, frontend unit tests,
# browser end-to-end, the real window, cross-builds, and the packages.
test: deps-test vet unit frontend-test e2e window cross package-test
	@echo "make test: all checks passed"

vet:
	go vet ./...
	build/scripts/check-shipped-deps.sh
	build/scripts/bindings.sh --check
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }

# The fuzzers run for a count, not a duration: a -fuzztime duration races
# Go's fuzz coordinator at its deadline (golang/go#75804, unfixed in Go
# 1.26), which fails with "context deadline exceeded" and no failing
# input. The counts are what 20 s ran on a CI machine.
unit:
	go test -count=1 -timeout 30m ./...
	go test -run '^$$' -fuzz FuzzBridgeHandler -fuzztime 80000x ./backend/bridge
	go test -run '^$$' -fuzz FuzzDirectMatchesSDK -fuzztime 100000x ./backend/bridge

# The screens type-check against the generated bindings: a Go change that
# breaks one fails here.
frontend-test:
	cd frontend && npx svelte-check --tsconfig ./tsconfig.json --fail-on-warnings && npx tsc --noEmit -p tsconfig.json
	cd frontend && npx vitest run

e2e: dev-app
	cd frontend && node e2e/run.mjs ../build/bin/osfoundry-dev

window: app cli
	build/scripts/window-check.sh $(GUI)

cross:
	GOOS=darwin GOARCH=arm64 go vet ./backend/... ./cmd/...
	GOOS=windows GOARCH=amd64 go vet ./...
	GOOS=windows GOARCH=amd64 go build -tags production -o /dev/null .

# Icons for every platform from the one source, build/icon.svg.
icons:
	go run ./build/icongen -src build/icon.svg -out build/gen/icons

# Installable packages into build/dist/: .deb and .rpm, the Windows
# installer, and SHA256SUMS. macOS packages are built by package-macos on
# a macOS runner (.github/workflows/release.yml).
package: deps-package package-linux package-windows sums

package-linux: app cli icons
	build/scripts/package-linux.sh

package-windows: icons frontend
	build/scripts/package-windows.sh

package-macos: icons frontend
	build/scripts/package-macos.sh

sums:
	cd build/dist && rm -f SHA256SUMS && sha256sum -- * > SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS

package-test: package
	build/scripts/check-linux-package.sh
	build/scripts/check-windows-package.sh
	go test -count=1 ./build/...

agents:
	build/scripts/agents.sh

node-mcp:
	build/scripts/node-mcp.sh

fixtures: agents
	build/scripts/fixtures.sh

bench-cli:
	go build -o $(BENCH) ./cmd/osfoundry-bench

bench: app cli bench-cli
	$(BENCH) pty
	build/scripts/bench-startup.sh $(GUI)
	build/scripts/bench-package.sh
	build/scripts/bench-soak.sh $(GUI) --panes 12 --minutes 40 --every 15 --warmup 10

# The long-session soak alone: memory slope of the window and its web view.
soak: app cli
	build/scripts/bench-soak.sh $(GUI) --panes 12 --minutes 40 --every 15 --warmup 10
