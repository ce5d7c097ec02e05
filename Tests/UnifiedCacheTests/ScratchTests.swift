import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@Test func scratchDump() throws {
  for url in try Fixtures.files(in: "msal-json") {
    let result = try UnifiedCacheJSONReader().read(Data(contentsOf: url), file: url.lastPathComponent)
    print("== \(url.lastPathComponent): \(result.contents)")
    for d in result.diagnostics { print("  \(d)") }
    for e in result.contents.allEntities { print("  \(e)") }
  }
}
