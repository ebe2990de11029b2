// make tc-variants: steps 11 and 12's kernel in the configurations and variants their lab notes
// compare (tools/measure/tc_variants.cuh), beside cuBLAS FP32 and TF32 in the same process: the
// mma.sync TF32 rate from registers, every variant checked at awkward shapes against an FP64
// product (cublasDgemm), then speed and error (max |C - C64| / (|A||B|), relative Frobenius) at
// 4096^3, 8192^3, 2048^3 and five other shapes. `tc_variants run I` runs variant I twice at
// 4096^3 (zero inputs), for Nsight Compute (tools/profile/tc_ncu.sh). Standalone: its own
// launches, no harness; sm_80 and newer.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tc_variants.cuh"
#include "steps/12_3xtf32/kernel.cuh"

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e = (x);                                                                    \
        if (e != cudaSuccess) {                                                                 \
            std::printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e), __FILE__, __LINE__, #x); \
            std::exit(1);                                                                       \
        }                                                                                       \
    } while (0)
#define CB(x)                                                                   \
    do {                                                                        \
        cublasStatus_t s = (x);                                                 \
        if (s != CUBLAS_STATUS_SUCCESS) {                                       \
            std::printf("cuBLAS error %d at %s:%d\n", int(s), __FILE__, __LINE__); \
            std::exit(1);                                                       \
        }                                                                       \
    } while (0)

using Launch = std::function<void(int, int, int, float, const float*, const float*, float, float*)>;

template <int BM, int BN, int BK, int WM, int WN, int S, int MB, int SPLIT, bool FRAG = false>
Launch make_launch() {
    return [](int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C) {
        constexpr int threads = (BM / WM) * (BN / WN) * 32;
        constexpr int smem = S * (BM * (BK + (FRAG ? 8 : 4)) + BK * (BN + (FRAG ? 4 : 8))) * 4;
        const bool va = K % 4 == 0, vb = N % 4 == 0;
        dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
        auto go = [&](auto k) {
            CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
            k<<<grid, threads, smem>>>(M, N, K, alpha, A, B, beta, C);
        };
        if (va && vb) go(proto::gemm_tc<BM, BN, BK, WM, WN, S, MB, true, true, SPLIT, FRAG>);
        else if (va) go(proto::gemm_tc<BM, BN, BK, WM, WN, S, MB, true, false, SPLIT, FRAG>);
        else if (vb) go(proto::gemm_tc<BM, BN, BK, WM, WN, S, MB, false, true, SPLIT, FRAG>);
        else go(proto::gemm_tc<BM, BN, BK, WM, WN, S, MB, false, false, SPLIT, FRAG>);
        CK(cudaGetLastError());
    };
}

/// The steps' own kernels (steps/11_tensor_cores, steps/12_3xtf32) in one configuration each,
/// launched directly (no split-K, no packing): the configurations their kConfigs weigh.
template <int BM, int BN, int BK, int WM, int WN, int S, int MB, bool kStep12>
Launch make_step_launch() {
    return [](int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C) {
        // the step's own record gives the block and its shared memory (A's layout lives there once)
        constexpr step11::Config c11{BM, BN, BK, WM, WN, MB, S, 0.0, 0.0};
        constexpr step12::Config c12{BM, BN, BK, WM, WN, MB, S, 0.0, 0.0};
        constexpr int threads = kStep12 ? c12.threads() : c11.threads();
        constexpr int smem = kStep12 ? c12.smem_bytes() : c11.smem_bytes();
        const bool va = K % 4 == 0, vb = N % 4 == 0;
        dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
        auto go = [&](auto k) {
            CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
            k<<<grid, threads, smem>>>(M, N, K, alpha, A, B, beta, C);
        };
        auto pick = [&](auto va_c, auto vb_c) {
            constexpr bool a = decltype(va_c)::value, b = decltype(vb_c)::value;
            if constexpr (kStep12) go(step12::sgemm_3xtf32<BM, BN, BK, WM, WN, MB, S, a, b>);
            else go(step11::sgemm_tensor_cores<BM, BN, BK, WM, WN, MB, S, a, b>);
        };
        if (va && vb) pick(std::true_type{}, std::true_type{});
        else if (va) pick(std::true_type{}, std::false_type{});
        else if (vb) pick(std::false_type{}, std::true_type{});
        else pick(std::false_type{}, std::false_type{});
        CK(cudaGetLastError());
    };
}

struct Variant {
    std::string name;
    Launch launch;
};

__global__ void mma_peak(float* out, int iters) {
    float acc[8][4] = {};
    uint32_t a[4], b[2];
    for (int i = 0; i < 4; ++i) a[i] = proto::to_tf32(threadIdx.x * 1e-3f + i);
    for (int i = 0; i < 2; ++i) b[i] = proto::to_tf32(threadIdx.x * 2e-3f + i);
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int j = 0; j < 8; ++j) proto::mma_tf32(acc[j], a, b);
    }
    float s = 0;
    for (int j = 0; j < 8; ++j) s += acc[j][0] + acc[j][1] + acc[j][2] + acc[j][3];
    if (s == 12345.f) out[0] = s;
}

__global__ void to_double(const float* x, double* y, size_t n, bool absval) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        y[i] = absval ? fabs(double(x[i])) : double(x[i]);
}

static std::vector<float> rnd(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto& x : v) x = d(g);
    return v;
}

int main(int argc, char** argv) {
    std::vector<Variant> v11 = {
        {"s11 128x256x32 w64x64 3st", make_launch<128, 256, 32, 64, 64, 3, 1, 1, false>()},
        {"s11 128x256x32 w64x64 3st frag", make_launch<128, 256, 32, 64, 64, 3, 1, 1, true>()},
        {"s11 128x256x32 w64x64 3st nocvt", make_launch<128, 256, 32, 64, 64, 3, 1, 0, false>()},
        {"s11 128x256x32 w64x64 4st", make_launch<128, 256, 32, 64, 64, 4, 1, 1, false>()},
        {"s11 128x256x32 w64x32 3st", make_launch<128, 256, 32, 64, 32, 3, 1, 1, false>()},
        {"s11 128x256x32 w32x64 3st", make_launch<128, 256, 32, 32, 64, 3, 1, 1, false>()},
        {"s11 256x128x32 w64x32 3st", make_launch<256, 128, 32, 64, 32, 3, 1, 1, false>()},
        {"s11 128x128x32 w32x64 3st mb2", make_launch<128, 128, 32, 32, 64, 3, 2, 1, false>()},
        {"s11 128x128x32 w32x64 2st", make_launch<128, 128, 32, 32, 64, 2, 1, 1, false>()},
        {"s11 128x256x16 w64x64 4st", make_launch<128, 256, 16, 64, 64, 4, 1, 1, false>()},
    };
    std::vector<Variant> v12 = {
        {"s12 128x256x32 w64x64 3st acc", make_launch<128, 256, 32, 64, 64, 3, 1, 3, false>()},
        {"s12 128x256x32 w64x64 3st part", make_launch<128, 256, 32, 64, 64, 3, 1, 4, false>()},
        {"s12 128x256x32 w64x32 3st part", make_launch<128, 256, 32, 64, 32, 3, 1, 4, false>()},
        {"s12 128x128x32 w64x32 3st tile", make_launch<128, 128, 32, 64, 32, 3, 1, 5, false>()},
        {"s12 128x128x32 w64x32 2st tile", make_launch<128, 128, 32, 64, 32, 2, 1, 5, false>()},
        {"s12 128x256x32 w64x32 3st tile", make_launch<128, 256, 32, 64, 32, 3, 1, 5, false>()},
    };
    // the steps' own kernels (after the prototype's, whose indices tools/measure/save_tc_variants.sh names)
    std::vector<Variant> steps = {
        {"s11 step 128x256x32 w64x64 3st", make_step_launch<128, 256, 32, 64, 64, 3, 1, false>()},
        {"s11 step 128x256x32 w64x64 4st", make_step_launch<128, 256, 32, 64, 64, 4, 1, false>()},
        {"s11 step 256x128x32 w64x64 3st", make_step_launch<256, 128, 32, 64, 64, 3, 1, false>()},
        {"s11 step 128x128x32 w64x64 3st mb2", make_step_launch<128, 128, 32, 64, 64, 3, 2, false>()},
        {"s11 step 128x128x32 w64x64 2st", make_step_launch<128, 128, 32, 64, 64, 2, 1, false>()},
        {"s11 step 128x128x32 w32x64 3st mb2", make_step_launch<128, 128, 32, 32, 64, 3, 2, false>()},
        {"s11 step 128x256x64 w64x64 2st", make_step_launch<128, 256, 64, 64, 64, 2, 1, false>()},
        {"s12 step 128x128x32 w64x32 3st", make_step_launch<128, 128, 32, 64, 32, 3, 1, true>()},
        {"s12 step 128x128x32 w64x32 4st", make_step_launch<128, 128, 32, 64, 32, 4, 1, true>()},
        {"s12 step 128x128x32 w64x32 2st", make_step_launch<128, 128, 32, 64, 32, 2, 1, true>()},
        {"s12 step 128x128x64 w64x32 3st", make_step_launch<128, 128, 64, 64, 32, 3, 1, true>()},
    };
    std::vector<Variant> all = v11;
    all.insert(all.end(), v12.begin(), v12.end());
    all.insert(all.end(), steps.begin(), steps.end());

    cublasHandle_t h;
    CB(cublasCreate(&h));
    if (argc > 2 && std::string(argv[1]) == "run") {
        const int idx = std::atoi(argv[2]), M = 4096, N = 4096, K = 4096;
        float *dA, *dB, *dC;
        CK(cudaMalloc(&dA, size_t(M) * K * 4)); CK(cudaMalloc(&dB, size_t(K) * N * 4)); CK(cudaMalloc(&dC, size_t(M) * N * 4));
        CK(cudaMemset(dA, 0, size_t(M) * K * 4)); CK(cudaMemset(dB, 0, size_t(K) * N * 4));
        for (int i = 0; i < 2; ++i) all[idx].launch(M, N, K, 1.f, dA, dB, 0.f, dC);
        CK(cudaDeviceSynchronize());
        std::printf("ran %s\n", all[idx].name.c_str());
        return 0;
    }
    auto cublas32 = [&](int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C, bool tf32) {
        CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_32F, N, A, CUDA_R_32F, K, &beta, C,
                        CUDA_R_32F, N, tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    };
    Variant cb32{"cuBLAS FP32", [&](int M, int N, int K, float a, const float* A, const float* B, float b, float* C) {
                     cublas32(M, N, K, a, A, B, b, C, false);
                 }};
    Variant cbtf{"cuBLAS TF32", [&](int M, int N, int K, float a, const float* A, const float* B, float b, float* C) {
                     cublas32(M, N, K, a, A, B, b, C, true);
                 }};

    // peak
    {
        float* o;
        CK(cudaMalloc(&o, 4));
        int sms;
        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        const int iters = 20000;
        mma_peak<<<sms * 4, 256>>>(o, 100);
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        CK(cudaEventRecord(e0));
        mma_peak<<<sms * 4, 256>>>(o, iters);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        const double flops = double(sms) * 4 * 8 * iters * 8 * 2048.0;
        std::printf("mma.sync tf32 peak: %.1f TFLOP/s\n", flops / ms / 1e9);
    }

    // correctness at awkward shapes against DGEMM
    auto dgemm_ref = [&](int M, int N, int K, const float* dA, const float* dB, std::vector<double>& ref,
                         std::vector<double>& mag) {
        double *A64, *B64, *C64, *Aa, *Ba, *Ca;
        const size_t na = size_t(M) * K, nb = size_t(K) * N, nc = size_t(M) * N;
        CK(cudaMalloc(&A64, na * 8)); CK(cudaMalloc(&B64, nb * 8)); CK(cudaMalloc(&C64, nc * 8));
        CK(cudaMalloc(&Aa, na * 8)); CK(cudaMalloc(&Ba, nb * 8)); CK(cudaMalloc(&Ca, nc * 8));
        to_double<<<1024, 256>>>(dA, A64, na, false);
        to_double<<<1024, 256>>>(dB, B64, nb, false);
        to_double<<<1024, 256>>>(dA, Aa, na, true);
        to_double<<<1024, 256>>>(dB, Ba, nb, true);
        const double one = 1, zero = 0;
        CB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B64, N, A64, K, &zero, C64, N));
        CB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, Ba, N, Aa, K, &zero, Ca, N));
        ref.resize(nc), mag.resize(nc);
        CK(cudaMemcpy(ref.data(), C64, nc * 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(mag.data(), Ca, nc * 8, cudaMemcpyDeviceToHost));
        cudaFree(A64), cudaFree(B64), cudaFree(C64), cudaFree(Aa), cudaFree(Ba), cudaFree(Ca);
    };
    auto errors = [&](const std::vector<float>& got, const std::vector<double>& ref, const std::vector<double>& mag,
                      double& mx, double& fro) {
        double num = 0, den = 0;
        mx = 0;
        for (size_t i = 0; i < got.size(); ++i) {
            const double d = double(got[i]) - ref[i];
            if (!std::isfinite(got[i])) { mx = INFINITY; continue; }
            mx = std::max(mx, std::fabs(d) / std::max(mag[i], 1e-300));
            num += d * d, den += ref[i] * ref[i];
        }
        fro = std::sqrt(num / den);
    };

    const int shapes[][3] = {{1, 1, 1}, {1, 1, 7}, {17, 33, 65}, {127, 129, 31}, {255, 257, 300}, {1000, 1023, 1025},
                             {129, 64, 1}, {64, 4096, 2048}, {2000, 3, 999}, {300, 4100, 33}};
    int fails = 0;
    for (auto& s : shapes) {
        const int M = s[0], N = s[1], K = s[2];
        auto hA = rnd(size_t(M) * K, 1), hB = rnd(size_t(K) * N, 2), hC = rnd(size_t(M) * N, 3);
        float *dA, *dB, *dC;
        CK(cudaMalloc(&dA, hA.size() * 4)); CK(cudaMalloc(&dB, hB.size() * 4)); CK(cudaMalloc(&dC, hC.size() * 4));
        CK(cudaMemcpy(dA, hA.data(), hA.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hB.data(), hB.size() * 4, cudaMemcpyHostToDevice));
        std::vector<double> ref, mag;
        dgemm_ref(M, N, K, dA, dB, ref, mag);
        for (auto& v : all) {
            for (int pass = 0; pass < 2; ++pass) {
                const float alpha = pass ? 0.75f : 1.f, beta = pass ? -1.25f : 0.f;
                std::vector<float> init(hC.size(), NAN);
                if (pass) init = hC;
                CK(cudaMemcpy(dC, init.data(), init.size() * 4, cudaMemcpyHostToDevice));
                v.launch(M, N, K, alpha, dA, dB, beta, dC);
                CK(cudaDeviceSynchronize());
                std::vector<float> got(hC.size());
                CK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
                // expected = alpha * ref + beta * C0; bound: per arithmetic
                const bool tf32 = v.name.rfind("s11", 0) == 0 || v.name.find(" acc") != std::string::npos;  // acc: truncated sums
                const double trunc = v.name.find("nocvt") != std::string::npos ? 2.0 : 1.0;
                double worst = 0;
                for (size_t i = 0; i < got.size(); ++i) {
                    const double e = alpha * ref[i] + (pass ? beta * double(hC[i]) : 0.0);
                    const double bound = (tf32 ? trunc * std::ldexp(1.0, -10) : 4 * 1.2e-7 * K) * alpha * mag[i] +
                                         4 * 1.2e-7 * (std::fabs(e) + (pass ? 1.25 : 0)) + 1e-30;
                    const double r = std::isfinite(got[i]) ? std::fabs(got[i] - e) / bound : INFINITY;
                    worst = std::max(worst, r);
                }
                if (!(worst <= 1)) {
                    ++fails;
                    std::printf("FAIL %s at %dx%dx%d pass %d: worst/bound %.3g\n", v.name.c_str(), M, N, K, pass, worst);
                }
            }
        }
        cudaFree(dA), cudaFree(dB), cudaFree(dC);
    }
    std::printf("awkward shapes: %d failures\n", fails);

    // speed and error
    std::vector<std::vector<int>> bench = {{4096, 4096, 4096}, {8192, 8192, 8192}, {2048, 2048, 2048},
                                           {2048, 2048, 8192}, {4096, 4096, 1024}, {4095, 4095, 4095},
                                           {1023, 1023, 1023}, {8192, 1024, 4096}};
    if (argc > 1) bench.resize(std::atoi(argv[1]));
    for (auto& s : bench) {
        const int M = s[0], N = s[1], K = s[2];
        auto hA = rnd(size_t(M) * K, 1), hB = rnd(size_t(K) * N, 2);
        float *dA, *dB, *dC;
        CK(cudaMalloc(&dA, hA.size() * 4)); CK(cudaMalloc(&dB, hB.size() * 4)); CK(cudaMalloc(&dC, size_t(M) * N * 4));
        CK(cudaMemcpy(dA, hA.data(), hA.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hB.data(), hB.size() * 4, cudaMemcpyHostToDevice));
        std::vector<double> ref, mag;
        const bool do_err = double(M) * N * K <= 8.7e9;
        if (do_err) dgemm_ref(M, N, K, dA, dB, ref, mag);
        std::vector<Variant*> list = {&cb32, &cbtf};
        for (auto& v : all) list.push_back(&v);
        double base = 0;
        std::printf("== %dx%dx%d\n", M, N, K);
        for (auto* v : list) {
            cudaEvent_t e0, e1;
            CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
            for (int i = 0; i < 3; ++i) v->launch(M, N, K, 1.f, dA, dB, 0.f, dC);
            const int reps = double(M) * N * K > 1e11 ? 5 : 20;
            std::vector<float> t;
            for (int r = 0; r < reps; ++r) {
                CK(cudaEventRecord(e0));
                v->launch(M, N, K, 1.f, dA, dB, 0.f, dC);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            const double ms = t[t.size() / 2];
            const double gf = 2.0 * M * N * K / ms / 1e6;
            if (base == 0) base = gf;
            double mx = 0, fro = 0;
            if (do_err) {
                std::vector<float> got(size_t(M) * N);
                CK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
                errors(got, ref, mag, mx, fro);
            }
            std::printf("%-28s %9.3f ms %10.0f GFLOP/s %5.2fx  max %.3g fro %.3g\n", v->name.c_str(), ms, gf, gf / base,
                        mx, fro);
        }
        cudaFree(dA), cudaFree(dB), cudaFree(dC);
    }
    return fails ? 1 : 0;
}
