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
    // Every MSAL library reads a 0-byte (or blank) cache file as an empty cache: msal-node's samples ship one.
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      return UnifiedCacheReadResult(
        contents: UnifiedCacheContents(),
        diagnostics: [
          Diagnostic(
            .note, code: "unified.empty-file", "the file is empty: read as an empty cache, as the MSAL libraries do",
            at: SourceLocation(file: file))
        ])
    }
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
          + "(AccessToken, RefreshToken, IdToken, Account, AppMetadata); check that this is the cache file",
        at: SourceLocation(file: file, keyPath: "$"))
    }
    var assembler = CacheAssembler()
    var unknown = JSONObject()
    var unmodelled = JSONObject()
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
        assembler.report(Self.sectionKept(member, file: file))
        continue
      }
      let kept = readSection(kind, member.value, file: file, into: &assembler)
      if !kept.isEmpty { unmodelled[kind.sectionName] = .object(kept) }
    }
    unknown.mergeUnknownSections(unmodelled)
    assembler.setUnknownSections(unknown)
    var result = assembler.result
    result.diagnostics += UnmodelledEntries.credentialsInUnknownSections(unknown, file: file)
    return result
  }

  /// The code of the note that names a section kept verbatim: no entity, yet the store keeps it (joined with what
  /// an earlier run kept, `UnmodelledEntries.joined(_:over:section:)`) and `export` writes it back.
  public static let sectionKeptCode = "unified.section-kept"

  private static func sectionKept(_ section: JSONMember, file: String?) -> Diagnostic {
    let size = section.value.objectValue.map { ", \(Wording.counted($0.count, "member", "members"))" } ?? ""
    return Diagnostic(
      .note, code: sectionKeptCode,
      "a section adal2msal does not model (\(Wording.indefinite(section.value.typeName))\(size)), kept verbatim: "
        + "the store keeps it and export writes it back",
      at: SourceLocation(file: file, keyPath: section.key))
  }

  /// Reads one section's entries into `assembler`; returns the entries it cannot model, to keep verbatim.
  private func readSection(
    _ kind: UnifiedEntityKind, _ value: JSONValue, file: String?, into assembler: inout CacheAssembler
  ) -> JSONObject {
    let sectionLocation = SourceLocation(file: file, keyPath: kind.sectionName)
    var unmodelled = JSONObject()
    guard case .object(let entries) = value else {
      if case .null = value { return unmodelled }
      assembler.report(
        Diagnostic(
          .warning, code: "unified.invalid-section", "expected an object of entries, found \(value.typeName); skipped",
          at: sectionLocation))
      return unmodelled
    }
    for entry in entries {
      let path = "\(kind.sectionName).\(entry.key)"
      let location = SourceLocation(file: file, keyPath: path)
      guard case .object(let fields) = entry.value else {
        assembler.report(
          Diagnostic(
            .warning, code: "unified.unmodelled-entry",
            "expected an entity object, found \(entry.value.typeName); kept verbatim and written back as it was",
            at: location))
        unmodelled[entry.key] = entry.value
        continue
      }
      let decoded = EntityDecoder.decode(kind, fields, path: path, location: SourceLocation(file: file))
      assembler.report(EntityDecoder.keepingVerbatim(decoded.diagnostics))
      guard var entity = decoded.entity else {
        unmodelled[entry.key] = entry.value
        continue
      }
      entity.writtenForm.key = entry.key
      assembler.add(entity, fileKey: entry.key, location: location)
    }
    return unmodelled
  }
}
