// One variant of step 10 as make variants (tools/measure/variants.py) builds it: its kernel
// for configuration 0 (16-byte copies, cp.async) and that configuration's geometry, read from
// the variant's own copy of kConfigs[0].
#pragma once

#include "measure_kernel.cuh"

namespace sgemm_tools {

/// A variant's kernel and how to launch it.
struct Variant {
    const char* name;  ///< the patch's name, "shipped" for none
    KernelFn kernel;   ///< configuration 0's kernel
    int BM, BN, BK, stages, unroll;  ///< configuration 0's tile and pipeline
    int threads;       ///< per block
    int smem;          ///< dynamic shared memory per block, bytes (Config::smem_bytes())
};

}  // namespace sgemm_tools
