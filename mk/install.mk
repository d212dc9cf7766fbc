# The man page and the bash completion, generated from the commands' option
# tables, and `make install` / `make uninstall` (PREFIX, DESTDIR).
#
#   $(PREFIX)/bin/ftv
#   $(PREFIX)/share/ftv/corpus/<set>/*.o, random-<set>/*.o   the schemes' sets
#   $(PREFIX)/share/ftv/trampolines/*.o, riscv64/*.o
#   $(PREFIX)/share/ftv/scenarios/*.scn, litmus/*.litmus (riscv64/, herd/ + kinds.txt),
#       layouts/*.layout.xz
#   $(PREFIX)/share/ftv/campaigns/*   GNU parallel, Slurm, Kubernetes recipes
#   $(MANDIR)/man1/ftv.1, $(MANDIR)/man5/ftv-scenario.5
#   $(BASHCOMPDIR)/ftv
#
# The installed ftv finds its data in ../share/ftv from its own binary
# (tools/paths.c), so DESTDIR trees work where they land.
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
FTV_DATADIR := $(PREFIX)/share/ftv

VERSION    := $(shell sed -n 's/^\#define FTV_VERSION "\(.*\)"/\1/p' tools/version.h)
MAN        := $(BUILD)/ftv.1
MAN5       := $(BUILD)/ftv-scenario.5
COMPLETION := $(BUILD)/ftv.bash

# The COMMANDS section comes from `ftv help --man`, the rest is docs/ftv.1.in.
$(MAN): docs/ftv.1.in $(FTV) tools/version.h
	$(FTV) help --man > $@.commands
	sed -e '/^@COMMANDS@$$/r $@.commands' -e '/^@COMMANDS@$$/d' \
		-e 's/@VERSION@/$(VERSION)/g' $< > $@.tmp
	rm -f $@.commands
	mv $@.tmp $@

# Its KEYWORDS and OPERATIONS sections come from `ftv help --man-scenario`
# (the keyword table), the rest is docs/ftv-scenario.5.in.
$(MAN5): docs/ftv-scenario.5.in $(FTV) tools/version.h
	$(FTV) help --man-scenario > $@.keywords
	sed -e '/^@KEYWORDS@$$/r $@.keywords' -e '/^@KEYWORDS@$$/d' \
		-e 's/@VERSION@/$(VERSION)/g' $< > $@.tmp
	rm -f $@.keywords
	mv $@.tmp $@

$(COMPLETION): $(FTV)
	$(FTV) help --bash-completion > $@.tmp
	mv $@.tmp $@

# The corpus sets the schemes load (verify/world_arch.c: callops, tramp ->
# args, mcount; pair and atomic -> rv64), named and random objects.
INSTALL_SETS := callops args mcount
INSTALL_CORPUS = \
	$(foreach s,$(INSTALL_SETS),$(CORPUS_NAMES:%=$(CORPUS_DIR)/$(s)/%.o) \
		$(CORPUS_RANDOM_SEEDS:%=$(CORPUS_DIR)/random-$(s)/rand%.o)) \
	$(RV_CORPUS_NAMES:%=$(RV_CORPUS_DIR)/rv64/%.o) \
	$(RV_CORPUS_SEEDS:%=$(RV_CORPUS_DIR)/random-rv64/rand%.o)
# recursive: the trampoline fragments come after this one
INSTALL_BUILT = $(INSTALL_CORPUS) $(TRAMP_OBJS) $(RV_TRAMP_OBJS)
INSTALL_SOURCE = $(wildcard corpus/scenarios/*.scn) $(wildcard corpus/litmus/*.litmus) \
	$(wildcard corpus/litmus/*/*.litmus) $(wildcard corpus/litmus/*/kinds.txt) \
	$(wildcard corpus/layouts/*.layout.xz)
# the fuzz campaign recipes (docs/campaigns.md)
INSTALL_CAMPAIGNS = $(wildcard docs/campaigns/*)

# plain `make`: what the commands use, and the other corpus sets the
# README's `ftv load` examples name
RUNTIME_DEPS += $(INSTALL_BUILT) $(CORPUS_OBJS) $(CORPUS_RANDOM_OBJS) $(RV_CORPUS_OBJS)
CHECK_DEPS += $(MAN) $(MAN5) $(COMPLETION)

.PHONY: install uninstall
.SECONDEXPANSION:
install: $(FTV) $$(INSTALL_BUILT) $(MAN) $(MAN5) $(COMPLETION)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(FTV) $(DESTDIR)$(PREFIX)/bin/ftv
	install -m 644 $(MAN) $(DESTDIR)$(MANDIR)/man1/ftv.1
	install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/ftv-scenario.5
	install -m 644 $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/ftv
	@set -e; for f in $(patsubst $(BUILD)/%,%,$(INSTALL_BUILT)); do \
		echo "install -D -m 644 $(BUILD)/$$f $(DESTDIR)$(FTV_DATADIR)/$$f"; \
		install -D -m 644 $(BUILD)/$$f $(DESTDIR)$(FTV_DATADIR)/$$f; \
	done
	@set -e; for f in $(patsubst corpus/%,%,$(INSTALL_SOURCE)); do \
		echo "install -D -m 644 corpus/$$f $(DESTDIR)$(FTV_DATADIR)/$$f"; \
		install -D -m 644 corpus/$$f $(DESTDIR)$(FTV_DATADIR)/$$f; \
	done
	install -d $(DESTDIR)$(FTV_DATADIR)/campaigns
	install -m 644 $(INSTALL_CAMPAIGNS) $(DESTDIR)$(FTV_DATADIR)/campaigns

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ftv $(DESTDIR)$(MANDIR)/man1/ftv.1 \
		$(DESTDIR)$(MANDIR)/man5/ftv-scenario.5 \
		$(DESTDIR)$(BASHCOMPDIR)/ftv
	rm -rf $(DESTDIR)$(FTV_DATADIR)
