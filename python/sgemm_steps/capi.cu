/// @file capi.cu
/// @brief The C API of libsgemm_steps.so, which the Python package sgemm_steps loads with ctypes.
///
/// Every step's kernel.cuh comes in through build/steps_registry.h (tools/compile/gen_registry.sh),
/// the same list the Catch2 tests use, so a new step folder is here without anyone editing a list.
/// The timing, the cuBLAS baseline and the verification are common/'s (run/timing.cuh, run/baseline.h,
/// run/compare.h), as in the command-line report.
///
/// Every function returns a status: 0 success, 1 CUDA or cuBLAS error or wrong result,
/// 2 bad input or no usable GPU. After a non-zero status, sgemm_last_error() returns one line
/// that says what went wrong (per thread).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "errors.h"  // UsageError
#include "gpu/gpu.h"
#include "run/baseline.h"
#include "run/compare.h"
#include "run/timing.cuh"
#include "steps_registry.h"  // every step's kernel.cuh, and sgemm_tests::kAllSteps

#define SGEMM_API extern "C" __attribute__((visibility("default")))

namespace {

thread_local std::string g_last_error;

constexpr int kSteps = static_cast<int>(sizeof(sgemm_tests::kAllSteps) / sizeof(sgemm_tests::kAllSteps[0]));

/// Bad input from the caller: status 2.
struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The step at 0-based @p index. @throws BadInput when there is none.
const sgemm::Step& step_at(int index) {
    if (index < 0 || index >= kSteps) {
        throw BadInput("no step with index " + std::to_string(index) + " (0 to " +
                       std::to_string(kSteps - 1) + ")");
    }
    return sgemm_tests::kAllSteps[index];
}

/// The message without line breaks: Python raises it as one line.
std::string one_line(std::string s) {
    for (char& c : s) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

/// Runs @p body, turning an exception into a status and sgemm_last_error()'s line.
template <class Body>
int guarded(Body&& body) {
    try {
        g_last_error.clear();
        body();
        return 0;
    } catch (const BadInput& e) {
        g_last_error = one_line(e.what());
        return 2;
    } catch (const sgemm::UsageError& e) {  // no GPU, older than sm_75, bad SGEMM_GPU_CLASS
        g_last_error = one_line(e.what());
        return 2;
    } catch (const std::exception& e) {  // CudaError, CublasError, bad_alloc
        g_last_error = one_line(e.what());
        return 1;
    }
}

/// A usable GPU of sm_75 or newer (sm_80 for steps 11 and 12), whose code this library holds (built for its architecture
/// or an older one). @throws sgemm::UsageError otherwise.
void require_gpu(const sgemm::Step& step) {
    sgemm::require_cuda_device();
    sgemm::require_arch(step, sgemm::gpu_in_force());  // sm_75 or newer (11, 12: sm_80), class well formed
    cudaFuncAttributes attr{};
    const cudaError_t status = cudaFuncGetAttributes(&attr, step.kernel);
    if (status == cudaErrorNoKernelImageForDevice || status == cudaErrorInvalidDeviceFunction) {
        cudaGetLastError();  // clear it
        throw sgemm::UsageError(std::string("libsgemm_steps.so was built for another GPU (") +
                                cudaGetErrorName(status) + "); rebuild for this one, " +
                                sgemm::arch_name(sgemm::actual_gpu().arch) +
                                ": make clean && make python");
    }
    CUDA_CHECK(status);
}

/// Throws BadInput unless @p p is memory the GPU can read and write (device or managed
/// memory, or host memory mapped for the device).
void require_device_pointer(const void* p, const char* what) {
    cudaPointerAttributes attr{};
    const cudaError_t status = cudaPointerGetAttributes(&attr, p);
    if (status != cudaSuccess) {
        cudaGetLastError();
        throw BadInput(std::string(what) + " is not a pointer the GPU knows (" + cudaGetErrorName(status) + ")");
    }
    if (attr.type == cudaMemoryTypeUnregistered ||
        (attr.type == cudaMemoryTypeHost && attr.devicePointer == nullptr)) {
        throw BadInput(std::string(what) + " is host memory; pass GPU memory");
    }
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    if (attr.type == cudaMemoryTypeDevice && attr.device != device) {
        throw BadInput(std::string(what) + " is on GPU " + std::to_string(attr.device) +
                       "; the steps run on GPU " + std::to_string(device));
    }
}

void require_sizes(int M, int N, int K) {
    if (M < 0 || N < 0 || K < 0) {
        throw BadInput("M, N and K must be >= 0 (got " + std::to_string(M) + ", " + std::to_string(N) +
                       ", " + std::to_string(K) + ")");
    }
}

double gflops(int M, int N, int K, double ms) {
    return 2.0 * M * static_cast<double>(N) * K / (ms * 1e-3) / 1e9;
}

}  // namespace

/// What sgemm_bench() measured: the figures of the command-line report. Python mirrors this
/// struct (sgemm_steps._lib.BenchResult); keep the two in step.
struct SgemmBenchResult {
    double median_ms;         ///< the step's median time
    double best_ms;           ///< the step's best time
    double gflops;            ///< 2*M*N*K / median time
    double cublas_median_ms;  ///< cuBLAS's median time, in its faster strict-FP32 mode
    double cublas_best_ms;    ///< cuBLAS's best time in that mode
    double cublas_gflops;     ///< 2*M*N*K / cuBLAS's median time
    double pct_of_cublas;     ///< 100 * gflops / cublas_gflops
    double max_abs_error;     ///< largest |step - cuBLAS| of the verified launch
    int verified;             ///< 1: the step matched cuBLAS (beta = 0, C poisoned with NaN first)
    int cublas_pedantic;      ///< 1: CUBLAS_PEDANTIC_MATH was the faster mode, 0: DEFAULT
};

/// The number of steps the library holds.
SGEMM_API int sgemm_num_steps() { return kSteps; }

/// The name of the step at 0-based @p index ("step05"), or null when there is none.
SGEMM_API const char* sgemm_step_name(int index) {
    return index >= 0 && index < kSteps ? sgemm_tests::kAllSteps[index].name : nullptr;
}

/// The title of the step at 0-based @p index ("2d_blocktiling"), or null when there is none.
SGEMM_API const char* sgemm_step_title(int index) {
    return index >= 0 && index < kSteps ? sgemm_tests::kAllSteps[index].title : nullptr;
}

/// What the step at 0-based @p index multiplies in: "FP32", "TF32" (step 11) or "3xTF32" (step
/// 12), which sets its tolerance (run/compare.h); null when there is none.
SGEMM_API const char* sgemm_step_arithmetic(int index) {
    return index >= 0 && index < kSteps ? sgemm::arithmetic_name(sgemm_tests::kAllSteps[index].arithmetic) : nullptr;
}

/// The line that says why the last call on this thread failed ("" after a success).
SGEMM_API const char* sgemm_last_error() { return g_last_error.c_str(); }

#ifndef SGEMM_BUILT_ARCH
#define SGEMM_BUILT_ARCH "unknown"  // the Makefile passes ARCH
#endif

/// The architecture the library was built for, as `make ARCH=...` named it ("sm_90").
SGEMM_API const char* sgemm_built_arch() { return SGEMM_BUILT_ARCH; }

/// Status 0 when a usable GPU (sm_75 or newer) is there and the library has code for it.
SGEMM_API int sgemm_device_check() {
    return guarded([] { require_gpu(step_at(0)); });
}

/// cudaMalloc of @p bytes (at least 1) into @p out.
SGEMM_API int sgemm_malloc(void** out, std::size_t bytes) {
    return guarded([&] {
        *out = nullptr;
        CUDA_CHECK(cudaMalloc(out, bytes > 0 ? bytes : 1));
    });
}

/// cudaFree of @p p (null: nothing).
SGEMM_API int sgemm_free(void* p) {
    return guarded([&] { CUDA_CHECK(cudaFree(p)); });
}

/// Copies @p bytes from host memory @p src to device memory @p dst (synchronous).
SGEMM_API int sgemm_copy_to_device(void* dst, const void* src, std::size_t bytes) {
    return guarded([&] {
        if (bytes > 0) CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    });
}

/// Copies @p bytes from device memory @p src to host memory @p dst (synchronous).
SGEMM_API int sgemm_copy_to_host(void* dst, const void* src, std::size_t bytes) {
    return guarded([&] {
        if (bytes > 0) CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    });
}

/// C = alpha * A * B + beta * C with the step at 0-based @p step, on row-major, contiguous device
/// arrays A (M x K), B (K x N), C (M x N); launched on the default stream, then synchronized.
SGEMM_API int sgemm_run(int step, int M, int N, int K, float alpha, const float* A, const float* B,
                        float beta, float* C) {
    return guarded([&] {
        const sgemm::Step& s = step_at(step);
        require_sizes(M, N, K);
        require_gpu(s);
        if (M == 0 || N == 0) return;  // C is empty: nothing to do
        if (K > 0) {
            require_device_pointer(A, "A");
            require_device_pointer(B, "B");
        }
        require_device_pointer(C, "C");
        s.launch(M, N, K, alpha, A, B, beta, C, /*stream=*/0);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaStreamSynchronize(0));
    });
}

/// The command-line report's figures for the step at 0-based @p step at M x N x K, as
/// `./stepNN M N K` measures them: seeded random inputs in [-1, 1) (@p seed, as `--seed`), one
/// launch verified against cuBLAS with beta = 0 and C poisoned with NaN first, then @p warmup
/// untimed and @p reps timed launches of the step and of cuBLAS in both strict-FP32 math modes
/// (common/run/timing.cuh), alpha = 1, beta = 0.
SGEMM_API int sgemm_bench(int step, int M, int N, int K, int warmup, int reps, unsigned long long seed,
                          SgemmBenchResult* out) {
    return guarded([&] {
        const sgemm::Step& s = step_at(step);
        if (M < 1 || N < 1 || K < 1) {
            throw BadInput("M, N and K must be >= 1 (got " + std::to_string(M) + ", " + std::to_string(N) +
                           ", " + std::to_string(K) + ")");
        }
        if (warmup < 0 || reps < 1) throw BadInput("warmup must be >= 0 and reps >= 1");
        require_gpu(s);
        *out = SgemmBenchResult{};

        sgemm::CudaStream stream;
        sgemm::CublasHandle blas(stream.get());
        sgemm::DeviceBuffer<float> A(static_cast<std::size_t>(M) * K), B(static_cast<std::size_t>(K) * N),
            C(static_cast<std::size_t>(M) * N), Cref(static_cast<std::size_t>(M) * N);
        const sgemm::InputSeeds seeds = sgemm::input_seeds(seed);
        sgemm::fill_uniform(A.get(), A.size(), seeds.a, stream.get());
        sgemm::fill_uniform(B.get(), B.size(), seeds.b, stream.get());

        // Verification first, as in the report: beta = 0 on a C of NaN (all bits set).
        sgemm::cublas_sgemm(blas, M, N, K, 1.0f, A.get(), B.get(), 0.0f, Cref.get());
        CUDA_CHECK(cudaMemsetAsync(C.get(), 0xFF, C.bytes(), stream.get()));
        s.launch(M, N, K, 1.0f, A.get(), B.get(), 0.0f, C.get(), stream.get());
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        std::vector<float> got(C.size()), expected(Cref.size());
        C.copy_to_host(got.data());
        Cref.copy_to_host(expected.data());
        const sgemm::VerifyResult v =
            sgemm::verify(got.data(), expected.data(), M, N, sgemm::gemm_tolerance(K, 1.0f, 0.0f, 1.0, 1.0, 1.0, s.arithmetic));

        const sgemm::Timing t = sgemm::time_launches(
            [&] { s.launch(M, N, K, 1.0f, A.get(), B.get(), 0.0f, C.get(), stream.get()); }, warmup, reps,
            stream.get());
        CUDA_CHECK(cudaGetLastError());
        const sgemm::CublasTiming tb = sgemm::time_cublas_modes(
            blas, [&] { sgemm::cublas_sgemm(blas, M, N, K, 1.0f, A.get(), B.get(), 0.0f, Cref.get()); },
            warmup, reps, stream.get());

        out->median_ms = t.median_ms;
        out->best_ms = t.best_ms;
        out->gflops = gflops(M, N, K, t.median_ms);
        out->cublas_median_ms = tb.best().median_ms;
        out->cublas_best_ms = tb.best().best_ms;
        out->cublas_gflops = gflops(M, N, K, tb.best().median_ms);
        out->pct_of_cublas = 100.0 * out->gflops / out->cublas_gflops;
        out->max_abs_error = v.max_abs_error;
        out->verified = v.ok() ? 1 : 0;
        out->cublas_pedantic = tb.faster;
    });
}
