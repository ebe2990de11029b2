// Packing (common/launch/pack.cuh): the plan each rule makes, the copy itself (every element of
// the padded buffer written: the source where it exists, zero elsewhere), and steps 10-12 right
// at unaligned shapes with each rule forced, whatever the launcher would choose.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "device/device_buffer.cuh"
#include "gpu/gpu.h"
#include "launch/pack.cuh"
#include "run/compare.h"
#include "run/self_check.h"
#include "steps/10_double_buffer/kernel.cuh"
#include "steps/11_tensor_cores/kernel.cuh"
#include "steps/12_3xtf32/kernel.cuh"

namespace {

using sgemm::Packing;
using sgemm::Shape;

/// Launcher L's own choice of configuration for the shape, with K cut as it chooses, but with
/// packing as `kRule` plans it (kNone: 4-byte copies) whatever it would choose.
template <class L, Packing kRule>
void launch_packed(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
                   cudaStream_t stream) {
    const sgemm::ShapeChoice sc = L::shape_choice(M, N, K);
    L::launch_config(sc.index, sc.dynamic_smem, sgemm::gpu_in_force().has_cp_async(), sc.splits, M, N, K, alpha, A,
                     B, beta, C, stream, sgemm::pack_plan(kRule, N, K));
}

/// The rules' launches for launcher L, in the order kNone, kB, kAB.
template <class L>
struct Rules {
    static constexpr sgemm::LaunchFn kLaunch[3] = {launch_packed<L, Packing::kNone>, launch_packed<L, Packing::kB>,
                                                   launch_packed<L, Packing::kAB>};
};

}  // namespace

TEST_CASE("pack_plan packs B where N % 4 != 0, and A (with B) under kAB where K % 4 != 0", "[pack]") {
    const sgemm::PackPlan none = sgemm::pack_plan(Packing::kNone, 1023, 1023);
    CHECK((!none.any() && none.N == 1023 && none.K == 1023));
    const sgemm::PackPlan b = sgemm::pack_plan(Packing::kB, 1023, 1023);  // A read in place
    CHECK((!b.a && b.b && b.N == 1024 && b.K == 1023));
    CHECK(!sgemm::pack_plan(Packing::kB, 1024, 1023).any());
    const sgemm::PackPlan ab = sgemm::pack_plan(Packing::kAB, 1024, 1023);  // B gains a zero row
    CHECK((ab.a && ab.b && ab.N == 1024 && ab.K == 1024));
    CHECK(!sgemm::pack_plan(Packing::kAB, 1024, 4096).any());
    // A read and written (M x K, then M x K rounded up), and B likewise
    CHECK(sgemm::pack_bytes(ab, 10, 1024, 1023) == 4.0 * (10 * 1023 + 10 * 1024 + 1023 * 1024 + 1024 * 1024));
}

// The destination starts as NaN, so an element the copy skipped would show.
TEST_CASE("pack_matrices copies A and B into padded rows and writes zeros around them", "[gpu][pack]") {
    const int rows = 37, cols = 29, rows_out = 40, cols_out = 32;
    const int rows2 = 5, cols2 = 3, rows2_out = 5, cols2_out = 4;
    std::vector<float> src(std::size_t(rows) * cols), src2(std::size_t(rows2) * cols2);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = float(i + 1);
    for (std::size_t i = 0; i < src2.size(); ++i) src2[i] = -float(i + 1);
    sgemm::DeviceBuffer<float> d_src(src.size()), d_src2(src2.size()), dst(std::size_t(rows_out) * cols_out),
        dst2(std::size_t(rows2_out) * cols2_out);
    d_src.copy_from_host(src.data());
    d_src2.copy_from_host(src2.data());
    CUDA_CHECK(cudaMemset(dst.get(), 0xFF, dst.bytes()));
    CUDA_CHECK(cudaMemset(dst2.get(), 0xFF, dst2.bytes()));
    sgemm::pack_matrices<32><<<dim3(1, 3, 2), 32>>>({d_src.get(), rows, cols, dst.get(), rows_out, cols_out},
                                              {d_src2.get(), rows2, cols2, dst2.get(), rows2_out, cols2_out});
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    auto check = [](const sgemm::DeviceBuffer<float>& d, const std::vector<float>& s, int r0, int c0, int r1, int c1) {
        std::vector<float> got(d.size());
        d.copy_to_host(got.data());
        int wrong = 0;
        for (int r = 0; r < r1; ++r) {
            for (int c = 0; c < c1; ++c) {
                const float want = r < r0 && c < c0 ? s[std::size_t(r) * c0 + c] : 0.0f;
                const float v = got[std::size_t(r) * c1 + c];
                if (!(v == want)) ++wrong;  // NaN is never equal
            }
        }
        return wrong;
    };
    CHECK(check(dst, src, rows, cols, rows_out, cols_out) == 0);
    CHECK(check(dst2, src2, rows2, cols2, rows2_out, cols2_out) == 0);
}

// Each rule forced on each step at shapes whose K, N or both are not multiples of 4, edge tiles
// included, with every (alpha, beta) pair of the self-check (beta == 0 starts from a C of NaN).
TEST_CASE("steps 10-12 are right at unaligned shapes whether they pack A, B, both or neither", "[gpu][pack]") {
    const bool tensor_cores = sgemm::gpu_in_force().arch >= 80;
    if (!tensor_cores) WARN("steps 11 and 12 need sm_80 or newer; their packing checks are skipped");
    struct StepRules {
        const char* name;
        const sgemm::LaunchFn* launch;
        sgemm::Arithmetic arithmetic;
        bool runs;
    };
    const StepRules steps[] = {
        {"step10", Rules<step10::Launcher>::kLaunch, sgemm::Arithmetic::kFp32, true},
        {"step11", Rules<step11::Launcher>::kLaunch, sgemm::Arithmetic::kTf32, tensor_cores},
        {"step12", Rules<step12::Launcher>::kLaunch, sgemm::Arithmetic::k3xTf32, tensor_cores},
    };
    std::uint64_t seed = 3100;
    for (const Shape s : {Shape{1, 1, 1}, Shape{7, 13, 5}, Shape{130, 259, 67}, Shape{257, 255, 300},
                          Shape{300, 256, 999}, Shape{129, 1023, 33}, Shape{1023, 1023, 1023}}) {
        for (const sgemm::Scalars& ab : sgemm::check_scalars()) {
            sgemm::CheckProblem p(s, ab.alpha, ab.beta, seed++);
            for (const StepRules& st : steps) {
                if (!st.runs) continue;
                for (int rule = 0; rule < 3; ++rule) {
                    const sgemm::VerifyResult r = p.run(st.launch[rule], st.arithmetic);
                    INFO(st.name << ", " << sgemm::to_string(s) << ", rule " << rule << " (0 none, 1 B, 2 A and B)"
                                 << ", alpha = " << ab.alpha << ", beta = " << ab.beta);
                    INFO(sgemm::describe_mismatches(r, "  "));
                    CHECK(r.ok());
                }
            }
        }
    }
}

// The choice: at 4095^3 on a GPU of many SMs the steps pack (the copy costs a few percent of
// the product); where K and N are multiples of 4 nothing is packed; step 10 reads A in place.
TEST_CASE("the launchers pack where rows are unaligned, and step 10 packs B only", "[gpu][pack]") {
    const sgemm::ShapeChoice odd = step10::Launcher::shape_choice(4095, 4095, 4095, true);
    INFO(odd.why);
    CHECK((odd.pack.b && !odd.pack.a && odd.pack.N == 4096 && odd.pack.K == 4095));
    CHECK(!step10::Launcher::shape_choice(4096, 4096, 4096).pack.any());
    CHECK(!step10::Launcher::shape_choice(4096, 4096, 4095).pack.any());  // A in place, B aligned
    if (sgemm::gpu_in_force().arch >= 80) {
        const sgemm::ShapeChoice tc = step11::Launcher::shape_choice(4095, 4095, 4095);
        CHECK((tc.pack.a && tc.pack.b && tc.pack.K == 4096 && tc.pack.N == 4096));
        CHECK(!step12::Launcher::shape_choice(4096, 4096, 4096).pack.any());
    }
}
