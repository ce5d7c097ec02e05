import Foundation
import UnifiedCache

/// One optional field of an entity as an insert binds it: its parameter, and where the entity keeps its value.
/// Found once per entity type, so that a row is written without looking its columns up by name.
struct FieldBinding<Root>: Sendable {
  enum Value: Sendable {
    /// A stored property at this byte offset of the entity (`MemoryLayout.offset(of:)`), read with one load:
    /// applying a key path is a generic projection of several hundred instructions (for an account, a copy of
    /// the whole account), once per field of every row.
    case textAt(Int)
    case dateAt(Int)
    /// A property that is not stored (no offset), read through its key path.
    case text(KeyPath<Root, String?> & Sendable)
    case date(KeyPath<Root, Date?> & Sendable)
  }

  let parameter: Int32
  let value: Value

  static func text(_ keyPath: KeyPath<Root, String?> & Sendable, parameter: Int32) -> FieldBinding {
    FieldBinding(
      parameter: parameter, value: MemoryLayout<Root>.offset(of: keyPath).map { .textAt($0) } ?? .text(keyPath))
  }

  static func date(_ keyPath: KeyPath<Root, Date?> & Sendable, parameter: Int32) -> FieldBinding {
    FieldBinding(
      parameter: parameter, value: MemoryLayout<Root>.offset(of: keyPath).map { .dateAt($0) } ?? .date(keyPath))
  }
}

extension Array {
  /// Binds the fields of `entity` to `row`.
  func bind<Root>(_ entity: Root, to row: RecordedRows) where Element == FieldBinding<Root> {
    Swift.withUnsafeBytes(of: entity) { bytes in
      for field in self {
        switch field.value {
        case .textAt(let offset):
          row.bind(field.parameter, textAt: (bytes.baseAddress! + offset).assumingMemoryBound(to: String?.self))
        case .dateAt(let offset): row.bind(field.parameter, bytes.load(fromByteOffset: offset, as: Date?.self))
        case .text(let keyPath): row.bind(field.parameter, entity[keyPath: keyPath])
        case .date(let keyPath): row.bind(field.parameter, entity[keyPath: keyPath])
        }
      }
    }
  }
}
