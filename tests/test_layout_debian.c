/* The committed layout of Debian trixie's arm64 cloud kernel and its 1,083
 * modules (corpus/layouts/, made by tools/capture-debian-layout.sh): it
 * parses strictly, its header counts agree with its lines, every address
 * lies in the captured text of its module and section, every module says
 * how the loader lays it out, and its kinds are those of a CALL_OPS
 * kernel. */
#include "tests/suite.h"
#include "layout/layout.h"
#include "util/decompress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEBIAN_LAYOUT "corpus/layouts/debian-trixie-arm64-6.12.107-cloud.layout.xz"

static struct sim_layout *debian(void)
{
	char path[4096];
	struct ftv_err err;
	struct sim_layout *l;

	ftv_test_path(path, sizeof(path), "FTV_TOP", DEBIAN_LAYOUT);
	l = sim_layout_load(path, &err);
	ck_assert_msg(l, "%s", err.msg);
	return l;
}

START_TEST(header_counts_match_the_lines)
{
	char path[4096];
	uint8_t *text;
	size_t tlen, lines = 0, sites = 0;
	struct ftv_err err;
	struct sim_layout *l = debian();

	/* Count the site lines without the parser. */
	ftv_test_path(path, sizeof(path), "FTV_TOP", DEBIAN_LAYOUT);
	ck_assert_msg(!ftv_read_file(path, 1u << 30, &text, &tlen, &err), "%s",
		      err.msg);
	for (size_t i = 0; i < tlen; i++) {
		if (i == 0 || text[i - 1] == '\n') {
			lines++;
			sites += text[i] != '#';
		}
	}
	ck_assert_uint_eq(sites, l->nsites);
	ck_assert_ptr_nonnull(strstr((char *)text, "\n# kernel: 6.12.107+deb13-cloud-arm64\n"));
	/* The kernels' own tables: vmlinux's (__stop_mcount_loc -
	 * __start_mcount_loc) / 8 = 44,216 entries, 336 of them null, and the
	 * modules' __patchable_function_entries, 52,738 entries (pyelftools
	 * counts the same: tools/kmod-sites.py); every non-null one a site. */
	ck_assert(l->has_table);
	ck_assert_uint_eq(l->table_entries - l->table_null, l->nsites);
	ck_assert_uint_eq(l->table_entries, 44216 + 52738);
	ck_assert_uint_eq(l->table_null, 336);
	ck_assert_uint_eq(l->nsites, 43880 + 52738);
	free(text);
	sim_layout_free(l);
}
END_TEST

START_TEST(every_address_is_inside_the_captured_text)
{
	struct sim_layout *l = debian();
	size_t vmlinux = 0;

	ck_assert_uint_ge(l->ntexts, 1);
	for (size_t i = 0; i < l->nsites; i++) {
		const struct sim_layout_site *s = &l->sites[i];
		const struct sim_layout_site *p = i ? &l->sites[i - 1] : NULL;

#define IN(a) sim_layout_text_at(l, s->module, s->section, (a))
		ck_assert_msg(s->has_entry && IN(s->entry), "site %zu", i);
		ck_assert_msg(!s->has_ip || IN(s->ip), "site %zu", i);
		ck_assert_msg(!s->func || IN(s->faddr), "site %zu", i);
#undef IN
		/* vmlinux's sites have addresses, the modules' are offsets
		 * into their sections */
		ck_assert_int_eq(!strcmp(s->module, "vmlinux"), !s->section);
		vmlinux += !s->section;
		/* Sorted by module, section and entry: one site per entry. */
		if (p && p->module == s->module && p->section == s->section)
			ck_assert_msg(p->entry < s->entry, "site %zu", i);
	}
	ck_assert_uint_eq(vmlinux, 43880);
	sim_layout_free(l);
}
END_TEST

/* Every module says how the loader lays it out: its memories' sizes, its
 * ftrace PLT inside its text, each text range placed in text or init_text;
 * the image line gives the kernel's _text and _end (System.map). */
START_TEST(every_module_is_laid_out_for_the_loader)
{
	struct sim_layout *l = debian();
	size_t with_sites = 0;

	ck_assert(l->has_image);
	ck_assert_uint_eq(l->image_start, 0xffff800080000000ull);
	ck_assert_uint_eq(l->image_end, 0xffff800081e70000ull);
	ck_assert_uint_eq(l->nmodules, 1083);
	for (size_t i = 0; i < l->nmodules; i++) {
		const struct sim_layout_module *m = &l->modules[i];

		ck_assert_msg(m->has_mem && m->plt_kind == SIM_PLT_OFFSET, "%s", m->name);
		ck_assert_msg(m->plt + 12 <= m->mem[SIM_MOD_TEXT], "%s", m->name);
		for (size_t k = 0; k < l->ntexts; k++)
			if (l->texts[k].module == m->name)
				ck_assert_msg(l->texts[k].mem == SIM_MOD_TEXT ||
					      l->texts[k].mem == SIM_MOD_INIT_TEXT, "%s", m->name);
	}
	for (size_t i = 0; i < l->nsites; i++)
		with_sites += l->sites[i].section &&
			      (i == 0 || l->sites[i - 1].module != l->sites[i].module);
	/* a dozen modules have no traced function (cast_common, ...) */
	ck_assert_uint_eq(with_sites, 1071);
	sim_layout_free(l);
}
END_TEST

START_TEST(kinds_are_those_of_a_call_ops_kernel)
{
	struct sim_layout *l = debian();
	size_t n[SIM_LAYOUT_NKINDS] = { 0 }, callops;

	for (size_t i = 0; i < l->nsites; i++) {
		const struct sim_layout_site *s = &l->sites[i];

		n[s->kind]++;
		if (!sim_layout_kind_is_callops(s->kind))
			continue;
		/* The literal slot: two NOPs at func-8, 8-byte aligned. */
		ck_assert_uint_eq(s->entry % 8, 0);
		ck_assert_uint_eq(s->faddr, s->entry + 8);
		ck_assert_uint_eq(s->words[0], 0xd503201f);
		ck_assert_uint_eq(s->words[1], 0xd503201f);
	}
	callops = n[SIM_LAYOUT_CALLOPS] + n[SIM_LAYOUT_CALLOPS_BTI] +
		  n[SIM_LAYOUT_CALLOPS_PAC];
	/* Debian builds with CALL_OPS and PTR_AUTH_KERNEL (not BTI_KERNEL):
	 * non-leaf functions sign their return address after the NOPs. */
	ck_assert_uint_ge(callops * 100, l->nsites * 99);
	ck_assert_uint_gt(n[SIM_LAYOUT_CALLOPS_PAC], n[SIM_LAYOUT_CALLOPS]);
	ck_assert_uint_eq(n[SIM_LAYOUT_MCOUNT], 0);
	ck_assert_uint_eq(n[SIM_LAYOUT_ARGS], 0);
	sim_layout_free(l);
}
END_TEST

static Suite *layout_debian_suite(void)
{
	Suite *s = suite_create("layout_debian");
	TCase *tc = tcase_create("committed");

	/* 96,618 sites, parsed strictly: seconds, more under ASan */
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, header_counts_match_the_lines);
	tcase_add_test(tc, every_address_is_inside_the_captured_text);
	tcase_add_test(tc, every_module_is_laid_out_for_the_loader);
	tcase_add_test(tc, kinds_are_those_of_a_call_ops_kernel);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(layout_debian, layout_debian_suite)
