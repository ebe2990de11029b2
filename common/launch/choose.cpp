/// @file choose.cpp
/// @brief The choice among a launcher's configurations, and its explanation.
#include "launch/choose.h"

#include <algorithm>
#include <cstdio>

#include "device/cuda_check.cuh"
#include "errors.h"  // DeviceError
#include "gpu/gpu.h"
#include "launch/kernel_types.cuh"  // ceil_div

namespace sgemm {
namespace {

std::size_t smem_of(const Candidate& c) { return c.static_smem + c.dynamic_smem; }

/// Blocks per SM of `c` on `g`; 0 where its kernel is not built.
int blocks_of(const Gpu& g, const Candidate& c) {
    return c.built ? blocks_per_sm(g, c.threads, c.regs, smem_of(c)) : 0;
}

}  // namespace

std::string describe_fit(const Gpu& g, const Candidate& c) {
    if (!c.built) return "not built for this GPU's architecture";
    const int blocks = blocks_of(g, c);
    const std::string limiter = occupancy_limiter(g, c.threads, c.regs, smem_of(c));
    if (blocks == 0) return limiter;
    return std::to_string(blocks) + " block" + (blocks == 1 ? "" : "s") + "/SM (" + limiter + ")";
}

Choice choose(const Gpu& g, const Gpu& actual, const std::vector<Candidate>& candidates) {
    Choice out;
    std::string skipped;
    int first_fit = -1;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        const int blocks = blocks_of(g, c);
        if (blocks > 0 && first_fit < 0) first_fit = static_cast<int>(i);
        if (blocks >= c.blocks_per_sm && blocks > 0) {
            out.index = static_cast<int>(i);
            break;
        }
        skipped += (skipped.empty() ? "" : "; ") + c.name + " " +
                   (blocks == 0 ? describe_fit(g, c)
                                : "gets " + describe_fit(g, c) + ", measured at " +
                                      std::to_string(c.blocks_per_sm));
    }
    if (out.index < 0) out.index = first_fit;
    for (std::size_t i = 0; i < candidates.size(); ++i) {  // every one that fits as measured
        const Candidate& c = candidates[i];
        const int blocks = blocks_of(g, c);
        if (blocks > 0 && blocks >= c.blocks_per_sm) {
            out.admitted.push_back(static_cast<int>(i));
            out.admitted_smem.push_back(emulation_smem(g, actual, c.threads, c.regs, c.static_smem, c.dynamic_smem));
        }
    }
    const std::string where = arch_name(g.arch) + (g.forced ? " class (forced)" : "");
    if (out.index < 0) {
        out.why = "no configuration fits " + where + ": " + skipped;
        return out;
    }
    const Candidate& c = candidates[static_cast<std::size_t>(out.index)];
    if (out.admitted.empty()) {  // none holds as measured: the first that fits, alone
        out.admitted.push_back(out.index);
        out.admitted_smem.push_back(emulation_smem(g, actual, c.threads, c.regs, c.static_smem, c.dynamic_smem));
    }
    out.blocks_per_sm = blocks_of(g, c);
    out.dynamic_smem = emulation_smem(g, actual, c.threads, c.regs, c.static_smem, c.dynamic_smem);
    if (skipped.empty()) {
        out.why = "the first of " + std::to_string(candidates.size()) + ", fits " + where + " with " +
                  describe_fit(g, c);
    } else {
        out.why = "fits " + where + " with " + describe_fit(g, c) + "; passed over: " + skipped;
    }
    return out;
}

const Rates& device_rates() {
    static const Rates rates = [] {
        const Gpu& gpu = actual_gpu();
        return Rates{peak_fp32_gflops(1, gpu.fp32_lanes, gpu.clock_khz / 1000.0), gpu.memory_gbytes_per_s()};
    }();
    return rates;
}

namespace {

/// "12.3 us" / "1.23 ms"
std::string time_text(double us) {
    char buf[32];
    if (us < 1000) std::snprintf(buf, sizeof buf, "%.1f us", us);
    else std::snprintf(buf, sizeof buf, "%.2f ms", us / 1000);
    return buf;
}

}  // namespace

SplitEstimate estimate_split(const Candidate& c, const Gpu& g, const Rates& r, int M, int N, int K,
                             int splits) {
    SplitEstimate e;
    e.tiles = static_cast<long long>(ceil_div(M, c.BM)) * ceil_div(N, c.BN);
    const int k_tiles = ceil_div(std::max(K, 1), c.BK);
    e.k_tiles = ceil_div(k_tiles, std::max(splits, 1));  // per slice
    e.splits = ceil_div(k_tiles, e.k_tiles);             // no empty slices
    e.blocks = e.tiles * e.splits;
    // The busiest SM runs `per_sm` blocks, at most blocks_per_sm at a time: full rounds,
    // then a last, partial one. A round of n blocks takes n blocks' FLOP at the
    // candidate's share of the SM's peak, slowed where n blocks hold too few warps to
    // keep the SM busy (fewer than kWarpsToFill).
    const long long per_sm = (e.blocks + g.sms - 1) / g.sms;
    const long long b = std::max(c.blocks_per_sm, 1);
    const double pct = c.pct_of_peak > 0 ? c.pct_of_peak : 100.0;
    const double flop = 2.0 * c.BM * c.BN * double(e.k_tiles) * c.BK;  // one block's
    auto round_us = [&](long long n) {
        const double fill = std::min(1.0, double(n) * (c.threads / 32) / kWarpsToFill);
        return n * flop / (pct / 100.0 * r.gflops_per_sm * 1e3 * fill);
    };
    const long long rounds = (per_sm + b - 1) / b;
    e.us = (rounds - 1) * round_us(b) + round_us(per_sm - (rounds - 1) * b);
    if (e.splits > 1) {  // partial products written and read once more, and one more launch
        const double bytes = 2.0 * e.splits * double(M) * N * sizeof(float);
        e.us += bytes / (r.gbytes_per_s * 1e3) + kSplitLaunchUs;
    }
    return e;
}

ShapeChoice choose_shape(const Choice& device, const std::vector<Candidate>& candidates, const Gpu& g,
                         const Rates& r, int M, int N, int K, int max_splits, bool explain) {
    ShapeChoice best;
    best.index = device.index;
    best.dynamic_smem = device.dynamic_smem;
    // Without tile sizes, SMs or rates there is nothing to weigh: the device's choice, whole.
    const bool weigh = g.sms > 0 && r.gflops_per_sm > 0 && r.gbytes_per_s > 0 && M > 0 && N > 0;
    auto estimate = [&](int i, int splits) {
        return estimate_split(candidates[static_cast<std::size_t>(i)], g, r, M, N, K, splits);
    };
    if (!weigh || device.admitted.empty()) {
        if (explain) best.why = "the GPU's choice (nothing known to weigh the shape with)";
        return best;
    }
    for (const int i : device.admitted) {
        const Candidate& c = candidates[static_cast<std::size_t>(i)];
        if (c.BM <= 0 || c.BN <= 0 || c.BK <= 0) return best;
    }
    SplitEstimate win, whole;
    int win_index = -1, whole_index = -1;
    std::size_t win_at = 0;
    for (std::size_t a = 0; a < device.admitted.size(); ++a) {
        for (int s = 1; s <= std::max(max_splits, 1); ++s) {
            const int i = device.admitted[a];
            const SplitEstimate e = estimate(i, s);
            if (e.splits != s) continue;  // the same as a smaller s
            if (s > 1 && double(s) * M * N * sizeof(float) > double(kMaxWorkspaceBytes)) break;
            if (s == 1 && (whole_index < 0 || e.us < whole.us)) whole = e, whole_index = i;
            if (win_index < 0 || e.us < win.us * (1 - 1e-9)) win = e, win_index = i, win_at = a;
        }
    }
    best.index = win_index;
    best.splits = win.splits;
    best.dynamic_smem = device.admitted_smem[win_at];
    best.est_us = win.us;
    if (explain) {
        const Candidate& c = candidates[static_cast<std::size_t>(win_index)];
        best.why = std::to_string(win.tiles) + " tiles of " + std::to_string(c.BM) + "x" + std::to_string(c.BN) +
                   " for " + std::to_string(g.sms) + " SMs";
        if (win.splits > 1) {
            best.why += ", K split " + std::to_string(win.splits) + " ways into " + std::to_string(win.blocks) +
                        " blocks of " + std::to_string(win.k_tiles) + " K-tiles, then a sum of the slices";
        }
        best.why += ": estimated " + time_text(win.us);
        if (win.splits > 1 || win_index != whole_index) {
            const Candidate& w = candidates[static_cast<std::size_t>(whole_index)];
            best.why += ", against " + time_text(whole.us) + " for " +
                        (whole_index == win_index ? std::string("the same unsplit") : w.name + " unsplit") +
                        " (" + std::to_string(whole.tiles) + " tiles)";
        }
    }
    return best;
}

void ChoiceCache::fail(const char* step, const Choice& c) {
    throw DeviceError(std::string(step) + ": " + c.why);
}

}  // namespace sgemm
