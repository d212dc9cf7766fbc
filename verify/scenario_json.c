/* A scenario's configuration in the commands' JSON (verify/scenario.h). */
#include "verify/scenario.h"

#include "util/json.h"

void scenario_json_config(struct json *j, const struct scenario *s)
{
	json_key_str(j, "scheme", ftv_scheme_name(s->cfg.scheme));
	json_key_str(j, "arch", ftv_arch_name(ftv_scheme_arch(s->cfg.scheme)));
	json_key_u64(j, "cpus", s->cfg.exec.ncpus);
	json_key_str(j, "policy", exec_policy_name(s->cfg.exec.policy));
	json_key_u64(j, "seed", s->cfg.exec.seed);
	json_key_str(j, "mutate", s->cfg.mutant_name ? s->cfg.mutant_name : "none");
}
