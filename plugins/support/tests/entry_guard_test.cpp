// Every entry of an SDK-built table is guarded: a body that throws std::bad_alloc answers
// TG_ERR_OUT_OF_MEMORY, any other exception TG_ERR_INTERNAL, each with a message naming the
// plugin and the entry; an entry that returns nothing swallows the exception. The test plugin
// below defines every entry from the ABI list, each throwing, so an entry the list gains is
// covered without touching this file.
#include <doctest/doctest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <tuple>

#include "plugins/support/EntryTable.h"

namespace entry_guard_test {

namespace throwing {

enum class Throw { Nothing, BadAlloc, Other };
Throw next_throw = Throw::Nothing;
int calls = 0;

void maybe_throw() {
  ++calls;
  if (next_throw == Throw::BadAlloc) throw std::bad_alloc();
  if (next_throw == Throw::Other) throw std::runtime_error("boom");
}

#define THROWING_ENTRY(name, ret, params, args, since, optional) \
  ret name params {                                              \
    std::ignore = std::make_tuple args;                          \
    maybe_throw();                                               \
    return static_cast<ret>(0);                                  \
  }
TG_ABI_PLUGIN_ENTRIES(THROWING_ENTRY)
#undef THROWING_ENTRY

}  // namespace throwing

namespace {

TG_SDK_DEFINE_TABLE(all_entries, throwing, "thrower", {})
TG_SDK_DEFINE_TABLE(no_describe, throwing, "thrower", {.executable_describe = true})

/// Call an entry with value-initialised arguments (the throwing bodies ignore them).
template <class R, class... Args>
R call(R (*fn)(Args...)) {
  return fn(Args{}...);
}

struct Outcome {
  tg_status_code code;
  std::string message;
};

template <class R, class... Args>
Outcome outcome_of(const tg_plugin_api& api, R (*fn)(Args...)) {
  if constexpr (std::is_void_v<R>) {
    call(fn);  // must not throw
    return {TG_OK, ""};
  } else {
    tg_error* e = call(fn);
    Outcome o{api.error_code(e), api.error_message(e)};
    api.error_destroy(e);
    return o;
  }
}

}  // namespace

TEST_CASE("an exception escaping any entry becomes an error object") {
  for (auto [kind, code, what] : {std::tuple{throwing::Throw::BadAlloc, TG_ERR_OUT_OF_MEMORY, "out of memory"},
                                  std::tuple{throwing::Throw::Other, TG_ERR_INTERNAL, "unexpected exception"}}) {
    throwing::next_throw = kind;
    throwing::calls = 0;
    int entries = 0;
#define CHECK_ENTRY(name, ret, params, args, since, optional)                        \
  {                                                                                  \
    ++entries;                                                                       \
    Outcome o = outcome_of(all_entries, all_entries.name);                           \
    if (!std::is_void_v<ret>) {                                                      \
      CHECK_MESSAGE(o.code == code, #name);                                          \
      CHECK(o.message == std::string("thrower: " #name ": ") + what);                \
    }                                                                                \
  }
    TG_ABI_PLUGIN_ENTRIES(CHECK_ENTRY)
#undef CHECK_ENTRY
    CHECK(throwing::calls == entries);  // every body ran (and threw)
  }
  throwing::next_throw = throwing::Throw::Nothing;
}

TEST_CASE("a body that returns normally is passed through") {
  throwing::next_throw = throwing::Throw::Nothing;
  CHECK(all_entries.launch(nullptr, nullptr, nullptr) == nullptr);
  CHECK(all_entries.error_code(nullptr) == TG_OK);
}

TEST_CASE("the table is complete, versioned, and omits exactly what it was told to") {
  CHECK(all_entries.struct_size == sizeof(tg_plugin_api));
  CHECK(all_entries.abi_version == TG_ABI_VERSION_1);
#define CHECK_PRESENT(name, ret, params, args, since, optional) CHECK_MESSAGE((all_entries.name != nullptr), #name);
  TG_FOR_EACH_ABI_ENTRY(CHECK_PRESENT)
#undef CHECK_PRESENT
  CHECK((no_describe.executable_describe == nullptr));
  CHECK((no_describe.compile_offline != nullptr));
}

}  // namespace entry_guard_test
