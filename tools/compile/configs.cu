// make regs (tools/compile/configs.cu): which configuration each step runs on a GPU of this build's
// architecture, chosen by the same code the launchers use (sgemm::choose()) from the limits
// in common/gpu/archs.def's table and the registers ptxas gave each kernel for this
// architecture (build/ARCH/regs/regs.txt, written by tools/compile/regs.sh). Needs no GPU.
// Exits 1 if a step has no configuration that fits, or a fixed step does not fit.
// usage: configs ARCH build/ARCH/regs/regs.txt
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gpu/gpu.h"
#include "launch/choose.h"
#include "steps_registry.h"

namespace {

/// What ptxas reported for one kernel.
struct Resources {
    int regs = 0;          ///< registers per thread
    std::size_t smem = 0;  ///< static shared memory per block, bytes
};

/// Each kernel's resources, by its demangled name, from regs.txt.
std::map<std::string, Resources> read_registers(const char* path) {
    std::map<std::string, Resources> regs;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        const std::size_t a = line.find('|'), b = line.find('|', a + 1);
        if (a != std::string::npos && b != std::string::npos) {
            regs[line.substr(0, a)] = {std::stoi(line.substr(a + 1, b - a - 1)),
                                       std::stoul(line.substr(b + 1))};
        }
    }
    return regs;
}

std::string join(std::initializer_list<int> values) {
    std::string s;
    for (int v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
    return s;
}

bool failed = false;

/// Prints the candidates of one step, the chosen one marked, and why.
void list(const char* step, const sgemm::Gpu& g, const std::vector<sgemm::Candidate>& cands) {
    const sgemm::Choice ch = sgemm::choose(g, g, cands);
    for (std::size_t i = 0; i < cands.size(); ++i) {
        const sgemm::Candidate& c = cands[i];
        std::printf("  %s %c %-58s %4d thr %3d regs %7zu B  %s\n", step, int(i) == ch.index ? '*' : ' ',
                    c.name.c_str(), c.threads, c.regs, c.static_smem + c.dynamic_smem,
                    sgemm::describe_fit(g, c).c_str());
    }
    if (ch.index < 0) {
        std::printf("  %s   FAIL: %s\n", step, ch.why.c_str());
        failed = true;
    }
}

/// Registers of `kernel`, or the cap its launch bounds allow when regs.txt lacks it.
int regs_of(const std::map<std::string, Resources>& regs, const std::string& kernel) {
    const auto it = regs.find(kernel);
    if (it == regs.end()) {
        std::printf("  (no registers for %s in regs.txt: counted as 255)\n", kernel.c_str());
        return 255;
    }
    return it->second.regs;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3 || std::string(argv[1]).rfind("sm_", 0) != 0) {
        std::fprintf(stderr, "usage: %s sm_XX build/sm_XX/regs/regs.txt\n", argv[0]);
        return 2;
    }
    const sgemm::ArchLimits* arch = sgemm::find_arch(std::stoi(std::string(argv[1]).substr(3)));
    if (!arch) {
        std::fprintf(stderr, "%s: %s is not in the table of common/gpu/archs.def\n", argv[0], argv[1]);
        return 2;
    }
    const std::map<std::string, Resources> regs = read_registers(argv[2]);
    if (regs.empty()) {
        std::fprintf(stderr, "%s: no kernels in %s (run make regs ARCH=%s first)\n", argv[0], argv[2], argv[1]);
        return 2;
    }
    const sgemm::Gpu g = sgemm::gpu_of_class(*arch, 0);
    std::printf("%s (%s): %zu B shared memory per block, %zu B per SM, %d threads and %d blocks per SM\n",
                argv[1], arch->gpus, g.smem_per_block_optin, g.smem_per_sm, g.threads_per_sm, g.blocks_per_sm);

    // Steps 01-07: one configuration each, which must fit as it is.
    for (const sgemm::Step& s : sgemm_tests::kAllSteps) {
        if (std::string(s.name) >= "step08") break;
        const sgemm::LaunchGeometry geo = s.geometry(4096, 4096);
        Resources r;  // the most any of the step's kernel instances uses
        for (const auto& [name, res] : regs) {
            if (name.rfind(std::string(s.name) + "::", 0) == 0) {
                r.regs = std::max(r.regs, res.regs);
                r.smem = std::max(r.smem, res.smem);
            }
        }
        sgemm::Candidate c;
        c.name = "its one configuration";
        c.threads = int(geo.block.x * geo.block.y);
        c.static_smem = r.smem;
        c.dynamic_smem = geo.smem_bytes;
        c.regs = r.regs;
        list(s.name, g, {c});
    }
    // Steps 08-10: the launchers' own lists, with this architecture's registers.
    list("step08", g, step08::Launcher::candidates([&](int i) {
             const step08::Tuned& c = step08::kTuned[i];
             return regs_of(regs, "step08::sgemm_autotuned<" + join({c.BM, c.BN, c.BK, c.TM, c.TN}) + ", true>");
         }, true, g.arch));
    list("step09", g, step09::Launcher::candidates([&](int i) {
             const step09::Config& c = step09::kConfigs[i];
             return regs_of(regs, "step09::sgemm_warptiling<" +
                                      join({c.BM, c.BN, c.BK, c.WM, c.WN, c.TM, c.TN, c.blocks_per_sm}) + ", true>");
         }, true, g.arch));
    list("step10", g, step10::Launcher::candidates([&](int i) {
             const step10::Config& c = step10::kConfigs[i];
             return regs_of(regs, "step10::sgemm_double_buffer<" +
                                      join({c.BM, c.BN, c.BK, c.WM, c.WN, c.TM, c.TN, c.blocks_per_sm, c.stages, c.unroll}) +
                                      ", true, true, true>");
         }, true, g.arch));
    // Steps 11-12: TF32 tensor cores, built for sm_80 and newer only.
    if (g.arch < step11::kMinArch) {
        std::printf("step11, step12: need TF32 tensor cores (sm_80 or newer): not built for %s\n", argv[1]);
        return failed ? 1 : 0;
    }
    list("step11", g, step11::Launcher::candidates([&](int i) {
             const step11::Config& c = step11::kConfigs[i];
             return regs_of(regs, "step11::sgemm_tensor_cores<" +
                                      join({c.BM, c.BN, c.BK, c.WM, c.WN, c.blocks_per_sm, c.stages}) + ", true, true>");
         }, true, g.arch));
    list("step12", g, step12::Launcher::candidates([&](int i) {
             const step12::Config& c = step12::kConfigs[i];
             return regs_of(regs, "step12::sgemm_3xtf32<" +
                                      join({c.BM, c.BN, c.BK, c.WM, c.WN, c.blocks_per_sm, c.stages}) + ", true, true>");
         }, true, g.arch));
    return failed ? 1 : 0;
}
