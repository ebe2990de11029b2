/// @file random.cu
/// @brief Device side of the seeded random inputs.
#include <algorithm>

#include "device/cuda_check.cuh"
#include "device/random.cuh"

namespace sgemm {
namespace {

__global__ void fill_uniform_kernel(float* data, std::size_t count, std::uint64_t seed) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        data[i] = uniform_at(seed, i);
    }
}

}  // namespace

void fill_uniform(float* data, std::size_t count, std::uint64_t seed, cudaStream_t stream) {
    if (count == 0) return;
    constexpr int kThreads = 256;
    constexpr std::size_t kMaxBlocks = 65536;  // grid-stride beyond this
    const std::size_t blocks = std::min(kMaxBlocks, (count + kThreads - 1) / kThreads);
    fill_uniform_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(data, count, seed);
    CUDA_CHECK(cudaGetLastError());
}

}  // namespace sgemm
