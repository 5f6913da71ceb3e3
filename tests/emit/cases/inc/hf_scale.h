/* The scale hf_inner.h means (see hf_inner.h). */
#define HF_INNER_SCALE 3
