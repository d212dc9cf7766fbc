/* What applying one relocation can come to, for every architecture's
 * relocation code (sim/reloc_<arch>.h). */
#ifndef FTV_SIM_RELOC_H
#define FTV_SIM_RELOC_H

enum sim_reloc_status {
	SIM_RELOC_OK = 0,
	SIM_RELOC_OVERFLOW,  /* X outside the type's range; *x holds X */
	SIM_RELOC_UNKNOWN,   /* a type ftv does not implement */
};

#endif
