// A plugin built against another ABI version: the loader must refuse it and name both versions.
#include <boost/dll/alias.hpp>

#include <memory>

#include "cudalab/lab.hpp"

namespace bad_abi {
std::unique_ptr<cudalab::lab> create_lab() { return nullptr; }
const int abi_version = CUDALAB_ABI_VERSION + 1000;
}  // namespace bad_abi

BOOST_DLL_ALIAS(bad_abi::create_lab, cudalab_create_lab)
BOOST_DLL_ALIAS(bad_abi::abi_version, cudalab_abi_version)
