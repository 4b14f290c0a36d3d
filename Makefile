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
EVAL_SETS = testdata/corpus/demo-modes.jsonl testdata/corpus/tools.jsonl testdata/eval/realworld.jsonl testdata/eval/realworld2.jsonl testdata/eval/realworld3.jsonl testdata/eval/realworld4.jsonl testdata/eval/realworld5.jsonl testdata/eval/realworld6.jsonl testdata/eval/realworld7.jsonl testdata/eval/realworld8.jsonl testdata/eval/realworld9.jsonl testdata/eval/realworld10.jsonl testdata/eval/realworld11.jsonl testdata/eval/realworld12.jsonl testdata/eval/realworld13.jsonl testdata/eval/realworld14.jsonl testdata/eval/realworld15.jsonl testdata/eval/realworld16.jsonl testdata/eval/realworld17.jsonl testdata/eval/realworld18.jsonl testdata/eval/realworld19.jsonl testdata/eval/realworld20.jsonl testdata/eval/realworld21.jsonl testdata/eval/realworld22.jsonl testdata/eval/realworld23.jsonl testdata/eval/realworld24.jsonl testdata/eval/realworld25.jsonl testdata/eval/realworld26.jsonl testdata/eval/realworld27.jsonl testdata/eval/realworld28.jsonl testdata/eval/realworld29.jsonl testdata/eval/realworld30.jsonl testdata/eval/realworld31.jsonl testdata/eval/realworld32.jsonl testdata/eval/realworld33.jsonl testdata/eval/realworld34.jsonl testdata/eval/realworld35.jsonl testdata/eval/realworld36.jsonl testdata/eval/realworld37.jsonl testdata/eval/realworld38.jsonl testdata/eval/realworld39.jsonl testdata/eval/realworld40.jsonl testdata/eval/realworld41.jsonl testdata/eval/realworld42.jsonl testdata/eval/realworld43.jsonl testdata/eval/realworld44.jsonl testdata/eval/realworld45.jsonl testdata/eval/realworld46.jsonl testdata/eval/realworld47.jsonl testdata/eval/realworld48.jsonl testdata/eval/realworld49.jsonl testdata/eval/realworld50.jsonl testdata/eval/realworld51.jsonl testdata/eval/realworld52.jsonl testdata/eval/realworld53.jsonl testdata/eval/realworld54.jsonl testdata/eval/realworld55.jsonl testdata/eval/realworld56.jsonl testdata/eval/realworld57.jsonl testdata/eval/realworld58.jsonl testdata/eval/realworld59.jsonl testdata/eval/realworld60.jsonl testdata/eval/realworld61.jsonl testdata/eval/realworld62.jsonl testdata/eval/realworld63.jsonl testdata/eval/realworld64.jsonl testdata/eval/realworld65.jsonl testdata/eval/realworld66.jsonl testdata/eval/realworld67.jsonl testdata/eval/realworld68.jsonl testdata/eval/realworld69.jsonl testdata/eval/realworld70.jsonl testdata/eval/realworld71.jsonl testdata/eval/realworld72.jsonl testdata/eval/realworld73.jsonl testdata/eval/realworld74.jsonl testdata/eval/realworld75.jsonl testdata/eval/realworld76.jsonl testdata/eval/realworld77.jsonl testdata/eval/realworld78.jsonl testdata/eval/realworld79.jsonl testdata/eval/realworld80.jsonl testdata/eval/realworld81.jsonl testdata/eval/realworld82.jsonl testdata/eval/realworld83.jsonl testdata/eval/realworld84.jsonl testdata/eval/realworld85.jsonl testdata/eval/realworld86.jsonl testdata/eval/realworld87.jsonl testdata/eval/realworld88.jsonl testdata/eval/realworld89.jsonl testdata/eval/realworld90.jsonl testdata/eval/realworld91.jsonl testdata/eval/realworld92.jsonl testdata/eval/realworld93.jsonl testdata/eval/realworld94.jsonl testdata/eval/realworld95.jsonl testdata/eval/realworld96.jsonl testdata/eval/realworld97.jsonl testdata/eval/realworld98.jsonl testdata/eval/realworld99.jsonl testdata/eval/realworld100.jsonl testdata/eval/realworld101.jsonl testdata/eval/realworld102.jsonl testdata/eval/realworld103.jsonl testdata/eval/realworld104.jsonl testdata/eval/realworld105.jsonl testdata/eval/realworld106.jsonl testdata/eval/realworld107.jsonl testdata/eval/realworld108.jsonl testdata/eval/realworld109.jsonl testdata/eval/realworld110.jsonl testdata/eval/realworld111.jsonl testdata/eval/realworld112.jsonl testdata/eval/realworld113.jsonl testdata/eval/realworld114.jsonl testdata/eval/realworld115.jsonl testdata/eval/realworld116.jsonl testdata/eval/realworld117.jsonl testdata/eval/realworld118.jsonl testdata/eval/realworld119.jsonl testdata/eval/realworld120.jsonl testdata/eval/realworld121.jsonl testdata/eval/realworld122.jsonl testdata/eval/realworld123.jsonl testdata/eval/realworld124.jsonl testdata/eval/realworld125.jsonl testdata/eval/realworld126.jsonl testdata/eval/realworld127.jsonl testdata/eval/realworld128.jsonl testdata/eval/realworld129.jsonl testdata/eval/realworld130.jsonl testdata/eval/realworld131.jsonl testdata/eval/realworld132.jsonl testdata/eval/realworld133.jsonl testdata/eval/realworld134.jsonl testdata/eval/realworld135.jsonl testdata/eval/realworld136.jsonl testdata/eval/realworld137.jsonl testdata/eval/realworld138.jsonl testdata/eval/realworld139.jsonl testdata/eval/realworld140.jsonl testdata/eval/realworld141.jsonl testdata/eval/realworld142.jsonl testdata/eval/realworld143.jsonl testdata/eval/realworld144.jsonl testdata/eval/realworld145.jsonl testdata/eval/realworld146.jsonl testdata/eval/realworld147.jsonl testdata/eval/realworld148.jsonl testdata/eval/realworld149.jsonl testdata/eval/realworld150.jsonl testdata/eval/realworld151.jsonl testdata/eval/realworld152.jsonl testdata/eval/realworld153.jsonl testdata/eval/realworld154.jsonl testdata/eval/realworld155.jsonl testdata/eval/realworld156.jsonl testdata/eval/realworld157.jsonl testdata/eval/realworld158.jsonl testdata/eval/realworld159.jsonl testdata/eval/realworld160.jsonl testdata/eval/realworld161.jsonl testdata/eval/realworld162.jsonl testdata/eval/realworld163.jsonl testdata/eval/realworld164.jsonl testdata/eval/realworld165.jsonl testdata/eval/realworld166.jsonl testdata/eval/realworld167.jsonl testdata/eval/realworld168.jsonl testdata/eval/realworld169.jsonl testdata/eval/realworld170.jsonl testdata/eval/realworld171.jsonl testdata/eval/realworld172.jsonl testdata/eval/realworld173.jsonl testdata/eval/realworld174.jsonl testdata/eval/realworld175.jsonl testdata/eval/realworld176.jsonl testdata/eval/realworld177.jsonl testdata/eval/realworld178.jsonl testdata/eval/realworld179.jsonl testdata/eval/realworld180.jsonl testdata/eval/realworld181.jsonl testdata/eval/realworld182.jsonl testdata/eval/realworld183.jsonl testdata/eval/realworld184.jsonl testdata/eval/realworld185.jsonl testdata/eval/realworld186.jsonl testdata/eval/realworld187.jsonl testdata/eval/realworld188.jsonl testdata/eval/realworld189.jsonl testdata/eval/realworld190.jsonl testdata/eval/realworld191.jsonl testdata/eval/realworld192.jsonl testdata/eval/realworld193.jsonl testdata/eval/realworld194.jsonl testdata/eval/realworld195.jsonl testdata/eval/realworld196.jsonl testdata/eval/realworld197.jsonl testdata/eval/realworld198.jsonl testdata/eval/realworld199.jsonl testdata/eval/realworld200.jsonl testdata/eval/realworld201.jsonl testdata/eval/realworld202.jsonl testdata/eval/realworld203.jsonl testdata/eval/realworld204.jsonl testdata/eval/realworld205.jsonl testdata/eval/realworld206.jsonl testdata/eval/realworld207.jsonl testdata/eval/realworld208.jsonl testdata/eval/realworld209.jsonl testdata/eval/realworld210.jsonl testdata/eval/realworld211.jsonl testdata/eval/realworld212.jsonl testdata/eval/realworld213.jsonl testdata/eval/realworld214.jsonl testdata/eval/realworld215.jsonl testdata/eval/realworld216.jsonl testdata/eval/realworld217.jsonl testdata/eval/realworld218.jsonl testdata/eval/realworld219.jsonl testdata/eval/realworld220.jsonl testdata/eval/realworld221.jsonl testdata/eval/realworld222.jsonl testdata/eval/realworld223.jsonl testdata/eval/realworld224.jsonl testdata/eval/realworld225.jsonl testdata/eval/realworld226.jsonl testdata/eval/realworld227.jsonl testdata/eval/realworld228.jsonl testdata/eval/realworld229.jsonl testdata/eval/realworld230.jsonl testdata/eval/realworld231.jsonl testdata/eval/realworld232.jsonl testdata/eval/realworld233.jsonl testdata/eval/realworld234.jsonl testdata/eval/realworld235.jsonl testdata/eval/realworld236.jsonl testdata/eval/realworld237.jsonl testdata/eval/realworld238.jsonl testdata/eval/realworld239.jsonl testdata/eval/realworld240.jsonl testdata/eval/realworld241.jsonl testdata/eval/realworld242.jsonl testdata/eval/realworld243.jsonl testdata/eval/realworld244.jsonl testdata/eval/realworld245.jsonl testdata/eval/realworld246.jsonl testdata/eval/realworld247.jsonl testdata/eval/realworld248.jsonl testdata/eval/realworld249.jsonl testdata/eval/realworld250.jsonl testdata/eval/realworld251.jsonl testdata/eval/realworld252.jsonl testdata/eval/realworld253.jsonl testdata/eval/realworld254.jsonl testdata/eval/realworld255.jsonl testdata/eval/realworld256.jsonl testdata/eval/realworld257.jsonl testdata/eval/realworld258.jsonl testdata/eval/realworld259.jsonl testdata/eval/realworld260.jsonl testdata/eval/realworld261.jsonl testdata/eval/realworld262.jsonl testdata/eval/realworld263.jsonl testdata/eval/realworld264.jsonl testdata/eval/realworld265.jsonl testdata/eval/realworld266.jsonl testdata/eval/realworld267.jsonl testdata/eval/realworld268.jsonl testdata/eval/realworld269.jsonl testdata/eval/realworld270.jsonl testdata/eval/realworld271.jsonl testdata/eval/realworld272.jsonl testdata/eval/realworld273.jsonl testdata/eval/realworld274.jsonl testdata/eval/realworld275.jsonl testdata/eval/realworld276.jsonl testdata/eval/realworld277.jsonl testdata/eval/realworld278.jsonl testdata/eval/realworld279.jsonl testdata/eval/realworld280.jsonl testdata/eval/realworld281.jsonl testdata/eval/realworld282.jsonl testdata/eval/realworld283.jsonl testdata/eval/realworld284.jsonl testdata/eval/realworld285.jsonl testdata/eval/realworld286.jsonl testdata/eval/realworld287.jsonl testdata/eval/realworld288.jsonl testdata/eval/realworld289.jsonl testdata/eval/realworld290.jsonl testdata/eval/realworld291.jsonl testdata/eval/realworld292.jsonl testdata/eval/realworld293.jsonl testdata/eval/realworld294.jsonl testdata/eval/realworld295.jsonl testdata/eval/realworld296.jsonl testdata/eval/realworld297.jsonl testdata/eval/realworld298.jsonl testdata/eval/realworld299.jsonl testdata/eval/realworld300.jsonl testdata/eval/realworld301.jsonl testdata/eval/realworld302.jsonl testdata/eval/realworld304.jsonl testdata/eval/realworld305.jsonl testdata/eval/realworld306.jsonl testdata/eval/realworld307.jsonl testdata/eval/realworld308.jsonl testdata/eval/realworld309.jsonl testdata/eval/realworld310.jsonl testdata/eval/realworld311.jsonl testdata/eval/realworld312.jsonl testdata/eval/realworld313.jsonl testdata/eval/realworld314.jsonl testdata/eval/realworld315.jsonl testdata/eval/realworld316.jsonl testdata/eval/realworld317.jsonl testdata/eval/realworld318.jsonl testdata/eval/realworld319.jsonl testdata/eval/realworld320.jsonl testdata/eval/realworld321.jsonl testdata/eval/realworld322.jsonl testdata/eval/realworld323.jsonl testdata/eval/realworld324.jsonl testdata/eval/realworld325.jsonl testdata/eval/realworld326.jsonl testdata/eval/realworld327.jsonl testdata/eval/realworld328.jsonl testdata/eval/realworld329.jsonl testdata/eval/realworld330.jsonl testdata/eval/realworld331.jsonl testdata/eval/realworld332.jsonl testdata/eval/realworld333.jsonl testdata/eval/realworld334.jsonl testdata/eval/realworld335.jsonl testdata/eval/realworld336.jsonl testdata/eval/realworld337.jsonl testdata/eval/realworld338.jsonl testdata/eval/realworld339.jsonl testdata/eval/realworld340.jsonl testdata/eval/realworld341.jsonl testdata/eval/realworld342.jsonl testdata/eval/realworld343.jsonl testdata/eval/realworld344.jsonl testdata/eval/realworld345.jsonl testdata/eval/realworld346.jsonl testdata/eval/realworld347.jsonl testdata/eval/realworld348.jsonl testdata/eval/realworld349.jsonl testdata/eval/realworld350.jsonl testdata/eval/realworld351.jsonl testdata/eval/realworld352.jsonl testdata/eval/realworld353.jsonl testdata/eval/realworld354.jsonl testdata/eval/realworld355.jsonl testdata/eval/realworld356.jsonl testdata/eval/realworld357.jsonl testdata/eval/realworld358.jsonl testdata/eval/realworld359.jsonl testdata/eval/realworld360.jsonl testdata/eval/realworld361.jsonl testdata/eval/realworld362.jsonl testdata/eval/realworld363.jsonl testdata/eval/realworld364.jsonl testdata/eval/realworld365.jsonl testdata/eval/realworld366.jsonl testdata/eval/realworld367.jsonl testdata/eval/realworld368.jsonl testdata/eval/realworld369.jsonl testdata/eval/realworld370.jsonl testdata/eval/realworld371.jsonl testdata/eval/realworld372.jsonl testdata/eval/realworld373.jsonl testdata/eval/realworld374.jsonl testdata/eval/realworld375.jsonl testdata/eval/realworld376.jsonl testdata/eval/realworld377.jsonl testdata/eval/realworld378.jsonl testdata/eval/realworld379.jsonl testdata/eval/realworld380.jsonl testdata/eval/realworld381.jsonl testdata/eval/realworld382.jsonl testdata/eval/realworld383.jsonl testdata/eval/realworld384.jsonl testdata/eval/realworld385.jsonl testdata/eval/realworld386.jsonl testdata/eval/realworld387.jsonl testdata/eval/realworld388.jsonl testdata/eval/realworld389.jsonl testdata/eval/realworld390.jsonl testdata/eval/realworld391.jsonl testdata/eval/realworld392.jsonl testdata/eval/realworld393.jsonl testdata/eval/realworld394.jsonl testdata/eval/realworld395.jsonl testdata/eval/realworld397.jsonl testdata/eval/realworld399.jsonl testdata/eval/realworld402.jsonl testdata/eval/realworld403.jsonl testdata/eval/realworld404.jsonl testdata/eval/realworld405.jsonl testdata/eval/realworld406.jsonl testdata/eval/realworld407.jsonl testdata/eval/realworld408.jsonl testdata/eval/realworld409.jsonl testdata/eval/realworld410.jsonl testdata/eval/realworld411.jsonl testdata/eval/realworld412.jsonl testdata/eval/realworld413.jsonl testdata/eval/realworld414.jsonl testdata/eval/realworld415.jsonl testdata/eval/realworld416.jsonl testdata/eval/realworld417.jsonl testdata/eval/realworld418.jsonl testdata/eval/realworld419.jsonl testdata/eval/realworld420.jsonl testdata/eval/realworld421.jsonl testdata/eval/realworld422.jsonl testdata/eval/realworld423.jsonl testdata/eval/realworld424.jsonl testdata/eval/realworld425.jsonl testdata/eval/realworld426.jsonl testdata/eval/realworld427.jsonl testdata/eval/realworld428.jsonl testdata/eval/realworld429.jsonl testdata/eval/realworld430.jsonl testdata/eval/realworld431.jsonl testdata/eval/realworld432.jsonl testdata/eval/realworld433.jsonl testdata/eval/realworld434.jsonl testdata/eval/realworld435.jsonl testdata/eval/realworld436.jsonl testdata/eval/realworld437.jsonl testdata/eval/realworld438.jsonl testdata/eval/realworld439.jsonl testdata/eval/realworld440.jsonl testdata/eval/realworld441.jsonl testdata/eval/realworld442.jsonl testdata/eval/realworld443.jsonl testdata/eval/realworld445.jsonl testdata/eval/realworld447.jsonl testdata/eval/realworld448.jsonl testdata/eval/realworld449.jsonl testdata/eval/realworld450.jsonl testdata/eval/realworld451.jsonl testdata/eval/realworld452.jsonl testdata/eval/realworld453.jsonl testdata/eval/realworld454.jsonl testdata/eval/realworld455.jsonl testdata/eval/realworld456.jsonl testdata/eval/realworld457.jsonl testdata/eval/realworld458.jsonl testdata/eval/realworld459.jsonl testdata/eval/realworld460.jsonl testdata/eval/realworld461.jsonl testdata/eval/realworld462.jsonl testdata/eval/realworld463.jsonl testdata/eval/realworld464.jsonl testdata/eval/realworld465.jsonl testdata/eval/realworld466.jsonl testdata/eval/realworld467.jsonl testdata/eval/realworld476.jsonl testdata/eval/realworld477.jsonl testdata/eval/realworld478.jsonl testdata/eval/realworld479.jsonl testdata/eval/realworld480.jsonl testdata/eval/realworld481.jsonl testdata/eval/realworld482.jsonl testdata/eval/realworld483.jsonl testdata/eval/realworld484.jsonl testdata/eval/realworld485.jsonl testdata/eval/realworld486.jsonl testdata/eval/realworld487.jsonl testdata/eval/realworld488.jsonl testdata/eval/realworld489.jsonl testdata/eval/realworld490.jsonl testdata/eval/realworld491.jsonl testdata/eval/realworld492.jsonl testdata/eval/realworld493.jsonl testdata/eval/realworld495.jsonl testdata/eval/realworld496.jsonl testdata/eval/realworld497.jsonl testdata/eval/realworld498.jsonl testdata/eval/realworld499.jsonl

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
