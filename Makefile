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
PKGS    := ncursesw libconfig zlib
# Recursive (=) so pkg-config runs only in recipes, after .ci/deps has
# installed anything missing on a fresh machine.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS))
TEST_CFLAGS = $(shell pkg-config --cflags cmocka)
TEST_LIBS   = $(shell pkg-config --libs cmocka)

# BUILD selects the flavour: build/ (normal) or build-asan/ (sanitizers).
B       ?= build
SANFLAGS ?=

MODEL_SRC := $(wildcard model/*.c)
APP_SRC   := $(filter-out src/main.c,$(wildcard src/*.c)) $(wildcard ui/*.c)
TEST_SRC  := $(wildcard tests/test_*.c)

MODEL_OBJ := $(MODEL_SRC:%.c=$(B)/%.o)
APP_OBJ   := $(APP_SRC:%.c=$(B)/%.o)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(B)/tests/%)

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: all run test asan check clean install uninstall deps bench
all: rdscope

deps: $(B)/.deps
$(B)/.deps: .ci/deps
	$(Q).ci/deps
	$(Q)mkdir -p $(B) && touch $@

$(B)/%.o: %.c | $(B)/.deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) $(XCFLAGS) -Imodel -Isrc -Iui $(PKG_CFLAGS) -c $< -o $@

$(B)/libmodel.a: $(MODEL_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/libapp.a: $(APP_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/rdscope: $(B)/src/main.o $(B)/libapp.a $(B)/libmodel.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) -pthread -o $@ $^ $(PKG_LIBS) -lm

ifeq ($(B),build)
rdscope: $(B)/rdscope
	$(Q)cp $< $@
endif

$(B)/tests/%.o: tests/%.c | $(B)/.deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) $(XCFLAGS) -Imodel -Isrc -Iui $(PKG_CFLAGS) $(TEST_CFLAGS) -c $< -o $@

$(B)/tests/%: $(B)/tests/%.o $(B)/libapp.a $(B)/libmodel.a
	$(Q)$(CC) $(CFLAGS) $(SANFLAGS) -pthread -o $@ $^ $(TEST_LIBS) $(PKG_LIBS) -lm

run: rdscope
	./rdscope

# Unit tests (cmocka) and end-to-end tests (tests/e2e/*.sh against the real
# binary); tests/run prints one "N passed, N failed" line over all of them.
test: $(B)/rdscope $(TEST_BIN)
	$(Q)tests/run $(B)

check: test

# Same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
asan:
	$(Q)$(MAKE) --no-print-directory B=build-asan CFLAGS="-O1 -g" \
	  SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" test

bench: rdscope
	$(Q)bench/run

install: rdscope
	install -Dm755 rdscope $(DESTDIR)$(BINDIR)/rdscope
	install -d $(DESTDIR)$(MANDIR)/man1
	for m in man/*.1; do [ -f "$$m" ] && install -m644 "$$m" $(DESTDIR)$(MANDIR)/man1/; done; true
	install -d $(DESTDIR)$(DATADIR)/presets $(DESTDIR)$(DATADIR)/samples
	for p in presets/*.cfg; do [ -f "$$p" ] && install -m644 "$$p" $(DESTDIR)$(DATADIR)/presets/; done; true

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rdscope $(DESTDIR)$(MANDIR)/man1/rdscope.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-asan rdscope

-include $(shell find build build-asan -name '*.d' 2>/dev/null)
