/* A decoy for inc/hf_inner.h's `#include "hf_scale.h"`: not the one C finds. */
#define HF_INNER_SCALE 5
