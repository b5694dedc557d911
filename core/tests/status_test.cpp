// Status, Result and the error macros: codes, messages, locations and propagation.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "core/Status.h"

namespace status_test {

using namespace tegula;

namespace {

Status fails_with(ErrorCode code) { return error(code, "bad thing"); }

Status propagate(bool fail, int& reached) {
  TG_RETURN_IF_ERROR(fail ? fails_with(ErrorCode::Io) : Status::ok());
  reached = 1;
  return Status::ok();
}

Result<int> maybe_int(bool fail) {
  if (fail) return error(ErrorCode::NotFound, "no int");
  return 41;
}

Result<int> add_one(bool fail) {
  TG_ASSIGN_OR_RETURN(int v, maybe_int(fail));
  return v + 1;
}

Result<std::unique_ptr<int>> make_ptr() { return std::make_unique<int>(7); }

Status use_move_only() {
  TG_ASSIGN_OR_RETURN(std::unique_ptr<int> p, make_ptr());
  if (*p != 7) return error(ErrorCode::Internal, "wrong value");
  return Status::ok();
}

}  // namespace

TEST_CASE("a default status is ok") {
  Status s;
  CHECK(s.is_ok());
  CHECK(bool(s));
  CHECK(s.code() == ErrorCode::Ok);
  CHECK(s.str() == "ok");
  CHECK(Status::ok().is_ok());
}

TEST_CASE("an error status keeps code, message and location") {
  Status s(ErrorCode::Parse, "expected ']'", SourceLoc{"a.json", 3, 14});
  CHECK_FALSE(s.is_ok());
  CHECK_FALSE(bool(s));
  CHECK(s.code() == ErrorCode::Parse);
  CHECK(s.message() == "expected ']'");
  CHECK(s.loc().known());
  CHECK(s.loc().line == 3);
  CHECK(s.loc().column == 14);
}

TEST_CASE("str() formats with and without a location") {
  CHECK(Status(ErrorCode::Parse, "expected ']'", SourceLoc{"a.json", 3, 14}).str() ==
        "a.json:3:14: error: expected ']'");
  CHECK(Status(ErrorCode::Io, "cannot open 'x'").str() == "error: cannot open 'x'");
  // A known position in an unnamed input still says where.
  CHECK(Status(ErrorCode::Parse, "bad", SourceLoc{"", 1, 2}).str() == "<input>:1:2: error: bad");
  // A file without a position is still named.
  CHECK(Status(ErrorCode::Io, "bad", SourceLoc{"f.txt", 0, 0}).str() == "f.txt: error: bad");
}

TEST_CASE("SourceLoc::str") {
  CHECK(SourceLoc{}.str() == "");
  CHECK_FALSE(SourceLoc{}.known());
  CHECK(SourceLoc{"m.ir", 10, 1}.str() == "m.ir:10:1");
}

TEST_CASE("with_context prefixes the message and keeps code and location") {
  Status s = Status(ErrorCode::Verify, "type mismatch", SourceLoc{"k.ir", 2, 5})
                 .with_context("while loading k");
  CHECK(s.code() == ErrorCode::Verify);
  CHECK(s.message() == "while loading k: type mismatch");
  CHECK(s.loc().line == 2);
  CHECK(Status::ok().with_context("ignored").is_ok());
}

TEST_CASE("error() builds an error status") {
  Status s = error(ErrorCode::OutOfRange, "index 9 of 4");
  CHECK(s.code() == ErrorCode::OutOfRange);
  CHECK(s.message() == "index 9 of 4");
  CHECK_FALSE(s.loc().known());
}

TEST_CASE("every error code has a distinct name") {
  const ErrorCode codes[] = {
      ErrorCode::Ok,          ErrorCode::InvalidArgument, ErrorCode::Parse,
      ErrorCode::Verify,      ErrorCode::NotFound,        ErrorCode::Unimplemented,
      ErrorCode::Unsupported, ErrorCode::OutOfRange,      ErrorCode::Corrupt,
      ErrorCode::Io,          ErrorCode::Device,          ErrorCode::Plugin,
      ErrorCode::Timeout,     ErrorCode::Internal,        ErrorCode::OutOfMemory,
  };
  for (ErrorCode a : codes) {
    std::string name = error_code_name(a);
    CHECK_FALSE(name.empty());
    CHECK(name != "unknown error");
    for (ErrorCode b : codes) {
      if (a != b) CHECK(name != error_code_name(b));
    }
  }
  CHECK(std::string(error_code_name(ErrorCode::Parse)) == "parse error");
}

TEST_CASE("Result holds a value or a status") {
  Result<int> ok = maybe_int(false);
  REQUIRE(ok.is_ok());
  CHECK(bool(ok));
  CHECK(*ok == 41);
  CHECK(ok.value() == 41);

  Result<int> bad = maybe_int(true);
  CHECK_FALSE(bad.is_ok());
  CHECK(bad.status().code() == ErrorCode::NotFound);
  CHECK(bad.status().message() == "no int");

  Result<std::string> s = std::string("abc");
  CHECK(s->size() == 3);
}

TEST_CASE("a Result built from an ok status is an internal error") {
  Result<int> r = Status::ok();
  CHECK_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Internal);
}

TEST_CASE("TG_RETURN_IF_ERROR returns early only on error") {
  int reached = 0;
  CHECK(propagate(false, reached).is_ok());
  CHECK(reached == 1);
  reached = 0;
  Status s = propagate(true, reached);
  CHECK(s.code() == ErrorCode::Io);
  CHECK(reached == 0);
}

TEST_CASE("TG_ASSIGN_OR_RETURN binds the value or returns the status") {
  Result<int> ok = add_one(false);
  REQUIRE(ok.is_ok());
  CHECK(*ok == 42);
  Result<int> bad = add_one(true);
  CHECK(bad.status().code() == ErrorCode::NotFound);
  CHECK(use_move_only().is_ok());
}

}  // namespace status_test
