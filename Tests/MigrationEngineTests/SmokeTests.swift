import ADALCache
import Adal2MSALSupport
import Foundation
import MigrationEngine
import Testing
import _Adal2MSALTestSupport

@Test func smokeMultiuserDump() throws {
  let data = try Fixtures.data("adal/dump-multiuser.xml.plist")
  let result = try ADALCacheReader().read(data, file: "dump.xml.plist")
  let planner = MigrationPlanner(options: MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_500_000_000))))
  let plan = planner.plan(adal: [ADALInput(result, file: "dump.xml.plist")])
  for user in plan.users { print("USER", user.username ?? "-", user.status, user.homeAccountID ?? "-", user.rule?.rawValue ?? "-", user.reason) }
  for entry in plan.entries { print(entry.action, entry.kind?.rawValue ?? "-", entry.canonicalKey ?? "-", entry.reasonCode, entry.reason, entry.sources.map(\.description)) }
  for d in plan.diagnostics { print(d) }
}
