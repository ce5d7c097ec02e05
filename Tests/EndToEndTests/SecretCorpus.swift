import Adal2MSALSupport
import Foundation
import _Adal2MSALTestSupport

/// The token values of the secret-leak fixtures, collected without any of our code: the ADAL fixtures'
/// manifest and the MSAL items inside the ADAL dumps (Foundation's JSON and property list parsers), and an
/// MSAL cache whose secrets are canaries written here.
enum SecretCorpus {
  /// A leak: a whole token, or any 16-character piece of one (tokens shorter than that count whole). Each
  /// is described by the token's fingerprint, so a failing test does not print the token either.
  /// Pieces that are also pieces of `publicValues` do not count: id tokens embed the tenant id and the
  /// authority, which dumps carry in clear (and in base64) in their attributes.
  static func leaks(in text: String, of secrets: Set<String>, publicValues: Set<String> = []) -> [String] {
    // Every 16-character window of the text against every window of every token: linear in the text.
    var publicWindows: Set<Substring> = []
    for value in publicValues {
      let encoded = Data(value.utf8).base64EncodedString()
      let urlSafe = encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      for form in [value, encoded, urlSafe] {
        var start = form.startIndex
        while let end = form.index(start, offsetBy: 16, limitedBy: form.endIndex) {
          publicWindows.insert(form[start..<end])
          start = form.index(after: start)
        }
      }
    }
    var windows: [Substring: String] = [:]
    var short: [String] = []
    for secret in secrets {
      guard secret.count > 16 else {
        short.append(secret)
        continue
      }
      var start = secret.startIndex
      while let end = secret.index(start, offsetBy: 16, limitedBy: secret.endIndex) {
        if !publicWindows.contains(secret[start..<end]) { windows[secret[start..<end]] = secret }
        start = secret.index(after: start)
      }
    }
    var found: Set<String> = []
    var start = text.startIndex
    while let end = text.index(start, offsetBy: 16, limitedBy: text.endIndex) {
      if let secret = windows[text[start..<end]] { found.insert(secret) }
      start = text.index(after: start)
    }
    for secret in short where text.contains(secret) { found.insert(secret) }
    return found.map { "token \(SecretFingerprint.of($0)) (\($0.count) characters)" }.sorted()
  }

  /// accessToken, refreshToken and idToken of every item of Fixtures/adal/manifest.json.
  static func adalManifestTokens() throws -> Set<String> {
    let manifest = try JSONSerialization.jsonObject(with: Fixtures.data("adal/manifest.json"))
    var found: Set<String> = []
    collect(manifest, keys: ["accessToken", "refreshToken", "idToken"], into: &found)
    return found
  }

  /// Every other string of Fixtures/adal/manifest.json (tenant ids, authorities, svce, user ids): public.
  static func adalPublicValues() throws -> Set<String> {
    let manifest = try JSONSerialization.jsonObject(with: Fixtures.data("adal/manifest.json"))
    var found: Set<String> = []
    collectOther(manifest, except: ["accessToken", "refreshToken", "idToken"], into: &found)
    return found
  }

  /// `secret` of the MSAL items (JSON `v_Data`) inside the ADAL XML dumps.
  static func unifiedSecretsInDumps() throws -> Set<String> {
    var found: Set<String> = []
    for name in ["adal/dump-multiuser.xml.plist", "adal/dump-multiuser-classes.xml.plist"] {
      let plist = try PropertyListSerialization.propertyList(from: Fixtures.data(name), format: nil)
      var blobs: [Data] = []
      collectData(plist, into: &blobs)
      for blob in blobs {
        if let json = try? JSONSerialization.jsonObject(with: blob) { collect(json, keys: ["secret"], into: &found) }
      }
    }
    return found
  }

  /// Fixtures/msal-json/msal-dotnet_token_cache_one_acc_seed.json with every credential's `secret` replaced
  /// by a distinct canary (the fixture's own secrets are the word "secret"), written to `directory`.
  static func canaryMSALCache(in directory: URL) throws -> (file: URL, secrets: Set<String>) {
    let source = try Fixtures.data("msal-json/msal-dotnet_token_cache_one_acc_seed.json")
    guard var root = try JSONSerialization.jsonObject(with: source) as? [String: Any] else {
      throw CocoaError(.fileReadCorruptFile)
    }
    var secrets: Set<String> = []
    for section in ["AccessToken", "RefreshToken", "IdToken"] {
      guard var entries = root[section] as? [String: Any] else { continue }
      for (key, value) in entries {
        guard var entry = value as? [String: Any] else { continue }
        let canary = "canary-\(section)-" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        entry["secret"] = canary
        entries[key] = entry
        secrets.insert(canary)
      }
      root[section] = entries
    }
    let file = directory.appendingPathComponent("canary-msal-cache.json")
    try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: file)
    return (file, secrets)
  }

  private static func collect(_ value: Any, keys: Set<String>, into found: inout Set<String>) {
    if let dictionary = value as? [String: Any] {
      for (key, child) in dictionary {
        if keys.contains(key), let text = child as? String, !text.isEmpty { found.insert(text) }
        collect(child, keys: keys, into: &found)
      }
    } else if let array = value as? [Any] {
      for child in array { collect(child, keys: keys, into: &found) }
    }
  }

  private static func collectOther(_ value: Any, except keys: Set<String>, into found: inout Set<String>) {
    if let dictionary = value as? [String: Any] {
      for (key, child) in dictionary where !keys.contains(key) {
        if let text = child as? String { found.insert(text) }
        collectOther(child, except: keys, into: &found)
      }
    } else if let array = value as? [Any] {
      for child in array { collectOther(child, except: keys, into: &found) }
    }
  }

  private static func collectData(_ value: Any, into blobs: inout [Data]) {
    if let data = value as? Data {
      blobs.append(data)
    } else if let dictionary = value as? [String: Any] {
      for child in dictionary.values { collectData(child, into: &blobs) }
    } else if let array = value as? [Any] {
      for child in array { collectData(child, into: &blobs) }
    }
  }
}
