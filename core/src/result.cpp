// Results: the names of result statuses.
#include "result.hpp"

namespace cudalab::host {

const char* status_name(result_status s) {
  switch (s) {
    case result_status::ok: return "ok";
    case result_status::verify_failed: return "verify_failed";
    case result_status::error: return "error";
    case result_status::skipped: return "skipped";
  }
  return "?";
}

}  // namespace cudalab::host
