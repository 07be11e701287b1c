// The plugin ABI version and the visibility macro for types that cross the plugin boundary.
#pragma once

/// The version of the plugin boundary (lab.hpp and every type it uses). The host refuses a plugin
/// built against another version. Bump it on any change to a type that crosses the boundary.
#define CUDALAB_ABI_VERSION 2

/// Marks a type whose vtable or typeinfo must be shared between the host and plugins built with
/// hidden visibility (exceptions caught by type, the lab interface).
#define CUDALAB_API __attribute__((visibility("default")))
