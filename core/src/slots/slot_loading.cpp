// Loading a built submission (slot_loading.hpp).
#include "slots/slot_loading.hpp"

#include <boost/dll/shared_library.hpp>

#include <stdexcept>
#include <system_error>

#include "cudalab/cuda_error.hpp"
#include "slots/elf_symbols.hpp"
#include "slots/launcher_call.hpp"

namespace cudalab::host {
namespace {

// A kernel slot's kernel, from a CUBIN loaded into the current device's primary context.
class loaded_kernel final : public slot_code {
 public:
  loaded_kernel(const std::string& artifact, const std::string& entry) {
    const std::string cubin = file_bytes(artifact);
    const cudaError_t loaded = cudaLibraryLoadData(&library_, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (loaded != cudaSuccess) {
      (void)cudaGetLastError();
      throw std::runtime_error("the CUDA runtime refused " + artifact + ": " + cudaGetErrorName(loaded) + " (" +
                               cudaGetErrorString(loaded) + ")");
    }
    if (cudaLibraryGetKernel(&kernel_, library_, entry.c_str()) != cudaSuccess) {
      (void)cudaGetLastError();
      throw std::runtime_error(artifact + " has no kernel '" + entry + "' (declare it extern \"C\" __global__)");
    }
  }

  slot_kind kind() const override { return slot_kind::kernel; }

  void launch(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, void** args) const override {
    CUDALAB_CUDA_CHECK(
        cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), grid, block, args, shared_bytes, stream));
  }

  cudaError_t call(const slot_call&) const override { throw std::logic_error("a kernel slot is launched, not called"); }

 private:
  cudaLibrary_t library_ = nullptr;  // never unloaded: see slot_loading.hpp
  cudaKernel_t kernel_ = nullptr;
};

// A launcher slot's entry, from a shared library loaded for good.
class loaded_launcher final : public slot_code {
 public:
  loaded_launcher(const std::string& artifact, const std::string& entry)
      // Never unloaded (see slot_loading.hpp): the library object is leaked on purpose.
      : library_(new boost::dll::shared_library(artifact,
                                                boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local)) {
    if (!library_->has(entry))
      throw std::runtime_error(artifact + " defines no function '" + entry + "' (declare it extern \"C\")");
    entry_ = reinterpret_cast<void*>(&library_->get<void()>(entry));
  }

  slot_kind kind() const override { return slot_kind::launcher; }

  void launch(dim3, dim3, std::size_t, cudaStream_t, void**) const override {
    throw std::logic_error("a launcher slot is called through entry(), not launched");
  }

  cudaError_t call(const slot_call& c) const override { return call_launcher(entry_, c); }

 private:
  boost::dll::shared_library* library_;
  void* entry_ = nullptr;
};

}  // namespace

std::unique_ptr<slot_code> load_slot_code(slot_kind kind, const std::string& artifact, const std::string& entry) {
  if (kind == slot_kind::kernel) return std::make_unique<loaded_kernel>(artifact, entry);
  try {
    return std::make_unique<loaded_launcher>(artifact, entry);
  } catch (const std::system_error& e) {
    throw std::runtime_error("cannot load " + artifact + ": " + e.what());
  }
}

}  // namespace cudalab::host
