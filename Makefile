# MusicGraph: build, test, demo and benchmarks. `make test` works on a fresh Debian/Ubuntu
# machine with Swift installed (as root it installs the C libraries the build needs).
SHARED ?= ../shared
SWIFT ?= swift
APT_PACKAGES = pkg-config libcurl4-openssl-dev libmicrohttpd-dev libssl-dev libsqlite3-dev libhiredis-dev python3-django-graphene tzdata
# What the client tests drive: headless Chromium through Selenium (GraphiQL), a venv for gql;
# the redis-server the RedisStore tests start.
TEST_APT_PACKAGES = chromium chromium-driver python3-selenium python3-venv redis-server python3-requests-toolbelt curl
# Where python3-django-graphene puts GraphiQL 1.4 and React 17 (served by `serve`, never committed).
GRAPHIQL_ASSETS = /usr/lib/python3/dist-packages/graphene_django/static/graphene_django
# e.g. BENCH_FLAGS=--quiet to time only while the machine is idle (see bench/parse.py); with
# NAME=ENTRY, options of that entry point (BENCH_FLAGS='--seconds 2').
BENCH_FLAGS ?=
# Where `make install` puts musicgraph (DESTDIR is prepended, for packaging).
PREFIX ?= /usr/local
# What `make fleet` starts besides musicgraph (curl waits for each part to answer).
FLEET_APT_PACKAGES = nginx redis-server curl
# The commit `musicgraph --version` names, as link flags (none outside git; see the script).
VERSION_FLAGS = $$(sh scripts/version.sh)

.PHONY: help deps test-deps fleet-deps build release install uninstall test lint demo recordings schema conformance \
	bench clean fuzz fuzz-build fuzz-ci fleet fleet-stop tsan asan soak coverage

# The targets, one line each: the text after `##` on each target's line.
help: ## this list
	@awk -F ':.*## ' '/^[a-z][a-z-]*:.*## / { printf "  make %-12s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

# The C libraries behind HTTPClient (libcurl), HTTPServer (libmicrohttpd), the persisted-query
# hashes (libcrypto), the embedded store (SQLite) and RedisStore (hiredis), the GraphiQL files the gateway serves to browsers, and the time zone data
# the quota ledger's provider days need (YouTube's resets at midnight in Los Angeles).
deps: ## install (as root) or name the C libraries the build needs
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcurl libmicrohttpd libcrypto sqlite3 hiredis \
	    && [ -f $(GRAPHIQL_ASSETS)/graphiql.min.js ] && [ -e /usr/share/zoneinfo/America/Los_Angeles ]; then \
	  echo "deps: libcurl, libmicrohttpd, libcrypto, SQLite, hiredis, GraphiQL and tzdata are installed"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing $(APT_PACKAGES)"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(APT_PACKAGES); \
	else \
	  echo "deps: the development files of libcurl, libmicrohttpd, libcrypto, SQLite, hiredis, GraphiQL or tzdata are missing. Install them with:"; \
	  echo "  sudo apt-get update && sudo apt-get install -y $(APT_PACKAGES)"; \
	  exit 1; \
	fi

# Chromium, chromedriver and Selenium for the GraphiQL page test; venv for the gql client test;
# redis-server for the RedisStore tests.
test-deps: ## install (as root) or name what the client and store tests drive
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 \
	    && command -v redis-server >/dev/null 2>&1 \
	    && /usr/bin/python3 -c 'import selenium, ensurepip' 2>/dev/null; then \
	  echo "test-deps: chromium, chromedriver, selenium, venv and redis-server are installed"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "test-deps: installing $(TEST_APT_PACKAGES)"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(TEST_APT_PACKAGES); \
	else \
	  echo "test-deps: the client tests need Chromium and Selenium, the store tests redis-server. Install them with:"; \
	  echo "  sudo apt-get update && sudo apt-get install -y $(TEST_APT_PACKAGES)"; \
	  exit 1; \
	fi

build: deps ## debug build: .build/debug/musicgraph
	$(SWIFT) build $(VERSION_FLAGS)

release: deps ## release build: .build/release/musicgraph
	$(SWIFT) build -c release $(VERSION_FLAGS)

# The binary finds the demo catalog in the resource folder beside it (SwiftPM's Bundle.module,
# which resolves the symbolic link), so both go to $(PREFIX)/lib/musicgraph and bin/ links to it.
# It still loads the Swift runtime and the C libraries from where this machine has them.
install: release ## install the release binary as PREFIX/bin/musicgraph (PREFIX=/usr/local)
	rm -rf $(DESTDIR)$(PREFIX)/lib/musicgraph
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/musicgraph
	install -m 755 .build/release/musicgraph $(DESTDIR)$(PREFIX)/lib/musicgraph/musicgraph
	cp -R .build/release/MusicGraph_DemoUpstream.resources $(DESTDIR)$(PREFIX)/lib/musicgraph/
	ln -sf ../lib/musicgraph/musicgraph $(DESTDIR)$(PREFIX)/bin/musicgraph
	@echo "installed $(DESTDIR)$(PREFIX)/bin/musicgraph: $$($(DESTDIR)$(PREFIX)/bin/musicgraph --version)"

uninstall: ## remove what make install put under PREFIX
	rm -rf $(DESTDIR)$(PREFIX)/bin/musicgraph $(DESTDIR)$(PREFIX)/lib/musicgraph

# Serially: the loopback HTTP tests assert deadlines and retry timings, which a 2-core machine
# cannot honour while hundreds of other tests share its two cooperative threads.
test: deps test-deps ## build and run the whole test suite (installs what it needs as root)
	$(SWIFT) build --build-tests
	$(SWIFT) test --no-parallel

# The concurrency-heavy test targets under ThreadSanitizer and the engine's under AddressSanitizer,
# each in a build folder of its own (so neither clobbers .build); any sanitizer report fails the
# run, also one printed by a test that otherwise passed or by a process a test started
# (scripts/sanitize.sh). Synchronization.Mutex's kernel hand-offs are annotated for TSan by
# Sources/TSanMutexHandOff (SanitizerTests is its regression test). Not under TSan (they run in
# make test): CatalogTests' ClientProtocols (gql, GraphiQL in Chromium and an APQ script against a
# serve process), a third of the TSan test time (213 of 687 s, measured) for requests the other
# suites send in-process; and two tests that need 100-id batches and 150 concurrent searches
# answered within DemoUpstream's 8 s deadline, which TSan's slowdown on a loaded 2-core machine
# exceeded in one of two runs each; and two that start serve processes to check a cost estimate
# and the GraphiQL page in Chromium, no concurrency of their own (54 of 343 s). Each run builds
# only the modules its tests reach: the engine's tests under ASan skip the `musicgraph format`
# suite, which runs the CLI binary (make test runs it), so ASan builds the engine alone.
TSAN_TEST_TARGETS = SanitizerTests DataLoaderTests HTTPClientTests HTTPServerTests GraphQLHTTPTests CatalogTests
TSAN_SKIP = ClientProtocols|GraphiQLURL|aSchemaCopyWithHalfTheSearchWeightHalvesThatPartOfTheEstimate|appleMusicBatchesAtTheDocumentedLimits|concurrentColdIronMaidenQueriesSendEachDistinctRequestOnce
ASAN_TEST_TARGETS = GraphQLTests
ASAN_SKIP = FormatCommandTests
tsan: deps test-deps ## the concurrency-heavy tests under ThreadSanitizer (.build-tsan)
	SANITIZE_ALSO=musicgraph SANITIZE_SKIP='$(TSAN_SKIP)' sh scripts/sanitize.sh thread .build-tsan $(TSAN_TEST_TARGETS)

asan: deps ## the engine's tests under AddressSanitizer (.build-asan)
	SANITIZE_SKIP='$(ASAN_SKIP)' sh scripts/sanitize.sh address .build-asan $(ASAN_TEST_TARGETS)

# Line coverage of the whole suite per Sources/ module and in total (scripts/coverage.py), built in
# .build/coverage so that the normal debug build is not rebuilt with coverage flags; the musicgraph
# processes the tests start write profiles too. COVERAGE_FLAGS: more options of the script, e.g.
# `--test-flags '--filter GraphQLTests' --files GraphQL` (a partial run; per-file rows of a module).
COVERAGE_FLAGS ?=
coverage: deps test-deps ## line coverage per module of the test suite, CLI included (.build/coverage)
	python3 scripts/coverage.py --scratch-path .build/coverage $(COVERAGE_FLAGS) -- $(VERSION_FLAGS)

# 60 s of mixed queries at 64 connections with 10% upstream faults (bench/soak.sh prints the numbers).
soak: release ## 60 s of mixed queries with upstream faults
	MUSICGRAPH=.build/release/musicgraph bash bench/soak.sh

# Fails on any drift from the house format in .swift-format (`swift format -i -r …` fixes it),
# and when Package.swift declares other modules than a target imports.
LINT_PATHS = Package.swift Sources Tests bench/dataloader/Package.swift bench/dataloader/Sources fuzz/Package.swift fuzz/Sources
lint: ## the house format and the module graph
	$(SWIFT) format lint --strict --recursive --parallel $(LINT_PATHS)
	python3 scripts/check-module-graph.py --self-test
	python3 scripts/check-module-graph.py

# Starts the gateway on the bundled demo catalog and shows a nested query answered over HTTP.
demo: build ## serve the demo catalog and answer a nested query over HTTP
	@sh scripts/demo.sh "$$($(SWIFT) build --show-bin-path)/musicgraph" examples/artist-albums-tracks-videos.graphql

# A fleet on loopback (README "Running a fleet"): redis-server, FLEET_SIZE gateways sharing it,
# nginx round-robin in front, one demo-upstream behind; prints the URL. `make fleet-stop` ends it.
FLEET_SIZE ?= 2
fleet: fleet-deps release ## FLEET_SIZE gateways behind nginx on one redis-server, on loopback
	sh scripts/fleet.sh start .build/release/musicgraph $(FLEET_SIZE)

# nginx, redis-server and curl (Debian puts nginx in /usr/sbin): installed as root, else named.
fleet-deps: ## install (as root) or name what make fleet starts
	@if { command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } \
	    && command -v redis-server >/dev/null 2>&1 && command -v curl >/dev/null 2>&1; then \
	  echo "fleet-deps: nginx, redis-server and curl are installed"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "fleet-deps: installing $(FLEET_APT_PACKAGES)"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(FLEET_APT_PACKAGES); \
	else \
	  echo "fleet-deps: the fleet needs nginx, redis-server and curl. Install them with:"; \
	  echo "  sudo apt-get update && sudo apt-get install -y $(FLEET_APT_PACKAGES)"; \
	  exit 1; \
	fi

fleet-stop: ## stop what make fleet started
	sh scripts/fleet.sh stop

# Re-records the replay fixtures (examples/recordings) from the bundled DemoUpstream.
recordings: build ## re-record examples/recordings from the demo catalog
	sh scripts/record-demo-fixtures.sh "$$($(SWIFT) build --show-bin-path)/musicgraph"

# Regenerates the schema copy embedded in the binary after an edit of schema.graphql.
schema: ## regenerate the binary's copy of schema.graphql
	sh scripts/embed-schema.sh

# Both read the shared folder (SHARED, a checkout beside this one), which is no part of this
# repository: without it they stop before building, saying what is missing (make exits 2).
need-shared = for path in $(1); do [ -e "$(SHARED)/$$path" ] || { \
	echo "$@: $(SHARED)/$$path is missing: put the shared folder beside this repository, or pass SHARED=DIR" >&2; \
	exit 2; }; done

conformance: ## the conformance kit (SHARED=../shared) against a release build
	@$(call need-shared,conformance/run.py)
	$(MAKE) release
	python3 $(SHARED)/conformance/run.py --bin .build/release/musicgraph --all

# `make bench NAME=ENTRY` runs one entry point of bench/README.md's table instead, after the
# release build: bench/ENTRY.py or bench/ENTRY.sh --bin .build/release/musicgraph, the SHARED
# folder where it reads one, then BENCH_FLAGS. (NAME=soak is bench/soak.sh, which runs soak.py.)
BENCH_PY = dataloader defer execute fleet gateway_latency hostile parse quota slowloris store tenants \
	validate validate_repo
BENCH_SH = gateway gql-client http http-gateway soak
BENCH_ARGS_dataloader = --shared $(SHARED)
BENCH_ARGS_execute = --shared $(SHARED) --no-build
BENCH_ARGS_parse = --shared $(SHARED) --no-build
BENCH_ARGS_validate = --shared $(SHARED)
BENCH_ENV_gateway = SHARED=$(SHARED)
BENCH_RUN = $(BENCH_ENV_$(NAME)) $(if $(filter $(NAME),$(BENCH_SH)),bash bench/$(NAME).sh,python3 bench/$(NAME).py)
bench: ## parse and execute vs graphql-js, graphql-core (SHARED); NAME=ENTRY runs one
ifeq ($(NAME),)
	@$(call need-shared,bench/workloads conformance/real-world/github_schema.graphql)
	$(MAKE) release
	python3 bench/parse.py --shared $(SHARED) --no-build $(BENCH_FLAGS)
	python3 bench/execute.py --shared $(SHARED) --no-build
else
	@case " $(BENCH_PY) $(BENCH_SH) " in *" $(NAME) "*) ;; *) \
	  echo "bench: no entry point NAME=$(NAME); one of: $(sort $(BENCH_PY) $(BENCH_SH)) (bench/README.md)" >&2; \
	  exit 2;; esac
	$(MAKE) release
	$(BENCH_RUN) --bin .build/release/musicgraph $(BENCH_ARGS_$(NAME)) $(BENCH_FLAGS)
endif

# libFuzzer targets (fuzz/, a package of its own) for the lexer/parser, the validator, the JSON
# reader, GraphQL-over-HTTP requests and each provider's decoder, built with the toolchain's
# libFuzzer and AddressSanitizer; seeds from the tests and the conformance kit. Linked with lld:
# gold fails on the fuzzer runtime's debug info.
FUZZ_SECONDS ?= 600
FUZZ_CI_SECONDS ?= 20
FUZZ_TARGETS = FuzzParse FuzzValidate FuzzJSON FuzzHTTP FuzzITunes FuzzAppleMusic FuzzRakuten FuzzTMDB FuzzYouTube
FUZZ_BUILD_FLAGS = -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
fuzz-build: deps ## build the libFuzzer targets (fuzz/)
	cd fuzz && $(SWIFT) build $(FUZZ_BUILD_FLAGS)

fuzz: fuzz-build ## FUZZ_SECONDS per libFuzzer target
	python3 scripts/fuzz-seeds.py --shared $(SHARED)
	sh scripts/fuzz.sh "$$(cd fuzz && $(SWIFT) build $(FUZZ_BUILD_FLAGS) --show-bin-path)" $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The short run CI does: FUZZ_CI_SECONDS per target.
fuzz-ci: ## the short fuzz run CI does
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_CI_SECONDS)

clean: ## remove the build folders, benchmark output and fuzz corpora
	rm -rf .build .build-tsan .build-asan bench/out fuzz/.build fuzz/.corpus fuzz/.runs
