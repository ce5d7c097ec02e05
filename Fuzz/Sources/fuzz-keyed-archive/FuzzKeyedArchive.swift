// libFuzzer entry: a property list (either encoding) resolved as an NSKeyedArchiver archive and rendered as
// `adal2msal inspect` renders it (text and JSON), the path every keyed archive takes.
import Adal2MSAL
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  guard let document = try? PropertyListReader(limits: .default).read(data, file: "fuzz") else { return 0 }
  // Resolve even plists that only look partly like archives: the resolver must reject them cleanly.
  _ = try? KeyedArchiveReader(limits: .default).read(document.value, file: "fuzz")
  if let inspection = try? PropertyListInspection.inspect(data, file: "fuzz", limits: .default) {
    _ = PropertyListRendering.text(inspection)
    _ = PropertyListRendering.json(inspection)
  }
  return 0
}
