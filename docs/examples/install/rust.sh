cargo add samekey
