/* `ftv litmus` on herd7's syntax: the init block, the columns, the
 * condition's operators, herd's output shape, kinds files, and one clear
 * line (file, line, construct; exit 2) for what ftv does not model. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Returns a malloc'd path under the build directory. */
static char *write_tmp(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", ftv_test_env("FTV_BUILD"), name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return strdup(path);
}

/* Runs ftv litmus [a1 [a2 [a3]]] FILE; returns the exit status, *out the
 * output. */
static int litmus(const char *file, char **out, const char *a1,
		  const char *a2, const char *a3)
{
	char *argv[8];
	int n = 0;

	argv[n++] = (char *)ftv_test_env("FTV");
	argv[n++] = "litmus";
	if (a1)
		argv[n++] = (char *)a1;
	if (a2)
		argv[n++] = (char *)a2;
	if (a3)
		argv[n++] = (char *)a3;
	argv[n++] = (char *)file;
	argv[n] = NULL;
	return ftv_test_run(argv, out);
}

static const char sm_isb[] =
	"AArch64 SM.B+isb-test\n"
	"\"a doc string\"\n"
	"Stable=X9\n"
	"(* a comment { with braces } *)\n"
	"{ 0:X0=NOP; 0:X1=P0:L0;\n"
	"  int 0:X9=0; }\n"
	" P0          ;\n"
	" STR W0,[X1] ;\n"
	" ISB         ;\n"
	"L0:          ;\n"
	" B L1        ; (* old: skip *)\n"
	" MOV W9,#1   ;\n"
	"L1:          ;\n"
	"exists (0:X9=0)\n";

START_TEST(herd_file_runs_and_prints_herds_shape)
{
	char *f = write_tmp("sm_isb.litmus", sm_isb), *out = NULL;

	ck_assert_int_eq(litmus(f, &out, "--herd", NULL, NULL), 0);
	ck_assert_msg(strstr(out, "Test SM.B+isb-test Allowed\nStates 2\n0:X9=0;\n0:X9=1;\nOk\n"
			      "Witnesses\nPositive: 3 Negative: 2\n"
			      "Condition exists (0:X9=0)\n"
			      "Observation SM.B+isb-test Sometimes 3 2\nTime SM.B+isb-test "),
		      "%s", out);
	free(out);
	/* ftv's own line, with no expectation given */
	ck_assert_int_eq(litmus(f, &out, NULL, NULL, NULL), 0);
	ck_assert_msg(strstr(out, "SM.B+isb-test                    Allowed   expected -         -"),
		      "%s", out);
	free(out);
	free(f);
}
END_TEST

START_TEST(kinds_file_gives_the_expectation)
{
	char *f = write_tmp("sm_isb.litmus", sm_isb), *out = NULL;
	char *ok = write_tmp("ok.kinds", "# herd7 says\nSM.B+isb-test Allowed\n");
	char *wrong = write_tmp("wrong.kinds", "other Forbidden\nSM.B+isb-test Forbidden\n");
	char *bad = write_tmp("bad.kinds", "SM.B+isb-test\n");

	ck_assert_int_eq(litmus(f, &out, "--kinds", ok, NULL), 0);
	ck_assert_msg(strstr(out, "Allowed   expected Allowed   ok"), "%s", out);
	free(out);
	ck_assert_int_eq(litmus(f, &out, "--kinds", wrong, NULL), 1);
	ck_assert_msg(strstr(out, "Allowed   expected Forbidden MISMATCH"), "%s", out);
	free(out);
	ck_assert_int_eq(litmus(f, &out, "--kinds", bad, NULL), 2);
	ck_assert_msg(strstr(out, "bad.kinds:1: expected 'NAME Allowed|Forbidden|Required'"),
		      "%s", out);
	free(out);
	free(f);
	free(ok);
	free(wrong);
	free(bad);
}
END_TEST

/* One thread, one outcome (X9=1, [x]=2): each quantifier and operator. */
START_TEST(condition_operators_and_quantifiers)
{
	static const struct {
		const char *cond, *test, *obs;
	} c[] = {
		{ "forall (0:X9=1 /\\ [x]=2)", "Required", "Always 1 0" },
		{ "forall 0:X9=0", "Required", "Never 0 1" },
		{ "~exists (0:X9=0)", "Allowed", "Never 0 1" },
		{ "exists (0:X9=0 \\/ x=2)", "Allowed", "Always 1 0" },
		{ "exists ~(0:X9=1)", "Allowed", "Never 0 1" },
		{ "exists (0:X9=1 /\\ ~(x=3 \\/ 0:X9=7))", "Allowed", "Always 1 0" },
		{ "exists 0:X9=0 => x=5", "Allowed", "Always 1 0" },
		{ "exists 0:X9!=1", "Allowed", "Never 0 1" },
		{ "exists (true)", "Allowed", "Always 1 0" },
		{ "exists 0:W9=1 /\\ 0:X10=-1", "Allowed", "Always 1 0" },
		{ "", "Required", "Always 1 0" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char text[512], want[128], *f, *out = NULL;

		snprintf(text, sizeof(text),
			 "AArch64 ops%zu\n"
			 "{ 0:X3=x; x=1; uint64_t 0:X10=-1; }\n"
			 " P0 ;\n"
			 " MOV W9,#1 ;\n"
			 " MOV W4,#2 ;\n"
			 " STR W4,[X3] ;\n"
			 "%s\n", i, c[i].cond);
		f = write_tmp("ops.litmus", text);
		ck_assert_int_eq(litmus(f, &out, "--herd", NULL, NULL), 0);
		snprintf(want, sizeof(want), "Test ops%zu %s\n", i, c[i].test);
		ck_assert_msg(strstr(out, want), "%s: %s", c[i].cond, out);
		snprintf(want, sizeof(want), "Observation ops%zu %s\n", i, c[i].obs);
		ck_assert_msg(strstr(out, want), "%s: %s", c[i].cond, out);
		free(out);
		free(f);
	}
}
END_TEST

/* Two columns, labels in cells, a code address and a location holding a
 * code address in the init block, a branch through it. */
START_TEST(columns_labels_and_code_addresses_in_data)
{
	char *f = write_tmp("br.litmus",
			    "AArch64 BR-data\n"
			    "{ [p]=P1:L2; 0:X3=p; 0:X4=P1:L3; 1:X3=p; }\n"
			    " P0          | P1          ;\n"
			    " STR X4,[X3] | LDR X5,[X3] ;\n"
			    "             | BR X5       ;\n"
			    "             | L2: MOV W9,#2 ;\n"
			    "             | B L4        ;\n"
			    "             | L3: MOV W9,#3 ;\n"
			    "             | L4:         ;\n"
			    "locations [1:X5;]\n"
			    "exists 1:X9=3\n"),
	     *out = NULL;

	ck_assert_int_eq(litmus(f, &out, "--herd", NULL, NULL), 0);
	ck_assert_msg(strstr(out, "States 2\n1:X5=label:\"P1:L2\"; 1:X9=2;\n1:X5=label:\"P1:L3\"; 1:X9=3;\nOk\n"),
		      "%s", out);
	free(out);
	free(f);
}
END_TEST

/* What ftv does not model is one line: file, line, construct; exit 2. */
/* The catalogue's typed declarations (`ins_t *1:X1`, `void *1:X9`,
 * `ins_t *z`: types only, values 0 unless given) and label:"Pn:L" values
 * (code addresses, in the init block and the condition): P1 branches
 * through a code address it loaded (BR, a data dependency into a
 * fetch), to the one P0 published or the initial one, and nowhere else.
 * The header lines herd and diy7 write (Variant, Cycle, Generator, Relax,
 * Safe, Prefetch, Com, Orig) are read. */
START_TEST(typed_declarations_and_label_values)
{
	static const char text[] =
		"AArch64 BR.typed\n"
		"Variant=ifetch\n"
		"Cycle=Rfe DpAddrdR Fetch\n"
		"Generator=diy7 (version 7.58)\n"
		"Relax=Rfe DpAddrdR\n"
		"Safe=Fetch\n"
		"Prefetch=0:x=F,1:x=T\n"
		"Com=Rf\n"
		"Orig=Rfe DpAddrdR Fetch\n"
		"{ [z]=P1:L1; ins_t *z; ins_t *1:X1; void *1:X9;\n"
		"  1:X3=z; 0:X1=label:\"P1:L2\"; 0:X3=z; }\n"
		" P0          | P1          ;\n"
		" STR X1,[X3] | LDR X1,[X3] ;\n"
		"             | BR X1       ;\n"
		"             | L1:         ;\n"
		"             | MOV W9,#1   ;\n"
		"             | B L3        ;\n"
		"             | L2:         ;\n"
		"             | MOV W9,#2   ;\n"
		"             | L3:         ;\n"
		"forall (1:X9=1 /\\ 1:X1=label:\"P1:L1\") \\/ (1:X9=2 /\\ 1:X1=P1:L2)\n";
	char *f = write_tmp("typed.litmus", text), *out = NULL;
	int rc = litmus(f, &out, "--herd", NULL, NULL);

	ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, "States 2\n") &&
		      strstr(out, "Observation BR.typed Always "), "%s", out);
	free(out);
	free(f);
}
END_TEST

/* What herd's language has and ftv does not model is a verdict of its
 * own, `unsupported`, naming the file, line and construct (exit 3: not
 * decided); a malformed test is one error line (exit 2). */
START_TEST(unmodelled_constructs_name_file_line_and_construct)
{
	static const struct {
		const char *text, *msg;
		int rc;
	} c[] = {
		{ "RISCV T\n{ }\n P0 ;\n nop ;\nexists 0:x1=0\n",
		  "t.litmus:1: 'RISCV': ftv reads herd tests for AArch64 only", 3 },
		{ "AArch64 T\nVariant=vmsa\n{ }\n P0 ;\n NOP ;\nexists 0:X1=0\n",
		  "t.litmus:2: Variant=vmsa: not modelled by ftv", 3 },
		{ "AArch64 T\nCacheType=FOO\n{ }\n P0 ;\n NOP ;\nexists 0:X1=0\n",
		  "t.litmus:2: CacheType=FOO: ftv models DIC and IDC only", 3 },
		{ "AArch64 T\n{\n int a[2];\n}\n P0 ;\n NOP ;\nexists 0:X1=0\n",
		  "t.litmus:3: 'int a[2]': arrays and pointers to pointers in the init block are not modelled by ftv", 3 },
		{ "AArch64 T\n{\n int **p;\n}\n P0 ;\n NOP ;\nexists 0:X1=0\n",
		  "t.litmus:3: 'int **p': arrays and pointers to pointers in the init block are not modelled by ftv", 3 },
		{ "AArch64 T\n{ pte_x=(oa:phy_y, valid:0); }\n P0 ;\n NOP ;\nexists 0:X1=0\n",
		  "t.litmus:2: 'pte_x=(oa:phy_y, valid:0)': page table entries other than (oa:phy_x) are not modelled by ftv", 3 },
		{ "AArch64 T\n{ }\n P0 ;\n SWP W0,W1,[X2] ;\nexists 0:X1=0\n",
		  "t.litmus:4: 'SWP W0,W1,[X2]': unknown instruction 'swp': not modelled by ftv", 3 },
		{ "AArch64 T\n{ }\n P0 ;\n NOP ;\nfilter 0:X1=0\nexists 0:X1=0\n",
		  "t.litmus:5: filter: not modelled by ftv", 3 },
		{ "AArch64 T\n{ }\n P0 ;\n NOP ;\nexists fault(P0:L0,TagCheck)\n",
		  "t.litmus:5: fault(..., TagCheck): ftv models only UndefinedInstruction faults", 3 },
		{ "AArch64 T\n{ }\n P0 | P2 ;\n NOP | NOP ;\nexists 0:X1=0\n",
		  "t.litmus:3: threads must be P0, P1, ... without gaps: P1 is missing", 2 },
		{ "AArch64 T\n{ 0:X1=1 }\n P0 ;\n NOP | NOP ;\nexists 0:X1=0\n",
		  "t.litmus:4: expected a row of at most 1 cells ending in ';'", 2 },
		{ "AArch64 T\n{ 0:Q1=1; }\n P0 ;\n NOP ;\nexists 0:X1=0\n",
		  "t.litmus:2: bad register '0:Q1' (want T:XN)", 2 },
		{ "AArch64 T\n{ 0:X1=label:\"L0\"; }\n P0 ;\n NOP ;\nexists 0:X1=0\n",
		  "t.litmus:2: bad label value 'label:\"L0\"' (want label:\"Pn:L\")", 2 },
		{ "AArch64 T\n{ }\n P0 ;\n B L9 ;\nexists 0:X1=0\n",
		  "t.litmus:4: 'B L9': operands do not match any form of 'b'", 2 },
		{ "AArch64 T\n{ }\n P0 ;\n NOP ;\nexists (0:X1=0\n",
		  "t.litmus:5: condition: ')' expected", 2 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *f = write_tmp("t.litmus", c[i].text), *out = NULL;
		int rc = litmus(f, &out, NULL, NULL, NULL);

		ck_assert_msg(rc == c[i].rc, "exit %d, want %d: %s", rc, c[i].rc, out);
		/* an unsupported test is named: a verdict line, on stdout */
		ck_assert(c[i].rc != 3 || (!strncmp(out, "T  ", 3) && strstr(out, " unsupported: ")));
		ck_assert_msg(strstr(out, c[i].msg) && !strchr(strchr(out, '\n') + 1, '\n'),
			      "want '%s' in one line, got: %s", c[i].msg, out);
		free(out);
		free(f);
	}
}
END_TEST

/* herd's fault handlers: a thread stores UDF over its own next
 * instruction with full synchronisation; executing it takes the exception
 * to P0.F, which returns past it with ERET; without a handler the thread
 * ends at the fault. fault() conditions see either. */
START_TEST(fault_handlers_and_fatal_faults)
{
	static const char *const body =
		"{ 0:X0=0; 0:X1=P0:L1; 0:X2=0; }\n"
		" P0           %s ;\n"
		" STR W0,[X1]  %s ;\n"
		" DC CVAU,X1   %s ;\n"
		" DSB ISH      %s ;\n"
		" IC IVAU,X1   %s ;\n"
		" DSB ISH      %s ;\n"
		" ISB          %s ;\n"
		"L1: MOV W2,#1 %s ;\n"
		"L2:           %s ;\n"
		"%s\n";
	static const char *const fh[] = { "| P0.F", "| ADD W2,W2,#10",
					   "| ADR X9,L2", "| MSR ELR_EL1,X9",
					   "| ERET", "|", "|", "|", "|" };
	char text[1024], *f, *out = NULL;

	snprintf(text, sizeof(text), "AArch64 fh\n");
	snprintf(text + strlen(text), sizeof(text) - strlen(text), body, fh[0],
		 fh[1], fh[2], fh[3], fh[4], fh[5], fh[6], fh[7], fh[8],
		 "forall (0:X2=10 /\\ fault(P0:L1,UndefinedInstruction))");
	f = write_tmp("fh.litmus", text);
	ck_assert_int_eq(litmus(f, &out, "--herd", NULL, NULL), 0);
	ck_assert_msg(strstr(out, "Test fh Required\nStates 1\n"
				  "0:X2=10; Fault(P0:L1,UndefinedInstruction);\nOk\n"),
		      "%s", out);
	free(out);
	free(f);
	snprintf(text, sizeof(text), "AArch64 fatal\n");
	snprintf(text + strlen(text), sizeof(text) - strlen(text), body, "", "",
		 "", "", "", "", "", "", "", "exists (0:X2=0 /\\ fault(P0:L1))");
	f = write_tmp("fatal.litmus", text);
	ck_assert_int_eq(litmus(f, &out, "--herd", NULL, NULL), 0);
	ck_assert_msg(strstr(out, "Observation fatal Always 1 0"), "%s", out);
	free(out);
	free(f);
}
END_TEST

/* A final state holding an instruction the test names prints it as the
 * test writes it, as herd does (instr:"B .+8", not its disassembly). */
START_TEST(instruction_values_print_as_written)
{
	static const char text[] =
		"AArch64 insn.print\n"
		"{ 0:X0=instr:\"B .+8\"; 0:X1=P0:L0; }\n"
		" P0          ;\n STR W0,[X1] ;\n LDR W6,[X1] ;\n"
		"L0: ;\n NOP ;\n"
		"exists 0:X6=instr:\"B .+8\"\n";
	char *f = write_tmp("insn-print.litmus", text), *out = NULL;

	ck_assert_int_eq(litmus(f, &out, "--herd", NULL, NULL), 0);
	ck_assert_msg(strstr(out, "States 1\n0:X6=instr:\"B .+8\";\nOk\n"), "%s", out);
	free(out);
	free(f);
}
END_TEST

/* herd's CacheType line reaches the model: DIC (which herd takes as DIC
 * and IDC) needs no cache maintenance before the ISB. */
START_TEST(cache_type_line_selects_dic_and_idc)
{
	static const char body[] =
		"{ 0:X0=NOP; 0:X1=P0:L0; }\n"
		" P0 ;\n STR W0,[X1] ;\n DSB ISH ;\n ISB ;\n"
		"L0: ;\n B L1 ;\n MOV W9,#1 ;\nL1: ;\n"
		"exists 0:X9=0\n";
	char text[512], *f, *out = NULL;

	snprintf(text, sizeof(text), "AArch64 dic\nCacheType=DIC\n%s", body);
	f = write_tmp("dic.litmus", text);
	ck_assert_int_eq(litmus(f, &out, "--herd", NULL, NULL), 0);
	ck_assert_msg(strstr(out, "Observation dic Never 0 1"), "%s", out);
	free(out);
	free(f);
	snprintf(text, sizeof(text), "AArch64 nodic\n%s", body);
	f = write_tmp("nodic.litmus", text);
	ck_assert_int_eq(litmus(f, &out, "--herd", NULL, NULL), 0);
	ck_assert_msg(strstr(out, "Observation nodic Sometimes 1 1"), "%s", out);
	free(out);
	free(f);
}
END_TEST

/* Issue 30's crashers (tests/data/litmus/): three-thread shapes whose
 * walk runs out of time and hands over to the random search, which once
 * grew Unicorn's translations without bound and died inside libunicorn.
 * Each now ends with a verdict line naming the budget that stopped it:
 * the time (the walk and the random search both run: the unreduced walk,
 * --reduce off, is the one that needs it), and the memory. */
START_TEST(budget_bound_three_thread_tests_end_with_a_verdict)
{
	static const char *const files[] = {
		"MP.RF+dc-dsb-ic-dsb+ctrlisb+v12.litmus",
		"MP.FF+dc-dsb-ic-dsb+isb+v12.litmus",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[512], *out = NULL;
		int rc;

		snprintf(path, sizeof(path), "%s/tests/data/litmus/%s",
			 ftv_test_env("FTV_TOP"), files[i]);
		/* unreduced (reduced, each is decided: test_litmus_reduce) */
		rc = litmus(path, &out, "--reduce=off", "--time-limit", "2");
		ck_assert_msg(rc == 0 && strstr(out, "INCOMPLETE (budget: 2 s)") &&
			      strstr(out, "Forbidden expected -"),
			      "%s: exit %d: %s", files[i], rc, out);
		free(out);
		rc = litmus(path, &out, "--max-mem", "1", NULL);
		ck_assert_msg(rc == 0 && strstr(out, "INCOMPLETE (budget: 1 MiB of memory)"),
			      "%s: exit %d: %s", files[i], rc, out);
		free(out);
	}
}
END_TEST

static Suite *litmus_herd_suite(void)
{
	Suite *s = suite_create("litmus_herd");
	TCase *tc = tcase_create("herd");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, herd_file_runs_and_prints_herds_shape);
	tcase_add_test(tc, kinds_file_gives_the_expectation);
	tcase_add_test(tc, condition_operators_and_quantifiers);
	tcase_add_test(tc, columns_labels_and_code_addresses_in_data);
	tcase_add_test(tc, typed_declarations_and_label_values);
	tcase_add_test(tc, unmodelled_constructs_name_file_line_and_construct);
	tcase_add_test(tc, fault_handlers_and_fatal_faults);
	tcase_add_test(tc, cache_type_line_selects_dic_and_idc);
	tcase_add_test(tc, instruction_values_print_as_written);
	tcase_add_test(tc, budget_bound_three_thread_tests_end_with_a_verdict);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(litmus_herd, litmus_herd_suite)
