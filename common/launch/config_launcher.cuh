/// @file config_launcher.cuh
/// @brief The one selection and launch layer of the steps that hold several configurations
///        (08 to 12). A step states its configurations, its kernels and how a
///        configuration covers C (a Layout, below); Launcher<Layout> does the rest: it admits
///        the configurations the GPU (or the forced class) holds as they were measured
///        (sgemm::choose()), chooses one by the problem's shape, with K split where that pays
///        (sgemm::choose_shape()), opts into shared memory, launches over row slabs, and says
///        what it chose and why for the report.
///
/// A Layout is a struct with:
///   - `kName`: "step10", for messages;
///   - `kConfigs`: an array of configuration records with named fields BM, BN, BK,
///     blocks_per_sm (blocks per SM it was measured with) and pct_of_peak (its measured speed,
///     which the choice by shape weighs; an optional pct_unaligned is the same with 4-byte
///     copies, weighed when K % 4 != 0 or N % 4 != 0), and members threads(), smem_bytes()
///     (all its shared memory per block) and name();
///   - `kKernels`: a KernelTable (kernel_table()) of every configuration's kernels;
///   - `kMaxSplits`: the most slices of K it may be cut into (1: no split-K);
///   - `launch_geometry(config, M, N)`: grid, block and dynamic shared memory of one
///     configuration for an M x N C, unsplit;
///   - optionally `built(config, arch)`: false for an architecture whose kernels of that
///     configuration compile empty (the choice never offers it there);
///   - optionally `kPacking`: which operands it packs when their rows are not 16-byte
///     aligned (sgemm::Packing, launch/pack.cuh; kNone without it);
///   - optionally `kMaxK` and `kMaxN`: the largest K and N its kernels can address (no limit
///     without them); launch() refuses larger ones with a UsageError.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "device/cuda_check.cuh"
#include "errors.h"  // UsageError
#include "gpu/gpu.h"
#include "launch/choose.h"
#include "launch/kernel_types.cuh"
#include "launch/pack.cuh"
#include "launch/split_k.cuh"

namespace sgemm {

/// Which of a configuration's kernels one launch runs.
struct Access {
    bool vector_a = true;  ///< 16-byte loads of A: every row of A 16-byte aligned (K % 4 == 0)
    bool vector_b = true;  ///< 16-byte accesses to B and C: every row of both aligned (N % 4 == 0)
    bool async = true;     ///< tiles by cp.async where the kernel has it (a GPU of sm_80 or newer)
};

/// Every configuration's kernels, one for each Access; null where none was compiled.
template <int N>
struct KernelTable {
    KernelFn k[N][2][2][2] = {};  ///< [configuration][vector_a][vector_b][async]
    /// Configuration i's kernel for the accesses `a` (null: not compiled).
    constexpr KernelFn operator()(int i, Access a) const { return k[i][a.vector_a][a.vector_b][a.async]; }
};

namespace detail {

/// Fills configuration I's entries of `t` with make(I, vector_a, vector_b, async), each
/// argument a std::integral_constant, so that `make` can name a template instance.
template <int I, int N, class Make>
constexpr void fill_kernels(KernelTable<N>& t, Make make) {
    using F = std::false_type;
    using T = std::true_type;
    using Index = std::integral_constant<int, I>;
    t.k[I][0][0][0] = make(Index{}, F{}, F{}, F{});
    t.k[I][0][0][1] = make(Index{}, F{}, F{}, T{});
    t.k[I][0][1][0] = make(Index{}, F{}, T{}, F{});
    t.k[I][0][1][1] = make(Index{}, F{}, T{}, T{});
    t.k[I][1][0][0] = make(Index{}, T{}, F{}, F{});
    t.k[I][1][0][1] = make(Index{}, T{}, F{}, T{});
    t.k[I][1][1][0] = make(Index{}, T{}, T{}, F{});
    t.k[I][1][1][1] = make(Index{}, T{}, T{}, T{});
}

/// The table of configurations I... (kernel_table() below).
template <int N, class Make, int... I>
constexpr KernelTable<N> kernel_table(Make make, std::integer_sequence<int, I...>) {
    KernelTable<N> t{};
    (fill_kernels<I>(t, make), ...);
    return t;
}

/// Whether a configuration record has its own speed with 4-byte copies (pct_unaligned), and
/// that speed (pct_of_peak where it has none).
template <class Config, class = void>
struct Unaligned {
    static constexpr bool kMeasured = false;                          ///< no speed of its own
    static double pct(const Config& c) { return c.pct_of_peak; }      ///< the aligned speed
};
/// The same for a record that has pct_unaligned.
template <class Config>
struct Unaligned<Config, std::void_t<decltype(Config::pct_unaligned)>> {
    static constexpr bool kMeasured = true;                           ///< measured with 4-byte copies
    static double pct(const Config& c) { return c.pct_unaligned; }    ///< that speed
};

/// Whether a Layout's configuration has a kernel built for architecture `arch`: the Layout's
/// built(config, arch) where it has one, else always.
template <class Layout, class Config, class = void>
struct Built {
    static bool on(const Config&, int) { return true; }  ///< no such function: always built
};
/// The same for a Layout that says which architectures lack a configuration.
template <class Layout, class Config>
struct Built<Layout, Config, std::void_t<decltype(Layout::built(std::declval<Config>(), 0))>> {
    static bool on(const Config& c, int arch) { return Layout::built(c, arch); }  ///< the Layout's word
};

/// A Layout's packing rule: its kPacking where it has one, else Packing::kNone.
template <class Layout, class = void>
struct PackingOf {
    static constexpr Packing kRule = Packing::kNone;  ///< no rule: never packs
};
/// The same for a Layout that states one.
template <class Layout>
struct PackingOf<Layout, std::void_t<decltype(Layout::kPacking)>> {
    static constexpr Packing kRule = Layout::kPacking;  ///< the Layout's rule
};

/// A Layout's kMaxK and kMaxN, or no limit where it declares none.
template <class Layout, class = void>
struct Limits {
    static constexpr long long kMaxK = 1LL << 62;  ///< no limit on K
    static constexpr long long kMaxN = 1LL << 62;  ///< nor on N
};
/// The same for a Layout that declares them.
template <class Layout>
struct Limits<Layout, std::void_t<decltype(Layout::kMaxK), decltype(Layout::kMaxN)>> {
    static constexpr long long kMaxK = Layout::kMaxK;  ///< the largest K
    static constexpr long long kMaxN = Layout::kMaxN;  ///< the largest N
};

}  // namespace detail

/// The kernels of N configurations: entry [i][vector_a][vector_b][async] is
/// make(i, vector_a, vector_b, async), whose arguments are std::integral_constants
/// (the first argument's static member value is the index).
template <int N, class Make>
constexpr KernelTable<N> kernel_table(Make make) {
    return detail::kernel_table<N>(make, std::make_integer_sequence<int, N>{});
}

/// True if `p` lies on a 16-byte boundary, as a float4 access needs.
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

/// Lets kernel `k` use `bytes` of dynamic shared memory: more than 48 KB needs asking. Asked
/// before every launch, because the answer belongs to the copy of the kernel in one compiled
/// file, and a program built from several files (the tests) has several.
inline void allow_shared_memory(KernelFn k, std::size_t bytes) {
    if (bytes > 48 * 1024) {
        CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k),
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    }
}

/// The selection and launch layer for one step's Layout (see the file comment).
template <class Layout>
class Launcher {
public:
    /// How many configurations the step holds.
    static constexpr int kCount = int(std::size(Layout::kConfigs));
    /// One configuration record.
    using Config = std::remove_cv_t<std::remove_reference_t<decltype(Layout::kConfigs[0])>>;
    /// Which operands it packs when their rows are not 16-byte aligned (the Layout's kPacking).
    static constexpr Packing kPacking = detail::PackingOf<Layout>::kRule;

    /// The configurations as sgemm::choose() sees them, with `regs(i)` registers per thread,
    /// weighed by their speed with 16-byte copies (`aligned`) or with 4-byte ones, for a GPU of
    /// architecture `arch` (the compiled kernels' own; 0: any, every configuration built).
    template <class Regs>
    static std::vector<Candidate> candidates(Regs regs, bool aligned = true, int arch = 0) {
        std::vector<Candidate> out;
        for (int i = 0; i < kCount; ++i) {
            const Config& c = Layout::kConfigs[i];
            Candidate k;
            k.name = c.name();
            k.threads = c.threads();
            // what the launch asks for is dynamic; the rest of its shared memory is static
            k.dynamic_smem = Layout::launch_geometry(c, 1, 1).smem_bytes;
            k.static_smem = std::size_t(c.smem_bytes()) - k.dynamic_smem;
            k.regs = regs(i);
            k.blocks_per_sm = c.blocks_per_sm;
            k.BM = c.BM, k.BN = c.BN, k.BK = c.BK;
            k.pct_of_peak = aligned ? c.pct_of_peak : detail::Unaligned<Config>::pct(c);
            k.built = arch == 0 || detail::Built<Layout, Config>::on(c, arch);
            out.push_back(k);
        }
        return out;
    }

    /// Configuration i's kernel with 16-byte accesses, copying as this GPU (or the forced
    /// class) does: by cp.async where it has it, else through registers where the
    /// configuration has such a kernel.
    static KernelFn kernel(int i) {
        const KernelFn k = Layout::kKernels(i, {true, true, gpu_in_force().has_cp_async()});
        return k != nullptr ? k : Layout::kKernels(i, {true, true, true});
    }

    /// The configurations this GPU holds as they were measured (or the forced class's), found
    /// once. @throws DeviceError when none fits.
    static const Choice& choice() {
        static ChoiceCache cache;
        return cache.get(Layout::kName, [] {
            // the kernels that run are compiled for the GPU that is there, whatever class is forced
            return candidates([](int i) {
                cudaFuncAttributes attr{};
                CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel(i))));
                return attr.numRegs;
            }, true, actual_gpu().arch);
        });
    }

    /// How an M x N x K problem runs on this GPU: the configuration and the slices of K with
    /// the least estimated time (sgemm::choose_shape()), and whether to pack first. A K or N
    /// that is not a multiple of 4 leaves rows of A or B off 16-byte boundaries: run as it is,
    /// the copies go 4 bytes at a time, and the configurations are weighed by their speed that
    /// way; packed (the Layout's kPacking), the padded problem runs with 16-byte copies, and its
    /// estimate gains the copy's bytes at the memory bandwidth and one more kernel (and, where
    /// the product's rows grew and K is not split, its trip through the workspace). Packing is
    /// taken where its estimate is less, and always where the step has no speed measured with
    /// 4-byte copies to weigh against it. may_pack = false: the choice without packing (what
    /// make alignment times the 4-byte copies with).
    static ShapeChoice shape_choice(int M, int N, int K, bool explain = false, bool may_pack = true) {
        const bool aligned = K % 4 == 0 && N % 4 == 0;
        static const std::vector<Candidate> cands[2] = {candidates([](int) { return 0; }, false, actual_gpu().arch),
                                                        candidates([](int) { return 0; }, true, actual_gpu().arch)};
        const Rates& rates = device_rates();
        ShapeChoice sc = choose_shape(choice(), cands[aligned], gpu_in_force(), rates, M, N, K, Layout::kMaxSplits,
                                      explain);
        const PackPlan p = pack_plan(kPacking, N, K);
        if (may_pack && p.any() && rates.gbytes_per_s > 0) {
            ShapeChoice packed = choose_shape(choice(), cands[1], gpu_in_force(), rates, M, p.N, p.K,
                                              Layout::kMaxSplits, explain);
            double extra_bytes = pack_bytes(p, M, N, K);
            double extra_us = kSplitLaunchUs;  // the packing kernel
            if (packed.splits == 1 && p.N != N) {  // the product's longer rows: to the workspace and back
                extra_bytes += 2.0 * M * p.N * sizeof(float);
                extra_us += kSplitLaunchUs;
            }
            extra_us += extra_bytes / (rates.gbytes_per_s * 1e3);
            packed.est_us += extra_us;
            packed.pack = p;
            if (!detail::Unaligned<Config>::kMeasured || packed.est_us < sc.est_us) {
                if (explain) {
                    packed.why = std::string(p.a ? "A and B" : "B") + " packed into rows of " +
                                 std::to_string(p.a ? p.K : p.N) + (p.a ? " and " + std::to_string(p.N) : "") +
                                 " floats (" + std::to_string(int(extra_us + 0.5)) + " us estimated), then " +
                                 packed.why;
                }
                return packed;
            }
        }
        if (explain && !aligned && detail::Unaligned<Config>::kMeasured) {
            sc.why += " (K or N not a multiple of 4: weighed by 4-byte copies' speed)";
        }
        return sc;
    }

    /// Grid, block and shared memory of configuration i for an M x N C, K cut into `splits`
    /// slices (gridDim.z), with `smem` bytes of dynamic shared memory.
    static LaunchGeometry geometry_of(int i, int M, int N, int splits, std::size_t smem) {
        LaunchGeometry g = Layout::launch_geometry(Layout::kConfigs[i], M, N);
        g.grid.z = unsigned(splits);
        g.smem_bytes = smem;
        return g;
    }

    /// The report's geometry of the GPU's first choice for an M x N C (sgemm::GeometryFn).
    static LaunchGeometry geometry(int M, int N) {
        const Choice& ch = choice();
        allow_shared_memory(kernel(ch.index), ch.dynamic_smem);  // for the occupancy report
        return geometry_of(ch.index, M, N, 1, ch.dynamic_smem);
    }

    /// What launch() runs for an M x N x K problem, and why, for the report (sgemm::PlanFn).
    static Plan plan(int M, int N, int K) {
        const ShapeChoice sc = shape_choice(M, N, K, true);
        const Config& c = Layout::kConfigs[sc.index];
        allow_shared_memory(kernel(sc.index), sc.dynamic_smem);  // for the occupancy report
        std::string config = c.name() + ", " + std::to_string(c.smem_bytes()) + " B shared memory";
        if (sc.pack.any()) config += std::string(", packed ") + (sc.pack.a ? "A and B" : "B");
        if (sc.splits > 1) config += ", split-K " + std::to_string(sc.splits) + " + sum_slices";
        const int n = sc.pack.any() ? sc.pack.N : N;  // the kernel's N
        return {geometry_of(sc.index, M, n, sc.splits, sc.dynamic_smem), reinterpret_cast<const void*>(kernel(sc.index)),
                config, sc.why + "; the GPU: " + choice().why};
    }

    /// C = alpha * A * B + beta * C for row-major A (M x K), B (K x N), C (M x N), on
    /// `stream`, as this GPU runs it (sgemm::LaunchFn).
    static void launch(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
                       cudaStream_t stream) {
        if (M <= 0 || N <= 0) return;  // empty C: touch nothing (and ask the GPU nothing)
        if (K > detail::Limits<Layout>::kMaxK || N > detail::Limits<Layout>::kMaxN) {
            throw UsageError(std::string(Layout::kName) + ": K = " + std::to_string(K) + ", N = " +
                             std::to_string(N) + ": its kernels address K up to " +
                             std::to_string(detail::Limits<Layout>::kMaxK) + " and N up to " +
                             std::to_string(detail::Limits<Layout>::kMaxN) + " (32-bit offsets within a tile)");
        }
        const ShapeChoice sc = shape_choice(M, N, K);
        launch_config(sc.index, sc.dynamic_smem, gpu_in_force().has_cp_async(), sc.splits, M, N, K, alpha, A, B,
                      beta, C, stream, sc.pack);
    }

    /// The same with configuration i, `smem` bytes of dynamic shared memory (at least its
    /// own), the tiles copied by cp.async or not (`async`), K cut into `splits` slices, and A
    /// and B packed first as `pack` says (nothing, by default: unaligned rows are copied 4
    /// bytes at a time).
    /// @throws std::invalid_argument when configuration i has no kernel that copies so
    static void launch_config(int i, std::size_t smem, bool async, int splits, int M, int N, int K, float alpha,
                              const float* A, const float* B, float beta, float* C, cudaStream_t stream,
                              const PackPlan& pack = {}) {
        if (M <= 0 || N <= 0) return;  // empty C: touch nothing
        const Packed packed(pack, M, N, K, A, B, stream);
        const int k = pack.any() ? pack.K : K, n = pack.any() ? pack.N : N;  // as the kernel sees them
        for_each_row_slab(Layout::kConfigs[i].BM, M, [&](std::size_t m0, int rows) {
            const LaunchGeometry g = geometry_of(i, rows, n, splits, smem);
            const SplitK split(splits, rows, N, n, alpha, beta, C + m0 * N, stream);
            const float* a = packed.A() + m0 * k;  // (rows, k) part of A
            // float4 accesses need every row to start on a 16-byte boundary: those of A when
            // k % 4 == 0 and A is aligned, those of B and C (or the workspace) likewise with n.
            const Access access{k % 4 == 0 && aligned16(a),
                                n % 4 == 0 && aligned16(packed.B()) && aligned16(split.out()), async};
            const KernelFn kernel_fn = Layout::kKernels(i, access);
            if (kernel_fn == nullptr) {
                throw std::invalid_argument(std::string(Layout::kName) + ": configuration " +
                                            Layout::kConfigs[i].name() + " has no kernel that copies through registers");
            }
            allow_shared_memory(kernel_fn, g.smem_bytes);
            kernel_fn<<<g.grid, g.block, g.smem_bytes, stream>>>(rows, n, k, split.alpha(), a, packed.B(), split.beta(),
                                                                 split.out());
            CUDA_CHECK(cudaGetLastError());
            split.finish();
        });
    }
};

}  // namespace sgemm
