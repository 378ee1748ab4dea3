implementation("io.github.samekey:samekey:0.2.0")
