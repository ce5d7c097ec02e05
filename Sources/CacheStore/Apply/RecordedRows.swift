import Foundation
import GRDB

/// The parameters of rows bound before a statement runs them: what `RowCodec` binds for each entity, recorded
/// with its text and blobs copied into one buffer, and bound to a statement later (`bind(row:to:)`).
///
/// The rows of a plan are bound on another core a chunk of entries at a time (`RowPreparation`) while the writer
/// writes the rows before them: the entities' fields, their keys' hashes and their JSON texts are read and made
/// there, and the writer copies each row's bytes from one place. Like `BoundStatement`, a nil value records
/// nothing (the parameter stays NULL).
///
/// Its state is not checked for exclusive access at run time (`@exclusivity(unchecked)`): the one thread that
/// records a chunk of rows hands it over when it is done, and the writer only reads it.
final class RecordedRows: @unchecked Sendable {
  private enum Kind: UInt8 { case text, blob, integer, real }

  /// One bound parameter: for text and blobs, `payload` is the offset of its bytes in `bytes`; for numbers, the
  /// number's bits.
  private struct Parameter {
    var index: Int32
    var kind: Kind
    var length: Int32
    var payload: Int64
  }

  @exclusivity(unchecked) private var parameters: [Parameter] = []
  @exclusivity(unchecked) private var bytes: [UInt8] = []
  /// Where each row's parameters begin in `parameters`, and last where the next row's will.
  @exclusivity(unchecked) private var rowStarts: [Int] = [0]

  init() {}

  /// Forgets every row, keeping the buffers for the next chunk's (`RowPreparation.recycle(_:)`).
  func removeAll() {
    parameters.removeAll(keepingCapacity: true)
    bytes.removeAll(keepingCapacity: true)
    rowStarts.removeAll(keepingCapacity: true)
    rowStarts.append(0)
  }

  /// The number of rows recorded so far.
  var rowCount: Int { rowStarts.count - 1 }

  /// Ends the row being recorded; returns its number (from 0).
  func endRow() -> Int {
    rowStarts.append(parameters.count)
    return rowCount - 1
  }

  /// Removes the parameters recorded for the row being recorded (a row that could not be bound whole).
  func dropRow() {
    parameters.removeSubrange(rowStarts[rowCount]...)
  }

  func bind(_ index: Int32, _ text: String?) {
    guard let text else { return }
    if text.utf8.withContiguousStorageIfAvailable({ append(index, .text, UnsafeRawBufferPointer($0)) }) == nil {
      var text = text
      text.withUTF8 { append(index, .text, UnsafeRawBufferPointer($0)) }
    }
  }

  /// Binds the text at `field`, read in place: a copy of it was a retain and a release of its storage.
  func bind(_ index: Int32, textAt field: UnsafePointer<String?>) {
    let bound: Void? = field.pointee?.utf8.withContiguousStorageIfAvailable {
      append(index, .text, UnsafeRawBufferPointer($0))
    }
    if bound == nil, let text = field.pointee { bind(index, text) }
  }

  func bind(_ index: Int32, _ number: Int64?) {
    guard let number else { return }
    parameters.append(Parameter(index: index, kind: .integer, length: 0, payload: number))
  }

  /// A date as epoch seconds, bound as REAL like `RowCodec.epoch` (the column affinity keeps whole seconds as
  /// INTEGER).
  func bind(_ index: Int32, _ date: Date?) {
    guard let date else { return }
    append(index, real: date.timeIntervalSince1970)
  }

  func bind(_ index: Int32, _ value: DatabaseValue) {
    switch value.storage {
    case .null: return
    case .int64(let number): bind(index, number)
    case .double(let number): append(index, real: number)
    case .string(let text): bind(index, text)
    case .blob(let data): data.withUnsafeBytes { append(index, .blob, $0) }
    }
  }

  private func append(_ index: Int32, real number: Double) {
    parameters.append(Parameter(index: index, kind: .real, length: 0, payload: Int64(bitPattern: number.bitPattern)))
  }

  private func append(_ index: Int32, _ kind: Kind, _ value: UnsafeRawBufferPointer) {
    parameters.append(Parameter(index: index, kind: kind, length: Int32(value.count), payload: Int64(bytes.count)))
    bytes.append(contentsOf: value)
  }

  /// Binds the parameters of row `row` to `statement` (`BoundStatement.row(_:width:)` for a row of a statement of
  /// several).
  func bind(row: Int, to statement: BoundStatement) {
    bytes.withUnsafeBytes { bytes in
      func value(of parameter: Parameter) -> UnsafeRawBufferPointer {
        let start = Int(parameter.payload)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(parameter.length))])
      }
      for parameter in parameters[rowStarts[row]..<rowStarts[row + 1]] {
        switch parameter.kind {
        case .text: statement.bindText(parameter.index, value(of: parameter))
        case .blob: statement.bindBlob(parameter.index, value(of: parameter))
        case .integer: statement.bind(parameter.index, parameter.payload)
        case .real: statement.bind(parameter.index, Double(bitPattern: UInt64(bitPattern: parameter.payload)))
        }
      }
    }
  }
}
