/// @file stats.h
/// @brief median(): what the timing reports of a run's repeated launches. Host code alone, so
///        that the tests check it without a GPU.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace sgemm {

/// The median of @p values (the mean of the middle two for an even count); 0 for none.
inline double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace sgemm
