# sandtrap's build. `make run` and `make test` do all set-up on a fresh machine.

DATASTAR_VERSION := v1.0.0
DATASTAR_SHA256  := e7d6ad0e83980b37706f4494a36db3c58b5dc6cd5a9e5bd5166dbffa6b56a06a
ADDR             ?= 127.0.0.1:8080
DEMO             ?= demo.db
STATE            ?= sandtrap-state.db
BENCH_OUT        ?= bench/out
FUZZTIME         ?= 15s
# SOAK is how long the soak of make bench and make soak runs.
SOAK             ?= 10m
# The Go vulnerability database that make vuln reads: the OSV files of this
# version of the golang.org/x/vulndb module, which the module proxy serves.
VULNDB_VERSION   := v0.0.0-20261105234957-e22db6528018
VULNDB           := .cache/vulndb-$(VULNDB_VERSION)

.PHONY: build run test fuzz bench bench-history soak eval eval-left-out eval-folds generate check templ-fresh vuln chromium clean

build: bin/sandtrap

bin/sandtrap: static/datastar.js $(shell find . -name '*.go' -not -path './.cache/*') $(wildcard static/*.css static/*.js) go.mod go.sum
	go build -o $@ ./web

# The Datastar client is never committed: fetch the pinned release through
# the Go module proxy and refuse it unless its sha256 is the known one.
static/datastar.js:
	@set -e; tmp=$$(mktemp -d); \
	dir=$$(cd $$tmp && GOFLAGS=-mod=mod go mod download -json github.com/starfederation/datastar@$(DATASTAR_VERSION) \
		| sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	rm -rf $$tmp; \
	test -f "$$dir/bundles/datastar.js" || { echo "datastar $(DATASTAR_VERSION): bundles/datastar.js not found in the module" >&2; exit 1; }; \
	cp "$$dir/bundles/datastar.js" $@.tmp; chmod 644 $@.tmp; \
	if ! echo "$(DATASTAR_SHA256)  $@.tmp" | sha256sum -c --quiet -; then \
		rm -f $@.tmp; echo "datastar $(DATASTAR_VERSION): sha256 mismatch, refusing the bundle" >&2; exit 1; fi; \
	mv $@.tmp $@; echo "fetched Datastar $(DATASTAR_VERSION) (sha256 verified)"

# run builds, writes the demo campaign if it is missing, keeps a live run
# going in it, and serves it.
run: build
	@test -f $(DEMO) || ./bin/sandtrap demo --out $(DEMO)
	@./bin/sandtrap demo --out $(DEMO) --live --rate 3 --planned 1000 > .demo-live.log 2>&1 & \
	live=$$!; trap 'kill $$live 2>/dev/null' EXIT INT TERM; \
	./bin/sandtrap serve --addr $(ADDR) --state $(STATE) $(DEMO)

generate:
	go tool templ generate -path views

# check fails when generated files or formatting are stale.
check: static/datastar.js templ-fresh
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed" >&2; exit 1; }
	go vet ./...

# templ-fresh generates the views into a temporary copy and names every
# *_templ.go that differs from what its .templ makes, or has no .templ,
# without touching the tree.
templ-fresh:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp views/*.templ "$$tmp"/; \
	go tool templ generate -path "$$tmp" >"$$tmp/log" 2>&1 || { cat "$$tmp/log" >&2; exit 1; }; \
	stale=""; \
	for f in views/*.templ; do g=$${f%.templ}_templ.go; cmp -s "$$tmp/$${g#views/}" "$$g" || stale="$$stale $$g"; done; \
	for g in views/*_templ.go; do test -f "$${g%_templ.go}.templ" || stale="$$stale $$g"; done; \
	if [ -n "$$stale" ]; then echo "stale generated views, run make generate:$$stale" >&2; exit 1; fi

test: static/datastar.js chromium check
	go test -count=1 -timeout 10m ./...

# fuzz runs every fuzz target in turn for FUZZTIME each; a failing input
# is written to its package's testdata/fuzz/FuzzXxx/. See .ci/fuzz.
fuzz: static/datastar.js
	FUZZTIME=$(FUZZTIME) .ci/fuzz

# vuln runs govulncheck (pinned in go.mod) against the vulnerability
# database of the pinned x/vulndb module, indexed once into .cache with its
# own indexdb command, so that it needs nothing but the module proxy. It is
# not part of check: today it reports vulnerabilities of the standard
# library of Go 1.26.8 that only a newer toolchain fixes.
vuln: $(VULNDB)/index/db.json
	go tool govulncheck -db file://$(CURDIR)/$(VULNDB) ./...

$(VULNDB)/index/db.json:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	dir=$$(cd $$tmp && GOFLAGS=-mod=mod go mod download -json golang.org/x/vulndb@$(VULNDB_VERSION) \
		| sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	test -d "$$dir/data/osv" || { echo "x/vulndb $(VULNDB_VERSION): data/osv not found in the module" >&2; exit 1; }; \
	echo "indexing the vulnerability database of x/vulndb $(VULNDB_VERSION) into $(VULNDB)"; \
	(cd $$tmp && GOFLAGS=-mod=mod go run golang.org/x/vulndb/cmd/indexdb@$(VULNDB_VERSION) -vulns "$$dir/data/osv" -out "$(CURDIR)/$(VULNDB).tmp"); \
	rm -rf $(VULNDB); mv $(VULNDB).tmp $(VULNDB)

# chromium makes sure the browser tests have a browser: installed from
# Debian's packages when we are root, otherwise explained.
chromium:
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing Chromium from Debian's packages for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	elif [ "$$CI" = true ]; then \
		echo "Chromium is missing: install Debian's chromium package (apt-get install chromium)" >&2; exit 1; \
	else \
		echo "Chromium is missing, so the browser tests will be skipped: install it with 'sudo apt-get install chromium'"; fi

bench: static/datastar.js
	mkdir -p $(BENCH_OUT)
	SOAK=$(SOAK) go test -run '^$$' -bench . -benchmem -benchtime 1x -timeout 120m ./bench/ | tee $(BENCH_OUT)/bench.txt
	go test -run '^$$' -bench '^BenchmarkClassifyUnseenMessages$$' -benchtime 2x ./triage/ | tee $(BENCH_OUT)/classify.txt

# bench-history runs the history benchmark alone: 3,000 finished runs of
# 1,000 results (HISTORY_RUNS=10000 for a longer history), its table in
# bench/out/history.txt.
bench-history: static/datastar.js
	mkdir -p $(BENCH_OUT)
	go test -run '^$$' -bench '^BenchmarkHistory$$' -benchtime 1x -timeout 0 ./bench/ | tee $(BENCH_OUT)/history-bench.txt

# soak runs the soak alone, for SOAK (make soak SOAK=30s for a short one),
# and writes its figures to bench/out/soak.txt.
soak: static/datastar.js
	mkdir -p $(BENCH_OUT)
	SOAK=$(SOAK) go test -run '^$$' -bench '^BenchmarkSoak$$' -benchmem -benchtime 1x -timeout 0 ./bench/ | tee $(BENCH_OUT)/soak.txt

clean:
	rm -rf bin static/datastar.js

# eval scores the classifier and the grouping on the labelled sets: the
# corpus and the blind-labelled real-world messages, each also split into a
# development half and a held-out half, and the Loghub system logs.
# EVAL_SETS are the labelled files, in the order eval.GuessTrainingSets
# (eval/train.go) lists them: the models train on the same files the
# targets below score, and the list is kept in one place.
EVAL_SETS := $(shell sed -n 's/^[[:space:]]*"\(testdata\/[^"]*\.jsonl\)",$$/\1/p' eval/train.go)

eval:
	go run ./web eval --logs testdata/eval/logs $(EVAL_SETS)
	go run ./web eval --logs testdata/eval/logs-head

# eval-left-out scores each labelled set's test half with the guess and
# severity models trained on the other sets only: what the learned models
# carry to causes they never saw. It took 18 minutes on two cores over
# 198 sets.
eval-left-out:
	go run ./web eval --leave-one-out $(EVAL_SETS)

# eval-folds is eval-left-out with the sets dealt into ten folds: ten pairs
# of models instead of one per set, so it takes a minute or two.
eval-folds:
	go run ./web eval --folds 10 $(EVAL_SETS)
