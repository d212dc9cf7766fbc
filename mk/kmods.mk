# Real kernel modules: Debian trixie's arm64 cloud kernel (about 1,080
# modules built with CALL_OPS), fetched once with apt-get download into a
# cache outside the tree and unpacked under build/kmods.
KMOD_CACHE ?= $(if $(HOME),$(HOME),/tmp)/.cache/ftv/kernel
KMOD_DIR   := build/kmods

.PHONY: corpus-kernel
corpus-kernel: $(KMOD_DIR)/.unpacked
$(KMOD_DIR)/.unpacked: tools/fetch-debian-kernel.sh
	sh tools/fetch-debian-kernel.sh '^linux-image-.*-cloud-arm64-unsigned$$' $(KMOD_CACHE) $(KMOD_DIR)
	touch $@

CHECK_DEPS += corpus-kernel

# The loader layouts `ftv capture` records for these modules ("module:" and
# placed "text:" lines), checked against an independent reading with
# pyelftools (tools/kmod-layout.py). A few minutes of Python: not part of
# make check.
.PHONY: kmod-layout
kmod-layout: $(FTV) corpus-kernel
	moddir=$$(ls -d $(KMOD_DIR)/usr/lib/modules/*/ | tail -n 1); \
	$(FTV) capture $$(sed "s|^|$$moddir|; s|\$$|.xz|" $$moddir/modules.order) \
		-o $(BUILD)/kmods.layout.xz && \
	$(PYTHON) tools/kmod-layout.py $$moddir $(BUILD)/kmods.layout.xz
