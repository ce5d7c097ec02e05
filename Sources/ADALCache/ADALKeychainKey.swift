import Adal2MSALSupport
import Foundation

/// The keychain service attribute (`svce`) of an iOS ADAL item:
/// `MSOpenTech.ADAL.1|b64url(authority)|b64url(resource) or NIL-GUID|b64url(clientId)`, base64url without
/// padding, each part trimmed and lowercased before encoding (CORE `MSIDLegacyTokenCacheKey`).
///
/// Broker items prefix `MSOpenTech.ADAL.1-<b64url(applicationIdentifier)>` and may append a fifth
/// component, the app key.
public struct ADALKeychainService: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `MSOpenTech.ADAL.1`: the service prefix and the `gena` value of every ADAL item.
  public static let libraryString = "MSOpenTech.ADAL.1"
  /// The placeholder for a nil or blank resource, stored unencoded.
  public static let nilKey = "CC3513A0-0E69-4B4D-97FC-DFB6C91EE132"

  /// The authority as the service holds it (lowercased by the writer).
  public var authority: String
  /// nil when the service holds the NIL-GUID.
  public var resource: String?
  public var clientID: String
  /// The broker's application identifier from the `MSOpenTech.ADAL.1-<b64url>` prefix.
  public var applicationIdentifier: String?
  /// The broker's fifth component, kept as written.
  public var appKey: String?

  public init(
    authority: String, resource: String?, clientID: String, applicationIdentifier: String? = nil,
    appKey: String? = nil
  ) {
    self.authority = authority
    self.resource = resource
    self.clientID = clientID
    self.applicationIdentifier = applicationIdentifier
    self.appKey = appKey
  }

  /// The `svce` string ADAL writes for these values (trimmed and lowercased before encoding).
  public var encoded: String {
    func part(_ text: String) -> String {
      Base64URL.encode(text.trimmedWhitespaceAndNewlines().lowercased())
    }
    let prefix = applicationIdentifier.map { "\(Self.libraryString)-\(Base64URL.encode($0))" } ?? Self.libraryString
    let trimmedResource = resource?.trimmedWhitespaceAndNewlines() ?? ""
    var parts = [
      prefix, part(authority), trimmedResource.isEmpty ? Self.nilKey : part(trimmedResource), part(clientID),
    ]
    if let appKey { parts.append(appKey) }
    return parts.joined(separator: "|")
  }

  public var description: String { encoded }

  /// Whether `text` is `nilKey` in any case (`caseInsensitiveCompare`). Printable ASCII (every real `acct` and
  /// `svce` part) is compared on its bytes, where the two are equal exactly when their lowercase bytes are:
  /// through Foundation each compare cost about 7,500 instructions, once for every `acct` and `svce` of a read.
  package static func isNilKey(_ text: some StringProtocol) -> Bool {
    let isPrintableASCII = text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    guard isPrintableASCII else { return text.caseInsensitiveCompare(nilKey) == .orderedSame }
    return text.utf8.count == nilKey.utf8.count
      && zip(text.utf8, nilKey.utf8).allSatisfy { $0.asciiLowercased == $1.asciiLowercased }
  }

  /// Parses a `svce` value. Throws `ADALKeychainKeyError` naming the part that is wrong.
  public static func decode(_ service: String) throws(ADALKeychainKeyError) -> ADALKeychainService {
    // Decoded from the substrings: a string of each part was an allocation for each but the shortest.
    let parts = service.splitting(ascii: "|", omittingEmptySubsequences: false)
    guard parts.count == 4 || parts.count == 5 else { throw .wrongComponentCount(parts.count) }
    var applicationIdentifier: String?
    if parts[0] != libraryString {
      let brokerPrefix = libraryString + "-"
      guard parts[0].hasPrefix(brokerPrefix) else { throw .notADALService }
      guard let appID = Base64URL.decodeString(parts[0].dropFirst(brokerPrefix.count)) else {
        throw .undecodable(component: "applicationIdentifier")
      }
      applicationIdentifier = appID
    }
    guard let authority = Base64URL.decodeString(parts[1]), !authority.isEmpty else {
      throw .undecodable(component: "authority")
    }
    var resource: String?
    if !isNilKey(parts[2]) {
      guard let decoded = Base64URL.decodeString(parts[2]) else { throw .undecodable(component: "resource") }
      resource = decoded
    }
    guard let clientID = Base64URL.decodeString(parts[3]), !clientID.isEmpty else {
      throw .undecodable(component: "clientId")
    }
    return ADALKeychainService(
      authority: authority, resource: resource, clientID: clientID, applicationIdentifier: applicationIdentifier,
      appKey: parts.count == 5 ? String(parts[4]) : nil)
  }
}

/// The keychain account attribute (`acct`) of an ADAL item.
public enum ADALKeychainAccount {
  /// What an `acct` value says about the user.
  public enum Decoded: Sendable, Hashable {
    /// Empty (ADAL 2.1+) or the NIL-GUID (ADAL 1.x): the item has no user (ADFS without an id token).
    case noUser
    /// base64url of the normalized user id (iOS, every release).
    case encoded(String)
    /// Not base64url of UTF-8 text: the raw user id (ADAL 2.1 betas, macOS per-item layouts).
    case raw(String)

    /// The user id, if any.
    public var userID: String? {
      switch self {
      case .noUser: nil
      case .encoded(let user), .raw(let user): user
      }
    }
  }

  /// ADAL's `normalizeUserId`: trimmed and lowercased; nil when blank.
  public static func normalize(_ userID: String?) -> String? {
    guard let trimmed = userID?.trimmedWhitespaceAndNewlines(), !trimmed.isEmpty else { return nil }
    // The string itself when it is lowercase already (as `acct` values are): `lowercased()` made a copy per item.
    return trimmed.lowercasedSharingStorage()
  }

  /// The iOS `acct` for a user id: base64url of the normalized id, `""` for no user (ADAL 2.1+).
  public static func encode(userID: String?) -> String {
    normalize(userID).map { Base64URL.encode($0) } ?? ""
  }

  /// Reads an `acct` value. base64url that decodes to printable UTF-8 is taken as encoded; anything else
  /// (a raw `user@domain` has `@` and `.`, which base64url lacks) as a raw user id.
  public static func decode(_ account: String) -> Decoded {
    let trimmed = account.trimmedWhitespaceAndNewlines()
    if trimmed.isEmpty || ADALKeychainService.isNilKey(trimmed) {
      return .noUser
    }
    if let text = Base64URL.decodeString(trimmed), !text.isEmpty,
      !text.unicodeScalars.contains(where: \.isControlOrFormat)
    {
      return .encoded(text)
    }
    return .raw(trimmed)
  }
}

/// Why a keychain attribute could not be decoded. Never contains a secret (attributes hold none).
public enum ADALKeychainKeyError: Error, LocalizedError, Sendable, Hashable, CustomStringConvertible {
  case wrongComponentCount(Int)
  case notADALService
  case undecodable(component: String)

  public var description: String {
    switch self {
    case .wrongComponentCount(let count): "svce has \(count) '|'-separated components, expected 4 or 5"
    case .notADALService: "svce does not start with MSOpenTech.ADAL.1"
    case .undecodable(let component): "svce \(component) component is not base64url of UTF-8 text"
    }
  }

  /// The description: the reader that met the key names its item.
  public var errorDescription: String? { description }
}
