/// @file choose.cpp
/// @brief The choice among a launcher's configurations, and its explanation.
#include "choose.h"

#include "args.h"

namespace sgemm {
namespace {

std::size_t smem_of(const Candidate& c) { return c.static_smem + c.dynamic_smem; }

}  // namespace

std::string describe_fit(const GpuLimits& g, const Candidate& c) {
    const int blocks = blocks_per_sm(g, c.threads, c.regs, smem_of(c));
    const std::string limiter = occupancy_limiter(g, c.threads, c.regs, smem_of(c));
    if (blocks == 0) return limiter;
    return std::to_string(blocks) + " block" + (blocks == 1 ? "" : "s") + "/SM (" + limiter + ")";
}

Choice choose(const GpuLimits& g, const GpuLimits& actual, const std::vector<Candidate>& candidates) {
    Choice out;
    std::string skipped;
    int first_fit = -1;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        const int blocks = blocks_per_sm(g, c.threads, c.regs, smem_of(c));
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
    const std::string where = arch_name(g.arch) + (g.forced ? " class (forced)" : "");
    if (out.index < 0) {
        out.why = "no configuration fits " + where + ": " + skipped;
        return out;
    }
    const Candidate& c = candidates[static_cast<std::size_t>(out.index)];
    out.blocks_per_sm = blocks_per_sm(g, c.threads, c.regs, smem_of(c));
    out.dynamic_smem = emulation_smem(g, actual, c.threads, c.regs, c.static_smem, c.dynamic_smem);
    if (skipped.empty()) {
        out.why = "the first of " + std::to_string(candidates.size()) + ", fits " + where + " with " +
                  describe_fit(g, c);
    } else {
        out.why = "fits " + where + " with " + describe_fit(g, c) + "; passed over: " + skipped;
    }
    return out;
}

void ChoiceCache::fail(const char* step, const Choice& c) {
    throw UsageError(std::string(step) + ": " + c.why);
}

}  // namespace sgemm
