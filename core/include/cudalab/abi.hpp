// The plugin ABI: its version, the hash of the boundary headers it was built from, and the
// visibility macro for types that cross the plugin boundary.
#pragma once

#include "cudalab/abi_hash.hpp"  // generated at build time: CUDALAB_ABI_HASH (cmake/CudalabAbi.cmake)

/// The version of the plugin boundary's shape. The host refuses a plugin built for another one, and
/// says which. Raised by hand when the interface is redesigned.
#define CUDALAB_ABI_VERSION 6

/// CUDALAB_ABI_HASH is a hash of every header whose types cross the boundary (lab.hpp and what it
/// includes), computed when cudalab is configured. A plugin records the hash it was compiled with;
/// the host refuses a plugin whose hash differs, so a changed header can never load silently.

/// Marks a type whose vtable or typeinfo must be shared between the host and plugins built with
/// hidden visibility (exceptions caught by type, the lab interface).
#define CUDALAB_API __attribute__((visibility("default")))
