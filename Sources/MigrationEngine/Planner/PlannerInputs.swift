import ADALCache
import Adal2MSALSupport
import UnifiedCache

/// The ADAL items read from one input file, with what its reader reported.
public struct ADALInput: Sendable {
  /// The file as the caller names it in reports.
  public var file: String
  public var items: [ADALTokenItem]
  /// The reader's diagnostics (unreadable items, the wipe marker, ...): carried into the plan.
  public var diagnostics: [Diagnostic]

  public init(file: String, items: [ADALTokenItem], diagnostics: [Diagnostic] = []) {
    self.file = file
    self.items = items
    self.diagnostics = diagnostics
  }
}

/// A unified cache read from one MSAL input (JSON, or MSAL items found in a keychain dump).
public struct MSALInput: Sendable {
  public var file: String
  public var contents: UnifiedCacheContents
  public var diagnostics: [Diagnostic]

  public init(file: String, contents: UnifiedCacheContents, diagnostics: [Diagnostic] = []) {
    self.file = file
    self.contents = contents
    self.diagnostics = diagnostics
  }
}

extension ADALInput {
  /// The items and diagnostics of one `ADALCacheReader` result. The MSAL unified items a dump also holds
  /// (`result.unifiedItems`) are decoded by `UnifiedCache` and passed as an `MSALInput`.
  public init(_ result: ADALReadResult, file: String) {
    self.init(file: file, items: result.items, diagnostics: result.diagnostics)
  }
}

extension MSALInput {
  /// The contents and diagnostics of one `UnifiedCacheJSONReader` (or keychain decoder) result.
  public init(_ result: UnifiedCacheReadResult, file: String) {
    self.init(file: file, contents: result.contents, diagnostics: result.diagnostics)
  }
}

extension MSALInput {
  /// The entities `include` keeps, with the diagnostics or without them: a run planned in parts hands each
  /// part the entities of its accounts, and reports the diagnostics once.
  func filtered(keepingDiagnostics: Bool, _ include: (AnyUnifiedEntity) -> Bool) -> MSALInput {
    var kept = UnifiedCacheContents(unknownSections: contents.unknownSections)
    for entity in contents.allEntities where include(entity) { kept.upsert(entity) }
    return MSALInput(file: file, contents: kept, diagnostics: keepingDiagnostics ? diagnostics : [])
  }
}
