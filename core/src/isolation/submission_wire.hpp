// The messages between a harness (the unit child that sets up, times and verifies a lab) and the submission's
// own process, which runs a launcher slot's host code on the harness's buffers: one JSON text per message on a
// SOCK_SEQPACKET socket, with the descriptors of shared pinned host buffers beside it (SCM_RIGHTS). Written and
// read here only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cudalab/slot.hpp"
#include "results/census.hpp"

namespace cudalab::host {

/// Where a call's argument points, once in the submission's process.
enum class wire_where : std::uint8_t {
  value,   ///< passed as it is (an integer, a float, a null pointer)
  device,  ///< into device buffer `buffer` (opened from its IPC handle), at `offset`
  host,    ///< into shared pinned host buffer `buffer` (mapped from its memfd), at `offset`
  stream,  ///< the submission process's stream `buffer` (a stream index)
  streams  ///< an array of the submission process's streams `buffer` .. `buffer + count - 1`
};

/// One argument of a call, as the submission's process rebuilds it.
struct wire_arg {
  slot_arg_kind kind = slot_arg_kind::u64;
  wire_where where = wire_where::value;
  std::uint64_t bits = 0;    ///< value: the bits; device, host: the offset in the buffer; streams: the count
  std::uint64_t buffer = 0;  ///< device, host: the buffer's id; stream, streams: the (first) stream index
};

/// A device buffer the call uses for the first time: its id and its IPC handle.
struct wire_device_buffer {
  std::uint64_t id = 0;
  cudaIpcMemHandle_t handle{};
};

/// A pinned host buffer the call uses for the first time: its id and size; its memfd travels with the message
/// (the n-th host buffer, the n-th descriptor).
struct wire_host_buffer {
  std::uint64_t id = 0;
  std::uint64_t bytes = 0;
};

/// The "go" and "done" events of a stream index the call uses for the first time.
struct wire_stream_events {
  std::uint64_t index = 0;
  cudaIpcEventHandle_t go{}, done{};
};

/// One call of the launcher (or, `handshake_only`, the ordering without it: waits on "go", records "done").
struct wire_call {
  std::uint64_t nonce = 0;  ///< drawn for the call by the harness; its reply must carry it
  bool handshake_only = false;
  bool census = false;        ///< take a kernel census of the call (CUPTI in the submission's process)
  std::uint64_t streams = 0;  ///< stream indices the call uses: 0 .. streams - 1
  std::vector<wire_arg> args;
  std::vector<wire_device_buffer> new_device;
  std::vector<wire_host_buffer> new_host;
  std::vector<wire_stream_events> new_events;
  std::vector<std::uint64_t> keep_device, keep_host;  ///< the buffers the call uses (others may be let go)
};

/// What the submission's process answers: the launcher's return value, or why the call could not be made.
struct wire_reply {
  std::uint64_t nonce = 0;  ///< the call's
  int status = 0;           ///< cudaError_t the launcher returned
  std::string error;        ///< non-empty: the call was not made (an IPC handle that did not open, ...)
  std::optional<kernel_census> census;
  /// What the submission's process found set when the call came, that outlives a call and would keep its
  /// input in L2 across timed launches (persisting_l2_state::text()); "" when nothing was.
  std::string persisting;
};

/// Sends `text` and `fds` as one message. Throws std::runtime_error naming what failed.
void send_message(int socket, const std::string& text, const std::vector<int>& fds = {});

/// One message and the descriptors that came with it (owned by the caller).
struct received_message {
  std::string text;
  std::vector<int> fds;
};
/// The next message; nullopt when the other end has closed. Throws std::runtime_error on a failed read.
std::optional<received_message> receive_message(int socket);

std::string call_text(const wire_call& call);
/// Throws std::runtime_error for text that is not a call.
wire_call parse_call(const std::string& text);
std::string reply_text(const wire_reply& reply);
/// Throws std::runtime_error for text that is not a reply.
wire_reply parse_reply(const std::string& text);

}  // namespace cudalab::host
