// CUDALAB_REGISTER_LAB: the one line a plugin's .cpp file ends with to export its lab.
#pragma once

#include <boost/dll/alias.hpp>

#include <cstdint>
#include <memory>

#include "cudalab/abi.hpp"
#include "cudalab/lab.hpp"

namespace cudalab {
/// The signature of the exported factory.
using lab_factory = std::unique_ptr<lab>();
}  // namespace cudalab

/// Exports the factory `cudalab_create_lab` (makes a `lab_class`), the ABI version
/// `cudalab_abi_version` and the boundary headers' hash `cudalab_abi_hash`. Use once per plugin, at
/// namespace scope of a g++-compiled file.
#define CUDALAB_REGISTER_LAB(lab_class)                                                         \
  namespace cudalab_plugin_export {                                                             \
  inline std::unique_ptr<::cudalab::lab> create_lab() { return std::make_unique<lab_class>(); } \
  inline const int abi_version = CUDALAB_ABI_VERSION;                                           \
  inline const std::uint64_t abi_hash = CUDALAB_ABI_HASH;                                       \
  }                                                                                             \
  BOOST_DLL_ALIAS(cudalab_plugin_export::create_lab, cudalab_create_lab)                        \
  BOOST_DLL_ALIAS(cudalab_plugin_export::abi_version, cudalab_abi_version)                      \
  BOOST_DLL_ALIAS(cudalab_plugin_export::abi_hash, cudalab_abi_hash)
