import Foundation
import Samekey

let published = ISO8601DateFormatter().date(from: "2024-05-01T12:00:00Z")!
let id = try Ulid(deriving: "hello-world", "en", at: published, namespace: "posts")
print(id)
