.package(url: "https://github.com/samekey/samekey", from: "0.2.0"),
