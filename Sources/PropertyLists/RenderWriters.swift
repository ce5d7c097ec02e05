import Adal2MSALSupport
import Foundation

/// Writes a `RenderNode` as an indented tree, one value per line.
struct TextTreeWriter {
  var lines: [String] = []

  mutating func write(label: String, _ node: RenderNode, indent: Int) {
    let pad = String(repeating: "  ", count: indent)
    switch node {
    case .list(let isSet, let elements):
      lines.append("\(pad)\(label): \(isSet ? "set" : "array") (\(elements.count))")
      for (position, element) in elements.enumerated() { write(label: "[\(position)]", element, indent: indent + 1) }
    case .map(let className, let objectIndex, let entries):
      let kind = className.map { name in objectIndex.map { "\(name) ($objects[\($0)])" } ?? name }
      lines.append("\(pad)\(label): \(kind ?? "dictionary") (\(entries.count) \(className == nil ? "keys" : "fields"))")
      for entry in entries { write(label: entry.key, entry.value, indent: indent + 1) }
    case .pairs(let entries):
      lines.append("\(pad)\(label): dictionary (\(entries.count) keys)")
      for (position, entry) in entries.enumerated() {
        write(label: "key[\(position)]", entry.key, indent: indent + 1)
        write(label: "value[\(position)]", entry.value, indent: indent + 1)
      }
    default:
      lines.append("\(pad)\(label): \(Self.scalar(node))")
    }
  }

  static func scalar(_ node: RenderNode) -> String {
    switch node {
    case .null: "null"
    case .bool(let flag): flag ? "true" : "false"
    case .integer(let number): "\(number)"
    case .real(let number): "\(number)"
    case .string(let text): JSONTreeWriter.quoted(text)
    case .date(let date): "\(PropertyListRendering.iso8601(date)) (date)"
    case .uid(let uid): "UID(\(uid))"
    case .secret(let fingerprint): "<secret \(fingerprint)>"
    case .data(let data):
      data.count <= PropertyListRendering.maxInlineDataBytes
        ? "<data \(data.count) bytes: \(data.base64EncodedString())>"
        : "<data \(data.count) bytes, \(SecretFingerprint.of(data))>"
    case .list, .map, .pairs: ""
    }
  }
}

/// Writes a `RenderNode` as compact JSON, keeping key order.
struct JSONTreeWriter {
  var output = ""

  mutating func writeString(_ text: String) { output += Self.quoted(text) }

  mutating func write(_ node: RenderNode) {
    switch node {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .integer(let number): output += "\(number)"
    case .real(let number):
      if number.isNaN {
        output += "\"NaN\""
      } else if number.isInfinite {
        output += number < 0 ? "\"-Infinity\"" : "\"Infinity\""
      } else {
        output += "\(number)"
      }
    case .string(let text): writeString(text)
    case .secret(let fingerprint): writeString(fingerprint)
    case .date(let date): writeString(PropertyListRendering.iso8601(date))
    case .uid(let uid): output += "{\"$uid\":\(uid)}"
    case .data(let data):
      if data.count <= PropertyListRendering.maxInlineDataBytes {
        output += "{\"$data\":\(Self.quoted(data.base64EncodedString()))}"
      } else {
        output += "{\"$data\":null,\"length\":\(data.count),\"sha256\":\(Self.quoted(SecretFingerprint.of(data)))}"
      }
    case .list(_, let elements):
      output += "["
      for (position, element) in elements.enumerated() {
        if position > 0 { output += "," }
        write(element)
      }
      output += "]"
    case .map(let className, _, let entries):
      output += "{"
      if let className { output += "\"$class\":\(Self.quoted(className))" }
      for (position, entry) in entries.enumerated() {
        if position > 0 || className != nil { output += "," }
        writeString(entry.key)
        output += ":"
        write(entry.value)
      }
      output += "}"
    case .pairs(let entries):
      output += "{\"$entries\":["
      for (position, entry) in entries.enumerated() {
        if position > 0 { output += "," }
        output += "{\"key\":"
        write(entry.key)
        output += ",\"value\":"
        write(entry.value)
        output += "}"
      }
      output += "]}"
    }
  }

  /// A JSON string literal.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
