import Foundation
import Samekey

let published = try parseRfc3339(text: "2024-05-01T12:00:00Z")
let id = try deriveUlid(schemeName: "v1", timestampMs: published, namespace: "posts",
                        fields: [Data("hello-world".utf8), Data("en".utf8)], secret: nil)
print(id.ulid)
