// The harness and the submission's process, their messages (isolation/submission_wire.hpp): a call and a reply
// read back as written, descriptors passed beside a message, and what is not a message refused.
#include "isolation/submission_wire.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

using namespace cudalab::host;

TEST(SubmissionWire, ACallIsReadBackAsWritten) {
  wire_call c;
  c.census = true;
  c.streams = 3;
  c.args = {{cudalab::slot_arg_kind::pointer, wire_where::device, 256, 7},
            {cudalab::slot_arg_kind::f32, wire_where::value, 0x3fc00000, 0},
            {cudalab::slot_arg_kind::streams, wire_where::streams, 2, 1}};
  wire_device_buffer d;
  d.id = 7;
  d.handle.reserved[0] = '\x01';
  d.handle.reserved[63] = '\xff';
  c.new_device = {d};
  c.new_host = {{9, 4096}};
  wire_stream_events e;
  e.index = 0;
  e.go.reserved[5] = 'x';
  c.new_events = {e};
  c.keep_device = {7};
  c.keep_host = {9};
  const wire_call back = parse_call(call_text(c));
  EXPECT_TRUE(back.census);
  EXPECT_FALSE(back.handshake_only);
  EXPECT_EQ(back.streams, 3u);
  ASSERT_EQ(back.args.size(), 3u);
  EXPECT_EQ(back.args[0].where, wire_where::device);
  EXPECT_EQ(back.args[0].bits, 256u);
  EXPECT_EQ(back.args[0].buffer, 7u);
  EXPECT_EQ(back.args[1].kind, cudalab::slot_arg_kind::f32);
  EXPECT_EQ(back.args[2].where, wire_where::streams);
  ASSERT_EQ(back.new_device.size(), 1u);
  EXPECT_EQ(std::string(back.new_device[0].handle.reserved, 64), std::string(d.handle.reserved, 64));
  EXPECT_EQ(back.new_host[0].bytes, 4096u);
  EXPECT_EQ(back.new_events[0].go.reserved[5], 'x');
  EXPECT_EQ(back.keep_host, std::vector<std::uint64_t>{9});
}

TEST(SubmissionWire, AReplyIsReadBackAsWrittenAndJunkIsRefused) {
  wire_reply r;
  r.status = 700;
  r.error = "no";
  r.census = unavailable_census("none here");
  r.persisting = "a persisting-L2 set-aside of 4194304 bytes";
  const wire_reply back = parse_reply(reply_text(r));
  EXPECT_EQ(back.persisting, r.persisting);
  EXPECT_EQ(parse_reply(reply_text(wire_reply{})).persisting, "");
  EXPECT_EQ(back.status, 700);
  EXPECT_EQ(back.error, "no");
  ASSERT_TRUE(back.census);
  EXPECT_EQ(back.census->unavailable, "none here");
  // What a submission might write on its socket in place of a reply is refused, never taken for one.
  EXPECT_THROW(parse_reply("{\"status\":\"ok\"}\n"), std::runtime_error);
  EXPECT_THROW(parse_reply("not json"), std::runtime_error);
  EXPECT_THROW(parse_call("{\"args\":[[99,0,0,0]]}"), std::runtime_error);
}

TEST(SubmissionWire, DescriptorsTravelBesideAMessage) {
  int ends[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, ends), 0);
  int pipe_ends[2];
  ASSERT_EQ(pipe(pipe_ends), 0);
  send_message(ends[0], "hello", {pipe_ends[1]});
  const auto m = receive_message(ends[1]);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->text, "hello");
  ASSERT_EQ(m->fds.size(), 1u);
  struct stat a {
  }, b{};
  ASSERT_EQ(fstat(pipe_ends[1], &a), 0);
  ASSERT_EQ(fstat(m->fds[0], &b), 0);
  EXPECT_EQ(a.st_ino, b.st_ino);
  close(m->fds[0]);
  close(ends[0]);
  EXPECT_FALSE(receive_message(ends[1]));  // the other end closed
  close(ends[1]);
  close(pipe_ends[0]);
  close(pipe_ends[1]);
}
