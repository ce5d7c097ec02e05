// libFuzzer entry: bytes → ADAL reader → migration plan → report in every format, the path of
// `adal2msal migrate`. Whatever the reader accepts, planning and reporting must not crash.
import Adal2MSAL
import Foundation
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  migrate(Data(bytes: start, count: count))
  // The reader and the planner free what they are done with, and compute some values, on other threads.
  // libFuzzer's leak check runs as this returns, and it did not see every reference that work still held.
  BackgroundWork.waitForPending()
  return 0
}

private func migrate(_ data: Data) {
  guard let read = try? ADALCacheReader(limits: .default).read(data, file: "fuzz") else { return }
  let options = MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)))
  let plan = Migration.plan(adal: [ADALInput(read, file: "fuzz")], options: options)
  let report = Migration.report(plan)
  _ = report.text()
  _ = report.json()
  _ = report.markdown()
  _ = plan.applied(to: UnifiedCacheContents())
}

/// The entry point SwiftPM links as `main` on Linux: hands over to libFuzzer's driver.
@_cdecl("fuzz_pipeline_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    guard let data else { return 0 }
    return fuzz(UnsafeRawPointer(data), size)
  }
}
