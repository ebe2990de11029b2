/// @file random.cuh
/// @brief Seeded random inputs that the host and the device generate bit for bit alike.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sgemm {

/// SplitMix64's finaliser: a fast, well-mixed 64-bit hash.
__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// Element @p i of the random stream @p seed: a float in [-1, 1) with 24 random bits.
/// Counter-based, so any element can be made anywhere, in any order, on host or device.
__host__ __device__ inline float uniform_at(std::uint64_t seed, std::uint64_t i) {
    const std::uint64_t bits = mix64(mix64(seed) ^ i) >> 40;      // 24 bits
    return static_cast<float>(bits) * (1.0f / 8388608.0f) - 1.0f;  // / 2^23: exact
}

/// uniform_at(seed, i) for i = 0 .. count - 1 on the host: the values fill_uniform() writes.
inline std::vector<float> uniform_vector(std::size_t count, std::uint64_t seed) {
    std::vector<float> v(count);
    for (std::size_t i = 0; i < count; ++i) v[i] = uniform_at(seed, i);
    return v;
}

/// Fills device array @p data[0, count) with uniform_at(seed, i), on @p stream.
void fill_uniform(float* data, std::size_t count, std::uint64_t seed, cudaStream_t stream);

/// Seeds of A, B and C for a run seeded with @p seed (three independent streams).
struct InputSeeds {
    std::uint64_t a;  ///< seed of A
    std::uint64_t b;  ///< seed of B
    std::uint64_t c;  ///< seed of the initial C
};

/// The seeds of A, B and C derived from one run seed.
inline InputSeeds input_seeds(std::uint64_t seed) {
    return {mix64(seed * 3 + 0), mix64(seed * 3 + 1), mix64(seed * 3 + 2)};
}

}  // namespace sgemm
