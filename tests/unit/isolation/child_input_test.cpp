// What the parent of an isolated run hands its children on stdin: the profile's and the lab files'
// texts, any bytes at all, back exactly as they were; anything else is refused.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "isolation/child_input.hpp"

namespace cudalab::host {
namespace {

TEST(ChildInput, TextsComeBackExactly) {
  child_input in;
  in.profile = "[measure]\ntiming = false\n";
  in.labs = {"[lab]\nplugin = \"testlab\"\n", "", std::string("a\0b\n12\n", 7)};
  const auto back = parse_child_input(child_input_text(in));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->profile, in.profile);
  EXPECT_EQ(back->labs, in.labs);
}

TEST(ChildInput, NoProfileAndNoLabs) {
  const auto back = parse_child_input(child_input_text({}));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->profile, "");
  EXPECT_TRUE(back->labs.empty());
}

TEST(ChildInput, AnythingElseIsRefused) {
  child_input in;
  in.labs = {"[lab]\n"};
  const std::string good = child_input_text(in);
  EXPECT_FALSE(parse_child_input(""));
  EXPECT_FALSE(parse_child_input("[lab]\nplugin = \"testlab\"\n"));
  EXPECT_FALSE(parse_child_input(good.substr(0, good.size() - 1)));  // cut short
  EXPECT_FALSE(parse_child_input(good + "x"));                       // more than it says
}

TEST(ChildInput, ReadFromADescriptor) {
  child_input in;
  in.profile = "p";
  in.labs = {std::string(200000, 'x')};  // more than a pipe holds at once: written while read
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string text = child_input_text(in);
  const pid_t writer = ::fork();
  if (writer == 0) {
    ::close(fds[0]);
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) ::_exit(1);
      done += std::size_t(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  const auto back = read_child_input(fds[0]);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(writer, &status, 0);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->labs, in.labs);
}

}  // namespace
}  // namespace cudalab::host
