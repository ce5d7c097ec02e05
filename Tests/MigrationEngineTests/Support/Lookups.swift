import MigrationEngine
import UnifiedCache

extension MigrationPlan {
  /// Entities of the entries with these actions (default: what the apply writes or keeps).
  func entities(_ actions: Set<PlanAction> = [.add, .update, .unchanged]) -> [AnyUnifiedEntity] {
    entries.filter { actions.contains($0.action) }.compactMap(\.entity)
  }
  var accounts: [UnifiedAccount] {
    entities().compactMap { if case .account(let value) = $0 { value } else { nil } }
  }
  var refreshTokens: [UnifiedRefreshToken] {
    entities().compactMap { if case .refreshToken(let value) = $0 { value } else { nil } }
  }
  var accessTokens: [UnifiedAccessToken] {
    entities().compactMap { if case .accessToken(let value) = $0 { value } else { nil } }
  }
  var idTokens: [UnifiedIdToken] {
    entities().compactMap { if case .idToken(let value) = $0 { value } else { nil } }
  }
  var appMetadata: [UnifiedAppMetadata] {
    entities().compactMap { if case .appMetadata(let value) = $0 { value } else { nil } }
  }
  func entries(_ code: String) -> [PlanEntry] { entries.filter { $0.reasonCode == code } }
}

let appID = "C1E8E3B2-7D4A-4F5E-9B6C-0A1B2C3D4E5F"
let officeID = "d3590ed6-52b3-4102-aeff-aad2292ab01c"
let aliceHome = "a11ce000-0000-4000-8000-00000000a11c.72f988bf-86f1-41af-91ab-2d7cd011db47"
let contosoTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
let fabrikamTenant = "f645ad92-e38d-4d1a-b510-d1b09a74a8ca"
