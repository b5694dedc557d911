#include "conformance/Signing.h"

#include <dirent.h>
#include <sodium.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "conformance/Host.h"
#include "core/Files.h"
#include "core/Json.h"

namespace tegula::conformance {
namespace {

std::string to_hex(const unsigned char* data, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(digits[data[i] >> 4]);
    out.push_back(digits[data[i] & 15]);
  }
  return out;
}

/// `hex` as exactly `n` bytes, or nullopt.
std::optional<std::string> from_hex(const std::string& hex, size_t n) {
  if (hex.size() != 2 * n) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    auto nibble = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
    int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(char(hi * 16 + lo));
  }
  return out;
}

const unsigned char* bytes(const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); }

Status sodium_ready() {
  if (::sodium_init() < 0) return error(ErrorCode::Internal, "libsodium failed to initialise");
  return Status::ok();
}

/// The first line of a key file, without surrounding whitespace.
Result<std::string> read_key_text(const std::string& path) {
  TG_ASSIGN_OR_RETURN(std::string text, read_file(path, 4096));
  size_t end = text.find_first_of(" \t\r\n");
  return text.substr(0, end);
}

/// Every regular file under `dir`, as paths relative to it, sorted; signature.json excluded.
Status list_bundle(const std::string& dir, const std::string& rel, std::vector<std::string>& out) {
  std::string here = rel.empty() ? dir : dir + "/" + rel;
  DIR* d = ::opendir(here.c_str());
  if (!d) return error(ErrorCode::Io, "cannot list '" + here + "'");
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  for (const std::string& n : names) {
    std::string r = rel.empty() ? n : rel + "/" + n;
    struct stat st {};
    if (::lstat((dir + "/" + r).c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      TG_RETURN_IF_ERROR(list_bundle(dir, r, out));
    } else if (r != kSignatureFile) {
      // A link or a FIFO in a bundle is listed too, so that verify refuses it by name.
      out.push_back(r);
    }
  }
  std::sort(out.begin(), out.end());
  return Status::ok();
}

}  // namespace

Result<std::string> generate_signing_key(const std::string& path) {
  TG_RETURN_IF_ERROR(sodium_ready());
  unsigned char pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
  ::crypto_sign_keypair(pk, sk);
  std::string secret = to_hex(sk, sizeof sk) + "\n";
  ::sodium_memzero(sk, sizeof sk);
  TG_RETURN_IF_ERROR(write_file_atomic(path, secret));
  ::sodium_memzero(secret.data(), secret.size());
  if (::chmod(path.c_str(), 0600) != 0) return error(ErrorCode::Io, "cannot make '" + path + "' private");
  std::string pub = to_hex(pk, sizeof pk);
  TG_RETURN_IF_ERROR(write_file_atomic(path + ".pub", pub + "\n"));
  return pub;
}

Status check_signing_key(const std::string& key_path) {
  TG_ASSIGN_OR_RETURN(std::string key_hex, read_key_text(key_path));
  if (!from_hex(key_hex, crypto_sign_SECRETKEYBYTES))
    return error(ErrorCode::InvalidArgument, "'" + key_path + "' is not an Ed25519 secret key (128 hex digits)");
  return Status::ok();
}

Status sign_bundle(const std::string& dir, const std::string& key_path) {
  TG_RETURN_IF_ERROR(sodium_ready());
  TG_ASSIGN_OR_RETURN(std::string key_hex, read_key_text(key_path));
  std::optional<std::string> sk = from_hex(key_hex, crypto_sign_SECRETKEYBYTES);
  if (!sk) return error(ErrorCode::InvalidArgument, "'" + key_path + "' is not an Ed25519 secret key (128 hex digits)");
  unsigned char pk[crypto_sign_PUBLICKEYBYTES];
  ::crypto_sign_ed25519_sk_to_pk(pk, bytes(*sk));
  std::vector<std::string> files;
  TG_RETURN_IF_ERROR(list_bundle(dir, "", files));
  Json hashes = Json::object();
  for (const std::string& f : files) {
    TG_ASSIGN_OR_RETURN(std::string sha, file_sha256(dir + "/" + f));
    hashes.set(f, sha);
  }
  Json part = Json::object();
  part.set("schema", kSignatureSchema);
  part.set("public_key", to_hex(pk, sizeof pk));
  part.set("files", hashes);
  std::string text = part.dump();
  unsigned char sig[crypto_sign_BYTES];
  ::crypto_sign_detached(sig, nullptr, bytes(text), text.size(), bytes(*sk));
  ::sodium_memzero(sk->data(), sk->size());
  Json doc = Json::object();
  doc.set("schema", kSignatureSchema);
  doc.set("signed", text);  // the exact bytes signed, so no re-serialisation can differ
  doc.set("signature", to_hex(sig, sizeof sig));
  return write_file_atomic(dir + "/" + kSignatureFile, doc.dump(1) + "\n");
}

void verify_bundle_signature(const std::string& dir, const std::string& trusted, VerifyOutcome& out) {
  std::string path = dir + "/" + kSignatureFile;
  if (!file_exists(path)) {
    if (!trusted.empty()) {
      out.errors.push_back("the bundle is unsigned (no " + std::string(kSignatureFile) + "), and --trust asks for a signature");
      return;
    }
    out.notes.push_back("unsigned: the report's integrity hash shows that it was not damaged, not who made it (anyone can "
                        "edit a report and re-hash it; sign with --sign-key and verify with --trust)");
    return;
  }
  if (Status st = sodium_ready(); !st.is_ok()) return out.errors.push_back(st.message());
  Result<std::string> text = read_file(path, 64u << 20);
  if (!text.is_ok()) return out.errors.push_back(text.status().message());
  Result<Json> doc = Json::parse(*text, path);
  if (!doc.is_ok()) return out.errors.push_back("signature.json is not JSON: " + doc.status().str());
  const Json* signed_text = doc->find("signed");
  const Json* sig_hex = doc->find("signature");
  if (!signed_text || !signed_text->is_string() || !sig_hex || !sig_hex->is_string())
    return out.errors.push_back("signature.json has no 'signed' text or 'signature'");
  Result<Json> part = Json::parse(signed_text->as_string(), path + " (signed part)");
  if (!part.is_ok()) return out.errors.push_back("the signed part is not JSON: " + part.status().str());
  const Json* key = part->find("public_key");
  const Json* files = part->find("files");
  std::optional<std::string> pk = key && key->is_string() ? from_hex(key->as_string(), crypto_sign_PUBLICKEYBYTES) : std::nullopt;
  std::optional<std::string> sig = from_hex(sig_hex->as_string(), crypto_sign_BYTES);
  if (!pk || !sig || !files || !files->is_object())
    return out.errors.push_back("signature.json's signed part has no public key, signature or file list");
  const std::string& msg = signed_text->as_string();
  if (::crypto_sign_verify_detached(bytes(*sig), bytes(msg), msg.size(), bytes(*pk)) != 0)
    return out.errors.push_back("the signature does not match the signed part: signature.json was edited or forged");
  std::string signer = key->as_string();
  if (!trusted.empty()) {
    std::string want = trusted;
    if (file_exists(trusted)) {
      Result<std::string> t = read_key_text(trusted);
      if (!t.is_ok()) return out.errors.push_back("--trust: " + t.status().message());
      want = *t;
    }
    if (!from_hex(want, crypto_sign_PUBLICKEYBYTES))
      return out.errors.push_back("--trust '" + trusted + "' is not an Ed25519 public key (64 hex digits, or a file of them)");
    if (want != signer) return out.errors.push_back("signed by key " + signer + ", which is not the trusted key " + want);
    out.notes.push_back("signature: valid, by the trusted key " + signer);
  } else {
    out.notes.push_back("signature: valid, by key " + signer + "; no --trust key was given, so this does not say who that is");
  }
  std::vector<std::string> present;
  if (Status st = list_bundle(dir, "", present); !st.is_ok()) return out.errors.push_back(st.message());
  size_t bad = 0;
  for (const auto& [name, sha] : files->members()) {
    std::string f = dir + "/" + name;
    bool listed = std::find(present.begin(), present.end(), name) != present.end();
    Result<std::string> now = listed ? file_sha256(f) : Result<std::string>(error(ErrorCode::NotFound, "missing"));
    if (!listed || !now.is_ok()) {
      ++bad;
      out.errors.push_back(name + " is signed but " + (listed ? now.status().message() : "missing (deleted after signing)"));
    } else if (!sha.is_string() || *now != sha.as_string()) {
      ++bad;
      out.errors.push_back(name + " was changed after signing (its SHA-256 differs from the signed one)");
    }
  }
  for (const std::string& name : present) {
    if (!files->find(name)) {
      ++bad;
      out.errors.push_back(name + " is not covered by the signature (added after signing)");
    }
  }
  if (bad == 0) out.notes.push_back("files: all " + std::to_string(files->members().size()) + " files of the bundle match their signed SHA-256");
}

}  // namespace tegula::conformance
