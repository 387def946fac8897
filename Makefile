# rdscope — see README.md. `make run` starts the explorer on a built-in
# sample; `make test` builds and runs every test.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/rdscope
DESTDIR ?=

CC      ?= cc
CFLAGS  ?= -O2 -g
# Always on: the language level and warnings are part of the code's contract.
XCFLAGS := -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -pthread -MMD -MP
PKGS    := ncursesw libconfig zlib liblzma
# Recursive (=) so pkg-config runs only in recipes, after .ci/deps has
# installed anything missing on a fresh machine.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS))
TEST_CFLAGS = $(shell pkg-config --cflags cmocka)
TEST_LIBS   = $(shell pkg-config --libs cmocka)

# BUILD selects the flavour: build/ (normal) or build-asan/ (sanitizers).
B       ?= build
SANFLAGS ?=

# Sources are found recursively: src/ is in folders by family
# (man/rdscope-internals.7, ARCHITECTURE).
MODEL_SRC := $(sort $(shell find model -name '*.c'))
SRC_SRC   := $(filter-out src/cmd/main.c,$(sort $(shell find src -name '*.c')))
UI_SRC    := $(sort $(shell find ui -name '*.c'))
APP_SRC   := $(SRC_SRC) $(UI_SRC)
TEST_SRC  := $(wildcard tests/test_*.c)
SRC_DIRS  := $(sort $(dir $(SRC_SRC)))

# Include paths by layer: the model sees only itself (so a curses,
# libconfig, src/ or ui/ include there fails to compile). A family of src/
# includes another only through its public header, "family/family.h"
# (tests/layers checks), its own files by their names. ui/ sees only the
# model and itself: the explorer takes its own options. src/cmd/main.c
# alone sees src/ and ui/. Tests and benches are white-box: they see every
# folder.
INC_model := -Imodel
INC_src   := -Imodel -Isrc
INC_ui    := -Imodel -Iui
INC_all   := $(INC_src) -Iui $(SRC_DIRS:%/=-I%)
inc_of = $(if $(filter model/%,$1),$(INC_model),$(if $(filter src/cmd/main.c,$1),$(INC_src) -Iui,$(if $(filter src/%,$1),$(INC_src),$(if $(filter ui/%,$1),$(INC_ui),$(INC_all)))))

MODEL_OBJ := $(MODEL_SRC:%.c=$(B)/%.o)
APP_OBJ   := $(APP_SRC:%.c=$(B)/%.o)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(B)/tests/%)

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: all run test asan tsan fuzz man-gen man-keys check clean install uninstall deps bench
all: rdscope

deps: $(B)/.deps
$(B)/.deps: .ci/deps
	$(Q).ci/deps
	$(Q)mkdir -p $(B) && touch $@

$(B)/%.o: %.c | $(B)/.deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) $(XCFLAGS) $(call inc_of,$<) $(if $(filter model/%,$<),,$(PKG_CFLAGS)) -c $< -o $@

# The installed presets' directory, the last entry of the preset search path.
$(B)/src/preset/preset_path.o: XCFLAGS += -DRDSCOPE_DATADIR='"$(DATADIR)"'
$(B)/src/readers/samples.o: XCFLAGS += -DRDSCOPE_DATADIR='"$(DATADIR)"'

$(B)/libmodel.a: $(MODEL_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/libapp.a: $(APP_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/rdscope: $(B)/src/cmd/main.o $(B)/libapp.a $(B)/libmodel.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) -pthread -o $@ $^ $(PKG_LIBS) -lm

ifeq ($(B),build)
rdscope: $(B)/rdscope
	$(Q)cp $< $@
endif

$(B)/tests/%.o: tests/%.c | $(B)/.deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) $(XCFLAGS) $(INC_all) $(PKG_CFLAGS) $(TEST_CFLAGS) -c $< -o $@

$(B)/tests/%: $(B)/tests/%.o $(B)/libapp.a $(B)/libmodel.a
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) -pthread -o $@ $^ $(TEST_LIBS) $(PKG_LIBS) -lm

# Fuzz harnesses (tests/fuzz/fuzz_NAME.c): replayed over their corpora by
# `make test`; run under libFuzzer by `make fuzz` (FUZZ_SECONDS each).
FUZZ_NAMES  := ocelot nvbit accelsim rdt kdesc setkey preset gpgpusim model json rp cscop arrays mlcrp sampletimes countflat measured kcursor
FUZZ_REPLAY := $(FUZZ_NAMES:%=$(B)/tests/fuzz/replay_%)
FUZZ_SECONDS ?= 60

$(B)/tests/fuzz/replay_%: $(B)/tests/fuzz/fuzz_%.o $(B)/tests/fuzz/fuzz_util.o \
		$(B)/tests/fuzz/replay.o $(B)/libapp.a $(B)/libmodel.a
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) -pthread -o $@ $^ $(PKG_LIBS) -lm

run: rdscope
	./rdscope

# Unit tests (cmocka) and end-to-end tests (tests/e2e/*.sh against the real
# binary); tests/run prints one "N passed, N failed" line over all of them.
test: $(B)/rdscope $(TEST_BIN) $(FUZZ_REPLAY)
	$(Q)tests/run $(B)

check: test

# Same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
asan:
	$(Q)$(MAKE) --no-print-directory B=build-asan CFLAGS="-O1 -g" \
	  SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" test

# The explorer's model-thread hand-off under ThreadSanitizer: the binary and
# the UI unit tests built with -fsanitize=thread, then the worker tests
# (breakdowns and the teaching views' jobs) and the screen tests (which
# drive the real binary through edits, compare mode, export and the
# teaching views, and the placement view reading the kernel beside the
# model thread), and calibrate's worker threads against it.
tsan:
	$(Q)$(MAKE) --no-print-directory B=build-tsan CFLAGS="-O1 -g" \
	  SANFLAGS="-fsanitize=thread -fno-omit-frame-pointer" build-tsan/rdscope build-tsan/tests/test_ui \
	  build-tsan/tests/test_teach build-tsan/tests/test_mechanisms build-tsan/tests/test_parts
	$(Q)TSAN_OPTIONS="halt_on_error=1 exitcode=66 $(TSAN_OPTIONS)" \
	  E2E="tests/e2e/explorer.sh tests/e2e/explorer_parts.sh tests/e2e/explorer_place.sh tests/e2e/teach.sh tests/e2e/stress.sh \
	  tests/e2e/calibrate.sh" tests/run build-tsan

# Regenerate the sections of man/rdscope.1 made from tables: OPTIONS (the
# option table, src/cmd/cli_table.c), KEYS (the explorer's, ui/keys.h) and
# KEYS OF THE MODEL (model/config.c); and rdscope-preset.5's KEYS OF THE
# MODEL (the same table, as a preset file writes the keys). tests/test_cli.c and tests/test_ui.c
# fail while they differ. man-keys is the older name.
man-gen: $(B)/man/man_gen
	$(Q)$(B)/man/man_gen man/rdscope.1
	$(Q)$(B)/man/man_gen man/rdscope-preset.5

man-keys: man-gen

$(B)/man/man_gen: $(B)/man/man_gen.o $(B)/libapp.a $(B)/libmodel.a
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) -pthread -o $@ $^ $(PKG_LIBS) -lm

# libFuzzer with ASan+UBSan (clang; Debian's libclang-rt for the runtime).
# New inputs go to build-fuzz/corpus/NAME, crashes to tests/fuzz/crashes/
# NAME/ (add each as a regression input to tests/fuzz/corpus/NAME/).
# FUZZ_RUNS stops each harness after that many executions (FUZZ_SECONDS
# still bounds it); FUZZ_ONLY picks harnesses. The build defines
# FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, which lowers the thread-id and
# access limits (same checks, cheaper inputs).
# Undefined behaviour is fatal, so that libFuzzer keeps the input (a
# recovered UBSan report only prints: one in kernel descriptions was found
# that way). Leak checks stay on except for the libconfig-based parsers: libconfig
# 1.5 leaks on parse errors (tests/fuzz/lsan.supp), and each such input
# made LeakSanitizer scan the heap (8x slower). Their corpora are still
# replayed with leak checking by `make asan`.
FUZZ_RUNS ?= -1
FUZZ_ONLY ?= $(FUZZ_NAMES)
FUZZ_NOLEAK := kdesc preset
fuzz:
	$(Q)command -v clang >/dev/null || { echo "make fuzz needs clang: apt-get install clang libclang-rt-dev"; exit 1; }
	$(Q)$(MAKE) --no-print-directory B=build-fuzz CC=clang CFLAGS="-O1 -g -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION" \
	  SANFLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
	  build-fuzz/libapp.a build-fuzz/libmodel.a build-fuzz/tests/fuzz/fuzz_util.o \
	  $(FUZZ_NAMES:%=build-fuzz/tests/fuzz/fuzz_%.o)
	$(Q)for n in $(FUZZ_ONLY); do \
	  clang -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -pthread -o build-fuzz/fuzz_$$n \
	    build-fuzz/tests/fuzz/fuzz_$$n.o build-fuzz/tests/fuzz/fuzz_util.o \
	    build-fuzz/libapp.a build-fuzz/libmodel.a $(PKG_LIBS) -lm || exit 1; \
	  mkdir -p build-fuzz/corpus/$$n tests/fuzz/crashes/$$n; \
	  LSAN_OPTIONS=suppressions=tests/fuzz/lsan.supp \
	  build-fuzz/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -print_final_stats=1 \
	    $$(case " $(FUZZ_NOLEAK) " in *" $$n "*) echo -detect_leaks=0 ;; esac) \
	    -artifact_prefix=tests/fuzz/crashes/$$n/ build-fuzz/corpus/$$n tests/fuzz/corpus/$$n \
	    2>&1 | grep -E 'stat::number_of_executed_units|ERROR|SUMMARY|Done' | sed "s/^/$$n: /" ; \
	done

# Speed goals are measured here, not asserted in tests: prints a table and
# writes bench/results.md (bench/run says what it measures).
bench: rdscope $(B)/bench/bench_model $(B)/bench/bench_explorer
	$(Q)bench/run $(B)

$(B)/bench/bench_%: $(B)/bench/bench_%.o $(B)/libapp.a $(B)/libmodel.a
	$(Q)$(CC) $(CFLAGS) -pthread -o $@ $^ $(PKG_LIBS) -lm

$(B)/bench/%.o: bench/%.c | $(B)/.deps
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(XCFLAGS) $(INC_all) $(PKG_CFLAGS) -c $< -o $@

# The flavour's binary (B; build/rdscope, which `make` copies to ./rdscope);
# an installed rdscope finds its presets and samples in DATADIR, or beside
# itself in ../share/rdscope when installed elsewhere (DESTDIR, a moved
# PREFIX: tests/e2e/install.sh).
install: $(B)/rdscope
	install -Dm755 $(B)/rdscope $(DESTDIR)$(BINDIR)/rdscope
	install -d $(DESTDIR)$(MANDIR)/man1
	for m in man/*.1; do [ -f "$$m" ] && install -m644 "$$m" $(DESTDIR)$(MANDIR)/man1/; done; true
	install -d $(DESTDIR)$(MANDIR)/man5
	for m in man/*.5; do [ -f "$$m" ] && install -m644 "$$m" $(DESTDIR)$(MANDIR)/man5/; done; true
	install -d $(DESTDIR)$(MANDIR)/man7
	for m in man/*.7; do [ -f "$$m" ] && install -m644 "$$m" $(DESTDIR)$(MANDIR)/man7/; done; true
	install -d $(DESTDIR)$(DATADIR)/presets $(DESTDIR)$(DATADIR)/samples
	for p in presets/*.cfg; do [ -f "$$p" ] && install -m644 "$$p" $(DESTDIR)$(DATADIR)/presets/; done; true
	cd samples && find . -type f -exec install -Dm644 {} $(DESTDIR)$(DATADIR)/samples/{} \;

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rdscope $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(wildcard man/*.1))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(wildcard man/*.5))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(wildcard man/*.7)))
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-asan build-tsan rdscope

-include $(shell find $(sort $(B) build build-asan build-tsan build-fuzz) -name '*.d' 2>/dev/null)
