import ADALCache
import Adal2MSALSupport
import Adal2MSALSynthetic
import Foundation
import Testing
import _Adal2MSALTestSupport

/// A keychain dump is recognised by its entries' keychain attributes, by one rule for every dump: a property list
/// (read whole or, a binary array of flat dictionaries, without its tree) and JSON. A file none of whose entries
/// has them is no dump; an entry without them among items is one unreadable item, not another app's; a keychain
/// class that is no array of items is an error at its key path.
@Suite struct DumpEvidenceTests {
  /// An ADAL item with Apple's short names (`LargeDumpOrderTests.item`).
  static func item() throws -> [String: Any] { try LargeDumpOrderTests.item() }

  /// The same item under the Security framework's constant names, which no dump format adal2msal reads uses.
  static func longNamedItem() throws -> [String: Any] {
    let item = try item()
    return [
      "kSecAttrAccount": item["acct"]!, "kSecAttrService": item["svce"]!, "kSecAttrGeneric": item["gena"]!,
      "kSecValueData": item["v_Data"]!, "kSecClass": "genp",
    ]
  }

  /// The same item under objection's names, as a property list holds them (data as data).
  static func objectionNamedItem() throws -> [String: Any] {
    let item = try item()
    return [
      "account": item["acct"]!, "service": item["svce"]!, "generic": item["gena"]!, "data": item["v_Data"]!,
      "item_class": "genp",
    ]
  }

  /// `root` as an XML and a binary property list (the binary array of flat dictionaries is read without its
  /// tree) and as JSON (`jsonReady`).
  static func encodings(_ root: Any) throws -> [(name: String, data: Data)] {
    [
      ("xml.plist", try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)),
      ("bplist", try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)),
      ("json", try JSONSerialization.data(withJSONObject: jsonReady(root), options: .sortedKeys)),
    ]
  }

  /// `value` with its data as a JSON dump spells it: objection's `data` as `dataHex`, its `generic` as text, any
  /// other data as base64.
  static func jsonReady(_ value: Any) -> Any {
    switch value {
    case let array as [Any]: return array.map(jsonReady)
    case let dictionary as [String: Any]:
      var ready: [String: Any] = [:]
      for (key, value) in dictionary {
        switch (key, value) {
        case ("data", let bytes as Data): ready["dataHex"] = bytes.map { String(format: "%02x", $0) }.joined()
        case ("generic", let bytes as Data): ready[key] = String(decoding: bytes, as: UTF8.self)
        case (_, let bytes as Data): ready[key] = bytes.base64EncodedString()
        default: ready[key] = jsonReady(value)
        }
      }
      return ready
    default: return value
    }
  }

  static func refusal(_ data: Data, file: String) -> ADALCacheError? {
    do {
      _ = try ADALCacheReader().read(data, file: file)
      return nil
    } catch {
      return error
    }
  }

  /// Arrays whose entries have no keychain attributes: dictionaries of other keys, strings, a mix.
  static var noItems: [[Any]] { [[["foo": 1], ["bar": "x"]], ["a", "b"], [["foo": 1], "b", 3]] }

  @Test("entries without keychain attributes are no dump, in every encoding")
  func entriesWithoutAttributesAreNoDump() throws {
    for entries in Self.noItems {
      for (encoding, data) in try Self.encodings(entries) {
        let file = "other.\(encoding)"
        let error = try #require(Self.refusal(data, file: file), "\(entries) as \(encoding) was read as a dump")
        #expect(error.kind == .unrecognised, "\(entries) as \(encoding)")
        #expect(error.location.file == file)
        #expect(
          error.message.contains("not a keychain dump: ")
            && error.message.contains("array of \(entries.count) entries")
            && error.message.contains("none with keychain attributes"),
          "\(entries) as \(encoding): \(error.message)")
        #expect(!error.message.contains("foo") && !error.message.contains("bar"), "\(error.message)")
      }
    }
  }

  /// ADAL items under the Security framework's constant names (`kSecAttrService`, `kSecValueData`): no format
  /// adal2msal reads spells them so, and skipped as other apps' items their tokens were lost with status 0.
  @Test func longNamedItemsAreRefusedNotSkipped() throws {
    let entries = [try Self.longNamedItem(), try Self.longNamedItem()]
    for (encoding, data) in try Self.encodings(entries) {
      let error = try #require(Self.refusal(data, file: "long.\(encoding)"), "read as a dump (\(encoding))")
      #expect(error.message.contains("array of 2 entries, none with keychain attributes"), "\(error.message)")
    }
  }

  /// Beside items, an entry without keychain attributes is one unreadable item: named once at its index, and not
  /// counted as another app's item too.
  @Test func anEntryWithoutAttributesAmongItemsIsOneUnreadableItem() throws {
    let other: [String: Any] = ["acct": "someone", "svce": "com.example.other", "gena": Data("other".utf8)]
    let entries: [Any] = [try Self.item(), ["foo": 1], try Self.longNamedItem(), other]
    var diagnostics: [String: [Diagnostic]] = [:]
    for (encoding, data) in try Self.encodings(entries) {
      let result = try ADALCacheReader().read(data, file: "dump")
      #expect(result.items.map(\.source.itemIndex) == [0], "\(encoding)")
      #expect(result.ignoredItemCount == 1, "\(encoding): only the other app's item is ignored")
      let unreadable = result.diagnostics.filter { $0.code == "adal.item-unreadable" }
      #expect(unreadable.map { $0.location?.itemIndex } == [1, 2], "\(encoding): \(unreadable)")
      #expect(
        unreadable.allSatisfy { $0.message.contains("a dictionary without keychain attributes") }, "\(unreadable)")
      diagnostics[encoding] = result.diagnostics
    }
    #expect(diagnostics["xml.plist"] == diagnostics["bplist"], "the flat read differs from the tree's")
  }

  /// A dictionary of keychain classes whose class is no array of items (a dictionary of items by row id, a string)
  /// is an error naming the file and the class: read as no items, its items were lost.
  @Test("a keychain class that is no array is an error at its key path")
  func aClassThatIsNoArrayIsAnError() throws {
    let roots: [[String: Any]] = [
      ["genp": ["0": ["acct": "x", "svce": "y"]]],  // items by row id
      ["genp": "items"], ["genp": [["acct": "x", "svce": "y"]], "keys": ["a": 1]],
    ]
    for root in roots {
      for (encoding, data) in try Self.encodings(root) {
        let error = try #require(Self.refusal(data, file: "classes.\(encoding)"), "\(root) as \(encoding) was read")
        #expect(error.location.file == "classes.\(encoding)")
        #expect(["genp", "keys"].contains(error.location.keyPath), "\(root) as \(encoding): \(error)")
        #expect(error.message.contains("not an array of items"), "\(root) as \(encoding): \(error.message)")
      }
    }
  }

  /// Keychain classes none of whose entries has keychain attributes are no dump, and neither are empty classes
  /// beside other members; a dictionary of empty classes and an empty array are empty dumps.
  @Test func classesAreADumpByTheirItems() throws {
    let noDumps: [[String: Any]] = [
      ["genp": [["foo": 1]]], ["CFBundleName": "x", "genp": [["foo": 1]]], ["keys": [["foo": 1]]],
      ["genp": [] as [Any], "settings": ["a": 1]],
    ]
    for root in noDumps {
      for (encoding, data) in try Self.encodings(root) {
        let error = try #require(Self.refusal(data, file: "c.\(encoding)"), "\(root.keys) as \(encoding) was read")
        #expect(error.message.hasPrefix("not a keychain dump: "), "\(error.message)")
        #expect(error.message.contains("keychain classes (genp)") || error.message.contains("(keys)"))
      }
    }
    for root in [["genp": [] as [Any], "inet": [] as [Any]], ["genp": [] as [Any]]] as [[String: Any]] {
      for (encoding, data) in try Self.encodings(root) {
        let result = try ADALCacheReader().read(data, file: "empty.\(encoding)")
        #expect(result.items.isEmpty && result.ignoredItemCount == 0, "\(encoding)")
        #expect(!result.diagnostics.contains { $0.severity == .error }, "\(encoding): \(result.diagnostics)")
      }
    }
    for (encoding, data) in try Self.encodings([] as [Any]) where encoding != "json" {
      #expect(try ADALCacheReader().read(data, file: "empty.\(encoding)").items.isEmpty)
    }
  }

  /// objection's names are keychain attributes in a JSON dump, and so in a property list: its items are read.
  @Test func objectionNamedItemsAreReadFromAPropertyList() throws {
    let entries = [try Self.objectionNamedItem(), try Self.objectionNamedItem()]
    for (encoding, data) in try Self.encodings(entries) {
      let result = try ADALCacheReader().read(data, file: "objection.\(encoding)")
      #expect(result.items.map(\.source.itemIndex) == [0, 1], "\(encoding): \(result.diagnostics)")
      #expect(!result.diagnostics.contains { $0.severity == .error }, "\(encoding): \(result.diagnostics)")
    }
  }

  /// An item whose client id is archived as a number: unreadable, the field's type named at its key path.
  @Test func aClientIDOfTheWrongTypeIsNamedAtItsKeyPath() throws {
    let archive = Data(
      KeyedArchiveWriter.archive(
        .object(
          className: "ADTokenCacheStoreItem",
          fields: [
            ArchiveField("authority", .string("https://login.microsoftonline.com/common")),
            ArchiveField("clientId", .integer(12345)), ArchiveField("refreshToken", .string("RT.value")),
          ])))
    var entry = try Self.item()
    entry["v_Data"] = archive
    for (encoding, data) in try Self.encodings([entry]) {
      let result = try ADALCacheReader().read(data, file: "dump.\(encoding)")
      let unreadable = try #require(
        result.diagnostics.first { $0.code == "adal.item-unreadable" }, "\(encoding): \(result.diagnostics)")
      #expect(unreadable.location?.keyPath == "root.clientId", "\(encoding): \(unreadable)")
      #expect(unreadable.message.contains("clientId is an integer, expected a string"), "\(unreadable.message)")
      #expect(!unreadable.message.contains("has no clientId"), "\(unreadable.message)")
    }
  }
}
