// Replays a fuzz corpus through the fuzz target without libFuzzer (the g++ build's CTest test): each
// file given, or each file in each folder given, goes through LLVMFuzzerTestOneInput once.
#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (fs::is_directory(argv[i])) {
      for (const auto& entry : fs::directory_iterator(argv[i]))
        if (entry.is_regular_file()) inputs.push_back(entry.path());
    } else {
      inputs.emplace_back(argv[i]);
    }
  }
  if (inputs.empty()) {
    fmt::print(stderr, "usage: {} CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  for (const fs::path& file : inputs) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fmt::print("{}\n", file.filename().string());
    std::fflush(stdout);  // the last name printed is the input that crashed, if one does
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  fmt::print("replayed {} input(s) without a crash\n", inputs.size());
  return 0;
}
