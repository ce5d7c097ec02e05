import Adal2MSALSupport
import Foundation

/// Reads the MSAL.NET v2 "dictionary" cache (`SerializeMsalV2`, `TokenCacheDictionarySerializer`; MSAL.NET 2.x and
/// ADAL.NET 4/5): a JSON array of `{"Key": k, "Value": [string…]}` with `k` one of `access_tokens`,
/// `refresh_tokens`, `id_tokens`, `accounts`, each string a JSON object with the unified snake_case fields
/// (docs/formats.md, "MSAL.NET v2 dictionary cache"). The objects go through the same `EntityDecoder` as the
/// sections of the JSON cache; the format has no cache keys, so each entity is stored under the key computed from
/// its fields.
struct DictionaryCacheReader {
  let limits: InputLimits
  let file: String?

  /// The dictionary keys and the entity each holds.
  static let kinds: [String: UnifiedEntityKind] = [
    "access_tokens": .accessToken, "refresh_tokens": .refreshToken, "id_tokens": .idToken, "accounts": .account,
  ]

  /// Whether `root` is a dictionary cache: a non-empty array whose elements are all objects with `Key` and `Value`.
  static func isDictionary(_ elements: [JSONValue]) -> Bool {
    !elements.isEmpty
      && elements.allSatisfy { element in
        guard case .object(let object) = element else { return false }
        return object["Key"] != nil && object["Value"] != nil
      }
  }

  func read(_ elements: [JSONValue]) -> UnifiedCacheReadResult {
    var assembler = CacheAssembler()
    for (index, element) in elements.enumerated() {
      // `isDictionary` admitted only objects with a `Key` and a `Value`.
      guard case .object(let object) = element else { continue }
      let location = SourceLocation(file: file, keyPath: "[\(index)].Value")
      guard case .string(let key)? = object["Key"], let kind = Self.kinds[key] else {
        // MSAL.NET drops unknown nodes on reading; here they are named (never shown), as not migrated.
        assembler.report(
          Diagnostic(
            .warning, code: "unified.invalid-section",
            "a dictionary node whose Key is not access_tokens, refresh_tokens, id_tokens or accounts; not migrated",
            at: location))
        continue
      }
      guard case .array(let values) = object["Value"] else {
        assembler.report(
          Diagnostic(
            .warning, code: "unified.invalid-section", "the Value of \(key) is not an array; skipped", at: location))
        continue
      }
      for (position, value) in values.enumerated() {
        let path = "[\(index)].Value[\(position)]"
        let entryLocation = SourceLocation(file: file, keyPath: path)
        // Each entity is a JSON text inside a string: parsed with the same limits as the file.
        // A JSON error inside the text (a bad escape) is named with its offset in the text, never quoting it.
        var why = ""
        let parsed: JSONValue?
        if case .string(let text) = value {
          do {
            parsed = try JSONParser(limits: limits).parse(Data(text.utf8), file: file)
          } catch {
            parsed = nil
            why = " (\(error.message) at offset \(error.location.byteOffset ?? 0) of the text)"
          }
        } else {
          parsed = nil
        }
        guard case .object(let fields)? = parsed else {
          assembler.report(
            Diagnostic(
              .warning, code: "unified.invalid-entry",
              "the entry is not a string holding a JSON object\(why); skipped", at: entryLocation))
          continue
        }
        let decoded = EntityDecoder.decode(kind, fields, path: path, location: SourceLocation(file: file))
        assembler.report(EntityDecoder.skipping(decoded.diagnostics))
        if let entity = decoded.entity { assembler.add(entity, fileKey: nil, location: entryLocation) }
      }
    }
    return assembler.result
  }
}
