/// @file timing.cuh
/// @brief time_launches(): CUDA-event timing of repeated launches, the one method every
///        step binary and `make tiles` use.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "harness.h"

namespace sgemm {

/// Times of the timed launches, in milliseconds.
struct Timing {
    double median_ms = 0;  ///< median of the timed launches
    double best_ms = 0;    ///< fastest timed launch
};

/// Times `launch_once` with CUDA events on `stream`: `warmup` untimed launches, then `reps`
/// launches, each between its own pair of events, read after one synchronization.
/// @param launch_once callable that enqueues one launch on `stream`
/// @param warmup      untimed launches first (clocks up, caches and TLBs warm)
/// @param reps        timed launches, at least 1
/// @param stream      the stream the launches go to
template <class F>
Timing time_launches(F&& launch_once, int warmup, int reps, cudaStream_t stream) {
    for (int i = 0; i < warmup; ++i) launch_once();
    std::vector<CudaEvent> start(reps), stop(reps);
    for (int i = 0; i < reps; ++i) {
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

}  // namespace sgemm
