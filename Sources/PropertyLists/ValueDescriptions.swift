import Adal2MSALSupport

/// Descriptions and mirrors of values that may hold tokens: compact JSON with secrets shown as fingerprints (see
/// `SecretPolicy`), so that logs, `dump`, debugger output and test failures never print a secret.
///
/// A mirror's children are the value's `RenderNode`s, in which every secret is already a fingerprint: a string
/// under `refreshToken` is hidden by its key, which the string's own mirror no longer sees. Without a custom
/// mirror, `dump` and the debugger walk the enum payloads and print the text itself.
extension PropertyListValue: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String { PropertyListRendering.json(self) }
  public var debugDescription: String { description }
  public var customMirror: Mirror { RenderNode(self, showSecrets: false).mirror(of: self) }
}

extension PropertyListDictionary: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String { PropertyListRendering.json(PropertyListValue.dictionary(self)) }
  public var debugDescription: String { description }
  public var customMirror: Mirror {
    RenderNode(PropertyListValue.dictionary(self), showSecrets: false).mirror(of: self)
  }
}

extension ArchiveValue: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String { PropertyListRendering.json(self) }
  public var debugDescription: String { description }
  public var customMirror: Mirror { RenderNode(self, showSecrets: false).mirror(of: self) }
}

extension ArchivedObject: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String { PropertyListRendering.json(ArchiveValue.object(self)) }
  public var debugDescription: String { description }
  public var customMirror: Mirror { RenderNode(ArchiveValue.object(self), showSecrets: false).mirror(of: self) }
}

/// An entry is rendered as a one-entry dictionary, so that its key hides its value as it does in the dictionary
/// (`"refreshToken": "sha256:…"`), whatever the value's shape.
extension ArchiveDictionaryEntry: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String {
    switch rendered {
    case .map(_, _, let entries) where entries.count == 1:
      return "\(JSONTreeWriter.quoted(entries[0].key)): \(entries[0].value)"
    case .pairs(let entries) where entries.count == 1:
      return "\(entries[0].key): \(entries[0].value)"
    default:
      return rendered.description
    }
  }
  public var debugDescription: String { description }

  public var customMirror: Mirror {
    switch rendered {
    case .map(_, _, let entries) where entries.count == 1:
      return Mirror(self, children: ["key": entries[0].key, "value": entries[0].value], displayStyle: .struct)
    case .pairs(let entries) where entries.count == 1:
      return Mirror(self, children: ["key": entries[0].key, "value": entries[0].value], displayStyle: .struct)
    default:
      return Mirror(self, children: [:])
    }
  }

  private var rendered: RenderNode { RenderNode(ArchiveValue.dictionary([self]), showSecrets: false) }
}

extension KeyedArchive: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  public var description: String {
    "KeyedArchive(rootClass: \(rootClassName ?? "nil"), root: \(root))"
  }
  public var debugDescription: String { description }

  /// `$top`'s entries hidden by their keys, as a dictionary's are.
  public var customMirror: Mirror {
    let topNode = RenderNode.map(
      className: nil, objectIndex: nil,
      top.map { entry in
        (
          SecretPolicy.shownKey(entry.key, showSecrets: false),
          RenderNode(entry.value, showSecrets: false, secret: SecretPolicy.isSecretKey(entry.key))
        )
      })
    return Mirror(
      self,
      children: [
        "top": topNode, "root": RenderNode(root, showSecrets: false), "rootClassName": rootClassName as Any,
      ],
      displayStyle: .struct)
  }
}

/// A rendered value shows itself as its JSON, and its mirror walks the rendered tree: what the mirrors above give
/// as children, already without secrets.
extension RenderNode: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  var description: String {
    var writer = JSONTreeWriter()
    writer.write(self)
    return writer.output
  }
  var debugDescription: String { description }
  var customMirror: Mirror { mirror(of: self) }

  /// A mirror of `subject` (the value this node was rendered from) whose children are this node's.
  func mirror<Subject>(of subject: Subject) -> Mirror {
    switch self {
    case .list(let isSet, let elements):
      return Mirror(subject, unlabeledChildren: elements, displayStyle: isSet ? .set : .collection)
    case .map(let className, _, let entries):
      return Mirror(
        subject, children: entries.map { Mirror.Child(label: $0.key, value: $0.value) },
        displayStyle: className == nil ? .dictionary : .struct)
    case .pairs(let entries):
      return Mirror(
        subject, unlabeledChildren: entries.map { (key: $0.key, value: $0.value) }, displayStyle: .dictionary)
    case .null, .bool, .integer, .real, .string, .date, .data, .uid, .secret:
      return Mirror(subject, children: [:])
    }
  }
}
