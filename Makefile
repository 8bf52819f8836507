# MusicGraph: build, test, demo and benchmarks. `make test` works on a fresh Debian/Ubuntu
# machine with Swift installed (as root it installs the C libraries the build needs).
SHARED ?= ../shared
SWIFT ?= swift
APT_PACKAGES = pkg-config libcurl4-openssl-dev libmicrohttpd-dev
# e.g. BENCH_FLAGS=--quiet to time only while the machine is idle (see bench/parse.py).
BENCH_FLAGS ?=

.PHONY: deps build release test demo conformance bench clean

# The C libraries behind HTTPClient (libcurl) and HTTPServer (libmicrohttpd).
deps:
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcurl libmicrohttpd; then \
	  echo "deps: libcurl and libmicrohttpd are installed"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(APT_PACKAGES); \
	else \
	  echo "deps: libcurl and libmicrohttpd development files are missing. Install them with:"; \
	  echo "  sudo apt-get update && sudo apt-get install -y $(APT_PACKAGES)"; \
	  exit 1; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

demo: build
	@echo "== musicgraph format examples/artist.graphql"
	@"$$($(SWIFT) build --show-bin-path)/musicgraph" format examples/artist.graphql
	@echo
	@echo "== musicgraph format examples/search.graphql"
	@"$$($(SWIFT) build --show-bin-path)/musicgraph" format examples/search.graphql

conformance: release
	python3 $(SHARED)/conformance/run.py --bin .build/release/musicgraph

bench: release
	python3 bench/parse.py --shared $(SHARED) --no-build $(BENCH_FLAGS)

clean:
	rm -rf .build bench/out
