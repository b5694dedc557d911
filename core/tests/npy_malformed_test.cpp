// Malformed .npy files: each is refused with the file's name and what is wrong, never read
// as something else.
#include <doctest/doctest.h>

#include "core/Npy.h"

namespace npy_malformed_test {

using namespace tegula;

namespace {

std::string v1_file(const std::string& header, const std::string& data) {
  return std::string("\x93NUMPY\x01\x00", 8) + char(header.size() & 0xff) + char(header.size() >> 8) + header + data;
}

std::string refusal(const std::string& file) {
  auto a = parse_npy(file, "bad.npy");
  return a.is_ok() ? "accepted" : a.status().message();
}

}  // namespace

TEST_CASE("not a .npy file") {
  CHECK(refusal("hello world") == "bad.npy: not a .npy file (no \\x93NUMPY magic)");
  CHECK(refusal("") .find("not a .npy file") != std::string::npos);
  CHECK(refusal(std::string("\x93NUMPY\x04\x00\x10\x00", 10)).find("version 4.0 is not supported") != std::string::npos);
}

TEST_CASE("truncated header and data") {
  CHECK(refusal(std::string("\x93NUMPY\x01\x00\xff\x00{", 11)).find("truncated .npy header (255 bytes announced") !=
        std::string::npos);
  std::string h = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }\n";
  CHECK(refusal(v1_file(h, std::string(12, '\0'))).find("holds 12 bytes; shape and descr '<f4' need 16") !=
        std::string::npos);
  CHECK(refusal(v1_file(h, std::string(20, '\0'))).find("holds 20 bytes") != std::string::npos);
  CHECK(refusal(v1_file(h, std::string(16, '\0'))) == "accepted");
}

TEST_CASE("malformed dictionaries") {
  const char* bad[] = {
      "['descr', '<f4']\n",                                                    // not a dictionary
      "{'descr': '<f4', 'fortran_order': False}\n",                           // no shape
      "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}\n",            // not a bool
      "{'descr': '<f4', 'fortran_order': False, 'shape': [1]}\n",             // not a tuple
      "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}\n",           // negative
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1 2)}\n",           // no comma
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}\n",    // unknown key
      "{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, 'shape': (1,)}\n",  // repeated
      "{'descr: '<f4', 'fortran_order': False, 'shape': (1,)}\n",             // broken quote
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} junk\n",       // trailing text
      "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}\n",  // huge
  };
  for (const char* h : bad) {
    CAPTURE(h);
    std::string why = refusal(v1_file(h, std::string(4, '\0')));
    CHECK(why.find("bad.npy: malformed .npy header") == 0);
  }
}

TEST_CASE("Fortran order and a descr without a size") {
  CHECK(refusal(v1_file("{'descr': '<f4', 'fortran_order': True, 'shape': (1,)}\n", std::string(4, '\0')))
            .find("Fortran-order arrays are not supported") != std::string::npos);
  CHECK(refusal(v1_file("{'descr': 'O', 'fortran_order': False, 'shape': (1,)}\n", std::string(4, '\0')))
            .find("has no element size") != std::string::npos);
}

}  // namespace npy_malformed_test
