// Reading a compiled submission's ELF file (elf_symbols.hpp).
#include "slots/elf_symbols.hpp"

#include <elf.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace cudalab::host {
namespace {

// An ELF image's header and section headers, read with bounds checks.
class elf_image {
 public:
  elf_image(const std::string& bytes, const std::string& name) : bytes_(bytes), name_(name) {
    if (bytes.size() < sizeof(Elf64_Ehdr) || bytes.compare(0, 4, ELFMAG) != 0 || bytes[EI_CLASS] != ELFCLASS64)
      throw std::runtime_error(name + " is not a 64-bit ELF file");
    header_ = read<Elf64_Ehdr>(0);
  }

  std::size_t section_count() const { return header_.e_shnum; }
  Elf64_Shdr section(std::size_t i) const { return read<Elf64_Shdr>(header_.e_shoff + i * header_.e_shentsize); }

  template <class T>
  T read(std::size_t at) const {
    T value;
    if (at + sizeof value > bytes_.size()) throw std::runtime_error(name_ + ": a header lies past the file's end");
    bytes_.copy(reinterpret_cast<char*>(&value), sizeof value, at);
    return value;
  }

  // The NUL-terminated string at `at`, or "" past the end.
  std::string string_at(std::size_t at) const { return at < bytes_.size() ? std::string(bytes_.c_str() + at) : ""; }

 private:
  const std::string& bytes_;
  std::string name_;
  Elf64_Ehdr header_{};
};

}  // namespace

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> needed_libraries(const std::string& path) {
  const std::string bytes = file_bytes(path);
  const elf_image elf(bytes, path);
  std::vector<std::string> needed;
  for (std::size_t i = 0; i < elf.section_count(); ++i) {
    const Elf64_Shdr dynamic = elf.section(i);
    if (dynamic.sh_type != SHT_DYNAMIC) continue;
    const Elf64_Shdr strings = elf.section(dynamic.sh_link);
    for (std::size_t at = dynamic.sh_offset; at + sizeof(Elf64_Dyn) <= dynamic.sh_offset + dynamic.sh_size;
         at += sizeof(Elf64_Dyn)) {
      if (at + sizeof(Elf64_Dyn) > bytes.size()) break;
      const auto entry = elf.read<Elf64_Dyn>(at);
      if (entry.d_tag == DT_NULL) break;
      if (entry.d_tag == DT_NEEDED) needed.push_back(elf.string_at(strings.sh_offset + entry.d_un.d_val));
    }
  }
  return needed;
}

bool defines_function(const std::string& bytes, const std::string& name, const std::string& symbol) {
  const elf_image elf(bytes, name);
  for (std::size_t i = 0; i < elf.section_count(); ++i) {
    const Elf64_Shdr table = elf.section(i);
    if ((table.sh_type != SHT_SYMTAB && table.sh_type != SHT_DYNSYM) || table.sh_entsize < sizeof(Elf64_Sym)) continue;
    const Elf64_Shdr strings = elf.section(table.sh_link);
    for (std::size_t at = table.sh_offset; at + sizeof(Elf64_Sym) <= table.sh_offset + table.sh_size;
         at += table.sh_entsize) {
      if (at + sizeof(Elf64_Sym) > bytes.size()) break;
      const auto sym = elf.read<Elf64_Sym>(at);
      if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF &&
          elf.string_at(strings.sh_offset + sym.st_name) == symbol)
        return true;
    }
  }
  return false;
}

}  // namespace cudalab::host
