/*
 * stream_op.h - STREAM's four operations and its scalar, shared by
 * stream.c's loops (generic vectors, at every level ISA_CLONES builds)
 * and sve.c's (the SVE level, in SVE's own intrinsics).
 */
#ifndef MEMJOB_KERNELS_STREAM_OP_H
#define MEMJOB_KERNELS_STREAM_OP_H

#define STREAM_Q	3.0	/* STREAM's scalar */

enum stream_op {
	STREAM_COPY,		/* a = b */
	STREAM_SCALE,		/* a = q * b */
	STREAM_ADD,		/* a = b + c */
	STREAM_TRIAD,		/* a = b + q * c */
};

#endif
