// GPU tests: every step, at shapes chosen to break tile assumptions, against a reference.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "gpu/gpu.h"
#include "run/compare.h"
#include "run/self_check.h"
#include "steps_registry.h"

using sgemm::DeviceBuffer;
using sgemm_tests::kAllSteps;

namespace {

using sgemm::Shape;
using sgemm::to_string;
using Problem = sgemm::CheckProblem;

// ---- Two deliberately broken kernels: the checks below must catch them. ----------------
__global__ void drops_last_k(int M, int N, int K, float alpha, const float* A, const float* B,
                             float beta, float* C) {
    const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K - 1; ++k) acc += A[size_t(row) * K + k] * B[size_t(k) * N + col];
    float* c = C + size_t(row) * N + col;
    *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}
__global__ void skips_last_row(int M, int N, int K, float alpha, const float* A, const float* B,
                               float beta, float* C) {
    const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    if (row >= M - 1 || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += A[size_t(row) * K + k] * B[size_t(k) * N + col];
    float* c = C + size_t(row) * N + col;
    *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}
template <decltype(&drops_last_k) Kernel>
void launch_broken(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                   float* C, cudaStream_t stream) {
    Kernel<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16), 0, stream>>>(M, N, K, alpha, A, B, beta, C);
    CUDA_CHECK(cudaGetLastError());
}

/// Whether `step` runs on this GPU (or the class forced on it): steps 11 and 12 need sm_80. The
/// first time a step cannot, one line says so, and its checks are skipped.
bool runs_here(const sgemm::Step& step) {
    const sgemm::Gpu& gpu = sgemm::gpu_in_force();
    if (gpu.arch >= step.min_arch) return true;
    static std::set<std::string> told;
    if (told.insert(std::string(step.name) + sgemm::arch_name(gpu.arch)).second) {
        try {
            sgemm::require_arch(step, gpu);
        } catch (const sgemm::DeviceError& e) {
            WARN(e.what() << "; its GPU tests are skipped");
        }
    }
    return false;
}

}  // namespace

TEST_CASE("every step matches the reference at awkward shapes, for (alpha, beta) = (1, 0) "
          "and (0.75, -1.25)",
          "[gpu][steps]") {
    std::uint64_t seed = 1;  // the seeds `./stepNN --check` uses, in the same order
    for (const Shape& shape : sgemm::check_shapes()) {
        for (const sgemm::Scalars& ab : sgemm::check_scalars()) {
            Problem p(shape, ab.alpha, ab.beta, seed++);
            for (const sgemm::Step& step : kAllSteps) {
        if (!runs_here(step)) continue;
                const sgemm::VerifyResult r = p.run(step.launch, step.arithmetic);
                INFO(step.name << " at " << to_string(shape) << ", alpha = " << ab.alpha
                               << ", beta = " << ab.beta << ", reference: "
                               << (p.reference_is_cpu ? "CPU double" : "cuBLAS"));
                INFO(r.bad << " of " << r.checked << " wrong; first ones:\n"
                           << sgemm::describe_mismatches(r, "  "));
                CHECK(r.ok());
            }
        }
    }
}

TEST_CASE("the same checks catch a kernel that drops one K term or skips a row", "[gpu][steps]") {
    for (const Shape& shape : {Shape{31, 33, 17}, Shape{127, 129, 65}, Shape{1000, 1000, 1000}}) {
        for (float beta : {0.0f, 0.5f}) {
            Problem p(shape, 1.0f, beta, 99);
            INFO("shape " << to_string(shape) << ", beta = " << beta);
            CHECK_FALSE(p.run(launch_broken<drops_last_k>).ok());
            const sgemm::VerifyResult skipped = p.run(launch_broken<skips_last_row>);
            CHECK_FALSE(skipped.ok());
            CHECK(skipped.bad == std::size_t(shape.N));
        }
    }
}

TEST_CASE("with K = 0 every step leaves C = beta * C, and beta = 0 clears even NaN",
          "[gpu][steps]") {
    const Shape s{33, 17, 0};
    const std::vector<float> C0 = sgemm::uniform_vector(std::size_t(s.M) * s.N, 7);
    DeviceBuffer<float> dC(C0.size());
    std::vector<float> got(C0.size());
    for (const sgemm::Step& step : kAllSteps) {
        if (!runs_here(step)) continue;
        INFO(step.name);
        dC.copy_from_host(C0.data());
        step.launch(s.M, s.N, 0, 2.0f, nullptr, nullptr, 0.5f, dC.get(), nullptr);
        CUDA_CHECK(cudaDeviceSynchronize());
        dC.copy_to_host(got.data());
        for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == 0.5f * C0[i]);

        CUDA_CHECK(cudaMemset(dC.get(), 0xFF, dC.bytes()));
        step.launch(s.M, s.N, 0, 2.0f, nullptr, nullptr, 0.0f, dC.get(), nullptr);
        CUDA_CHECK(cudaDeviceSynchronize());
        dC.copy_to_host(got.data());
        for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == 0.0f);
    }
}

TEST_CASE("with M = 0 or N = 0 every step returns without touching memory", "[gpu][steps]") {
    for (const sgemm::Step& step : kAllSteps) {
        if (!runs_here(step)) continue;
        INFO(step.name);
        step.launch(0, 16, 16, 1.0f, nullptr, nullptr, 0.0f, nullptr, nullptr);
        step.launch(16, 0, 16, 1.0f, nullptr, nullptr, 0.0f, nullptr, nullptr);
        step.launch(0, 0, 0, 1.0f, nullptr, nullptr, 0.0f, nullptr, nullptr);
        CHECK(cudaDeviceSynchronize() == cudaSuccess);
        CHECK(cudaGetLastError() == cudaSuccess);
    }
}

TEST_CASE("every step is right when A, B and C start 4 bytes past a 16-byte boundary",
          "[gpu][steps]") {
    // Sizes that are multiples of 4, so only the pointers rule out 16-byte accesses.
    const Shape s{68, 36, 20};
    const std::vector<float> A = sgemm::uniform_vector(std::size_t(s.M) * s.K, 11);
    const std::vector<float> B = sgemm::uniform_vector(std::size_t(s.K) * s.N, 12);
    const std::vector<float> C0 = sgemm::uniform_vector(std::size_t(s.M) * s.N, 13);
    const std::vector<float> expected =
        sgemm::reference_gemm(s.M, s.N, s.K, 0.75f, A.data(), B.data(), -1.25f, C0.data());
    DeviceBuffer<float> dA(A.size() + 1), dB(B.size() + 1), dC(C0.size() + 1);
    float* a = dA.get() + 1;  // cudaMalloc returns 256-byte aligned memory: +1 float is off by 4
    float* b = dB.get() + 1;
    float* c = dC.get() + 1;
    CUDA_CHECK(cudaMemcpy(a, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    std::vector<float> got(C0.size());
    for (const sgemm::Step& step : kAllSteps) {
        if (!runs_here(step)) continue;
        INFO(step.name);
        CUDA_CHECK(cudaMemcpy(c, C0.data(), C0.size() * sizeof(float), cudaMemcpyHostToDevice));
        step.launch(s.M, s.N, s.K, 0.75f, a, b, -1.25f, c, nullptr);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        CUDA_CHECK(cudaMemcpy(got.data(), c, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
        const sgemm::VerifyResult r = sgemm::verify(
            got.data(), expected.data(), s.M, s.N, sgemm::gemm_tolerance(s.K, 0.75f, -1.25f, 1.0, 1.0, 1.0, step.arithmetic));
        INFO(sgemm::describe_mismatches(r, "  "));
        CHECK(r.ok());
    }
}

/// Step 10's configuration I, with B copied by cp.async or through registers (kAsync), as a
/// sgemm::LaunchFn.
template <int I, bool kAsync>
void launch_step10(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                   float* C, cudaStream_t stream) {
    step10::Launcher::launch_config(I, std::size_t(step10::kConfigs[I].smem_bytes()), kAsync, 1, M, N, K, alpha,
                                    A, B, beta, C, stream);
}

/// Runs step 10's pipeline test on configuration I: 1 to 5 K-tiles and partial ones, both
/// copy paths. Skipped (with a message) where the GPU cannot hold the configuration.
template <int I>
void check_step10_pipeline(std::uint64_t& seed) {
    const step10::Config& c = step10::kConfigs[I];
    INFO("step 10 configuration " << I << ": " << c.name());
    if (std::size_t(c.smem_bytes()) > sgemm::actual_gpu().smem_per_block_optin) {
        WARN("step 10 configuration " << I << " needs more shared memory than this GPU has; not run");
        return;
    }
    if (!step10::Layout::built(c, sgemm::actual_gpu().arch)) {
        WARN("step 10 configuration " << I << " is not built for this GPU's architecture; not run");
        return;
    }
    const int BK = c.BK;
    for (const Shape mn : {Shape{256, 128, 0}, Shape{131, 67, 0}}) {
        for (int K : {1, BK - 1, BK, BK + 1, 2 * BK, 2 * BK + 3, 3 * BK, 4 * BK - 1, 4 * BK, 5 * BK}) {
            Problem p({mn.M, mn.N, K}, 0.75f, -1.25f, seed++);
            for (const bool async : {true, false}) {
                if (!async && step10::kKernels(I, {true, true, false}) == nullptr) continue;  // sm_75's only
                const sgemm::VerifyResult r = p.run(async ? launch_step10<I, true> : launch_step10<I, false>);
                INFO(to_string(p.s) << (async ? ", cp.async" : ", registers"));
                INFO(sgemm::describe_mismatches(r, "  "));
                CHECK(r.ok());
            }
        }
    }
}

// Step 10's pipeline has a prologue, a steady state and empty commit groups past the last
// K-tile: each number of K-tiles from 1 to 5, and K just past and short of a whole tile,
// through cp.async for every configuration whatever the GPU would choose, and through
// registers (the path GPUs before sm_80 take) for the one configuration that has it.
TEST_CASE("step 10 is right for 1 to 5 K-tiles and partial ones, with cp.async and through registers",
          "[gpu][steps]") {
    static_assert(step10::kNumConfigs == 6, "check_step10_pipeline<I> below covers every configuration");
    std::uint64_t seed = 500;
    check_step10_pipeline<0>(seed);
    check_step10_pipeline<1>(seed);
    check_step10_pipeline<2>(seed);
    check_step10_pipeline<3>(seed);
    check_step10_pipeline<4>(seed);
    check_step10_pipeline<5>(seed);
}

namespace {

/// Forces a GPU class for the life of the object, then puts back what SGEMM_GPU_CLASS says.
struct ForcedClass {
    explicit ForcedClass(const std::string& spec) { sgemm::force_gpu_class(spec); }
    ~ForcedClass() {
        const char* env = std::getenv("SGEMM_GPU_CLASS");
        sgemm::force_gpu_class(env ? env : "");
    }
};

}  // namespace

// Each class's configurations run on this GPU through the same launchers a GPU of that class
// would use; the choice itself is checked first, so that forcing cannot silently do nothing.
TEST_CASE("steps 08-10 match the reference at awkward shapes with each smaller GPU class forced",
          "[gpu][steps][classes]") {
    struct Expected {
        const char* gpu_class;
        int step09, step10;  // the configuration each step must choose
    };
    for (const Expected e : {Expected{"sm_86", 0, 0}, Expected{"sm_75", 1, 2}}) {
        ForcedClass forced(e.gpu_class);
        INFO("GPU class " << e.gpu_class);
        REQUIRE(sgemm::gpu_in_force().forced);
        CHECK(step09::Launcher::choice().index == e.step09);
        CHECK(step10::Launcher::choice().index == e.step10);
        std::uint64_t seed = 1;
        for (const Shape& shape : sgemm::check_shapes()) {
            for (const sgemm::Scalars& ab : sgemm::check_scalars()) {
                Problem p(shape, ab.alpha, ab.beta, seed++);
                for (const sgemm::Step& step : kAllSteps) {
        if (!runs_here(step)) continue;
                    if (std::string(step.name) < "step08") continue;  // one configuration for every GPU
                    const sgemm::VerifyResult r = p.run(step.launch, step.arithmetic);
                    INFO(step.name << " at " << to_string(shape) << ", alpha = " << ab.alpha
                                   << ", beta = " << ab.beta);
                    INFO(r.bad << " of " << r.checked << " wrong; first ones:\n"
                               << sgemm::describe_mismatches(r, "  "));
                    CHECK(r.ok());
                }
            }
        }
    }
}

// The report's occupancy comes from sgemm::blocks_per_sm(), the course's one occupancy function:
// it must give the CUDA runtime's own count for every step's kernel as it launches, and for
// every configuration of steps 09 and 10 this GPU can hold.
TEST_CASE("the occupancy arithmetic agrees with the CUDA runtime for every kernel", "[gpu][steps]") {
    auto check = [](const char* what, const void* kernel, const sgemm::LaunchGeometry& g) {
        INFO(what);
        const int threads = int(g.block.x * g.block.y * g.block.z);
        int api = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, kernel, threads, g.smem_bytes));
        const sgemm::KernelInfo info = sgemm::query_kernel(kernel, g.block, g.smem_bytes);
        CHECK(info.blocks_per_sm == api);
        CHECK(api > 0);
    };
    for (const sgemm::Step& step : kAllSteps) {
        if (runs_here(step)) check(step.name, step.kernel, step.geometry(4096, 4096));
    }
    for (int i = 0; i < step09::Launcher::kCount; ++i) {
        const sgemm::Candidate c = step09::Launcher::candidates([](int) { return 0; })[std::size_t(i)];
        check(c.name.c_str(), reinterpret_cast<const void*>(step09::Launcher::kernel(i)),
              step09::Launcher::geometry_of(i, 4096, 4096, 1, 0));
    }
    for (int i = 0; i < step10::Launcher::kCount; ++i) {
        const std::size_t smem = std::size_t(step10::kConfigs[i].smem_bytes());
        if (smem > sgemm::actual_gpu().smem_per_block_optin) continue;  // cannot launch here
        const sgemm::KernelFn k = step10::Launcher::kernel(i);
        sgemm::allow_shared_memory(k, smem);
        check(step10::kConfigs[i].name().c_str(), reinterpret_cast<const void*>(k),
              step10::Launcher::geometry_of(i, 4096, 4096, 1, smem));
    }
}
