// libFuzzer entry: the ADAL reader on arbitrary bytes: keychain dumps (plist array or classes, objection
// JSON, base64 JSON), macOS blobs and archived items, recognised by content as in production.
import Adal2MSAL
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  if let result = try? ADALCacheReader(limits: .default).read(data, file: "fuzz") {
    _ = result.diagnostics.map(\.description)
  }
  return 0
}
