// libFuzzer entry: the MSAL unified cache JSON reader, and the writer on whatever it accepted (the export
// path: what was read must be writable).
import Adal2MSAL
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  if let result = try? UnifiedCacheJSONReader(limits: .default).read(data, file: "fuzz") {
    _ = UnifiedCacheJSONWriter.write(result.contents)
  }
  return 0
}
