/// @file choose.h
/// @brief How a launcher with several compiled-in configurations picks the one it runs:
///        the first, in the order of their speed on the H100, that the GPU can hold as it
///        was measured, i.e. with as many blocks per SM as when it was measured.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpu_limits.h"

namespace sgemm {

/// One configuration a launcher may run, as the choice sees it.
struct Candidate {
    std::string name;               ///< e.g. "128x256x32, 3 stages"
    int threads = 0;                ///< per block
    std::size_t static_smem = 0;    ///< static shared memory per block, bytes
    std::size_t dynamic_smem = 0;   ///< dynamic shared memory per block, bytes
    int regs = 0;                   ///< registers per thread (the compiled kernel's, or its cap)
    int blocks_per_sm = 1;          ///< blocks per SM it was measured with (and is chosen for)
};

/// What choose() decided.
struct Choice {
    int index = -1;                 ///< into the candidates; -1: none fits (see why)
    std::size_t dynamic_smem = 0;   ///< to launch with (more than the candidate's under a forced class)
    int blocks_per_sm = 0;          ///< on the limits in force
    std::string why;                ///< one line: what ruled out the ones before it
};

/// The first candidate that fits @p g and reaches the blocks per SM it was measured with;
/// if none does, the first that fits at all; if none fits, index -1. Under a forced class,
/// dynamic_smem holds the GPU that is there (@p actual) to the class's blocks per SM.
Choice choose(const GpuLimits& g, const GpuLimits& actual, const std::vector<Candidate>& candidates);

/// One candidate's line in a listing: blocks per SM on @p g and what limits them, or why it
/// does not fit.
std::string describe_fit(const GpuLimits& g, const Candidate& c);

/// Remembers a launcher's choice until the limits in force change (force_gpu_class()), so
/// that launching costs no device queries after the first time.
class ChoiceCache {
public:
    /// The choice for the limits in force; @p make_candidates is called to recompute it.
    /// @throws UsageError when no candidate fits the GPU
    template <class MakeCandidates>
    const Choice& get(const char* step, MakeCandidates&& make_candidates) {
        if (generation_ != limits_generation() || choice_.index < 0) {
            choice_ = choose(device_limits(), actual_limits(), make_candidates());
            generation_ = limits_generation();
            if (choice_.index < 0) fail(step, choice_);
        }
        return choice_;
    }

private:
    [[noreturn]] static void fail(const char* step, const Choice& c);
    Choice choice_;
    int generation_ = -1;
};

}  // namespace sgemm
