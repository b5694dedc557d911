/// \file
/// Signed report bundles. The report's integrity hash is unkeyed (anyone can edit a report
/// and re-hash it), so a bundle that a third party can trust carries signature.json: the
/// SHA-256 of every file of the bundle (report.json, report.html, every log), and the
/// signer's Ed25519 public key, in a signed part; and an Ed25519 signature (libsodium) over
/// that part's exact text. verify checks the signature, the signer against a trusted key,
/// and every file against its hash, and notices files deleted, replaced or added.
///
/// Keys are hex text: FILE holds the 64-byte secret key (written 0600), FILE.pub the 32-byte
/// public key (`tegula conformance keygen FILE`).
#pragma once

#include <string>

#include "conformance/Verify.h"
#include "core/Status.h"

namespace tegula::conformance {

inline constexpr const char* kSignatureFile = "signature.json";
inline constexpr const char* kSignatureSchema = "tegula.conformance.signature.v1";

/// A new key pair: `path` (secret) and `path`.pub (public); returns the public key's hex.
Result<std::string> generate_signing_key(const std::string& path);

/// Whether `key_path` holds a usable secret key (checked before a run, not after it).
Status check_signing_key(const std::string& key_path);

/// Write <dir>/signature.json covering every file under `dir`, signed with the secret key
/// in `key_path`.
Status sign_bundle(const std::string& dir, const std::string& key_path);

/// Check <dir>/signature.json into `out`: its errors, and notes saying what was checked.
/// `trusted` is a public key (hex, or a file holding it); "" when none was given.
void verify_bundle_signature(const std::string& dir, const std::string& trusted, VerifyOutcome& out);

}  // namespace tegula::conformance
