/// @file choose.h
/// @brief How a launcher with several compiled-in configurations picks the one it runs.
///        First by the GPU: the configurations it can hold as they were measured, i.e. with
///        as many blocks per SM as when they were measured (choose()). Then by the problem's
///        shape: of those, the one whose blocks, in waves over the SMs, should finish first,
///        with K split into slices where that pays (choose_shape()).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpu/gpu.h"

namespace sgemm {

/// One configuration a launcher may run, as the choice sees it.
struct Candidate {
    std::string name;               ///< e.g. "128x256x32, 3 stages"
    int threads = 0;                ///< per block
    std::size_t static_smem = 0;    ///< static shared memory per block, bytes
    std::size_t dynamic_smem = 0;   ///< dynamic shared memory per block, bytes
    int regs = 0;                   ///< registers per thread (the compiled kernel's, or its cap)
    int blocks_per_sm = 1;          ///< blocks per SM it was measured with (and is chosen for)
    int BM = 0;                     ///< rows of C per block tile (0: not known; shape is not weighed)
    int BN = 0;                     ///< columns of C per block tile
    int BK = 0;                     ///< depth of a K-tile (split-K cuts K in whole K-tiles)
    /// Its speed at 4096^3 on the H100 (its own class or the forced one), % of the FP32 peak;
    /// only the ratios between candidates matter. 0: not measured (counted as equal).
    double pct_of_peak = 0;
    /// False where its kernel is not compiled for the GPU that runs it (the step's Layout says
    /// which architectures lack it, and why): such a candidate never fits.
    bool built = true;
};

/// What choose() decided.
struct Choice {
    int index = -1;                 ///< into the candidates; -1: none fits (see why)
    std::size_t dynamic_smem = 0;   ///< to launch with (more than the candidate's under a forced class)
    int blocks_per_sm = 0;          ///< on the limits in force
    std::string why;                ///< one line: what ruled out the ones before it
    /// Every candidate the GPU holds as it was measured, in list order (just `index` when none
    /// does), with the dynamic shared memory to launch each with: choose_shape() picks among them.
    std::vector<int> admitted;
    std::vector<std::size_t> admitted_smem;  ///< dynamic shared memory of each admitted one
};

/// The first candidate that fits @p g and reaches the blocks per SM it was measured with;
/// if none does, the first that fits at all; if none fits, index -1. Under a forced class,
/// dynamic_smem holds the GPU that is there (@p actual) to the class's blocks per SM.
Choice choose(const Gpu& g, const Gpu& actual, const std::vector<Candidate>& candidates);

/// What one SM computes and the GPU's memory moves per second: the two rates choose_shape()
/// weighs a split of K with (it adds traffic but fills idle SMs).
struct Rates {
    double gflops_per_sm = 0;  ///< peak FP32 GFLOP/s of one SM (lanes x 2 x clock)
    double gbytes_per_s = 0;   ///< device-memory bandwidth, GB/s
};

/// The rates of the GPU in this process (device 0), queried once: the clock, FP32 lanes, memory
/// clock and bus width the driver reports. Under a forced class these stay the GPU's own.
const Rates& device_rates();

/// Which operands a step copies into padded buffers ("packs", BLIS's word) when their rows do
/// not start on 16-byte boundaries, so that its kernel's copies stay 16 bytes wide
/// (launch/pack.cuh; docs/alignment.md has the measurements behind each choice).
enum class Packing {
    kNone,  ///< neither: 4-byte accesses (steps 08 and 09, whose loads through registers lose little)
    kB,     ///< B, where N % 4 != 0; A is read in place (step 10: its A goes through registers)
    kAB,    ///< B, and A where K % 4 != 0 (steps 11 and 12: both travel by cp.async)
};

/// What packing makes of one M x N x K problem: which operands are copied, and the K and N the
/// kernel then sees (rounded up to multiples of 4, the new elements zero).
struct PackPlan {
    bool a = false;  ///< A copied into rows of K floats (K rounded up)
    bool b = false;  ///< B copied into K rows of N floats (both as the kernel sees them)
    int K = 0;       ///< the kernel's K
    int N = 0;       ///< the kernel's N: the rows of packed B, and of the product (the workspace)
    /// True if anything is copied.
    bool any() const { return a || b; }
};

/// The plan for an M x N x K problem under @p rule: B is packed where N % 4 != 0 and, under
/// kAB, A where K % 4 != 0, and B with it (its rows then number K rounded up).
inline PackPlan pack_plan(Packing rule, int N, int K) {
    PackPlan p;
    p.K = K, p.N = N;
    if (rule == Packing::kNone) return p;
    p.a = rule == Packing::kAB && K % 4 != 0;
    p.b = N % 4 != 0 || p.a;  // packed A has more columns: B needs as many rows
    if (p.a) p.K = (K + 3) / 4 * 4;
    if (p.b) p.N = (N + 3) / 4 * 4;
    return p;
}

/// Bytes packing moves for an M x N x K problem under plan @p p: each packed matrix read once
/// and written once, padded. The model adds them, at the memory bandwidth, to the packed
/// problem's estimate (Launcher::shape_choice()).
inline double pack_bytes(const PackPlan& p, int M, int N, int K) {
    double floats = 0;
    if (p.a) floats += double(M) * K + double(M) * p.K;
    if (p.b) floats += double(K) * N + double(p.K) * p.N;
    return floats * 4;
}

/// How one problem is run: which admitted candidate, in how many slices of K, and why.
struct ShapeChoice {
    int index = -1;                ///< into the candidates
    int splits = 1;                ///< slices of K (gridDim.z); 1: no split
    std::size_t dynamic_smem = 0;  ///< to launch with
    double est_us = 0;             ///< the estimate it won with, microseconds
    PackPlan pack;                 ///< what is packed first (nothing: pack.any() is false)
    std::string why;               ///< one line, for the report (only if asked for)
};

/// The most slices choose_shape() cuts K into, and the most workspace it lets them take.
constexpr int kMaxSplits = 16;
/// Split-K's partial products may take at most this many bytes.
constexpr std::size_t kMaxWorkspaceBytes = std::size_t(256) << 20;
/// Warps an SM needs resident to run these kernels at full speed, in the model: fewer leave
/// the FMA pipes waiting on latency (measured on the H100: step 09's 64 x 128 tile alone on an
/// SM, 4 warps, ran at half its speed with four blocks; step 10, 8 warps, at full speed).
constexpr double kWarpsToFill = 8.0;
/// What the model charges for one more kernel (split-K's sum, packing's copy), in microseconds:
/// of the order of a launch and the wait between two kernels on one stream (a model constant,
/// not a measurement).
constexpr double kSplitLaunchUs = 3.0;

/// The wave model's estimate for one candidate with K cut into @p splits slices (see
/// choose_shape()).
struct SplitEstimate {
    long long tiles = 0;   ///< tiles of C
    int splits = 1;        ///< slices of K, after dropping empty ones
    int k_tiles = 0;       ///< K-tiles per slice
    long long blocks = 0;  ///< tiles x splits
    double us = 0;         ///< estimated time, microseconds
};

/// The estimate choose_shape() weighs candidate @p c with, on @p g at rates @p r, for an
/// M x N x K problem with K cut into @p splits slices.
SplitEstimate estimate_split(const Candidate& c, const Gpu& g, const Rates& r, int M, int N, int K,
                             int splits);

/// For an M x N x K problem, the admitted candidate of @p device (and, for max_splits > 1, the
/// number of K slices) whose estimated time is least. The estimate is the wave model: a
/// candidate makes ceil(M / BM) * ceil(N / BN) * splits blocks; the busiest of @p g's SMs runs
/// ceil(blocks / SMs) of them, blocks_per_sm at a time, the last round possibly partial; each
/// block costs 2 BM BN (K / splits) FLOP at the candidate's measured share of the SM's peak
/// (@p r), and a round whose blocks hold fewer than kWarpsToFill warps runs that much slower.
/// A split adds the partial products' traffic (written once, read once, at the memory
/// bandwidth) and one more launch. Ties go to the earlier candidate and to fewer slices.
/// @p explain: fill in why (costs a few string operations).
ShapeChoice choose_shape(const Choice& device, const std::vector<Candidate>& candidates, const Gpu& g,
                         const Rates& r, int M, int N, int K, int max_splits, bool explain);

/// One candidate's line in a listing: blocks per SM on @p g and what limits them, or why it
/// does not fit.
std::string describe_fit(const Gpu& g, const Candidate& c);

/// Remembers a launcher's choice until the GPU in force changes (force_gpu_class()), so
/// that launching costs no device queries after the first time.
class ChoiceCache {
public:
    /// The choice for the GPU in force; @p make_candidates is called to recompute it.
    /// @throws DeviceError when no candidate fits the GPU
    template <class MakeCandidates>
    const Choice& get(const char* step, MakeCandidates&& make_candidates) {
        if (generation_ != limits_generation() || choice_.index < 0) {
            choice_ = choose(gpu_in_force(), actual_gpu(), make_candidates());
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
