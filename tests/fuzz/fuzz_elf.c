/* ELF objects as `ftv load`, scenarios and fuzz load them: any bytes
 * through sim_image_add_mem and sim_image_link, the whole loader (the ELF
 * reader, its checks of relocatable objects, placement, relocation and
 * patch-site discovery) for arm64 and riscv64, plain or compressed. The
 * input is named after its magic bytes (fuzz.ko.xz, .zst, .gz, or
 * fuzz.ko), as a file of that format would be; its length's parity picks
 * a kernel object (even) or a module (odd), so both paths get inputs
 * without a flag byte the ELF mutations would disturb. Undefined symbols
 * are stubbed, as `ftv load --stub-undefined` does. */
#include "tests/fuzz/harness.h"

#include <stdlib.h>
#include <string.h>

#include "sim/image.h"
#include "util/decompress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		[FTV_Z_NONE] = "fuzz.ko", [FTV_Z_XZ] = "fuzz.ko.xz",
		[FTV_Z_ZSTD] = "fuzz.ko.zst", [FTV_Z_GZIP] = "fuzz.ko.gz",
	};
	struct sim_load_opts o = { .stub_undefined = 1 };
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = sim_image_new(as, &o);
	uint8_t *copy = malloc(size ? size : 1);
	struct ftv_err err;

	if (!as || !img || !copy)
		abort();
	memcpy(copy, data, size);
	if (!sim_image_add_mem(img, names[ftv_z_detect(data, size)], copy, size, size & 1, &err))
		sim_image_link(img, &err);
	sim_image_free(img);
	sim_aspace_free(as);
	return 0;
}
