/// @file timing.cuh
/// @brief time_launches(): CUDA-event timing of repeated launches, the one method every
///        step binary and `make tiles` use, with a warm or (L2Flush) a cold L2 cache;
///        time_cublas_modes(): the cuBLAS baseline timed that way in both strict-FP32 math modes.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "run/baseline.h"
#include "run/stats.h"  // median()

namespace sgemm {

/// Times of the timed launches, in milliseconds.
struct Timing {
    double median_ms = 0;  ///< median of the timed launches
    double best_ms = 0;    ///< fastest timed launch
};

/// Empties the L2 cache of what a launch left there, for timing with a cold cache: writing a
/// buffer twice the L2's size evicts every line the inputs held (the way NVIDIA's nvbench
/// flushes it). The write itself happens before the timed region.
class L2Flush {
public:
    /// A buffer of twice @p l2_bytes (at least 1 MiB).
    explicit L2Flush(std::size_t l2_bytes) : buffer_(std::max<std::size_t>(2 * l2_bytes, 1 << 20)) {}
    /// Enqueues the flush on @p stream.
    void operator()(cudaStream_t stream) const {
        CUDA_CHECK(cudaMemsetAsync(buffer_.get(), 0, buffer_.bytes(), stream));
    }

private:
    DeviceBuffer<unsigned char> buffer_;
};

/// Times `launch_once` with CUDA events on `stream`: `warmup` untimed launches, then `reps`
/// launches, each between its own pair of events, read after one synchronization.
/// @param launch_once callable that enqueues one launch on `stream`
/// @param warmup      untimed launches first (clocks up, caches and TLBs warm)
/// @param reps        timed launches, at least 1
/// @param stream      the stream the launches go to
/// @param flush       if set, the L2 cache is flushed before each timed launch (cold cache)
template <class F>
Timing time_launches(F&& launch_once, int warmup, int reps, cudaStream_t stream,
                     const L2Flush* flush = nullptr) {
    for (int i = 0; i < warmup; ++i) launch_once();
    std::vector<CudaEvent> start(reps), stop(reps);
    for (int i = 0; i < reps; ++i) {
        if (flush != nullptr) (*flush)(stream);
        CUDA_CHECK(cudaEventRecord(start[i].get(), stream));
        launch_once();
        CUDA_CHECK(cudaEventRecord(stop[i].get(), stream));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<double> ms(reps);
    for (int i = 0; i < reps; ++i) {
        float t = 0;
        CUDA_CHECK(cudaEventElapsedTime(&t, start[i].get(), stop[i].get()));
        ms[i] = t;
    }
    return {median(ms), *std::min_element(ms.begin(), ms.end())};
}

/// cuBLAS timed in CUBLAS_DEFAULT_MATH and in CUBLAS_PEDANTIC_MATH, and which was faster.
struct CublasTiming {
    Timing mode[2];   ///< [0] DEFAULT, [1] PEDANTIC
    int faster = 0;   ///< the index of the smaller median (DEFAULT on a tie)
    /// The faster mode's timing: the baseline a step races.
    const Timing& best() const { return mode[faster]; }
    /// The faster mode itself.
    cublasMath_t best_mode() const { return faster == 1 ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH; }
};

/// Times `launch_once` (a cuBLAS call through @p blas) with time_launches() in both strict-FP32
/// math modes (the L2 flushed before each timed launch if @p flush is set), then leaves @p blas
/// in CUBLAS_DEFAULT_MATH.
template <class F>
CublasTiming time_cublas_modes(const CublasHandle& blas, F&& launch_once, int warmup, int reps,
                               cudaStream_t stream, const L2Flush* flush = nullptr) {
    CublasTiming out;
    const cublasMath_t modes[2] = {CUBLAS_DEFAULT_MATH, CUBLAS_PEDANTIC_MATH};
    for (int m = 0; m < 2; ++m) {
        blas.set_math_mode(modes[m]);
        out.mode[m] = time_launches(launch_once, warmup, reps, stream, flush);
    }
    blas.set_math_mode(CUBLAS_DEFAULT_MATH);
    out.faster = out.mode[1].median_ms < out.mode[0].median_ms ? 1 : 0;
    return out;
}

}  // namespace sgemm
