import Adal2MSALSupport
import Foundation
import Testing

@testable import ADALCache

/// Which dumped records are ADAL items (`KeychainRecord.isADALItem`): a `gena` of exactly `MSOpenTech.ADAL.1`
/// (compared as bytes before it is decoded), never a `gena` that only starts or ends like it; without `gena`, an
/// ADAL `svce`.
@Suite struct KeychainRecordSelectionTests {
  private let library = Array("MSOpenTech.ADAL.1".utf8)

  private func record(generic: [UInt8]?, service: String? = nil) -> KeychainRecord {
    KeychainRecord(service: service, generic: generic.map { Data($0) }, location: SourceLocation(file: "dump"))
  }

  @Test func genaOfExactlyTheLibraryIsAnADALItem() {
    #expect(record(generic: library).isADALItem)
    #expect(record(generic: library, service: "com.contoso.other").isADALItem)
  }

  @Test func genaOnlyLikeTheLibraryIsNot() {
    let adalService = "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbg|cmVzb3VyY2U|client"
    #expect(!record(generic: library + Array("0".utf8), service: adalService).isADALItem)
    #expect(!record(generic: Array(library.dropLast()), service: adalService).isADALItem)
    #expect(!record(generic: [0xFF] + library, service: adalService).isADALItem)
    #expect(!record(generic: Array("Microsoft.ADAL.WipeAll.1".utf8), service: adalService).isADALItem)
  }

  @Test func withoutGenaAnADALServiceIsAnADALItem() {
    #expect(record(generic: nil, service: "MSOpenTech.ADAL.1|aHR0cHM6Ly9sb2dpbg|cmVzb3VyY2U|client").isADALItem)
    #expect(!record(generic: nil, service: "com.contoso.other").isADALItem)
  }
}
