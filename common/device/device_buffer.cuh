/// @file device_buffer.cuh
/// @brief RAII owners of device memory, CUDA events and streams.
///
/// Constructors throw sgemm::CudaError on failure; destructors release quietly and
/// never throw or exit (a destructor may run while an exception unwinds).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "device/cuda_check.cuh"

namespace sgemm {

/// An array of @p T in device memory, freed when the owner goes away.
template <class T>
class DeviceBuffer {
public:
    /// Allocates room for @p count elements (none for 0); the contents are undefined.
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        if (count_ > 0) CUDA_CHECK(cudaMalloc(&ptr_, count_ * sizeof(T)));
    }
    ~DeviceBuffer() {
        if (ptr_ != nullptr) cudaFree(ptr_);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    /// Takes over @p other's memory; @p other is left empty.
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    /// Frees this buffer's memory and takes over @p other's.
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            if (ptr_ != nullptr) cudaFree(ptr_);
            ptr_ = std::exchange(other.ptr_, nullptr);
            count_ = std::exchange(other.count_, 0);
        }
        return *this;
    }

    /// The device pointer (nullptr when empty).
    T* get() const { return ptr_; }
    /// Number of elements.
    std::size_t size() const { return count_; }
    /// Size in bytes.
    std::size_t bytes() const { return count_ * sizeof(T); }

    /// Copies size() elements from host memory @p src (synchronous).
    void copy_from_host(const T* src) {
        if (count_ > 0) CUDA_CHECK(cudaMemcpy(ptr_, src, bytes(), cudaMemcpyHostToDevice));
    }
    /// Copies size() elements to host memory @p dst (synchronous).
    void copy_to_host(T* dst) const {
        if (count_ > 0) CUDA_CHECK(cudaMemcpy(dst, ptr_, bytes(), cudaMemcpyDeviceToHost));
    }

private:
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
};

/// A CUDA event for timing.
class CudaEvent {
public:
    CudaEvent() { CUDA_CHECK(cudaEventCreate(&event_)); }
    ~CudaEvent() { cudaEventDestroy(event_); }
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    /// The event handle.
    cudaEvent_t get() const { return event_; }

private:
    cudaEvent_t event_{};
};

/// A CUDA stream of its own (not the legacy default stream).
class CudaStream {
public:
    CudaStream() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~CudaStream() { cudaStreamDestroy(stream_); }
    CudaStream(const CudaStream&) = delete;
    CudaStream& operator=(const CudaStream&) = delete;
    /// The stream handle.
    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_{};
};

}  // namespace sgemm
