# osFoundry desktop. The two commands a newcomer needs:
#   make run   — install what the app needs, build it and open the window
#   make test  — install what the tests need and run every test
SHELL := /bin/bash
GO_TAGS_LINUX := $(if $(filter Linux,$(shell uname -s)),webkit2_41,)
APP_TAGS := production,$(GO_TAGS_LINUX)
DEV_TAGS := dev,$(GO_TAGS_LINUX)
BIN := build/bin/osfoundry
export PATH := /usr/local/go/bin:$(PATH)

.PHONY: run app dev-app frontend deps deps-test test vet unit frontend-test e2e window cross agents node-mcp fixtures bench

run: deps app
	@build/scripts/run.sh $(BIN)

deps:
	@build/scripts/deps.sh app

deps-test:
	@build/scripts/deps.sh test

frontend:
	cd frontend && npm run build

app: frontend
	go build -tags $(APP_TAGS) -o $(BIN) .

dev-app: frontend
	go build -tags $(DEV_TAGS) -o $(BIN)-dev .

# Every test, in order: vet, Go unit and live tests, frontend unit tests,
# browser end-to-end, the real window, and cross-builds.
test: deps-test vet unit frontend-test e2e window cross
	@echo "make test: all checks passed"

vet:
	go vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }

unit:
	go test -count=1 -timeout 30m ./...
	go test -run '^$$' -fuzz FuzzBridgeHandler -fuzztime 20s ./backend/bridge
	go test -run '^$$' -fuzz FuzzDirectMatchesSDK -fuzztime 20s ./backend/bridge

frontend-test:
	cd frontend && npx vitest run

e2e: dev-app
	cd frontend && node e2e/run.mjs ../$(BIN)-dev

window: app
	build/scripts/window-check.sh $(BIN)

cross:
	GOOS=darwin GOARCH=arm64 go vet ./backend/...
	GOOS=windows GOARCH=amd64 go vet ./...
	GOOS=windows GOARCH=amd64 go build -tags production -o build/bin/osfoundry.exe .

agents:
	build/scripts/agents.sh

node-mcp:
	build/scripts/node-mcp.sh

fixtures: agents
	build/scripts/fixtures.sh

bench: app
	$(BIN) bench pty
	build/scripts/bench-startup.sh $(BIN)
