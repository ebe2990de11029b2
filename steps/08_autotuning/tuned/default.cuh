/// @file
/// @brief Step 08's tile sizes for GPUs that `make tune STEP=08` has not been run on:
///        step 07's configuration, which takes 127 to 168 registers per thread by
///        architecture (143 on sm_75 and sm_86, 168 on sm_100: docs/results/configs_by_arch.txt)
///        and 25 KB of shared memory per block, and so fits every GPU from sm_75 on. Written by hand.
#pragma once

namespace step08 {

/// The tile sizes step 08 is compiled with when there is no tuned/sm_XX.cuh: one entry,
/// chosen on every GPU (blocks_per_sm 1: whatever occupancy the GPU gives it).
inline constexpr Tuned kTuned[] = {
    {64, 128, 32, 8, 8, 1, 0, "default", ""},
};

}  // namespace step08
