/// @file
/// @brief Step 08's tile sizes for GPUs that `make tune STEP=08` has not been run on:
///        step 07's configuration, which needs 128 registers per thread and 25 KB of shared
///        memory per block and so fits every GPU from sm_60 on. Written by hand.
#pragma once

namespace step08 {

/// The tile sizes step 08 is compiled with when there is no tuned/sm_XX.cuh.
struct Tuned {
    static constexpr int BM = 64;   ///< rows of C per block
    static constexpr int BN = 128;  ///< columns of C per block
    static constexpr int BK = 32;   ///< depth of the A and B tiles in shared memory
    static constexpr int TM = 8;    ///< rows of C per thread
    static constexpr int TN = 8;    ///< columns of C per thread
};

}  // namespace step08
