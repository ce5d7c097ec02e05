import Adal2MSALSupport
import Foundation

/// The keychain dump formats users bring (see docs/formats.md).
public enum SyntheticFormat: String, Sendable, Hashable, CaseIterable {
  /// An XML property list array of item dictionaries (`security`/keychain-dumper style).
  case xmlPlist = "xml-plist"
  /// The same as a binary property list.
  case binaryPlist = "binary-plist"
  /// `objection ios keychain dump --json`.
  case objectionJSON = "objection-json"
  /// A JSON array with Apple's short names and base64 values.
  case base64JSON = "base64-json"

  public var fileExtension: String {
    switch self {
    case .xmlPlist: "xml.plist"
    case .binaryPlist: "bplist"
    case .objectionJSON: "objection.json"
    case .base64JSON: "base64.json"
    }
  }

  /// The dump's bytes.
  public func encode(_ dump: SyntheticDump) -> [UInt8] {
    let records = SyntheticDumpWriter.records(dump)
    switch self {
    case .xmlPlist: return SyntheticDumpWriter.xmlPlist(records)
    case .binaryPlist: return SyntheticDumpWriter.binaryPlist(records)
    case .objectionJSON: return SyntheticDumpWriter.objectionJSON(records)
    case .base64JSON: return SyntheticDumpWriter.base64JSON(records)
    }
  }
}

/// Writes keychain dumps in each format from the same records.
enum SyntheticDumpWriter {
  /// One keychain item's attributes.
  struct Record {
    var account: String
    var service: String
    var generic: String
    var accessGroup: String
    var data: [UInt8]
    var created: Date
  }

  static func records(_ dump: SyntheticDump) -> [Record] {
    var records = [
      Record(
        account: "device-settings", service: "com.contoso.app.settings", generic: "settings",
        accessGroup: "UBF8T346G9.com.contoso.app", data: Array(#"{"theme":"dark","onboarded":true}"#.utf8),
        created: Date(timeIntervalSince1970: 1_600_000_000))
    ]
    records.reserveCapacity(dump.items.count + 1)
    for item in dump.items {
      records.append(
        Record(
          account: item.account, service: item.service, generic: SyntheticApps.generic,
          accessGroup: SyntheticApps.accessGroup, data: item.archive, created: item.created))
    }
    return records
  }

  // MARK: property lists

  static func xmlPlist(_ records: [Record]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(records.count * 3200)
    out += Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <array>

      """.utf8)
    func key(_ name: String) { out += Array("\t\t<key>\(name)</key>\n".utf8) }
    func string(_ value: String) {
      out += Array("\t\t<string>".utf8)
      for byte in value.utf8 {
        switch byte {
        case UInt8(ascii: "&"): out += Array("&amp;".utf8)
        case UInt8(ascii: "<"): out += Array("&lt;".utf8)
        case UInt8(ascii: ">"): out += Array("&gt;".utf8)
        default: out.append(byte)
        }
      }
      out += Array("</string>\n".utf8)
    }
    func data(_ bytes: [UInt8]) {
      out += Array("\t\t<data>".utf8)
      SyntheticText.appendBase64(bytes, to: &out)
      out += Array("</data>\n".utf8)
    }
    func date(_ value: Date) { out += Array("\t\t<date>\(iso8601(value))</date>\n".utf8) }
    for record in records {
      out += Array("\t<dict>\n".utf8)
      key("acct")
      string(record.account)
      key("agrp")
      string(record.accessGroup)
      key("cdat")
      date(record.created)
      key("class")
      string("genp")
      key("gena")
      data(Array(record.generic.utf8))
      key("mdat")
      date(record.created)
      key("pdmn")
      string("cku")
      key("svce")
      string(record.service)
      key("v_Data")
      data(record.data)
      out += Array("\t</dict>\n".utf8)
    }
    out += Array("</array>\n</plist>\n".utf8)
    return out
  }

  static func binaryPlist(_ records: [Record]) -> [UInt8] {
    var writer = BinaryPlistWriter(maxObjects: records.count * 12 + 32, reserveBytes: records.count * 2600)
    let keys = ["acct", "agrp", "cdat", "class", "gena", "mdat", "pdmn", "svce", "v_Data"].map { writer.string($0) }
    var items: [BinaryPlistWriter.Ref] = []
    items.reserveCapacity(records.count)
    for record in records {
      let created = writer.date(record.created)
      let values = [
        writer.string(record.account), writer.string(record.accessGroup), created, writer.string("genp"),
        writer.data(Array(record.generic.utf8)), created, writer.string("cku"), writer.string(record.service),
        writer.data(record.data),
      ]
      items.append(writer.dictionary(keys: keys, values: values))
    }
    return writer.finish(top: writer.array(items))
  }

  // MARK: JSON

  static func objectionJSON(_ records: [Record]) -> [UInt8] {
    var out: [UInt8] = Array("[\n".utf8)
    out.reserveCapacity(records.count * 9000)
    for (index, record) in records.enumerated() {
      let date = objectionDate(record.created)
      let fields: [(String, String)] = [
        ("access_control", ""), ("accessible_attribute", "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"),
        ("account", record.account), ("alias", ""), ("comment", ""), ("create_date", date), ("creator", ""),
        ("custom_icon", ""), ("data", String(decoding: record.data, as: UTF8.self)),
        ("dataHex", SyntheticText.hex(record.data)), ("description", ""),
        ("entitlement_group", record.accessGroup), ("generic", record.generic), ("invisible", ""),
        ("item_class", "kSecClassGenericPassword"), ("label", ""), ("modification_date", date), ("negative", ""),
        ("protected", ""), ("script_code", ""), ("service", record.service), ("type", ""),
      ]
      out += Array(" {\n".utf8)
      for (position, (key, value)) in fields.enumerated() {
        out += Array("  ".utf8)
        SyntheticJSON.appendQuoted(key, to: &out)
        out += Array(": ".utf8)
        SyntheticJSON.appendQuoted(value, to: &out)
        out += Array((position + 1 < fields.count ? ",\n" : "\n").utf8)
      }
      out += Array((index + 1 < records.count ? " },\n" : " }\n").utf8)
    }
    out += Array("]\n".utf8)
    return out
  }

  static func base64JSON(_ records: [Record]) -> [UInt8] {
    var out: [UInt8] = Array("[\n".utf8)
    out.reserveCapacity(records.count * 3400)
    for (index, record) in records.enumerated() {
      var gena: [UInt8] = []
      SyntheticText.appendBase64(Array(record.generic.utf8), to: &gena)
      var data: [UInt8] = []
      SyntheticText.appendBase64(record.data, to: &data)
      let fields: [(String, String)] = [
        ("svce", record.service), ("acct", record.account), ("agrp", record.accessGroup),
        // gena alternates between base64 and plain text, as both occur in hand-made dumps.
        ("gena", index % 2 == 0 ? String(decoding: gena, as: UTF8.self) : record.generic),
        ("v_Data", String(decoding: data, as: UTF8.self)), ("cdat", iso8601(record.created)),
        ("mdat", iso8601(record.created)), ("class", "genp"), ("pdmn", "cku"),
      ]
      out += Array(" {".utf8)
      for (position, (key, value)) in fields.enumerated() {
        SyntheticJSON.appendQuoted(key, to: &out)
        out.append(UInt8(ascii: ":"))
        SyntheticJSON.appendQuoted(value, to: &out)
        if position + 1 < fields.count { out.append(UInt8(ascii: ",")) }
      }
      out += Array((index + 1 < records.count ? "},\n" : "}\n").utf8)
    }
    out += Array("]\n".utf8)
    return out
  }

  // MARK: dates (UTC, whole seconds)

  static func iso8601(_ date: Date) -> String { civil(date).iso8601 }

  /// `-[NSDate description]`, as objection prints dates.
  static func objectionDate(_ date: Date) -> String {
    let time = civil(date)
    return
      "\(pad(time.year, 4))-\(pad(time.month, 2))-\(pad(time.day, 2)) \(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2)) +0000"
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  private static func civil(_ date: Date) -> CivilTime {
    CivilTime(secondsSince1970: Int(date.timeIntervalSince1970.rounded(.down)))
  }
}
