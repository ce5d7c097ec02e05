import Adal2MSALSupport
import Foundation
import Testing

@testable import ADALCache

/// Which dumped records are ADAL items (`KeychainRecord.isADALItem`): a `gena` of exactly `MSOpenTech.ADAL.1`
/// (compared as bytes before it is decoded), never a `gena` that only starts or ends like it; without `gena`, an
/// ADAL `svce`. The router asks through a pointer (`isADALItem(at:)`), which must give the same answer.
@Suite struct KeychainRecordSelectionTests {
  private let library = Array("MSOpenTech.ADAL.1".utf8)

  private func record(generic: [UInt8]?, service: String? = nil) -> KeychainRecord {
    KeychainRecord(service: service, generic: generic.map { Data($0) }, location: SourceLocation(file: "dump"))
  }

  /// Whether `record` is selected, asked of the record and through a pointer to it; the two must agree.
  private func selected(_ record: KeychainRecord) -> Bool {
    let throughPointer = withUnsafePointer(to: record) { KeychainRecord.isADALItem(at: $0) }
    #expect(throughPointer == record.isADALItem)
    return record.isADALItem
  }

  @Test func genaOfExactlyTheLibraryIsAnADALItem() {
    #expect(selected(record(generic: library)))
    #expect(selected(record(generic: library, service: "com.contoso.other")))
  }

  @Test func genaOnlyLikeTheLibraryIsNot() {
    let adalService = "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbg|cmVzb3VyY2U|client"
    #expect(!selected(record(generic: library + Array("0".utf8), service: adalService)))
    #expect(!selected(record(generic: Array(library.dropLast()), service: adalService)))
    #expect(!selected(record(generic: [0xFF] + library, service: adalService)))
    #expect(!selected(record(generic: Array("Microsoft.ADAL.WipeAll.1".utf8), service: adalService)))
  }

  @Test func withoutGenaAnADALServiceIsAnADALItem() {
    #expect(selected(record(generic: nil, service: "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbg|cmVzb3VyY2U|client")))
    #expect(!selected(record(generic: nil, service: "com.contoso.other")))
  }
}
