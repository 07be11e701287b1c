// The harness and the submission's process, their messages (submission_wire.hpp).
#include "isolation/submission_wire.hpp"

#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "results/hex_text.hpp"
#include "results/json.hpp"

namespace cudalab::host {

namespace {

using json = nlohmann::ordered_json;

constexpr std::size_t max_fds = 64;           // host buffers one call may add
constexpr std::size_t max_message = 1 << 20;  // bytes: far more than a call with a census takes

template <std::size_t N>
std::string hex_of(const char (&bytes)[N]) {
  return hex_text(reinterpret_cast<const std::uint8_t*>(bytes), N);
}

template <std::size_t N>
void bytes_of(const std::string& hex, char (&bytes)[N]) {
  const std::optional<std::string> b = bytes_of_hex(hex);
  if (!b || b->size() != N) throw std::runtime_error("a handle that is not " + std::to_string(N) + " bytes in hex");
  std::copy(b->begin(), b->end(), bytes);
}

}  // namespace

void send_message(int socket, const std::string& text, const std::vector<int>& fds) {
  if (fds.size() > max_fds) throw std::runtime_error("a call with too many host buffers");
  iovec io{const_cast<char*>(text.data()), text.size()};
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  std::vector<char> control(CMSG_SPACE(sizeof(int) * max_fds));
  if (!fds.empty()) {
    m.msg_control = control.data();
    m.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  ssize_t sent = 0;
  do sent = sendmsg(socket, &m, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  if (sent < 0) throw std::runtime_error(std::string("cannot send to the other process: ") + std::strerror(errno));
}

std::optional<received_message> receive_message(int socket) {
  std::string text(max_message, '\0');
  iovec io{text.data(), text.size()};
  std::vector<char> control(CMSG_SPACE(sizeof(int) * max_fds));
  msghdr m{};
  m.msg_iov = &io;
  m.msg_iovlen = 1;
  m.msg_control = control.data();
  m.msg_controllen = control.size();
  ssize_t got = 0;
  do got = recvmsg(socket, &m, MSG_CMSG_CLOEXEC);
  while (got < 0 && errno == EINTR);
  if (got < 0) throw std::runtime_error(std::string("cannot read from the other process: ") + std::strerror(errno));
  if (got == 0) return std::nullopt;
  received_message r;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      const std::size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      r.fds.resize(n);
      std::memcpy(r.fds.data(), CMSG_DATA(c), n * sizeof(int));
    }
  if (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) throw std::runtime_error("a message too long from the other process");
  text.resize(static_cast<std::size_t>(got));
  r.text = std::move(text);
  return r;
}

std::string call_text(const wire_call& call) {
  json j;
  j["nonce"] = call.nonce;
  j["handshake_only"] = call.handshake_only;
  j["census"] = call.census;
  j["streams"] = call.streams;
  json args = json::array();
  for (const wire_arg& a : call.args)
    args.push_back({static_cast<int>(a.kind), static_cast<int>(a.where), a.bits, a.buffer});
  j["args"] = std::move(args);
  json device = json::array();
  for (const wire_device_buffer& b : call.new_device) device.push_back({b.id, hex_of(b.handle.reserved)});
  j["new_device"] = std::move(device);
  json host = json::array();
  for (const wire_host_buffer& b : call.new_host) host.push_back({b.id, b.bytes});
  j["new_host"] = std::move(host);
  json events = json::array();
  for (const wire_stream_events& e : call.new_events)
    events.push_back({e.index, hex_of(e.go.reserved), hex_of(e.done.reserved)});
  j["new_events"] = std::move(events);
  j["keep_device"] = call.keep_device;
  j["keep_host"] = call.keep_host;
  return j.dump();
}

wire_call parse_call(const std::string& text) {
  try {
    const json j = json::parse(text);
    wire_call call;
    call.nonce = j.at("nonce").get<std::uint64_t>();
    call.handshake_only = j.at("handshake_only").get<bool>();
    call.census = j.at("census").get<bool>();
    call.streams = j.at("streams").get<std::uint64_t>();
    for (const json& a : j.at("args")) {
      const int kind = a.at(0).get<int>(), where = a.at(1).get<int>();
      if (kind < 0 || kind > static_cast<int>(slot_arg_kind::f64) || where < 0 ||
          where > static_cast<int>(wire_where::streams))
        throw std::runtime_error("an argument of an unknown kind");
      call.args.push_back({static_cast<slot_arg_kind>(kind), static_cast<wire_where>(where),
                           a.at(2).get<std::uint64_t>(), a.at(3).get<std::uint64_t>()});
    }
    for (const json& b : j.at("new_device")) {
      wire_device_buffer d;
      d.id = b.at(0).get<std::uint64_t>();
      bytes_of(b.at(1).get<std::string>(), d.handle.reserved);
      call.new_device.push_back(d);
    }
    for (const json& b : j.at("new_host"))
      call.new_host.push_back({b.at(0).get<std::uint64_t>(), b.at(1).get<std::uint64_t>()});
    for (const json& e : j.at("new_events")) {
      wire_stream_events s;
      s.index = e.at(0).get<std::uint64_t>();
      bytes_of(e.at(1).get<std::string>(), s.go.reserved);
      bytes_of(e.at(2).get<std::string>(), s.done.reserved);
      call.new_events.push_back(s);
    }
    call.keep_device = j.at("keep_device").get<std::vector<std::uint64_t>>();
    call.keep_host = j.at("keep_host").get<std::vector<std::uint64_t>>();
    return call;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("a call that cannot be read: ") + e.what());
  }
}

std::string reply_text(const wire_reply& reply) {
  json j;
  j["nonce"] = reply.nonce;
  j["status"] = reply.status;
  j["error"] = reply.error;
  if (reply.census) j["census"] = *reply.census;
  if (!reply.persisting.empty()) j["persisting"] = reply.persisting;
  return j.dump();
}

wire_reply parse_reply(const std::string& text) {
  try {
    const json j = json::parse(text);
    wire_reply r;
    r.nonce = j.at("nonce").get<std::uint64_t>();
    r.status = j.at("status").get<int>();
    r.error = j.at("error").get<std::string>();
    if (j.contains("census")) r.census = j.at("census").get<kernel_census>();
    if (j.contains("persisting")) r.persisting = j.at("persisting").get<std::string>();
    return r;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("a reply that cannot be read: ") + e.what());
  }
}

}  // namespace cudalab::host
