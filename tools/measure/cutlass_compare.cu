// make cutlass: steps 11 and 12 beside CUTLASS's own mma.sync GEMMs and both cuBLAS modes, in one
// process, on the same inputs: how far the course's tensor-core steps are from what
// mma.sync.m16n8k8 TF32 reaches in a well-tuned kernel on this GPU.
//
// CUTLASS's kernels are its 2.x Ampere-style device GEMM (cutlass::gemm::device::Gemm: TF32
// mma.sync, cp.async multistage), built for this ARCH, in the course's layout (A, B and C
// row-major, float in and out), with the tiles that ran fastest on the H100:
//   cutlass_tf32    1xTF32 (arch::OpMultiplyAdd), blocks 256x128x32 and 128x256x32, warps 64x64, 3 stages
//   cutlass_3xtf32  3xTF32 (arch::OpMultiplyAddFastF32), blocks 128x128x32, warps 64x32, 3 stages
// The headers come from PyPI's nvidia-cutlass package (tools/measure/get_cutlass.py, into build/).
// At each shape every method runs on the same seeded inputs (uniform in [-1, 1)), is timed (median
// of 20 launches after 3 warm-up; cuBLAS FP32 in the faster of its two strict math modes, as every
// step's run times it), and its C is compared with the FP64 product (fp64_reference.cuh).
// Output: a table per shape, or with --csv the lines
// "method,M,N,K,median_ms,gflops,x_cublas_fp32,x_cublas_tf32,max,fro". Before sm_80: one line, exit 2.
// "run METHOD SIZE" launches one method twice at SIZE^3 and nothing else, for Nsight Compute
// (tools/profile/ncu_cutlass.sh profiles the second launch). "sustain METHOD SIZE SECONDS" launches
// it back to back for SECONDS and prints its average GFLOP/s, for make power
// (tools/measure/save_power.sh reads the clock and the power draw meanwhile).
#include <cutlass/epilogue/thread/linear_combination.h>
#include <cutlass/gemm/device/gemm.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "errors.h"
#include "gpu/gpu.h"
#include "run/baseline.h"
#include "run/timing.cuh"
#include "steps/11_tensor_cores/kernel.cuh"
#include "steps/12_3xtf32/kernel.cuh"
#include "tools/measure/fp64_reference.cuh"

namespace {

using Row = cutlass::layout::RowMajor;
template <int M, int N, int K>
using Shape = cutlass::gemm::GemmShape<M, N, K>;

/// CUTLASS's device GEMM for float A, B, C (row-major) on TF32 tensor cores: block tile, warp
/// tile, pipeline stages and the math operator (OpMultiplyAdd: 1xTF32; OpMultiplyAddFastF32: 3xTF32).
template <class Block, class Warp, int Stages, class Operator>
using CutlassGemm = cutlass::gemm::device::Gemm<
    float, Row, float, Row, float, Row, float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, Block, Warp,
    Shape<16, 8, 8>, cutlass::epilogue::thread::LinearCombination<float, 4, float, float>,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>, Stages, 4, 4, false, Operator>;

/// Throws with CUTLASS's own words where a call did not succeed.
void cutlass_check(cutlass::Status status, const char* what) {
    if (status != cutlass::Status::kSuccess) {
        throw sgemm::CudaError(std::string("CUTLASS ") + what + ": " + cutlassGetStatusString(status));
    }
}

/// C = A * B by the CUTLASS GEMM G: a launch function for the timing loop (arguments checked and
/// the kernel initialized once, outside the timed launches).
template <class G>
std::function<void()> cutlass_gemm(int M, int N, int K, const float* A, const float* B, float* C) {
    auto gemm = std::make_shared<G>();
    const typename G::Arguments args({M, N, K}, {A, K}, {B, N}, {C, N}, {C, N}, {1.0f, 0.0f});
    cutlass_check(gemm->can_implement(args), "can_implement");
    cutlass_check(gemm->initialize(args, nullptr), "initialize");  // no split-K: no workspace
    return [gemm] {
        cutlass_check((*gemm)(), "run");
        CUDA_CHECK(cudaGetLastError());
    };
}

struct Method {
    const char* name;
    std::function<void()> run;  ///< C = A * B once
};

/// Every method this tool compares, on row-major A (M x K), B (K x N) and C (M x N).
std::vector<Method> methods(sgemm::CublasHandle& blas, int M, int N, int K, const float* a, const float* b, float* c) {
    using Tf32 = cutlass::arch::OpMultiplyAdd;
    using Fast3xTf32 = cutlass::arch::OpMultiplyAddFastF32;
    return {
        {"cublas_fp32", [&blas, M, N, K, a, b, c] { sgemm::cublas_sgemm(blas, M, N, K, 1.0f, a, b, 0.0f, c); }},
        {"cublas_tf32", [&blas, M, N, K, a, b, c] { sgemm::cublas_gemm_tf32(blas, M, N, K, 1.0f, a, b, 0.0f, c); }},
        {"step11", [=] { step11::launch(M, N, K, 1.0f, a, b, 0.0f, c, nullptr); }},
        {"step12", [=] { step12::launch(M, N, K, 1.0f, a, b, 0.0f, c, nullptr); }},
        {"cutlass_tf32_256x128x32", cutlass_gemm<CutlassGemm<Shape<256, 128, 32>, Shape<64, 64, 32>, 3, Tf32>>(M, N, K, a, b, c)},
        {"cutlass_tf32_128x256x32", cutlass_gemm<CutlassGemm<Shape<128, 256, 32>, Shape<64, 64, 32>, 3, Tf32>>(M, N, K, a, b, c)},
        {"cutlass_3xtf32_128x128x32", cutlass_gemm<CutlassGemm<Shape<128, 128, 32>, Shape<64, 32, 32>, 3, Fast3xTf32>>(M, N, K, a, b, c)},
    };
}

/// A, B and C of an M x N x K problem, A and B seeded uniform in [-1, 1).
struct Inputs {
    sgemm::DeviceBuffer<float> A, B, C;
    Inputs(int M, int N, int K) : A(std::size_t(M) * K), B(std::size_t(K) * N), C(std::size_t(M) * N) {
        const sgemm::InputSeeds seeds = sgemm::input_seeds(42);
        sgemm::fill_uniform(A.get(), A.size(), seeds.a, nullptr);
        sgemm::fill_uniform(B.get(), B.size(), seeds.b, nullptr);
    }
};

}  // namespace

int main(int argc, char** argv) try {
    const bool csv = argc == 2 && std::strcmp(argv[1], "--csv") == 0;
    const bool run_one = argc == 4 && std::strcmp(argv[1], "run") == 0;
    const bool sustain = argc == 5 && std::strcmp(argv[1], "sustain") == 0;
    if (argc > 1 && !csv && !run_one && !sustain) {
        throw sgemm::UsageError("usage: cutlass_compare [--csv | run METHOD SIZE | sustain METHOD SIZE SECONDS]");
    }
    const sgemm::Gpu& gpu = sgemm::actual_gpu();
    if (gpu.arch < step11::kMinArch) {
        throw sgemm::DeviceError("make cutlass needs TF32 tensor cores (sm_80 or newer); this GPU, " + gpu.name +
                                 ", is " + sgemm::arch_name(gpu.arch));
    }
    sgemm::CublasHandle blas(nullptr);
    if (run_one || sustain) {  // one method alone: twice for the profiler, or for SECONDS
        const int size = std::atoi(argv[3]);
        if (size < 1) throw sgemm::UsageError(std::string("SIZE must be a whole number of at least 1, got ") + argv[3]);
        const double seconds = sustain ? std::atof(argv[4]) : 0.0;
        if (sustain && !(seconds > 0 && seconds <= 60)) {
            throw sgemm::UsageError(std::string("SECONDS must be a number above 0 and at most 60, got ") + argv[4]);
        }
        Inputs in(size, size, size);
        std::string names;
        for (const Method& m : methods(blas, size, size, size, in.A.get(), in.B.get(), in.C.get())) {
            if (std::strcmp(m.name, argv[2]) != 0) {
                names += std::string(names.empty() ? "" : ", ") + m.name;
                continue;
            }
            if (run_one) {
                m.run(), m.run();
                CUDA_CHECK(cudaDeviceSynchronize());
                std::printf("ran %s %d\n", m.name, size);
                return 0;
            }
            // back to back, ten launches between waits, until SECONDS have passed
            const auto start = std::chrono::steady_clock::now();
            auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
            long launches = 0;
            while (elapsed() < seconds) {
                for (int i = 0; i < 10; ++i, ++launches) m.run();
                CUDA_CHECK(cudaDeviceSynchronize());
            }
            std::printf("%s %d %ld %.1f\n", m.name, size, launches, 2.0 * size * size * double(size) * launches / elapsed() / 1e9);
            return 0;
        }
        throw sgemm::UsageError(std::string("no method ") + argv[2] + "; the methods are " + names);
    }
    if (csv) std::printf("method,M,N,K,median_ms,gflops,x_cublas_fp32,x_cublas_tf32,max,fro\n");
    else std::printf("%s: C = A * B, A and B uniform in [-1, 1), every method in this one process\n", gpu.name.c_str());
    for (const int size : {4096, 8192}) {
        const int M = size, N = size, K = size;
        Inputs in(M, N, K);
        const sgemm_tools::Fp64Reference exact(blas.get(), in.A.get(), in.B.get(), M, N, K);
        if (!csv) {
            std::printf("\n%d x %d x %d\n%-26s %9s %10s %9s %9s %10s %10s\n", M, N, K, "method", "ms", "GFLOP/s",
                        "x FP32", "x TF32", "max", "fro");
        }
        std::vector<float> got(in.C.size());
        double fp32_gflops = 0, tf32_gflops = 0;
        for (const Method& m : methods(blas, M, N, K, in.A.get(), in.B.get(), in.C.get())) {
            const bool strict = std::strcmp(m.name, "cublas_fp32") == 0;
            const double ms = strict ? sgemm::time_cublas_modes(blas, m.run, 3, 20, nullptr).best().median_ms
                                     : sgemm::time_launches(m.run, 3, 20, nullptr).median_ms;
            CUDA_CHECK(cudaMemset(in.C.get(), 0xFF, in.C.bytes()));  // NaN: an element not written shows in the error
            m.run();
            CUDA_CHECK(cudaDeviceSynchronize());
            in.C.copy_to_host(got.data());
            const sgemm_tools::Fp64Error e = exact.error_of(got);
            const double gflops = 2.0 * M * N * double(K) / ms / 1e6;
            if (strict) fp32_gflops = gflops;
            if (std::strcmp(m.name, "cublas_tf32") == 0) tf32_gflops = gflops;
            if (csv) {
                std::printf("%s,%d,%d,%d,%.4f,%.1f,%.3f,%.3f,%.3e,%.3e\n", m.name, M, N, K, ms, gflops,
                            gflops / fp32_gflops, gflops / tf32_gflops, e.max, e.fro);
            } else {
                std::printf("%-26s %9.4f %10.1f %9.2f %9.2f %10.3e %10.3e\n", m.name, ms, gflops, gflops / fp32_gflops,
                            gflops / tf32_gflops, e.max, e.fro);
            }
        }
    }
    return 0;
} catch (const sgemm::UsageError& e) {
    std::fprintf(stderr, "cutlass_compare: %s\n", e.what());
    return 2;
} catch (const std::exception& e) {
    std::fprintf(stderr, "cutlass_compare: %s\n", e.what());
    return 1;
}
