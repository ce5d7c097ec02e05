import Adal2MSALSupport
import Foundation

/// An export's bytes and what could not be written as it was.
public struct CacheExport: Sendable {
  /// The file: unified-cache JSON, or (for MSAL ObjC) the keychain items as JSON.
  public var data: Data
  /// One warning per entry left out because the target library keys it like another or keeps only one of the
  /// two (`export.same-key`) or cannot load it (`export.unloadable`), and a note per entry written once for two
  /// that are one token (`export.same-token`) or one entity read under two aliases of its cloud
  /// (`export.same-entry`).
  public var diagnostics: [Diagnostic]

  /// The code of an entry the file does not hold for another entry the library keys alike.
  public static let leftOutCode = "export.same-key"
  /// The code of an entry the file does not hold because the library cannot use it as stored (an access token
  /// without `expires_on` for MSAL Python, Java or Node, which fail to load it, or MSAL ObjC, which would serve it
  /// as never expiring).
  public static let unloadableCode = "export.unloadable"

  /// Entries of the cache the file does not hold: an export with any is partial (the store still holds them).
  public var entriesLeftOut: Int { Self.entriesLeftOut(in: diagnostics) }

  /// The entries an export's `diagnostics` name as left out.
  public static func entriesLeftOut(in diagnostics: [Diagnostic]) -> Int {
    diagnostics.count { $0.code == leftOutCode || $0.code == unloadableCode }
  }

  public init(data: Data, diagnostics: [Diagnostic] = []) {
    self.data = data
    self.diagnostics = diagnostics
  }

  /// The code of a note for two entries that are one token, written once.
  public static let sameTokenCode = "export.same-token"

  /// The code of a note for two entries that are one entry once under their cloud's cache host (the same entity
  /// read under two aliases of one cloud), written once.
  public static let sameEntryCode = "export.same-entry"

  /// What to say of two entries the library stores as one (`alike` says how, `MSAL Python keys two … alike`): a
  /// note when they are one entity once under the host the library writes them under (or are written alike by
  /// `library`), since nothing is lost;
  /// otherwise the warning that names which was written and which left out. `leftReadAt` is where the left-out
  /// entry was read, when the library moved it to its cloud's cache host.
  static func storedAsOne(
    _ alike: String, kept: AnyUnifiedEntity, left: AnyUnifiedEntity, leftReadAt: String?, library: MSALLibrary?,
    at place: SourceLocation
  ) -> Diagnostic {
    let readAt = leftReadAt.map { " (read at \($0))" } ?? ""
    // Entities that differ only in what the library does not write (MSAL.NET writes no `token_type` for a bearer
    // token) are one entry in its file, whichever is kept.
    if kept == left
      || UnifiedEntityJSON.object(for: kept, library: library) == UnifiedEntityJSON.object(for: left, library: library)
    {
      return Diagnostic(
        .note, code: sameEntryCode,
        "\(alike), and both are one entry under \(kept.environment)\(readAt): wrote it once", at: place)
    }
    return Diagnostic(
      .warning, code: leftOutCode, "\(alike): wrote \(label(kept)) and left out \(label(left))\(readAt)", at: place)
  }

  /// The warning for an access token without `expires_on`, left out of an export for `library`, which cannot use
  /// it (`MSALLibrary.requiresAccessTokenExpiry`); nil for a token with one, or a library that reads it as expired.
  static func unloadable(_ token: UnifiedAccessToken, for library: MSALLibrary, at place: SourceLocation) -> Diagnostic?
  {
    guard library.requiresAccessTokenExpiry, !token.hasReadableExpiry else { return nil }
    return Diagnostic(
      .warning, code: unloadableCode,
      "\(library.accessTokenExpiryNeed): left out \(label(.accessToken(token))), which has none it can read",
      at: place)
  }

  /// How a warning names an entry left out or written: a token by its kind and fingerprint, another entity by
  /// its key.
  static func label(_ entity: AnyUnifiedEntity) -> String {
    switch entity {
    case .refreshToken(let token):
      (token.isFamilyToken ? "the family refresh token" : "the app refresh token") + " (\(token.secret.fingerprint))"
    case .accessToken(let token): "the access token \(token.secret.fingerprint)"
    case .idToken(let token): "the id token \(token.secret.fingerprint)"
    default: "'\(entity.canonicalKey)'"
    }
  }

  /// `contents` as `library` loads it: unified-cache JSON, or keychain items for MSAL ObjC; nil keeps each
  /// entry's key and spellings as read (see `UnifiedCacheJSONWriter`).
  public static func make(_ contents: UnifiedCacheContents, for library: MSALLibrary?) -> CacheExport {
    library == .objc ? UnifiedKeychainWriter.export(contents) : UnifiedCacheJSONWriter.export(contents, for: library)
  }
}
