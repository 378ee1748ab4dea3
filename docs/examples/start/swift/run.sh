swift run --quiet
