import Adal2MSALSupport
import Foundation

/// Reads a unified cache JSON file (MSAL.NET, Python, Java, Node, Go or ObjC-written) into the model, and the
/// MSAL.NET v2 dictionary cache (`DictionaryCacheReader`).
///
/// Tolerant of what real caches contain (see docs/formats.md, "MSAL unified cache JSON"); entries it cannot
/// use are reported as diagnostics and skipped. Only input that is not JSON, exceeds the limits, or is JSON
/// but not a cache throws.
public struct UnifiedCacheJSONReader: Sendable {
  public var limits: InputLimits

  public init(limits: InputLimits = .default) { self.limits = limits }

  public func read(_ data: Data, file: String? = nil) throws(UnifiedCacheError) -> UnifiedCacheReadResult {
    let root = try JSONParser(limits: limits).parse(data, file: file)
    if case .array(let elements) = root, DictionaryCacheReader.isDictionary(elements) {
      return DictionaryCacheReader(limits: limits, file: file).read(elements)
    }
    guard case .object(let object) = root else {
      throw UnifiedCacheError(
        .notACache, "the JSON root is not an object of cache sections (found \(root.typeName))",
        at: SourceLocation(file: file, keyPath: "$"))
    }
    let knownNames = Set(UnifiedEntityKind.allCases.map(\.sectionName))
    guard object.isEmpty || object.keys.contains(where: knownNames.contains) else {
      // Never the keys themselves: they are the file's data (user names, tokens in a wrong file).
      throw UnifiedCacheError(
        .notACache,
        "not an MSAL cache: the JSON is an object with \(object.count) top-level key(s) and no cache section "
          + "(AccessToken, RefreshToken, IdToken, Account, AppMetadata); check that this is the cache file "
          + "(see `adal2msal inspect`)",
        at: SourceLocation(file: file, keyPath: "$"))
    }
    var assembler = CacheAssembler()
    var unknown = JSONObject()
    for member in object {
      guard let kind = UnifiedEntityKind(rawValue: member.key) else {
        if knownNames.contains(where: { $0.caseInsensitiveCompare(member.key) == .orderedSame }) {
          assembler.report(
            Diagnostic(
              .warning, code: "unified.section-case",
              "section name differs in case from '\(member.key.lowercased())'; MSAL does not read it, kept as an unknown section",
              at: SourceLocation(file: file, keyPath: member.key)))
        }
        unknown[member.key] = member.value
        continue
      }
      readSection(kind, member.value, file: file, into: &assembler)
    }
    assembler.setUnknownSections(unknown)
    return assembler.result
  }

  private func readSection(_ kind: UnifiedEntityKind, _ value: JSONValue, file: String?, into assembler: inout CacheAssembler) {
    let sectionLocation = SourceLocation(file: file, keyPath: kind.sectionName)
    guard case .object(let entries) = value else {
      if case .null = value { return }
      assembler.report(
        Diagnostic(
          .warning, code: "unified.invalid-section", "expected an object of entries, found \(value.typeName); skipped",
          at: sectionLocation))
      return
    }
    for entry in entries {
      let path = "\(kind.sectionName).\(entry.key)"
      let location = SourceLocation(file: file, keyPath: path)
      guard case .object(let fields) = entry.value else {
        assembler.report(
          Diagnostic(
            .warning, code: "unified.invalid-entry", "expected an entity object, found \(entry.value.typeName); skipped",
            at: location))
        continue
      }
      let decoded = EntityDecoder.decode(kind, fields, path: path, location: SourceLocation(file: file))
      assembler.report(decoded.diagnostics)
      if let entity = decoded.entity { assembler.add(entity, fileKey: entry.key, location: location) }
    }
  }
}
