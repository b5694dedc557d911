// File helpers: whole-file reads, atomic writes that leave nothing behind, mkdir -p.
#include <doctest/doctest.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/Files.h"

namespace files_test {

using namespace tegula;

namespace {

/// A fresh, empty folder under the build tree for one test case.
std::string scratch_dir(const std::string& name) {
  std::string dir = std::string(TEGULA_BINARY_DIR) + "/test_scratch/files_test." +
                    std::to_string(::getpid()) + "." + name;
  std::string cmd = "rm -rf '" + dir + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  REQUIRE(make_dirs(dir).is_ok());
  return dir;
}

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return names;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  return names;
}

void remove_dir(const std::string& dir) {
  std::string cmd = "rm -rf '" + dir + "'";
  CHECK(std::system(cmd.c_str()) == 0);
}

}  // namespace

TEST_CASE("write then read returns the same bytes") {
  std::string dir = scratch_dir("roundtrip");
  std::string path = dir + "/a.bin";
  std::string data;
  for (int i = 0; i < 300000; ++i) data += char(i * 7);  // binary, NULs included, > 64 KiB
  REQUIRE(write_file_atomic(path, data).is_ok());
  Result<std::string> back = read_file(path);
  REQUIRE(back.is_ok());
  CHECK(*back == data);

  REQUIRE(write_file_atomic(dir + "/empty", "").is_ok());
  Result<std::string> empty = read_file(dir + "/empty");
  REQUIRE(empty.is_ok());
  CHECK(empty->empty());
  remove_dir(dir);
}

TEST_CASE("an atomic write replaces the old contents and leaves no temporary file") {
  std::string dir = scratch_dir("replace");
  std::string path = dir + "/f.txt";
  REQUIRE(write_file_atomic(path, "old contents that are longer").is_ok());
  REQUIRE(write_file_atomic(path, "new").is_ok());
  CHECK(*read_file(path) == "new");
  std::vector<std::string> names = list_dir(dir);
  REQUIRE(names.size() == 1);
  CHECK(names[0] == "f.txt");
  remove_dir(dir);
}

TEST_CASE("a failed atomic write reports i/o and leaves nothing behind") {
  std::string dir = scratch_dir("fail");
  // The destination is a folder: rename() fails after the temporary has been written.
  REQUIRE(make_dirs(dir + "/target").is_ok());
  Status s = write_file_atomic(dir + "/target", "data");
  CHECK(s.code() == ErrorCode::Io);
  CHECK(s.message().find(dir + "/target") != std::string::npos);
  std::vector<std::string> names = list_dir(dir);
  REQUIRE(names.size() == 1);
  CHECK(names[0] == "target");

  // The folder does not exist: the temporary cannot even be created.
  Status missing = write_file_atomic(dir + "/no/such/file", "data");
  CHECK(missing.code() == ErrorCode::Io);
  CHECK(missing.message().find(dir + "/no/such/file") != std::string::npos);
  remove_dir(dir);
}

TEST_CASE("reading a missing file is an i/o error naming the path and the reason") {
  std::string dir = scratch_dir("missing");
  std::string path = dir + "/nope.txt";
  Result<std::string> r = read_file(path);
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Io);
  CHECK(r.status().message().find(path) != std::string::npos);
  CHECK(r.status().message().find("No such file or directory") != std::string::npos);
  // A folder cannot be read as a file.
  Result<std::string> d = read_file(dir);
  CHECK(d.status().code() == ErrorCode::Io);
  remove_dir(dir);
}

TEST_CASE("make_dirs creates every level and is idempotent") {
  std::string dir = scratch_dir("mkdirs");
  std::string deep = dir + "/a/b//c/d/";
  REQUIRE(make_dirs(deep).is_ok());
  struct stat st;
  REQUIRE(::stat((dir + "/a/b/c/d").c_str(), &st) == 0);
  CHECK(S_ISDIR(st.st_mode));
  CHECK(make_dirs(deep).is_ok());
  CHECK(make_dirs(dir + "/a").is_ok());

  // A file in the way is an error, not silently accepted.
  REQUIRE(write_file_atomic(dir + "/a/file", "x").is_ok());
  Status s = make_dirs(dir + "/a/file/sub");
  CHECK(s.code() == ErrorCode::Io);
  CHECK(s.message().find(dir + "/a/file") != std::string::npos);
  CHECK(make_dirs(dir + "/a/file").code() == ErrorCode::Io);
  CHECK(make_dirs("").code() == ErrorCode::InvalidArgument);
  remove_dir(dir);
}

TEST_CASE("make_dirs with a relative path") {
  std::string dir = scratch_dir("relative");
  char cwd[4096];
  REQUIRE(::getcwd(cwd, sizeof cwd) != nullptr);
  REQUIRE(::chdir(dir.c_str()) == 0);
  Status s = make_dirs("x/y");
  bool exists = file_exists("x/y");
  REQUIRE(::chdir(cwd) == 0);
  CHECK(s.is_ok());
  CHECK(exists);
  remove_dir(dir);
}

TEST_CASE("file_exists") {
  std::string dir = scratch_dir("exists");
  CHECK(file_exists(dir));
  CHECK_FALSE(file_exists(dir + "/nothing"));
  REQUIRE(write_file_atomic(dir + "/f", "1").is_ok());
  CHECK(file_exists(dir + "/f"));
  remove_dir(dir);
}

TEST_CASE("read_file refuses what is not a regular file, without blocking") {
  std::string dir = scratch_dir("not_regular");
  // A FIFO with no writer: a blocking open() would wait for one forever.
  REQUIRE(::mkfifo((dir + "/fifo").c_str(), 0600) == 0);
  Result<std::string> fifo = read_file(dir + "/fifo");
  REQUIRE_FALSE(fifo.is_ok());
  CHECK(fifo.status().code() == ErrorCode::Io);
  CHECK(fifo.status().message() == "'" + dir + "/fifo' is a pipe, not a regular file");

  Result<std::string> zero = read_file("/dev/zero");  // endless: would read until memory runs out
  REQUIRE_FALSE(zero.is_ok());
  CHECK(zero.status().message() == "'/dev/zero' is a device, not a regular file");

  Result<std::string> folder = read_file(dir);
  REQUIRE_FALSE(folder.is_ok());
  CHECK(folder.status().message().find("is a folder, not a regular file") != std::string::npos);

  Result<int> fd = open_regular_file(dir + "/fifo");
  CHECK_FALSE(fd.is_ok());
  remove_dir(dir);
}

TEST_CASE("read_file bounds the size it reads, at the bound exactly") {
  std::string dir = scratch_dir("bounded");
  REQUIRE(write_file_atomic(dir + "/f", std::string(100, 'a')).is_ok());
  CHECK(read_file(dir + "/f", 100).is_ok());
  Result<std::string> big = read_file(dir + "/f", 99);
  REQUIRE_FALSE(big.is_ok());
  CHECK(big.status().code() == ErrorCode::OutOfRange);
  CHECK(big.status().message() == "'" + dir + "/f' is larger than 99 bytes, the most this input may have");
  // /proc files report size 0 and are still read whole (the bound applies as they are read).
  Result<std::string> self = read_file("/proc/self/status");
  REQUIRE(self.is_ok());
  CHECK(self->find("Name:") != std::string::npos);
  CHECK_FALSE(read_file("/proc/self/status", 8).is_ok());
  remove_dir(dir);
}

}  // namespace files_test
