// Bytes as hexadecimal text and back (results/hex_text.hpp).
#include "results/hex_text.hpp"

#include <gtest/gtest.h>

using cudalab::host::bytes_of_hex;
using cudalab::host::hex_text;

TEST(HexText, BytesAndBack) {
  const std::uint8_t bytes[] = {0x00, 0x0f, 0xa5, 0xff};
  EXPECT_EQ(hex_text(bytes, sizeof bytes), "000fa5ff");
  EXPECT_EQ(bytes_of_hex("000fa5ff"), std::string("\x00\x0f\xa5\xff", 4));
  EXPECT_EQ(bytes_of_hex("A5"), std::string("\xa5"));
  EXPECT_EQ(bytes_of_hex(""), std::string());
}

TEST(HexText, WhatIsNotHexIsRefused) {
  EXPECT_FALSE(bytes_of_hex("abc"));
  EXPECT_FALSE(bytes_of_hex("0g"));
  EXPECT_FALSE(bytes_of_hex(" 0"));
}
