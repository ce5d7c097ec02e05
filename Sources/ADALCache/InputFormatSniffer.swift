import Adal2MSALSupport
import Foundation
import UnifiedCache

/// A cache format adal2msal recognises by content (docs/verdicts.md, "Formats, recognised by positive evidence";
/// the writers' code: docs/sources.md) that is not a keychain dump. ADAL Python / Azure CLI and ADAL Node arrays
/// are read by `ADALPythonCacheReader`, ADAL.NET v3 blobs by `ADALDotNetBlobReader` (issue 25); the MSAL.NET v2
/// dictionary is an MSAL input; the others are refused as not supported yet.
public enum UnsupportedFormat: String, Sendable, Hashable, Codable, CaseIterable {
  case adalDotNetV3 = "adal-dotnet-v3"
  case adalDotNetV2 = "adal-dotnet-v2"
  case dpapi = "dpapi"
  case msalDotNetDictionary = "msal-dotnet-v2-dictionary"
  case adalPythonAccessTokens = "adal-python-access-tokens"
  case adalNode = "adal-node"
  case azureCLIServicePrincipals = "azure-cli-service-principals"
  case keychainDumperText = "keychain-dumper-text"
  case adalAndroidPreferences = "adal-android-preferences"
  case pythonPickle = "python-pickle"

  /// The format's name in messages.
  public var displayName: String {
    switch self {
    case .adalDotNetV3: "ADAL.NET v3 token cache blob (TokenCache.Serialize / TokenCache.dat)"
    case .adalDotNetV2: "ADAL.NET 2.x token cache blob (version 2)"
    case .dpapi: "DPAPI-encrypted file"
    case .msalDotNetDictionary: "MSAL.NET v2 dictionary cache (JSON array of Key/Value)"
    case .adalPythonAccessTokens: "ADAL Python / Azure CLI accessTokens.json"
    case .adalNode: "ADAL Node token cache"
    case .azureCLIServicePrincipals: "Azure CLI service principal entries (credentials, not tokens)"
    case .keychainDumperText: "Keychain-Dumper text output"
    case .adalAndroidPreferences: "ADAL Android preferences XML (com.microsoft.aad.adal.cache.xml)"
    case .pythonPickle: "Python pickle (Azure CLI msal_http_cache.bin, not a token cache)"
    }
  }

  /// What the user can do instead.
  public var todo: String {
    switch self {
    case .dpapi: "decrypt it on the source Windows account first"
    case .keychainDumperText:
      "dump the keychain with objection (`ios keychain dump --json`) or as a property list instead"
    case .azureCLIServicePrincipals, .pythonPickle: "leave it out of the inputs"
    case .adalAndroidPreferences:
      // ADAL Android's StorageHelper: cE1 + AES-256-CBC + HMAC; key version A001 is wrapped by AndroidKeyStore.
      "its values (cE1…) are encrypted with a key held in the device's Android keystore (A001) or the app's own "
        + "key (U001), so they cannot be read off the device; sign in again with MSAL there"
    case .adalDotNetV2:
      // ADAL.NET 3+ and MSAL.NET's DeserializeAdalV3 skip any version but 3 (their AdalCacheOperations.cs).
      "ADAL.NET 3 and later and MSAL.NET skip version-2 blobs too (an app past ADAL.NET 2 has signed its "
        + "users in again); leave it out of the inputs"
    default: "leave it out of the inputs"
    }
  }
}

/// What a file is, by evidence in its bytes that only that format has. Used before any reader runs, so that a
/// known but unsupported format, or a file given with the wrong option, is named instead of misread.
public enum InputFormatSniffer {
  /// A file that must not be read as the input it was given as.
  public enum Refusal: Sendable, Hashable {
    /// A known format adal2msal does not migrate yet.
    case unsupported(UnsupportedFormat)
    /// An SQLite database; `isStore` when it has adal2msal's tables.
    case sqlite(isStore: Bool)
  }

  /// The refusal for `data`, from its leading bytes alone; nil when it may be a supported input.
  public static func refusal(_ data: Data) -> Refusal? {
    let bytes = data.prefix(64 * 1024)
    if StoreFileMarker.isSQLite(header: bytes) {
      // Stores made before the application id: their schema text, when it is in the first bytes.
      let text = String(decoding: bytes, as: UTF8.self)
      return .sqlite(
        isStore: StoreFileMarker.isStore(header: bytes) || text.contains("CREATE TABLE credentials")
          || text.contains("CREATE TABLE accounts"))
    }
    let dpapi: [UInt8] = [
      0x01, 0, 0, 0, 0xD0, 0x8C, 0x9D, 0xDF, 0x01, 0x15, 0xD1, 0x11, 0x8C, 0x7A, 0x00, 0xC0, 0x4F, 0xC2, 0x97, 0xEB,
    ]
    if bytes.starts(with: dpapi) { return .unsupported(.dpapi) }
    if let version = dotNetBlobVersion(Array(bytes)) {
      return .unsupported(version == 3 ? .adalDotNetV3 : .adalDotNetV2)
    }
    if bytes.count >= 2, bytes[bytes.startIndex] == 0x80, (2...5).contains(bytes[bytes.startIndex + 1]) {
      return .unsupported(.pythonPickle)
    }
    // The text formats below are each looked for only where the bytes hold the ASCII their test cannot pass
    // without: decoding 64 KiB as text and splitting it into lines, for every input, was most of the time a run
    // of many small dumps took per file.
    let body = trimmed(bytes)
    let maybeDotNetBase64 = body.starts(with: Self.dotNetBase64Start)
    let maybeAndroid = body.first == UInt8(ascii: "<") && holds(body, Self.androidMapTag)
    let maybeDumper = Self.dumperFieldsInBytes.allSatisfy { holds(body, $0) }
    guard maybeDotNetBase64 || maybeAndroid || maybeDumper else { return nil }
    let text = String(decoding: body, as: UTF8.self)
    if maybeDotNetBase64, text.hasPrefix("AwAAA"),
      let decoded = Data(base64Encoded: String(text.prefix(4096 / 4 * 4))), dotNetBlobVersion(Array(decoded)) == 3
    {
      return .unsupported(.adalDotNetV3)
    }
    if maybeAndroid, text.hasPrefix("<") || text.hasPrefix("<?xml"), text.contains("<map"), !text.contains("<plist"),
      text.contains("<string name=")
    {
      return .unsupported(.adalAndroidPreferences)
    }
    guard maybeDumper else { return nil }
    let lines = text.split(whereSeparator: \.isNewline).prefix(200)
    if dumperFields.allSatisfy({ field in lines.contains { $0.hasPrefix(field) } }) {
      return .unsupported(.keychainDumperText)
    }
    return nil
  }

  /// The fields every record of Keychain-Dumper's text output starts a line with.
  private static let dumperFields = ["Service: ", "Account: ", "Entitlement Group: ", "Keychain Data: "]
  /// The bytes of the fields that text can only hold as those bytes. Not `Keychain Data: `: a String compares
  /// by canonical equivalence, under which U+212A KELVIN SIGN is `K`. (No other character is equivalent to one of
  /// these ASCII letters, to `:` or to a space.)
  private static let dumperFieldsInBytes = dumperFields.dropLast().map { Array($0.utf8) }
  private static let dotNetBase64Start = Array("AwAAA".utf8)
  private static let androidMapTag = Array("<map".utf8)

  /// Whether `needle` (not empty) occurs in `bytes`: each place its first byte is, found by the C library's
  /// `memchr`, compared by `memcmp`. (`Data.range(of:)` compared a byte at a time through generic code: 4% of a
  /// run of many small dumps.)
  private static func holds(_ bytes: Data, _ needle: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { haystack in
      needle.withUnsafeBytes { needle in
        guard let start = haystack.baseAddress, let first = needle.first, haystack.count >= needle.count else {
          return false
        }
        let lastStart = start + (haystack.count - needle.count)
        var from = start
        while from <= lastStart, let found = memchr(from, Int32(first), lastStart - from + 1) {
          if memcmp(found, needle.baseAddress!, needle.count) == 0 { return true }
          from = UnsafeRawPointer(found) + 1
        }
        return false
      }
    }
  }

  /// The format of a JSON array's items when it is one of the known non-keychain arrays.
  static func unsupportedJSONArray(_ items: [JSONValue]) -> UnsupportedFormat? {
    let objects = items.compactMap(\.objectValue)
    guard !objects.isEmpty else { return nil }
    if objects.allSatisfy({ $0["Key"] != nil && $0["Value"] != nil }) { return .msalDotNetDictionary }
    // ADAL Python / Node entries name their client and authority; an app's own template may leave those out
    // but keeps the token response's fields.
    let adal = objects.filter { entry in
      (entry["_clientId"] != nil && entry["_authority"] != nil) || entry["servicePrincipalId"] != nil
        || (entry["accessToken"] != nil && entry["tokenType"] != nil && entry["resource"] != nil)
    }
    if adal.count * 2 > objects.count {
      let isoDates = adal.contains { entry in
        guard let expires = entry["expiresOn"]?.stringValue else { return false }
        return expires.contains("T") && expires.hasSuffix("Z")
      }
      return isoDates ? .adalNode : .adalPythonAccessTokens
    }
    if objects.allSatisfy({ $0["client_id"] != nil && $0["tenant"] != nil }) { return .azureCLIServicePrincipals }
    return nil
  }

  /// 3 or 2 for a .NET `BinaryWriter` blob: int32 version, an int32 count, then a first key that holds `:::`, or
  /// that the bytes end inside of after at least `minimumCutKey` printable ASCII bytes (a file cut short, or the
  /// prefix of base64 text decoded here). With a key that holds `:::` the count may be any (a damaged one), so that
  /// the blob's reader names it and its offset; with a cut key it must be sane (1 to a million). A count of 0 is
  /// the empty blob, 8 bytes.
  private static func dotNetBlobVersion(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 8, bytes[1] == 0, bytes[2] == 0, bytes[3] == 0, bytes[0] == 3 || bytes[0] == 2 else {
      return nil
    }
    let count = Int32(
      bitPattern: UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 24)
    if count == 0 { return bytes.count == 8 ? Int(bytes[0]) : nil }
    // The first key: a 7-bit varint length, then UTF-8 holding "authority:::resource:::client:::subject".
    var length = 0
    var shift = 0
    var position = 8
    while position < bytes.count, shift < 35 {
      let byte = bytes[position]
      length |= Int(byte & 0x7F) << shift
      position += 1
      if byte & 0x80 == 0 { break }
      shift += 7
    }
    let end = min(bytes.count, position + length)
    guard position < end else { return nil }
    let key = bytes[position..<end]
    if String(decoding: key, as: UTF8.self).contains(":::") { return Int(bytes[0]) }
    let isCut = position + length > bytes.count
    guard isCut, count > 0, count < 1_000_000, key.count >= minimumCutKey,
      key.allSatisfy({ (0x20...0x7E).contains($0) })
    else { return nil }
    return Int(bytes[0])
  }

  /// The printable ASCII bytes of a first key cut by the end of the bytes that make them an ADAL.NET blob's.
  static let minimumCutKey = 16

  private static func trimmed(_ bytes: Data) -> Data {
    var rest = bytes[...]
    if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
    return Data(rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
  }

  /// What a file that is no cache looks like, in words, never quoting its content.
  public static func describe(_ data: Data) -> String {
    if data.isEmpty { return "the file is empty" }
    let body = trimmed(data.prefix(4096))
    if body.isEmpty { return "the file holds only white space" }
    if body.contains(0) { return "the file is binary data (\(data.count) bytes) in no format adal2msal knows" }
    if String(data: body, encoding: .utf8) == nil {
      return "the file is binary data (\(data.count) bytes) in no format adal2msal knows"
    }
    return "the file is text (\(data.count) bytes) in no format adal2msal knows"
  }
}
